"""The card counter, hand sorting and the others' pace on the page: the counter's figures held against the log's
view of the seat at each of its decisions; the hand drawn in the order chosen, the others' bids and cards shown
at the pace chosen, and each choice kept in the browser when the page is opened again."""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from itertools import pairwise, permutations
from pathlib import Path
from typing import Any

from playwright.sync_api import Browser, Page

from referee.engine.cards import card_str, deck_copies, deck_ranks, make_card
from referee.engine.events import PlayEvent
from tests.support.browserseat import (
    Traffic,
    click_first_legal,
    decision_of,
    open_table,
    open_tools,
    person_points,
    start_table,
    wait_for_turn,
)

RED = "HD"


def hand_drawn(page: Page, traffic: Traffic) -> list[dict[str, Any]]:
    """The hand's cards as the page draws them, left to right, with their suit as played and power."""
    order = page.eval_on_selector_all("#hand button.card", "bs => bs.map(b => b.dataset.card)")
    cards = {c["c"]: c for c in traffic.last_state()["view"]["cards"]}
    return [cards[c] for c in order]


def suit_runs(hand: list[dict[str, Any]]) -> list[str]:
    """The suits of the hand's runs of one suit, left to right."""
    runs: list[str] = []
    for card in hand:
        if not runs or runs[-1] != card["suit"]:
            runs.append(card["suit"])
    return runs


def clashes(suits: Sequence[str]) -> int:
    """How many neighbouring suits are of one colour."""
    return sum((a in RED) == (b in RED) for a, b in pairwise(suits))


def check_order(page: Page, traffic: Traffic, mode: str) -> None:
    hand = hand_drawn(page, traffic)
    assert len(hand) >= 2, hand
    runs = suit_runs(hand)
    if mode == "rank":
        powers = [c["power"] for c in hand]
        assert powers == sorted(powers, reverse=True), (mode, hand)
        return
    assert len(runs) == len(set(runs)), (mode, runs)  # each suit together
    for run in runs:  # the strongest first within a suit
        powers = [c["power"] for c in hand if c["suit"] == run]
        assert powers == sorted(powers, reverse=True), (mode, hand)
    contract = traffic.last_state()["view"]["contract"]
    trump = contract["trump"] if contract is not None and contract["trump"] in runs else None
    if mode == "alternate":  # red and black alternate as far as the suits held (and trump first) allow
        assert clashes(runs) == min(clashes(o) for o in permutations(runs) if trump in (None, o[0])), runs
    if trump is not None:
        assert runs[0] == trump, (mode, runs)


COLOURS = """() => Object.fromEntries(Array.from(document.querySelectorAll("#hand .card"))
    .map(e => [e.dataset.card, getComputedStyle(e).color]))"""


def check_four_colours(page: Page) -> None:
    """The four-colour deck: diamonds blue and clubs green, hearts still red and spades black; two colours when
    it is off."""
    suits = {"S": "rgb(17, 17, 17)", "H": "rgb(198, 40, 40)"}
    page.check("#four-colour")
    four = {card[1]: colour for card, colour in page.evaluate(COLOURS).items() if len(card) == 2 and card[1] in "SHDC"}
    assert (
        four.get("D", "rgb(21, 101, 192)") == "rgb(21, 101, 192)"
        and four.get("C", "rgb(46, 125, 50)") == "rgb(46, 125, 50)"
    )
    assert {s: four[s] for s in suits if s in four} == {s: c for s, c in suits.items() if s in four}
    page.uncheck("#four-colour")
    two = {card[1]: colour for card, colour in page.evaluate(COLOURS).items() if len(card) == 2 and card[1] in "SHDC"}
    assert (
        two.get("D", "rgb(198, 40, 40)") == "rgb(198, 40, 40)" and two.get("C", "rgb(17, 17, 17)") == "rgb(17, 17, 17)"
    )
    assert set(four) & {"D", "C"}, four  # a diamond or a club was there to look at


