"""Drive ``arena play --browser`` as a person would: the real command, its page in Chromium, decisions by
clicking or by the keyboard; what the page received, captured from outside the page (Chromium's DevTools
protocol for its event stream, Playwright for the answers to its requests) and held card by card against what
the seat may know (from the log); what the page showed (the tricks, the auction, the layout), read off the
page itself."""

from __future__ import annotations

import json
import re
import subprocess
import time
from collections import Counter
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from playwright.sync_api import Browser, CDPSession, Page, Response

from referee.engine.cards import card_str
from referee.engine.events import ClaimEvent, DealEvent, visible_to
from referee.engine.game import Decision
from referee.engine.view import SeatView, seat_view
from referee.gamelog import read_records
from referee.replay.logfile import load_log
from referee.replay.steps import DecisionPoint, GameReplay, Step
from tests.support.arena import ARENA
from tests.support.browser import open_page
from tests.support.referee import CARD_TEXT, cards_seen

URL = re.compile(r"the table: (http://127\.0\.0\.1:\d+/\S+/)")
LOG = re.compile(r"; log (\S+\.jsonl)")
SIZES = [(390, 844), (768, 1024), (1920, 1080)]  # a phone, a tablet, a desktop (CSS pixels)


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


class Traffic:
    """Every message a page received from the table, in order, captured outside the page: each state of the
    event stream (``{"kind": "state", "data": ...}``, and ``taken`` / ``closed``), and each answer to its
    requests (``{"kind": "answer", "path": ..., "status": ..., "data": ...}``)."""

    def __init__(self, page: Page) -> None:
        self.messages: list[dict[str, Any]] = []
        self.cdp: CDPSession = page.context.new_cdp_session(page)
        self.cdp.send("Network.enable")
        self.cdp.on("Network.eventSourceMessageReceived", self._event)
        page.on("response", self._answer)

    def _event(self, event: dict[str, Any]) -> None:
        import json

        self.messages.append({"kind": event["eventName"], "data": json.loads(event["data"])})

    def _answer(self, response: Response) -> None:
        if response.request.method != "POST":
            return
        try:
            data = response.json()
        except Exception:  # an answer that is not JSON is kept as text, for the tests to show
            data = {"text": response.text()}
        self.messages.append(
            {"kind": "answer", "path": response.url.rsplit("/", 1)[-1], "status": response.status, "data": data}
        )

    def states(self) -> list[dict[str, Any]]:
        return [m["data"] for m in self.messages if m["kind"] == "state"]

    def last_state(self) -> dict[str, Any]:
        states = self.states()
        assert states, "the page was sent no state"
        return states[-1]

    def errors(self) -> list[dict[str, Any]]:
        """The answers that refused a request."""
        return [m for m in self.messages if m["kind"] == "answer" and m["status"] >= 400]


def open_table(
    browser: Browser, url: str, width: int = 1400, height: int = 900, *, pause: str = "click", speed: str = "fast"
) -> tuple[Page, list[str], Traffic]:
    """The table's page, once it has drawn itself, its finished tricks held ``pause`` (``click``: until a click;
    or milliseconds), the others' bids and cards shown at ``speed`` (Settings: slow, normal, fast); the list
    collects script errors and outside requests; the traffic is what it received."""
    traffic: list[Traffic] = []

    def prepare(page: Page) -> None:
        traffic.append(Traffic(page))
        for name, value in (("pause", pause), ("speed", speed)):  # as first set: a reload keeps what is chosen
            page.add_init_script(
                f"if (localStorage.getItem('arena-table-{name}') === null) "
                f"localStorage.setItem('arena-table-{name}', {value!r})"
            )

    page, problems = open_page(browser, url, width, height, loopback=True, prepare=prepare)
    return page, problems, traffic[0]


@dataclass(frozen=True)
class Shown:
    """The page's state now, as it says on its body: what it is doing (``phase``: decide, wait, trick, hand-over,
    game-over, over), the decision it offers and its kind."""

    phase: str
    decision: str | None
    kind: str
    closed: bool


def shown(page: Page) -> Shown:
    data = page.evaluate(
        """() => ({phase: document.body.dataset.phase || "", decision: document.body.dataset.decision || "",
                   kind: document.body.dataset.kind || "", closed: document.body.dataset.closed === "1"})"""
    )
    return Shown(data["phase"], data["decision"] or None, data["kind"], data["closed"])


