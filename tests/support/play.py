"""Drive ``arena play`` through a real pseudo-terminal, and read back what the screen showed."""

from __future__ import annotations

import os
import re
import time
from collections import Counter
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path

import pexpect

from referee.engine.cards import card_str, sort_hand
from referee.engine.events import ExchangeEvent, PlayEvent
from referee.engine.game import Decision, DecisionKind
from referee.engine.view import SeatView, seat_view
from referee.play.screen import LABEL_WIDTH
from referee.replay.logfile import load_log
from referee.replay.steps import DecisionPoint, GameReplay
from tests.support.arena import ARENA

_ANSI = re.compile(r"\x1b\[[0-9;?]*[A-Za-z]|\x1b\][^\x07]*\x07|\r")
_SUITS = str.maketrans("♠♥♦♣", "SHDC")
CARD = re.compile(r"(?<![\w])([789TJQKA][SHDC])(?![\w])")
_TEN = re.compile(r"(?<![\w])10(?=[SHDC](?![\w]))")
_CHOICE = re.compile(r"(\d+)\) (.+?)(?=\s{2,}\d+\)|\s*$)")

PROMPTS = [r"Choose (\d+) of 1-(\d+): ", r"Choose 1-(\d+): ", r"Press Enter to go on ", pexpect.EOF]


def plain(text: str) -> str:
    """Terminal output as text: no escape codes, cards in the log's notation (``J♥`` is ``JH``, ``10♦`` is ``TD``)."""
    return _TEN.sub("T", _ANSI.sub("", text).translate(_SUITS))


@dataclass
class Screen:
    """One decision as the person saw it: the table, the question and the numbered choices."""

    text: str
    question: str
    choices: list[str]
    answer: str = ""

    def line(self, label: str) -> str:
        """The body of the table line with ``label`` ('' when absent)."""
        head = label.ljust(LABEL_WIDTH)
        for row in self.text.splitlines():
            if row.startswith(head):
                return row[len(head) :].strip()
        return ""

    def cards(self, label: str) -> list[str]:
        return CARD.findall(self.line(label))


@dataclass
class Session:
    screens: list[Screen] = field(default_factory=list)
    between: list[str] = field(default_factory=list)  # what was shown after each hand, and at the end
    transcript: str = ""
    exit_status: int | None = None


Chooser = Callable[[Screen, int], str]  # (screen, hand number) -> the line to type


def parse_screen(text: str) -> Screen:
    lines = text.splitlines()
    at = max(i for i, row in enumerate(lines) if row.startswith("Your turn. "))
    question = lines[at][len("Your turn. ") :]
    choices: list[str] = []
    for row in lines[at + 1 :]:
        for number, label in _CHOICE.findall(row):
            assert int(number) == len(choices) + 1, f"choices out of order in {row!r}"
            choices.append(label.strip())
    return Screen("\n".join(lines[:at]), question, choices)


def play(
    args: list[str], choose: Chooser, *, timeout: float = 60, wrong_first: str | None = None, think_s: float = 0
) -> Session:
    """Run ``arena play ARGS`` on a pty; answer each decision with ``choose``; Enter between hands.

    ``wrong_first`` is typed at the first decision before the real answer (it must be refused and asked
    again); ``think_s`` is how long the person thinks over the first decision.
    """
    # a wide terminal, whatever the test runner's own COLUMNS says: one table line per screen line
    env = {**os.environ, "COLUMNS": "200", "LINES": "60"}
    child = pexpect.spawn(ARENA, ["play", *args], env=env, encoding="utf-8", dimensions=(60, 200), timeout=timeout)
    child.delaybeforesend = None  # answers go at once (pexpect waits 50 ms by default)
    session = Session()
    chunks: list[str] = []
    hand = 0
    try:
        while True:
            kind = child.expect(PROMPTS)
            before = plain(child.before or "")
            chunks.append(before + (plain(child.after) if isinstance(child.after, str) else ""))
            if kind == 3:
                session.between.append(before)
                break
            if kind == 2:
                session.between.append(before)
                child.sendline("")
                continue
            screen = parse_screen(before)
            title = re.search(r"Hand (\d+) · you are seat", screen.text)
            assert title, screen.text
            hand = int(title.group(1))
            screen.answer = choose(screen, hand)
            session.screens.append(screen)
            if len(session.screens) == 1:
                time.sleep(think_s)
                if wrong_first is not None:
                    child.sendline(wrong_first)
                    child.expect(r"is not one of the choices: type a number from 1 to \d+\.")
                    child.expect(PROMPTS[1])
            child.sendline(screen.answer)
    finally:
        child.close(force=True)
        session.transcript = "".join(chunks)
    session.exit_status = child.exitstatus
    return session


