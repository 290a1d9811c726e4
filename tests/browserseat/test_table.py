"""The table a person plays on, in Chromium at a phone's, a tablet's and a desktop's size: a match played by
clicking and one by the keyboard alone. At each size no two of the page's parts overlap, none is cut off and
the page does not scroll sideways, with the tools open too; every finished trick is held on the table with its
winner marked before the next lead; each hand's auction grid is the log's auction; the hint's reason is made of
the estimates' figures; a game's result stays until the person closes it though the next game has begun, and
every game's replay is a click away; and everything the page received, captured from outside it, holds no
card the seat could not know."""

from __future__ import annotations

import re
import urllib.request
from pathlib import Path
from typing import Any

from playwright.sync_api import Browser, Page

from tests.support.arena import arena
from tests.support.browserseat import (
    BOXES,
    LAYOUT,
    SIZES,
    Watch,
    at_sizes,
    check_auctions,
    check_received,
    check_tricks,
    click_first_legal,
    close_and_finish,
    decision_of,
    open_table,
    open_tools,
    person_points,
    play_table,
    start_table,
    wait_for_turn,
)

NUMBER = re.compile(r"\d+\.\d\d|\d+")


def hand_over_fits(page: Page, where: str) -> None:
    """The hand's result: its Next hand button above the fold, the box inside the window."""
    box = page.evaluate(
        """() => [document.getElementById("next-hand").getBoundingClientRect().bottom,
                  document.getElementById("hand-over-box").getBoundingClientRect().right, innerHeight, innerWidth]"""
    )
    assert box[0] <= box[2] and box[1] <= box[3], (where, box)


def grid(page: Page, selector: str) -> list[list[Any]]:
    return page.eval_on_selector_all(
        f"{selector} td[data-bid]", "cs => cs.map(c => [Number(c.dataset.seat), c.dataset.bid])"
    )


def hint_against_estimates(page: Page, decision: dict[str, Any]) -> tuple[str, list[dict[str, str]], str]:
    """Ask for the hint (its button by the choices) and the estimates (Tools): the hint's line, the rows and the
    note under them."""
    page.click("#hint-inline")
    page.wait_for_function(f"document.getElementById('hint-line').dataset.decision === '{decision['id']}'")
    open_tools(page)
    page.click("#estimate-button")
    page.wait_for_function(f"document.getElementById('estimate-out').dataset.decision === '{decision['id']}'")
    rows = page.eval_on_selector_all(
        "#estimates tr[data-choice]",
        """rs => rs.map(r => { const c = Array.from(r.cells).map(x => x.textContent);
                               return {text: c[0], tricks: c[1], points: c[2], behind: c[3]}; })""",
    )
    return page.inner_text("#hint-line"), rows, page.inner_text("#estimate-out .muted")


def check_hint(line: str, rows: list[dict[str, str]], note: str) -> int:
    """Every figure of the hint's reason is one the estimates show for the choices it names (or their deals)."""
    assert line.startswith("Hint: ") and rows, (line, rows)
    reason = line.removeprefix("Hint: ")
    assert reason.startswith(rows[0]["text"] + ":"), (reason, rows[0])  # the hint is the estimates' best
    named = [r for r in rows if r["text"] in reason]
    for name in sorted((r["text"] for r in named), key=len, reverse=True):
        reason = reason.replace(name, "")
    said = set(NUMBER.findall(reason))
    shown = {n for r in named for cell in (r["tricks"], r["points"], r["behind"]) for n in NUMBER.findall(cell)}
    assert said <= shown | set(NUMBER.findall(note)), (line, said - shown, rows)
    return len(said)