def wait_for_turn(page: Page, after: str | None, timeout: float = 90) -> Shown:
    """Until the page offers a decision other than ``after``, holds a finished trick, shows a result, or the
    match is over."""
    deadline = time.monotonic() + timeout
    while True:
        now = shown(page)
        if now.closed or now.phase in ("trick", "hand-over", "game-over", "over"):
            return now
        if now.phase == "decide" and now.decision is not None and now.decision != after:
            return now
        if time.monotonic() > deadline:
            raise AssertionError(f"the page waited {timeout}s for a turn: {now}")
        time.sleep(0.03)


def decision_of(traffic: Traffic) -> dict[str, Any]:
    """The decision the last state offers (a deal played again's while the person plays it)."""
    state = traffic.last_state()
    practice = state.get("practice")
    decision = practice["decision"] if practice else state["decision"]
    assert decision is not None, "the last state offers no decision"
    return decision


def open_tools(page: Page) -> None:
    """The tools panel open (a wide window has it open already)."""
    if not page.is_visible("#side"):
        page.click("#tools-button")


Chooser = Callable[[Page, dict[str, Any]], None]  # (page, the decision) -> answers it
Watcher = Callable[[Page], None]


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
        page.click("#hand .card:not([disabled]) >> nth=0")
    else:
        for i in range(decision["count"]):
            page.click(f"#hand .card[data-index='{i}']")
        page.click("#exchange-button")


def focused(page: Page) -> dict[str, str]:
    return page.evaluate(
        """() => { const e = document.activeElement;
                   return {id: e.id || "", card: e.dataset.card || "", choice: e.dataset.choice || "",
                           head: e.dataset.head || "", label: e.getAttribute("aria-label") || e.textContent}; }"""
    )


def keys_first_legal(page: Page, decision: dict[str, Any]) -> None:
    """As ``click_first_legal``, by the keyboard only: the arrows to the choice (checked on the focused
    element, and that it has a label), Enter to take it."""
    kind = decision["kind"]
    page.wait_for_function("document.activeElement && document.activeElement.closest('#hand, #choices') !== null")
    if kind == "play":
        now = focused(page)
        assert now["card"] in decision["options"] and now["label"].startswith("Play "), now
        page.keyboard.press("ArrowRight")  # to the next playable card and back: the arrows move among them
        page.keyboard.press("ArrowLeft")
        assert focused(page)["card"] == now["card"], (focused(page), now)
    elif kind == "bid":
        want = "pass" if "pass" in decision["options"] else decision["options"][0]
        for _ in range(len(decision["options"]) + 2):
            now = focused(page)
            if now["head"] == want.split()[0]:
                break
            page.keyboard.press("ArrowRight")
        assert focused(page)["head"] == want.split()[0], (focused(page), want)
        if focused(page)["choice"] == "":  # its trump is chosen next
            page.keyboard.press("Enter")
            page.wait_for_selector(f"#choices button[data-choice='{want}']")
            for _ in range(8):
                if focused(page)["choice"] == want:
                    break
                page.keyboard.press("ArrowRight")
    elif kind in ("give", "discard"):
        for i in range(decision["count"]):
            assert focused(page)["card"], focused(page)
            page.keyboard.press("Enter")
            page.wait_for_selector(f"#hand .card[data-index='{i}'].picked")
            page.keyboard.press("ArrowRight")
        page.keyboard.press("ArrowLeft")
        for _ in range(40):  # the exchange button is last among what can be chosen
            if focused(page)["id"] == "exchange-button":
                break
            page.keyboard.press("ArrowRight")
        assert focused(page)["id"] == "exchange-button", focused(page)
    assert focused(page)["label"].strip(), focused(page)  # every control a screen reader can name
    page.keyboard.press("Enter")


@dataclass
class Watch:
    """What the page showed over a match, read off the page: each finished trick as held on the table (its
    cards by seat, the card marked as winning, the trick's number), each hand's auction grid at its end."""

    tricks: list[dict[str, Any]] = field(default_factory=list)
    auctions: list[list[list[Any]]] = field(default_factory=list)
    hands: int = 0
    games: int = 0

    def trick(self, page: Page) -> None:
        self.tricks.append(
            page.evaluate(
                """() => ({trick: Number(document.body.dataset.trickDone),
                   plays: Array.from(document.querySelectorAll("#trick .card"))
                          .map(c => [Number(c.dataset.seat), c.dataset.card]),
                   winners: Array.from(document.querySelectorAll("#trick .card.win"))
                            .map(c => Number(c.dataset.seat))})"""
            )
        )

    def hand_over(self, page: Page) -> None:
        self.hands += 1
        assert page.inner_text("#hand-result").strip(), "a hand ended with no result shown"
        self.auctions.append(
            page.eval_on_selector_all(
                "#hand-auction td[data-bid]", "cs => cs.map(c => [Number(c.dataset.seat), c.dataset.bid])"
            )
        )


