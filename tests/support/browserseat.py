"""Drive ``arena play --browser`` as a person would: the real command, its page in Chromium, decisions by
clicking; and what the page received, held card by card against what the seat may know (from the log)."""

from __future__ import annotations

import re
import subprocess
import time
from collections import Counter
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from playwright.sync_api import Browser, Page

from referee.engine.cards import card_str
from referee.engine.events import ClaimEvent, visible_to
from referee.engine.game import Decision
from referee.engine.view import SeatView, seat_view
from referee.replay.logfile import load_log
from referee.replay.steps import DecisionPoint, GameReplay, Step
from tests.support.arena import ARENA
from tests.support.browser import open_page
from tests.support.referee import CARD_TEXT, cards_seen

URL = re.compile(r"the table: (http://127\.0\.0\.1:\d+/\S+/)")
LOG = re.compile(r"; log (\S+\.jsonl)")


@dataclass
class TableRun:
    """``arena play --browser`` running: its process, the page's address and the match's log."""

    process: subprocess.Popen[str]
    url: str
    log: Path
    lines: list[str] = field(default_factory=list)  # what it printed on stdout so far

    def finish(self, timeout: float = 60) -> tuple[int, str, str]:
        """Wait for the command to end: (exit status, the rest of stdout, stderr)."""
        out, err = self.process.communicate(timeout=timeout)
        return self.process.returncode, "\n".join(self.lines) + "\n" + out, err

    def stop(self) -> None:
        if self.process.poll() is None:
            self.process.kill()
            self.process.communicate(timeout=30)


def start_table(log_dir: Path, *args: str, timeout: float = 60) -> TableRun:
    """Start ``arena play --browser 0 ARGS`` and wait until it prints the table's address."""
    process = subprocess.Popen(
        [ARENA, "play", "--browser", "--log-dir", str(log_dir), *args],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        stdin=subprocess.DEVNULL,
        text=True,
    )
    assert process.stdout is not None
    lines: list[str] = []
    deadline = time.monotonic() + timeout
    url = log = None
    while time.monotonic() < deadline and (url is None or log is None):
        line = process.stdout.readline()
        if not line:
            break
        lines.append(line.rstrip("\n"))
        if (m := LOG.search(line)) is not None:
            log = Path(m.group(1))
        if (m := URL.search(line)) is not None:
            url = m.group(1)
    if url is None or log is None:
        process.kill()
        _, err = process.communicate(timeout=30)
        raise AssertionError(f"arena play --browser printed no address: {lines} {err}")
    return TableRun(process, url, log, lines)


def open_table(browser: Browser, url: str, width: int = 1400, height: int = 900) -> tuple[Page, list[str]]:
    """The table's page, once it has drawn itself; the list collects script errors and outside requests."""
    return open_page(browser, url, width, height, loopback=True)


@dataclass(frozen=True)
class Shown:
    """The page's state now, as the tests read it."""

    decision: int | None
    kind: str
    hand_over: bool
    game_over: bool
    match_over: bool
    closed: bool


def shown(page: Page) -> Shown:
    data = page.evaluate(
        """() => {
          const s = window.tableReceived.filter(m => m.kind === "state").pop();
          return {
            decision: document.body.dataset.decision || "",
            kind: document.body.dataset.kind || "",
            handOver: document.getElementById("hand-over").classList.contains("open"),
            gameOver: document.getElementById("game-over").classList.contains("open"),
            matchOver: !!(s && s.data.matchOver),
            closed: document.body.dataset.closed === "1",
          };
        }"""
    )
    decision = int(data["decision"]) if data["decision"] else None
    return Shown(decision, data["kind"], data["handOver"], data["gameOver"], data["matchOver"], data["closed"])


def state(page: Page) -> dict[str, Any]:
    """The last state the page was sent."""
    states = page.evaluate("() => window.tableReceived.filter(m => m.kind === 'state').map(m => m.data)")
    assert states, "the page was sent no state"
    last: dict[str, Any] = states[-1]
    return last


Chooser = Callable[[Page, dict[str, Any]], None]  # (page, the decision) -> clicks one answer


def click_bid(page: Page, bid: str) -> None:
    """Click ``bid`` in the page's two steps: its level or special bid, then (where it names one) its trump."""
    head = page.locator(f"#choices button[data-head='{bid.split()[0]}']")
    single = head.get_attribute("data-choice")
    head.click()
    if single is None:
        page.click(f"#choices button[data-choice='{bid}']")


def click_first_legal(page: Page, decision: dict[str, Any]) -> None:
    """The person's plain way: the first bid (a pass when allowed), the first trump, the first legal card,
    the first cards of the hand to give or discard."""
    kind = decision["kind"]
    if kind == "bid":
        click_bid(page, "pass" if "pass" in decision["options"] else decision["options"][0])
    elif kind == "trump":
        page.click("#choices button >> nth=0")
    elif kind == "play":
        page.click("#hand button.card:not([disabled]) >> nth=0")
    else:
        for i in range(decision["count"]):
            page.click(f"#hand button.card[data-index='{i}']")
        page.click("#exchange-button")