# ------------------------------------------------------------------ the log's side


@dataclass(frozen=True)
class Asked:
    """A decision of the person's seat, replayed from the log: what the seat knew, and what it did."""

    view: SeatView
    decision: Decision
    point: DecisionPoint


def asked_of(log_path: Path, seat: int) -> Iterator[Asked]:
    """Every decision of ``seat`` in the log, in order, with the engine's view of the seat at that moment."""
    match = load_log(log_path)
    for logged in match.games:
        replay = GameReplay(match, logged)
        for item in replay:
            if isinstance(item, DecisionPoint) and item.decision.seat == seat:
                yield Asked(seat_view(replay.game, seat), item.decision, item)


def known_cards(view: SeatView) -> set[str]:
    """The cards the seat may know of in its view: its hand, its deal, exchanges it saw, cards played."""
    known = {card_str(c) for c in view.hand} | {card_str(c) for c in view.dealt}
    for ev in view.events:
        if isinstance(ev, ExchangeEvent) and ev.cards is not None:
            known |= {card_str(c) for c in ev.cards}
        elif isinstance(ev, PlayEvent):
            known.add(card_str(ev.card))
    return known


def bid_text(text: str) -> str:
    """A bid as the log and the screen both can be compared: no spaces, lower case (``4 S`` is ``4s``)."""
    return "".join(text.split()).lower()


# ------------------------------------------------------------------ screens against the log

QUESTIONS = {
    DecisionKind.BID: "Your bid:",
    DecisionKind.TRUMP: "Name trump:",
    DecisionKind.PLAY: "Play a card:",
    DecisionKind.GIVE: "Give ",
    DecisionKind.DISCARD: "Discard ",
}


def check_one(screen: Screen, a: Asked) -> None:
    view, decision = a.view, a.decision
    where = f"screen of decision {a.point.number} (hand {a.point.hand}):\n{screen.text}"
    assert screen.question.startswith(QUESTIONS[decision.kind]), where
    # the hand, by suit: exactly the cards held (before trump, suits in S H D C order)
    assert Counter(screen.cards("Your hand")) == Counter(card_str(c) for c in view.hand), where
    if view.trump is not None and view.trump.is_suit:
        assert "trump" in screen.line("Your hand"), where
    # the auction so far, in order
    # (the person's own bids read "you bid", the others' "NAME bids")
    parts = screen.line("Bids").split(" · ")
    said = [re.split(r" bids? ", part)[-1] for part in parts if re.search(r" bids? ", part)]
    assert [bid_text(b) for b in said] == [bid_text(b.text()) for _, b in view.bids if not b.is_pass], where
    for part in parts:  # "2 rules bids 4♠", "1 you pass"
        words = part.split()
        if len(words) >= 3:
            assert words[2] in (("bid", "pass") if words[1] == "you" else ("bids", "passes")), where
    # the score and the trick on the table, who played what
    assert [int(s) for s in _numbers_after("team", screen.line("Score"))] == list(view.scores), where
    table = screen.line("Table")
    if view.contract is None:
        assert table == "", where
    else:
        on_table = [(str(s), card_str(c)) for s, c in view.current_trick]
        played = [part.split(" (")[0].split() for part in table.split(" · ")]
        assert [(p[0], p[-1]) for p in played if p != ["empty"]] == on_table, where
        assert screen.line("Contract").startswith(f"{view.contract.declarer} "), where
        won = [int(n) for n in _numbers_after("team", screen.line("Tricks"))]
        assert won == list(view.tricks_won), where
    # only the legal choices
    if decision.kind is DecisionKind.BID:
        assert [bid_text(c) for c in screen.choices] == [bid_text(b.text()) for b in decision.bids], where
    elif decision.kind is DecisionKind.TRUMP:
        assert [c.lower() for c in screen.choices] == [t.text().lower() for t in decision.trumps], where
    elif decision.kind is DecisionKind.PLAY:
        assert sorted(screen.choices) == sorted({card_str(c) for c in decision.cards}), where
    else:
        assert screen.choices == [card_str(c) for c in sort_hand(decision.cards, view.trump)], where
    # never a card the seat could not know
    known = known_cards(view)
    for label in ("Your hand", "Table", "Last", "Exchange"):
        assert set(screen.cards(label)) <= known, f"{label}: {where}"
    if decision.kind is not DecisionKind.BID:
        assert set(CARD.findall(" ".join(screen.choices))) <= known, where


def _numbers_after(word: str, text: str) -> list[str]:
    return re.findall(rf"{word} \d+(?: \(you\))?: (-?\d+)", text)