def close_box(page: Page, box: str, button: str, keyboard: bool) -> None:
    """Close a result's box by its button: clicked, or by Enter (the button has the focus); nothing when the
    box was closed already (a deal played again from it)."""
    if not page.is_visible(f"#{box}"):
        return
    if keyboard:
        assert focused(page)["id"] == button, focused(page)
        page.keyboard.press("Enter")
    else:
        page.click(f"#{button}")
    page.wait_for_function(f"!document.getElementById('{box}').classList.contains('open')")


def close_and_finish(run: TableRun, page: Page, problems: list[str]) -> tuple[int, str, str]:
    """The page had no script error and made no outside request; closed, the command's end (as ``finish``)."""
    assert not problems, problems
    page.close()
    return run.finish()


def play_table(
    page: Page,
    traffic: Traffic,
    choose: Chooser = click_first_legal,
    *,
    keyboard: bool = False,
    on_decision: Chooser | None = None,
    on_trick: Watcher | None = None,
    on_hand_over: Watcher | None = None,
    on_game_over: Watcher | None = None,
    watch: Watch | None = None,
    timeout: float = 90,
) -> Counter[str]:
    """Play on the page until the match is over: each finished trick looked at and passed (a click on the table,
    or Enter), each hand's result and each game's read and closed, every decision answered by ``choose``.
    Returns the decisions by kind."""
    kinds: Counter[str] = Counter()
    last: str | None = None
    while True:
        now = wait_for_turn(page, last, timeout)
        if now.closed:
            raise AssertionError("the table closed before the match was over")
        if now.phase == "trick":
            if watch is not None:
                watch.trick(page)
            if on_trick is not None:
                on_trick(page)
            number = page.evaluate("document.body.dataset.trickDone || ''")
            if keyboard:
                page.keyboard.press("Enter")
            else:  # a click event on the table itself: with a short pause, the hand's result may be over the table
                # already, and at the smallest size the table's centre may be scrolled out of the viewport
                page.dispatch_event("#felt", "click")
            page.wait_for_function("(n) => (document.body.dataset.trickDone || '') !== n", arg=number)
            continue
        if now.phase == "hand-over":
            if watch is not None:
                watch.hand_over(page)
            if on_hand_over is not None:
                on_hand_over(page)
            close_box(page, "hand-over", "next-hand", keyboard)
            continue
        if now.phase == "game-over":
            assert page.inner_text("#verdict").strip()
            if watch is not None:
                watch.games += 1
            if on_game_over is not None:
                on_game_over(page)
            close_box(page, "game-over", "close-game-over", keyboard)
            continue
        if now.phase == "over":
            return kinds
        decision = decision_of(traffic)
        if str(decision["id"]) != now.decision:  # the state that offers it is still on its way to the list
            time.sleep(0.05)
            continue
        if on_decision is not None:
            on_decision(page, decision)
        (keys_first_legal if keyboard and choose is click_first_legal else choose)(page, decision)
        kinds[decision["kind"]] += 1
        last = now.decision


# ------------------------------------------------------------ the layout


# The page's visible parts that must not overlap, be cut off or make the page scroll sideways: the header's
# items, the seats, the trick's cards, the auction, the prompt's lines and buttons, the hand's cards, the tools.
BOXES = (
    "#bar > *:not(.grow), .seat, #trick .card, #auction, #question, #hint-line, #legend, #message, "
    "#choices button, #hand .card, #side"
)
LAYOUT = """(selector) => {
  const visible = e => { const s = getComputedStyle(e); const r = e.getBoundingClientRect();
                         return s.display !== "none" && s.visibility !== "hidden" && r.width > 0 && r.height > 0 &&
                                e.closest("[hidden]") === null; };
  const els = Array.from(document.querySelectorAll(selector)).filter(visible);
  const name = e => (e.id ? "#" + e.id : e.tagName.toLowerCase() + "." + e.className.split(" ")[0]) +
                    (e.dataset.card ? "[" + e.dataset.card + "]" :
                     e.dataset.seat ? "[seat " + e.dataset.seat + "]" : "");
  const rects = els.map(e => e.getBoundingClientRect());
  const overlaps = [], outside = [];
  els.forEach((a, i) => {
    const r = rects[i];
    if (r.left < -0.5 || r.top < -0.5 || r.right > innerWidth + 0.5 || r.bottom > innerHeight + 0.5)
      outside.push([name(a), r.left, r.top, r.right, r.bottom]);
    els.forEach((b, j) => {
      if (j <= i || a.contains(b) || b.contains(a)) return;
      const q = rects[j];
      const w = Math.min(r.right, q.right) - Math.max(r.left, q.left);
      const h = Math.min(r.bottom, q.bottom) - Math.max(r.top, q.top);
      if (w > 0.5 && h > 0.5) overlaps.push([name(a), name(b)]);
    });
  });
  const page = document.documentElement;
  return {count: els.length, overlaps, outside, sideways: page.scrollWidth > innerWidth};
}"""


