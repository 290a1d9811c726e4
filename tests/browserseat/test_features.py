"""The learning features on the page, each held against the code it must agree with, on the views the log says
the seat had: the hint, its reason and the estimates are the one weighing's (``advice.weigh``) of the same
view; a bid typed as a person types it ("4s") gets its chance, the simulation's; a bid that is none is refused
with this preset's bids; after the game, the analysis (the person's costliest decisions first, cards written
as the page writes them) and the replays. And the hint modes: ``always`` (the outline, with its legend, at a
bid too)."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

from playwright.sync_api import Browser, Page

from referee.browserseat.advice import AdviceBudget, chance_json, weigh, weighing_json
from referee.engine.bids import Bid
from tests.support.browser import text_of
from tests.support.browserseat import (
    click_first_legal,
    decision_of,
    open_table,
    open_tools,
    person_points,
    play_table,
    start_table,
    wait_for_turn,
)

ASKED = 4  # decisions at which the hint and the estimates are asked for
LOG_NOTATION = re.compile(r"\b[789TJQKA][SHDC]\b")


def test_hints_estimates_and_bid_chances_agree_with_their_sources(browser: Browser, tmp_path: Path) -> None:
    run = start_table(tmp_path, "--preset", "neuralplay", "--level", "3", "--seed", "8", "--rule", "hand_limit=1")
    hints: dict[int, tuple[str, str]] = {}
    estimates: dict[int, list[dict[str, str]]] = {}
    chances: dict[int, tuple[str, str]] = {}
    refusals: list[str] = []

    def ask(page: Page, decision: dict[str, Any]) -> None:
        number = decision["id"]
        if decision["kind"] == "bid" and not chances and "4 S" in decision["options"]:
            open_tools(page)
            page.fill("#chance-bid", "4s")  # as a person types it
            page.click("#chance-form button")
            page.wait_for_function("document.getElementById('chance-out').dataset.chance !== undefined")
            chances[number] = (
                text_of(page.get_attribute("#chance-out", "data-bid")),
                text_of(page.get_attribute("#chance-out", "data-chance")),
            )
            assert page.inner_text("#chance-out").startswith("4♠ makes")
            page.fill("#chance-bid", "4x")
            page.click("#chance-form button")
            page.wait_for_function("!document.getElementById('chance-out').textContent.startsWith('4♠')")
            page.wait_for_function("document.getElementById('chance-out').textContent.includes('not a bid')")
            refusals.append(page.inner_text("#chance-out"))
        if len(hints) < ASKED and len(decision["options"]) > 1:
            page.click("#hint-inline")
            page.wait_for_function(f"document.getElementById('hint-line').dataset.decision === '{number}'")
            hints[number] = (text_of(page.get_attribute("#hint-line", "data-choice")), page.inner_text("#hint-line"))
            open_tools(page)
            page.click("#estimate-button")
            page.wait_for_function(f"document.getElementById('estimate-out').dataset.decision === '{number}'")
            estimates[number] = page.eval_on_selector_all(
                "#estimates tr[data-choice]",
                "rs => rs.map(r => ({choice: r.dataset.choice, cells: Array.from(r.cells).map(c => c.textContent)}))",
            )

    try:
        page, problems, traffic = open_table(browser, run.url, pause="200")
        play_table(page, traffic, click_first_legal, on_decision=ask, on_game_over=lambda p: None)
        page.click(".show-result")  # the game's result again, from the prompt
        replay_href = page.get_attribute("#replay-link", "href")
        page.click("#analyse-button")
        page.wait_for_selector("#analysis-link", timeout=120_000)
        worst = page.eval_on_selector_all(
            "#analysis-out tr", "rs => rs.slice(1).map(r => Array.from(r.cells).map(c => c.textContent))"
        )
        analysis_href = page.get_attribute("#analysis-link", "href")
        assert replay_href and analysis_href
        for href in (replay_href, analysis_href):
            other = browser.new_page()
            other.goto(run.url.rsplit("/", 2)[0] + href)
            other.wait_for_function("document.body.dataset.step !== undefined")
            other.close()
        assert not [p for p in problems if "status of 422" not in p], problems
        page.close()
        status, out, err = run.finish()
    finally:
        run.stop()
    assert status == 0, (out, err)
    assert hints and estimates and chances and refusals
    budget = AdviceBudget()
    points = list(person_points(run.log, 0))
    for number, (choice, line) in hints.items():
        table = weighing_json(weigh(points[number - 1][0], budget))
        want = table["choice"]
        assert choice == (" ".join(want) if isinstance(want, list) else want), (number, choice, want)
        assert line == "Hint: " + table["reason"], (line, table["reason"])
    for number, rows in estimates.items():
        table = weighing_json(weigh(points[number - 1][0], budget))
        assert len(rows) == len(table["rows"]) > 0
        for row, want in zip(rows, table["rows"], strict=True):
            assert row["cells"][:3] == [want["text"], want["tricks"], want["points"]], (row, want)
    for number, (bid, chance) in chances.items():
        assert bid == "4 S" and float(chance) == chance_json(points[number - 1][0], Bid.parse(bid), budget)["chance"]
    assert "call2" in refusals[0] and "moon" in refusals[0] and "best" not in refusals[0], refusals
    losses = [float(row[-1]) for row in worst]
    assert losses == sorted(losses, reverse=True)  # the costliest first
    assert not [cell for row in worst for cell in row[3:5] if LOG_NOTATION.search(cell)], worst  # J♦, not JD


def test_hints_always_outline_the_ais_choice_at_a_bid_too(browser: Browser, tmp_path: Path) -> None:
    """--hints always: the hint comes with each decision unasked, its choice outlined (a bid too), the outline
    explained. (``--hints differs`` is played in test_claim.py.)"""
    args = ("--preset", "neuralplay", "--level", "1", "--seed", "8", "--rule", "hand_limit=1")
    run = start_table(tmp_path, *args, "--hints", "always")
    try:
        page, problems, traffic = open_table(browser, run.url)
        now = wait_for_turn(page, None)
        assert decision_of(traffic)["kind"] == "bid"
        page.wait_for_function(
            f"document.getElementById('hint-line').dataset.decision === '{now.decision}'", timeout=10_000
        )
        assert page.inner_text("#hint-line").startswith("Hint: ")
        assert page.locator("#choices button.hinted").count() == 1  # the bid (or its level) outlined
        assert "outlined" in page.inner_text("#legend") and "AI's choice" in page.inner_text("#legend")
        assert not problems, problems
    finally:
        run.stop()