def wait_for_turn(page: Page, after: int | None, timeout: float = 60) -> Shown:
    """Until a decision newer than ``after`` waits, a result is shown, or the match is over."""
    deadline = time.monotonic() + timeout
    while True:
        now = shown(page)
        if now.hand_over or now.game_over or now.closed or (now.decision is not None and now.decision != after):
            return now
        if now.match_over and now.decision is None:
            return now
        if time.monotonic() > deadline:
            raise AssertionError(f"the page waited {timeout}s for a turn: {now}")
        time.sleep(0.03)


def play_by_clicking(
    page: Page, choose: Chooser = click_first_legal, on_decision: Chooser | None = None
) -> Counter[str]:
    """Play on the page until the match is over: each hand's result read and closed, each game's result
    closed, every decision answered by ``choose``. Returns the decisions by kind."""
    kinds: Counter[str] = Counter()
    last: int | None = None
    while True:
        now = wait_for_turn(page, last)
        if now.closed:
            raise AssertionError("the table closed before the match was over")
        if now.hand_over:
            assert page.inner_text("#hand-result").strip(), "a hand ended with no result shown"
            page.click("#next-hand")
            continue
        if now.game_over:
            assert page.inner_text("#verdict").strip()
            if not now.match_over:  # the match's end follows the last game's at once
                page.wait_for_timeout(300)
                now = shown(page)
            if now.match_over:
                return kinds
            page.click("#close-game-over")
            continue
        if now.match_over and now.decision is None:
            return kinds
        decision = state(page)["decision"]
        assert decision is not None and decision["id"] == now.decision
        if on_decision is not None:
            on_decision(page, decision)
        choose(page, decision)
        kinds[decision["kind"]] += 1
        last = now.decision


# ------------------------------------------------------------ what the seat may know


def person_points(log: Path, seat: int) -> Iterator[tuple[SeatView, set[str], Decision]]:
    """Each of the person's decisions in the log, in order: the seat's view there, the cards it has seen by
    then (its hands, cards given to it or by it, cards played), and the decision. A claim of the person's
    that was refused answered a decision of its own (the play is asked again after it)."""
    match = load_log(log)
    for logged in match.games:
        replay = GameReplay(match, logged)
        for item in replay:
            game = replay.game
            asked = isinstance(item, DecisionPoint) and item.decision.seat == seat
            if isinstance(item, Step) and isinstance(item.event, ClaimEvent):
                asked = item.event.seat == seat and not item.event.accepted
            if asked:
                decision = game.decision()
                assert decision is not None and decision.seat == seat
                known = cards_seen([visible_to(ev, seat) for ev in game.events], seat) | set(game.hands[seat])
                yield seat_view(game, seat), {card_str(c) for c in known}, decision


def card_texts_json(data: Any) -> list[str]:
    """Every string anywhere in JSON data that is a card's text, repeats included."""
    if isinstance(data, str):
        return [data] if CARD_TEXT.match(data) else []
    if isinstance(data, dict):
        return [t for v in data.values() for t in card_texts_json(v)]
    if isinstance(data, list):
        return [t for v in data for t in card_texts_json(v)]
    return []


def check_received(received: list[dict[str, Any]], log: Path, seat: int) -> Counter[str]:
    """Hold every message the page received against the log: a state sent at the person's k-th decision
    shows exactly the seat's hand there and no card the seat had not seen; any other message, no card the
    seat had not seen by its next decision (by the end of the match after the last one)."""
    points = list(person_points(log, seat))
    everything: set[str] = set().union(*(known for _, known, _ in points)) if points else set()
    match = load_log(log)
    for logged in match.games:  # the cards seen by the end of each game (the last hand's tricks, a claim)
        replay = GameReplay(match, logged)
        for _ in replay:
            pass
        game = replay.game
        everything |= {card_str(c) for c in cards_seen([visible_to(ev, seat) for ev in game.events], seat)}
    stats: Counter[str] = Counter()
    last = -1  # the index of the last decision a state was sent for
    for message in received:
        data: Any = message.get("data")
        cards = set(card_texts_json(data))
        stats["card observations"] += len(card_texts_json(data))
        if message["kind"] == "state" and data["decision"] is not None:
            last = data["decision"]["id"] - 1
            view, known, decision = points[last]
            shown_hand = Counter(c["c"] for c in data["view"]["cards"])
            assert shown_hand == Counter(card_str(c) for c in view.hand), (last, shown_hand, view.hand)
            assert data["decision"]["kind"] == str(decision.kind), (last, data["decision"], decision)
            assert cards <= known, (last, cards - known)
            stats["decisions checked"] += 1
        else:
            # an answer is for the decision shown last; a state between decisions comes before the next one
            at = last if message["kind"] == "answer" else last + 1
            known = points[at][1] if 0 <= at < len(points) else everything
            assert cards <= known, (message, cards - known)
        stats[message["kind"]] += 1
    return stats