def check_layout(page: Page, where: str) -> int:
    """No two of the page's visible parts overlap, none is cut off by the window, the page does not scroll
    sideways; every card and choice is large enough to tap. Returns how many parts were checked."""
    found = page.evaluate(LAYOUT, BOXES)
    assert not found["overlaps"], f"{where}: overlapping {found['overlaps']}"
    assert not found["outside"], f"{where}: cut off {found['outside']}"
    assert not found["sideways"], f"{where}: the page scrolls sideways"
    small = page.evaluate(
        """() => Array.from(document.querySelectorAll("#hand .card, #choices button"))
                 .map(e => e.getBoundingClientRect())
                 .filter(r => r.width > 0 && (r.width < 36 || r.height < 40)).length"""
    )
    assert small == 0, f"{where}: {small} cards or choices too small to tap"
    return int(found["count"])


def at_sizes(page: Page, where: str, check: Callable[[Page, str], object] = check_layout) -> None:
    """``check`` the page at each of ``SIZES``, then back at the first (the phone)."""
    for width, height in SIZES:
        page.set_viewport_size({"width": width, "height": height})
        page.wait_for_timeout(60)  # the page lays itself out again on a resize
        check(page, f"{where} at {width}x{height}")
    page.set_viewport_size({"width": SIZES[0][0], "height": SIZES[0][1]})
    page.wait_for_function(f"({LAYOUT})({json.dumps(BOXES)}).outside.length === 0")  # laid out for the phone again


# ------------------------------------------------------------ the log's side


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


def logged_hands(log: Path) -> list[dict[str, Any]]:
    """Per hand of the log, in order: its game, number, deal (every seat's cards, once the hand is over), bids
    and tricks (each trick's plays by seat and winner)."""
    hands: list[dict[str, Any]] = []
    game = 0
    for record in read_records(log):
        rec = record[1]
        kind = rec["event"]
        if kind == "game_start":
            game += 1
        elif kind == "deal":
            hands.append({"game": game, "hand": rec["hand"], "bids": [], "tricks": [], "plays": [], "deal": None})
        elif kind == "reveal":
            hands[-1]["deal"] = rec["hands"]
        elif kind == "bid":
            hands[-1]["bids"].append([rec["seat"], rec["bid"]])
        elif kind == "play":
            hands[-1]["plays"].append([rec["seat"], rec["card"]])
        elif kind == "trick":
            hands[-1]["tricks"].append({"trick": rec["trick"], "plays": hands[-1]["plays"], "winner": rec["winner"]})
            hands[-1]["plays"] = []
    return hands


def check_tricks(watch: Watch, log: Path) -> None:
    """Every trick of the log was held on the table, in order, with its four (or six, or three) cards in front
    of the seats that played them and the winner's card marked."""
    logged = [t for h in logged_hands(log) for t in h["tricks"]]
    assert len(watch.tricks) == len(logged), (len(watch.tricks), len(logged))
    for shown_trick, want in zip(watch.tricks, logged, strict=True):
        assert shown_trick["trick"] == want["trick"], (shown_trick, want)
        assert sorted(map(tuple, shown_trick["plays"])) == sorted(map(tuple, want["plays"])), (shown_trick, want)
        assert shown_trick["winners"] == [want["winner"]], (shown_trick, want)


def check_auctions(watch: Watch, log: Path) -> None:
    """Each hand's auction grid, read in its order, is the log's auction of that hand."""
    logged = [h["bids"] for h in logged_hands(log)]
    assert watch.auctions == logged, (watch.auctions, logged)


def card_texts_json(data: Any) -> list[str]:
    """Every string anywhere in JSON data that is a card's text, repeats included."""
    if isinstance(data, str):
        return [data] if CARD_TEXT.match(data) else []
    if isinstance(data, dict):
        return [t for v in data.values() for t in card_texts_json(v)]
    if isinstance(data, list):
        return [t for v in data for t in card_texts_json(v)]
    return []


