"""While a hand is in play, nothing the arena writes holds a card a seat could not know.

Every seat is a spy: an in-process bot that, at each of its decisions, reads
the live game log from disk and counts the cards in the records of the hand
being played. Each must be one the spy's seat has seen (its own cards, the
exchanges it took part in, the cards played): hidden cards reach the log only
in the hand's ``reveal``, once the hand is over. One spy also answers with an
illegal card now and then, under the default-action policy, so a violation's
detail (which names the card) is written mid-hand too.
"""

from __future__ import annotations

import json
import re
from collections import Counter
from collections.abc import Sequence
from pathlib import Path

import pytest

from example_bots.random_bot import RandomBot
from referee import gamelog
from referee import match as match_module
from referee.engine.cards import Card, card_str
from referee.engine.events import DealEvent, ExchangeEvent, PlayEvent
from referee.engine.game import DecisionKind
from referee.engine.view import SeatView
from referee.match import FaultPolicy, Match
from referee.replay.logfile import load_log
from referee.replay.verify import verify_log
from tests.support.logs import revealed
from tests.support.referee import in_process, run_match

# a card as the log writes it (rank, suit): every place a card can appear in a record
CARD = re.compile(r"\b[2-9TJQKA][SHDC]\b")


class Lines:
    """Stands in for the match driver's structlog logger: keeps each line's fields."""

    def __init__(self) -> None:
        self.lines: list[dict[str, object]] = []

    def __iter__(self):
        return iter(self.lines)

    def _keep(self, event: str, **fields: object) -> None:
        self.lines.append({"event": event, **fields})

    info = warning = debug = _keep


class Watch:
    """What the spies found: checks made, cards read, and every card read that the seat could not know."""

    def __init__(self) -> None:
        self.log: Path | None = None
        self.checks = 0
        self.cards_read = 0
        self.exchanges = 0
        self.leaks: list[tuple[int, int, str, str]] = []  # hand, seat, card, log line


class Spy(RandomBot):
    def __init__(self, watch: Watch, cheat: bool = False) -> None:
        super().__init__(seed=3)
        self.watch = watch
        self.cheat = cheat  # answer an illegal card once per hand when one is at hand
        self.cheated_in = 0

    def decide(self, view: SeatView) -> object:
        self._read_log(view)
        decision = view.decision
        if self.cheat and decision is not None and decision.kind is DecisionKind.PLAY:
            illegal = [c for c in view.hand if c not in decision.options]
            if illegal and self.cheated_in != view.hand_number:
                self.cheated_in = view.hand_number
                return illegal[0]
        return super().decide(view)

    def _read_log(self, view: SeatView) -> None:
        watch = self.watch
        assert watch.log is not None
        known = Counter(card_str(c) for c in _cards_of(view))
        game = None
        this_hand: list[str] = []
        for line in watch.log.read_text(encoding="utf-8").splitlines():
            rec = json.loads(line)
            if rec["event"] == "game_start":
                game, this_hand = rec["game"], []
            elif rec.get("game") == game and rec.get("hand") == view.hand_number:
                this_hand.append(line)
        read = Counter(card for line in this_hand for card in CARD.findall(line))
        watch.checks += 1
        watch.exchanges += sum(isinstance(ev, ExchangeEvent) for ev in view.events)
        watch.cards_read += sum(read.values())
        for card in read - known:
            line = next(x for x in this_hand if card in CARD.findall(x))
            watch.leaks.append((view.hand_number, view.seat, card, line))


def _cards_of(view: SeatView) -> list[Card]:
    """Every card in what the seat was told of this hand (with repeats: a double deck has two of each)."""
    out: list[Card] = []
    for ev in view.events:
        if isinstance(ev, DealEvent):
            out += ev.hands[view.seat] or ()
        elif isinstance(ev, ExchangeEvent):
            out += ev.cards or ()
        elif isinstance(ev, PlayEvent):
            out.append(ev.card)
    return out


def spy_match(tmp_path: Path, preset: str, rules: Sequence[str], *, cheat: bool = False) -> tuple[Watch, Path]:
    watch = Watch()
    players = 6 if preset == "bloomington" else 4
    spies = iter([Spy(watch, cheat=cheat and seat == 0) for seat in range(players)])

    def learn_log(match: Match) -> None:
        watch.log = match.log_path

    result = run_match(
        tmp_path,
        preset,
        [in_process("spy") for _ in range(players)],
        rules=rules,
        seed=21,
        policy=FaultPolicy.DEFAULT,
        in_process_bot=lambda: next(spies),
        during=learn_log,
    )
    return watch, result.log_path


# neuralplay and hammerwalt move cards between partners (call bids, going alone);
# bloomington has six seats and best bids; pagat: a spy answers illegal cards
CASES = {
    "neuralplay": (["hand_limit=4"], False),
    "hammerwalt": (["hand_limit=4"], False),
    "bloomington": (["hand_limit=3"], False),
    "pagat": (["hand_limit=3"], True),
}


@pytest.mark.parametrize("preset", list(CASES))
def test_the_live_log_holds_no_card_a_seat_could_not_know(
    preset: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    rules, cheat = CASES[preset]
    logged = Lines()
    monkeypatch.setattr(match_module, "log", logged)  # the referee's own log lines (--verbose)
    watch, log = spy_match(tmp_path, preset, rules, cheat=cheat)
    assert watch.checks > 50 and watch.cards_read > 100  # the spies read the log all along
    assert watch.exchanges > 0 or preset == "pagat"  # and cards changed hands while they did
    assert watch.leaks == []
    # the hidden cards are there once the hands are over, and the log replays
    raw = revealed(log)  # revealed
    assert all(h is not None for r in raw if r["event"] == "deal" for h in r["hands"])
    assert verify_log(load_log(log)).games == 1
    if cheat:
        faults = [r for r in raw if r["event"] == "violation"]
        assert faults and all("does not follow" in f["detail"] for f in faults)
        # the referee's own log lines withheld the card as well
        shown = [e["detail"] for e in logged if e.get("event") == "violation"]
        assert shown and all(d == gamelog.WITHHELD for d in shown)


def test_the_spies_catch_a_log_that_writes_hands_at_the_deal(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The check above can fail: with hidden cards written as they happen, every spy sees them."""
    monkeypatch.setattr(gamelog, "public_event", lambda event: event)
    watch, _ = spy_match(tmp_path, "neuralplay", ["hand_limit=2"])
    assert {seat for _, seat, _, _ in watch.leaks} == {0, 1, 2, 3}
