"""The learning features on the page, each held against the code it must agree with, on the views the log
says the seat had: the hint is the Monte Carlo bot's choice for the same view and seed, the estimates are
``arena analyze``'s evaluator's, a bid's chance is the one the simulation gives; after the game, the replay
and the analysis (the person's costliest decisions first)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from playwright.sync_api import Browser, Page

from example_bots.montecarlo_bot import MonteCarloBot
from referee.browserseat.advice import AdviceBudget, chance_json, estimates_json, view_seed
from referee.browserseat.state import action_json
from referee.engine.view import SeatView
from tests.support.browser import text_of
from tests.support.browserseat import (
    click_first_legal,
    open_table,
    person_points,
    play_by_clicking,
    start_table,
    state,
    wait_for_turn,
)

ASKED = 4  # decisions at which the hint and the estimates are asked for


def monte_carlo_choice(view: SeatView, budget: AdviceBudget) -> Any:
    """The Monte Carlo bot's own choice for ``view``, its generator seeded as the table seeds the hint's."""
    bot = MonteCarloBot(max_worlds=budget.hint_play, decide_worlds=budget.hint_decide, time_share=1.0)
    bot.rng.seed(view_seed(view, "hint"))
    bot.time_limit_ms = 10**9
    return action_json(bot.decide(view))


def test_hints_estimates_and_bid_chances_agree_with_their_sources(browser: Browser, tmp_path: Path) -> None:
    run = start_table(tmp_path, "--preset", "neuralplay", "--level", "3", "--seed", "8", "--rule", "hand_limit=1")
    hints: dict[int, Any] = {}
    estimates: dict[int, list[list[str]]] = {}
    chances: dict[int, tuple[str, str]] = {}

    def ask(page: Page, decision: dict[str, Any]) -> None:
        number = decision["id"]
        if decision["kind"] == "bid" and not chances:
            bid = next(b for b in decision["options"] if b != "pass")
            page.click("#tools-button")
            page.fill("#chance-bid", bid)
            page.click("#chance-form button")
            page.wait_for_function("document.getElementById('chance-out').dataset.chance !== undefined")
            chances[number] = (bid, text_of(page.get_attribute("#chance-out", "data-chance")))
            page.click("#tools-close")
        if len(hints) < ASKED and len(decision["options"]) > 1:
            page.click("#tools-button")
            page.click("#hint-button")
            page.wait_for_function(f"document.getElementById('hint-out').dataset.decision === '{number}'")
            hints[number] = text_of(page.get_attribute("#hint-out", "data-choice"))
            page.click("#estimate-button")
            page.wait_for_function(f"document.getElementById('estimate-out').dataset.decision === '{number}'")
            estimates[number] = [
                [text_of(td.text_content()) for td in row.query_selector_all("td")]
                for row in page.query_selector_all("#estimates tr")[1:]
            ]
            page.click("#tools-close")

    try:
        page, problems = open_table(browser, run.url)
        play_by_clicking(page, click_first_legal, on_decision=ask)
        replay_href = page.get_attribute("#replay-link", "href")
        page.click("#analyse-button")
        page.wait_for_selector("#analysis-link", timeout=120_000)
        worst = [
            [text_of(td.text_content()) for td in row.query_selector_all("td")]
            for row in page.query_selector_all("#analysis-out tr")[1:]
        ]
        analysis_href = page.get_attribute("#analysis-link", "href")
        assert replay_href and analysis_href
        replay = browser.new_page()
        replay.goto(run.url.rsplit("/", 2)[0] + replay_href)
        replay.wait_for_function("document.body.dataset.step !== undefined")
        analysis = browser.new_page()
        analysis.goto(run.url.rsplit("/", 2)[0] + analysis_href)
        analysis.wait_for_function("document.body.dataset.step !== undefined")
        assert not problems, problems
        for p in (replay, analysis, page):
            p.close()
        status, out, err = run.finish()
    finally:
        run.stop()
    assert status == 0, (out, err)
    assert hints and estimates and chances
    budget = AdviceBudget()
    points = list(person_points(run.log, 0))
    for number, shown in hints.items():
        view = points[number - 1][0]
        expected = monte_carlo_choice(view, budget)
        assert shown == (" ".join(expected) if isinstance(expected, list) else expected), (number, shown, expected)
    for number, rows in estimates.items():
        data = estimates_json(points[number - 1][0], budget)
        assert len(rows) == len(data["rows"]) > 0
        for row, want in zip(rows, data["rows"], strict=True):
            assert row[1] == f"{want['tricks']:.2f} ± {want['tricksSd']:.2f}", (row, want)
            assert row[2] == f"{want['points']:.2f} ± {want['pointsSd']:.2f}", (row, want)
    for number, (bid, chance) in chances.items():
        assert float(chance) == chance_json(points[number - 1][0], bid, budget)["chance"]
    losses = [float(row[-1]) for row in worst]
    assert losses == sorted(losses, reverse=True)  # the costliest first


def test_hint_modes_always_and_when_yours_differs(browser: Browser, tmp_path: Path) -> None:
    """--hints always: the hint comes with each decision unasked; --hints differs: a card other than the
    AI's is questioned before it goes, and kept when the person says so."""
    args = ("--preset", "neuralplay", "--level", "1", "--seed", "8", "--rule", "hand_limit=1")
    run = start_table(tmp_path / "always", *args, "--hints", "always")
    try:
        page, problems = open_table(browser, run.url)
        now = wait_for_turn(page, None)
        page.wait_for_function(f"document.getElementById('hint-out').dataset.decision === '{now.decision}'")
        assert "the AI would choose" in page.inner_text("#hint-out") or page.get_attribute("#hint-out", "data-choice")
        page.close()
        run.finish()
    finally:
        run.stop()
    run = start_table(tmp_path / "differs", *args, "--hints", "differs")
    questioned = 0
    try:
        page, problems = open_table(browser, run.url)
        last = None
        while True:
            now = wait_for_turn(page, last)
            if now.hand_over or now.game_over or now.match_over:
                break
            decision = state(page)["decision"]
            if decision["kind"] != "play" or len(decision["options"]) < 2:
                click_first_legal(page, decision)
                page.wait_for_function(
                    f"document.body.dataset.decision !== '{now.decision}' || "
                    "document.getElementById('differs').classList.contains('open')"
                )
                if page.is_visible("#differs"):
                    page.click("#keep-mine")
                last = now.decision
                continue
            hint = page.evaluate(
                """async (id) => { const own = window.tableReceived.filter(m => m.kind === "state").pop().data.tab;
                     const r = await fetch("hint", {method: "POST", headers: {"Content-Type": "application/json"},
                                                    body: JSON.stringify({tab: own, decision: id})});
                     return (await r.json()).choice; }""",
                decision["id"],
            )
            other = next(c for c in decision["options"] if c != hint)
            page.click(f"#hand button.card[data-card='{other}']")
            page.wait_for_selector("#differs.open")
            assert page.inner_text("#differs-text").startswith("The AI would choose")
            page.click("#keep-mine")
            questioned += 1
            last = now.decision
            if questioned == 2:
                break
        wait_for_turn(page, last)
        assert not problems, problems
        page.close()
        run.finish()
    finally:
        run.stop()
    assert questioned == 2
    records = [r for r in (json.loads(line) for line in run.log.read_text().splitlines()) if r["event"] == "play"]
    assert len([r for r in records if r["seat"] == 0]) >= 2  # the questioned cards were played, as kept