def card_names_json(data: Any) -> list[str]:
    """Every card named in the text of JSON data as a person reads it (``J♥``, ``10♠``), as the log writes it:
    the tens, faces and aces (a ``7♦`` or ``9♦`` in a text may be a bid)."""
    symbols = {"♠": "S", "♥": "H", "♦": "D", "♣": "C"}
    if isinstance(data, str):
        return [("T" if r == "10" else r) + symbols[s] for r, s in re.findall(r"\b(10|[JQKA])([♠♥♦♣])", data)]
    if isinstance(data, dict):
        return [t for v in data.values() for t in card_names_json(v)]
    if isinstance(data, list):
        return [t for v in data for t in card_names_json(v)]
    return []


def _cards(data: Any) -> set[str]:
    return set(card_texts_json(data)) | set(card_names_json(data))


def check_received(messages: list[dict[str, Any]], log: Path, seat: int) -> Counter[str]:
    """Hold every message the page received against the log, in the manner of the analysis's secrecy test
    (tests/analyze/test_secrecy.py): a state sent at the person's k-th decision shows exactly the seat's hand
    there, and neither it nor anything else the page received before the next decision names a card the seat
    had not seen by then (in this game or an earlier one). The one exception is a finished hand's deal, played
    again (by the strongest level, or by the person): its part of a message may name that hand's cards, and no
    other."""
    points = list(person_points(log, seat))
    seen_before: set[str] = set()  # a card seen in an earlier game stays seen
    for k, (view, known, decision) in enumerate(points):
        seen_before |= known
        points[k] = (view, set(seen_before), decision)
    match = load_log(log)
    seen_by_game_end: set[str] = set()
    for logged in match.games:
        replay = GameReplay(match, logged)
        for _ in replay:
            pass
        seen_by_game_end |= {card_str(c) for c in cards_seen([visible_to(ev, seat) for ev in replay.game.events], seat)}
    deals = {(h["game"], h["hand"]): {c for cards in (h["deal"] or []) for c in cards} for h in logged_hands(log)}
    stats: Counter[str] = Counter()
    decisions: set[int] = set()
    last = -1  # the index of the last decision a state was sent for
    for message in messages:
        data: Any = message.get("data")
        stats[message["kind"]] += 1
        stats["card observations"] += len(card_texts_json(data)) + len(card_names_json(data))
        if message["kind"] == "state":
            data = dict(data)
            for record in data.pop("games", []):  # each game's record: its finished hands, and their duplicates
                for row in record["pad"]:
                    if isinstance(row.get("duplicate"), dict):
                        assert _cards(row["duplicate"]) <= deals[(record["game"], row["hand"])], row
                        stats["duplicate cards checked"] += len(_cards(row["duplicate"]))
                known_then = seen_by_game_end
                if record["lastHand"] is not None:
                    assert _cards(record["lastHand"]) <= known_then, (
                        record["game"],
                        _cards(record["lastHand"]) - known_then,
                    )
            practice = data.pop("practice", None)
            if practice is not None:
                assert _cards(practice) <= deals[(practice["game"], practice["hand"])], practice
                stats["practice states"] += 1
            if data["decision"] is not None:
                last = data["decision"]["id"] - 1
                view, known, decision = points[last]
                shown_hand = Counter(c["c"] for c in data["view"]["cards"])
                assert shown_hand == Counter(card_str(c) for c in view.hand), (last, shown_hand, view.hand)
                assert data["decision"]["kind"] == str(decision.kind), (last, data["decision"], decision)
                assert _cards(data) <= known, (last, _cards(data) - known)
                decisions.add(last)
                stats["decisions checked"] = len(decisions)
                continue
            at = last + 1  # a state between decisions comes before the next one
        else:
            at = last  # an answer is for the decision shown last
        known = points[at][1] if 0 <= at < len(points) else seen_by_game_end
        assert _cards(data) <= known, (message.get("kind"), message.get("path"), _cards(data) - known)
    return stats


def deal_of(log: Path, game: int, hand: int) -> list[list[str]]:
    """Every seat's dealt cards of hand ``hand`` of game ``game`` (from the log, once the hand is over)."""
    match = load_log(log)
    replay = GameReplay(match, match.game(game))
    for item in replay:
        if isinstance(item, Step) and isinstance(item.event, DealEvent) and item.event.hand == hand:
            return [[card_str(c) for c in h or ()] for h in item.event.hands]
    raise AssertionError(f"no hand {hand} in game {game} of {log}")