def test_a_match_by_clicking_at_three_sizes(browser: Browser, tmp_path: Path) -> None:
    run = start_table(
        tmp_path, "--preset", "neuralplay", "--level", "3", "--seed", "8", "--games", "2", "--rule", "hand_limit=1"
    )
    watch = Watch()
    grids: dict[int, list[list[Any]]] = {}  # the person's decision -> the auction grid shown then
    checked: set[str] = set()
    hinted: list[int] = []
    kept: list[str] = []  # game 1's result, read once game 2 had begun

    try:
        page, problems, traffic = open_table(browser, run.url, *SIZES[0])

        def on_decision(p: Page, decision: dict[str, Any]) -> None:
            grids[decision["id"]] = grid(p, "#auction-log")
            view = traffic.last_state()["view"]
            dealer = p.eval_on_selector_all(
                ".seat .chip.dealer", "cs => cs.map(c => Number(c.closest('.seat').dataset.seat))"
            )
            assert dealer == [view["dealer"]], (dealer, view["dealer"])
            if decision["kind"] == "play" and watch.tricks and "peek" not in checked:
                checked.add("peek")  # the last trick, a click away; Escape closes it
                p.click("#peek-button")
                peeked = p.eval_on_selector_all(
                    "#peek-table .card",
                    "cs => cs.map(c => [Number(c.dataset.seat), c.dataset.card, c.classList.contains('win')])",
                )
                last = watch.tricks[-1]
                assert sorted(s_c[:2] for s_c in peeked) == sorted(last["plays"]), (peeked, last)
                assert [s for s, _, won in peeked if won] == last["winners"], (peeked, last)
                p.keyboard.press("Escape")
                assert not p.is_visible("#peek")
            key = f"{traffic.last_state()['game']}:{decision['kind']}"
            if key not in checked:
                checked.add(key)
                at_sizes(p, f"game {key}")
            if len(hinted) < 3 and len(decision["options"]) > 1 and decision["kind"] in ("bid", "play"):
                hinted.append(check_hint(*hint_against_estimates(p, decision)))
                at_sizes(p, f"the tools open at decision {decision['id']}")  # the table still shows beside them
                p.click("#tools-button")

        def on_trick(p: Page) -> None:
            if "trick" not in checked:
                checked.add("trick")
                at_sizes(p, "a finished trick")

        def on_hand_over(p: Page) -> None:
            if "hand-over" not in checked:
                checked.add("hand-over")
                at_sizes(p, "a hand's result", hand_over_fits)

        def on_game_over(p: Page) -> None:
            verdict = p.inner_text("#verdict")
            if verdict.startswith("Game 1"):  # the next game begins behind it: the result stays
                p.wait_for_function("document.querySelectorAll('.score-pad').length === 2", timeout=60_000)
                assert p.inner_text("#verdict") == verdict and p.is_visible("#replay-link")
                assert "Last hand" in p.inner_text("#game-over-box")
                kept.append(verdict)

        kinds = play_table(
            page,
            traffic,
            on_decision=on_decision,
            on_trick=on_trick,
            on_hand_over=on_hand_over,
            on_game_over=on_game_over,
            watch=watch,
        )
        # every game's replay, from the score pad
        for game in (1, 2):
            href = page.get_attribute(f"#replay-{game}", "href")
            assert href is not None
            with urllib.request.urlopen(
                run.url.rsplit("/", 2)[0] + href
            ) as reply:  # the table's own address, on 127.0.0.1
                assert reply.status == 200 and "Bid Euchre replay" in reply.read().decode()
        status, out, err = close_and_finish(run, page, problems)
    finally:
        run.stop()
    assert status == 0, (out, err)
    assert kept and watch.games == 2 and watch.hands == 2, (kept, watch)
    assert {"bid", "play"} <= set(kinds) and len(hinted) == 3 and sum(hinted) > 0, (kinds, hinted)
    assert {"1:bid", "1:play", "2:bid", "2:play", "trick", "hand-over", "peek"} <= checked, checked
    check_tricks(watch, run.log)
    check_auctions(watch, run.log)
    for number, (view, _, _) in enumerate(person_points(run.log, 0), start=1):
        if number in grids:  # at each decision, the auction so far
            assert grids[number] == [[s, b.text()] for s, b in view.bids], (number, grids[number])
    stats = check_received(traffic.messages, run.log, 0)
    assert stats["decisions checked"] == sum(kinds.values()), stats
    verify = arena("replay", str(run.log), "--verify", timeout=60)
    assert verify.returncode == 0, verify.stdout + verify.stderr