def test_the_counter_and_hand_sorting(browser: Browser, tmp_path: Path) -> None:
    run = start_table(tmp_path, "--preset", "neuralplay", "--level", "1", "--seed", "5", "--rule", "hand_limit=1")
    counted: dict[int, dict[str, int]] = {}  # the person's decision -> the counter's figure for each card
    try:
        page, problems, traffic = open_table(browser, run.url, pause="200")
        open_tools(page)
        modes = ["rank", "alternate", "suit"]
        last = None
        sorted_plays = 0
        while True:
            now = wait_for_turn(page, last)
            if now.phase == "trick":
                page.wait_for_function("document.body.dataset.phase !== 'trick'")
                continue
            if now.phase != "decide" or now.closed:
                break
            assert now.decision is not None
            decision = decision_of(traffic)
            cells = page.eval_on_selector_all(
                "#counter td[data-card]", "cs => cs.map(c => [c.dataset.card, c.dataset.out])"
            )
            counted[int(now.decision)] = {c: int(out) for c, out in cells}
            if decision["kind"] == "play" and sorted_plays == 0:
                check_four_colours(page)
            if decision["kind"] == "play" and sorted_plays < len(modes):
                mode = modes[sorted_plays]
                page.select_option("#sort-mode", mode)
                check_order(page, traffic, mode)
                if mode == "rank":  # kept in the browser: the page opened again sorts as chosen
                    page.reload()
                    page.wait_for_function(f"document.body.dataset.decision === '{now.decision}'")
                    assert page.input_value("#sort-mode") == "rank"
                    check_order(page, traffic, "rank")
                    open_tools(page)
                sorted_plays += 1
            click_first_legal(page, decision)
            last = now.decision
        assert not problems, problems
        assert sorted_plays == len(modes)
    finally:
        run.stop()
    checked = 0
    for number, (view, _, _) in enumerate(person_points(run.log, 0), start=1):
        if number not in counted:
            continue
        copies = deck_copies(view.rules.deck)
        played = Counter(card_str(e.card) for e in view.events if isinstance(e, PlayEvent))
        held = Counter(card_str(c) for c in view.hand)
        deck = {card_str(make_card(s, r)) for s in range(4) for r in deck_ranks(view.rules.deck)}
        assert set(counted[number]) == deck
        for card in deck:
            assert counted[number][card] == copies - played[card] - held[card], (number, card)
        checked += 1
    assert checked == len(counted) and checked >= 6


# every change of the page's spoken line (the hand's events, one at a time), with its time
RECORD_SPOKEN = """() => { window.spoken = []; const line = document.getElementById("announce");
    new MutationObserver(() => window.spoken.push([performance.now(), line.textContent]))
      .observe(line, { childList: true, characterData: true, subtree: true }); }"""


def test_the_others_pace_is_the_one_chosen_and_kept(browser: Browser, tmp_path: Path) -> None:
    """Settings, "The others bid and play": slowly, each of the others' bids and cards stays alone on the page
    twice as long as at the normal pace (640 ms, not 320); the choice is kept in the browser."""
    run = start_table(tmp_path, "--preset", "neuralplay", "--level", "1", "--seed", "5", "--rule", "hand_limit=1")
    try:
        page, problems, traffic = open_table(browser, run.url, pause="200", speed="slow")
        assert page.input_value("#speed-mode") == "slow"
        page.evaluate(RECORD_SPOKEN)
        gaps: list[float] = []
        last = None
        while len(gaps) < 6:
            now = wait_for_turn(page, last)
            if now.phase == "trick":
                page.wait_for_function("document.body.dataset.phase !== 'trick'")
                continue
            assert now.phase == "decide" and not now.closed, now
            spoken: list[tuple[float, str]] = page.evaluate("window.spoken")
            gaps = [
                later - at
                for (at, said), (later, _) in pairwise(spoken)
                if (" bids " in said or " plays " in said) and not said.startswith("You")
            ]
            click_first_legal(page, decision_of(traffic))
            last = now.decision
        assert min(gaps) >= 630, gaps  # a timer is never early; at the normal pace these are 320 ms and more
        open_tools(page)
        page.select_option("#speed-mode", "normal")
        page.reload()
        page.wait_for_function("document.body.dataset.phase !== undefined")
        assert page.input_value("#speed-mode") == "normal"
        assert not problems, problems
    finally:
        run.stop()
