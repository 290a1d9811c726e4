"""``arena analyze LOG --html OUT.html``: the replay page with the analysis, in a real headless Chromium.

The log is a real ``arena match`` (``real_logs``); the page must work
offline, show each analysed decision's loss and best choice as the JSON of
the same analysis gives them, draw a chart (Chart.js) with one bar per
analysed decision, go to a decision when its bar is clicked, follow the game
menu, and still fit a 1024x768 window with every card readable (a screenshot
is kept in the test's folder).
"""

from __future__ import annotations

import json
import subprocess
from pathlib import Path
from typing import Any

from playwright.sync_api import Browser, Page

from tests.support.arena import arena
from tests.support.browser import open_page
from tests.support.replay import CARDS_NOW, step_index

QUICK = ["--samples", "8", "--workers", "1"]


def analyse(log: Path, *args: str | Path) -> subprocess.CompletedProcess[str]:
    return arena("analyze", str(log), *QUICK, *map(str, args), timeout=600)


def page_and_analysis(log: Path, tmp_path: Path) -> tuple[Path, dict[str, Any]]:
    html = tmp_path / f"{log.stem}.html"
    run = analyse(log, "--html", html)
    assert run.returncode == 0, run.stderr
    assert f"wrote {html}" in run.stdout
    data = json.loads(analyse(log, "--json").stdout)
    return html, data


def steps_of(page: Page) -> list[dict[str, Any]]:
    steps: list[dict[str, Any]] = page.evaluate(
        "JSON.parse(document.getElementById('replay-data').textContent).games[0].steps"
    )
    return steps


def bars(page: Page) -> int:
    return int(page.get_attribute("#analysis-chart", "data-bars") or -1)


def test_the_page_shows_each_decision_s_loss_and_best_choice(
    real_logs: dict[str, Path], tmp_path: Path, browser: Browser
) -> None:
    log = real_logs["neuralplay"]
    html, data = page_and_analysis(log, tmp_path)
    page, problems = open_page(browser, html)
    assert page.is_visible("#analysis") and page.is_visible("#analysis-chart")
    steps = steps_of(page)
    step_at = {st["line"]: k for k, st in enumerate(steps)}
    game1 = data["games"][0]
    analysed = [d for d in game1["decisions"] if d["status"] == "analysed"]
    assert bars(page) == len(analysed) > 10

    # a decision that lost something, and one that lost nothing: the note says so, with the best choice
    lost = max(analysed, key=lambda d: d["loss"])
    assert lost["loss"] > 0
    page.evaluate(f"window.replayGoTo(0, {step_at[lost['line']]})")
    note = page.inner_text("#analysis-note")
    assert note.startswith(f"Seat {lost['seat']} (")
    assert f"Loss {lost['loss']:.2f} points [{lost['low']:.2f}, {lost['high']:.2f}]" in note
    assert "Best: " in note
    assert page.get_attribute("#analysis-note", "class") == ("" if lost["grade"] == "none" else lost["grade"])
    none = next(d for d in analysed if d["loss"] == 0 and d["kind"] == "play")
    page.evaluate(f"window.replayGoTo(0, {step_at[none['line']]})")
    assert "The best choice found (loss 0)." in page.inner_text("#analysis-note")
    rows = page.eval_on_selector_all("#analysis-note tr", "rows => rows.map(r => r.cells[0].textContent)")
    assert len(rows) == min(6, len(none["choices"]))

    # a step that is no decision: the luck of the hand's cards
    deal = next(k for k, st in enumerate(steps) if st["hand"] == 1)
    page.evaluate(f"window.replayGoTo(0, {deal})")
    assert page.inner_text("#analysis-note").startswith("Luck this hand")

    # a click on a bar goes to that decision
    target = analysed[len(analysed) // 2]
    index = analysed.index(target)
    point = page.evaluate(
        """(k) => { const chart = Chart.getChart(document.getElementById('analysis-chart'));
                    for (let i = 0; i < chart.data.datasets.length; i++) {
                      const el = chart.getDatasetMeta(i).data[k];
                      if (chart.data.datasets[i].data[k] !== null) {
                        const box = chart.canvas.getBoundingClientRect();
                        return {x: box.left + el.x, y: box.top + (el.y + el.base) / 2};
                      } } return null; }""",
        index,
    )
    assert point is not None
    page.mouse.click(point["x"], point["y"])
    # Chart.js handles canvas events on the next animation frame, not within the click: wait for the move
    page.wait_for_function(f"document.body.dataset.step !== '{deal}'", timeout=10_000)
    assert step_index(page) == step_at[target["line"]]
    assert page.get_attribute("#analysis-note", "data-line") == str(target["line"])

    # the other game: its own chart
    page.select_option("#game", "1")
    second = [d for d in data["games"][1]["decisions"] if d["status"] == "analysed"]
    page.wait_for_function(f"document.getElementById('analysis-chart').dataset.bars === '{len(second)}'")
    assert problems == []


def test_the_page_with_its_analysis_fits_a_phone_and_1024_by_768_up(
    real_logs: dict[str, Path], tmp_path: Path, browser: Browser
) -> None:
    log = real_logs["bloomington"]  # six seats: the most crowded table
    html, _ = page_and_analysis(log, tmp_path)
    page, problems = open_page(browser, html, 1024, 768)
    for _ in range(30):
        page.keyboard.press("ArrowRight")
    for width, height in ((1024, 768), (1400, 1000), (390, 844)):
        page.set_viewport_size({"width": width, "height": height})
        page.wait_for_timeout(100)  # laid out again on the resize
        now = page.evaluate(f"({CARDS_NOW})()")
        assert now["count"] > 20 and now["bad"] == [] and not now["scrolls"], (width, now)
        strip = page.eval_on_selector("#analysis", "e => e.getBoundingClientRect().toJSON()")
        assert strip["bottom"] <= height and strip["height"] >= (120 if width >= 1024 else 40), (width, strip)
        page.screenshot(path=str(tmp_path / f"analysis-bloomington-{width}x{height}.png"))
    assert problems == []


def test_a_plain_replay_page_has_no_analysis_and_no_chart_library(
    real_logs: dict[str, Path], tmp_path: Path, browser: Browser
) -> None:
    log = real_logs["neuralplay"]
    html = tmp_path / "plain.html"
    run = arena("replay", str(log), "--html", str(html), timeout=120)
    assert run.returncode == 0, run.stderr
    text = html.read_text(encoding="utf-8")
    assert "Chart.js 4.6.1, MIT License" not in text
    page, problems = open_page(browser, html)
    assert page.is_hidden("#analysis") and page.evaluate("typeof Chart") == "undefined"
    page.click("#next")
    assert problems == []