def test_a_hand_by_the_keyboard_at_three_sizes(browser: Browser, tmp_path: Path) -> None:
    """Six seats (two teams of three), every decision by the arrows and Enter, every trick passed with Enter,
    the result closed with Enter; each control the keyboard reaches has a name."""
    run = start_table(
        tmp_path, "--preset", "bloomington", "--seat", "1", "--level", "3", "--seed", "3", "--rule", "hand_limit=1"
    )
    watch = Watch()
    checked: set[str] = set()
    try:
        page, problems, traffic = open_table(browser, run.url, *SIZES[0])

        def on_decision(p: Page, decision: dict[str, Any]) -> None:
            if decision["kind"] not in checked:
                checked.add(decision["kind"])
                at_sizes(p, f"a decision to {decision['kind']}")
                p.focus(f"#{'hand' if decision['kind'] == 'play' else 'choices'} button >> nth=0")

        def on_trick(p: Page) -> None:
            if "trick" not in checked:
                checked.add("trick")
                at_sizes(p, "six seats' trick")

        kinds = play_table(
            page, traffic, click_first_legal, keyboard=True, on_decision=on_decision, on_trick=on_trick, watch=watch
        )
        status, out, err = close_and_finish(run, page, problems)
    finally:
        run.stop()
    assert status == 0, (out, err)
    assert {"bid", "play", "trick"} <= checked and kinds["play"] >= 1, (checked, kinds)
    check_tricks(watch, run.log)
    check_auctions(watch, run.log)
    stats = check_received(traffic.messages, run.log, 1)
    assert stats["decisions checked"] == sum(kinds.values()), stats


def test_the_table_fits_the_fullest_hand(browser: Browser, tmp_path: Path) -> None:
    """Triple-deck's fifteen cards, at a bid (the most choices) and at a card, at each size; the layout
    check is able to fail: a card moved over another is caught."""
    run = start_table(tmp_path, "--preset", "triple-deck", "--level", "3", "--seed", "2", "--rule", "hand_limit=1")
    try:
        page, problems, traffic = open_table(browser, run.url, *SIZES[0])
        seen: set[str] = set()

        def on_decision(p: Page, decision: dict[str, Any]) -> None:
            if decision["kind"] in seen:
                return
            seen.add(decision["kind"])
            at_sizes(p, f"triple-deck, a decision to {decision['kind']}")
            if decision["kind"] == "play":  # the check sees an overlap when there is one (moved and looked at at once)
                moved = p.evaluate(
                    "(selector) => { const [a, c] = document.querySelectorAll('#hand .card');"
                    " const r = a.getBoundingClientRect(), q = c.getBoundingClientRect();"
                    " c.style.transition = 'none';"
                    " c.style.transform = `translate(${r.left - q.left + 10}px, ${r.top - q.top}px)`;"
                    f" const found = ({LAYOUT})(selector); c.style.transform = ''; return found; }}",
                    BOXES,
                )
                assert any(a.startswith("button.card") and b.startswith("button.card") for a, b in moved["overlaps"]), (
                    moved
                )

        last = None
        while seen != {"bid", "play"}:
            now = wait_for_turn(page, last)
            if now.phase == "trick":
                page.dispatch_event("#felt", "click")
                page.wait_for_function("document.body.dataset.phase !== 'trick'")
                continue
            decision = decision_of(traffic)
            on_decision(page, decision)
            click_first_legal(page, decision)
            last = now.decision
        assert not problems, problems
    finally:
        run.stop()
