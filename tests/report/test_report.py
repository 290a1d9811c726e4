"""``arena report`` and the report every tournament and SPRT run writes, read in a real Chromium.

Each folder is a real tournament played by the real ``arena`` command. The page's numbers are checked
against ``standings.json``, its links are followed into the replay viewer, and it must fit the window at
1024x768 and 1920x1080 (screenshots are kept in the test's folder, ``report-WxH.png``).
"""

from __future__ import annotations

import json
import re
import shutil
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Browser, Page

from referee.gamelog import read_records
from tests.support.arena import FIRST, QUICK, RANDOM, RULES, arena, bot
from tests.support.browser import open_page, text_of
from tests.support.logs import results, standings
from tests.support.report import FAULTY_BOT, page_data, signed, to_fixed
from tests.support.tournament import tournament


@pytest.fixture(scope="module")
def played(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A round-robin of three bots, one of which plays an illegal card now and then (a default is played)."""
    folder = tmp_path_factory.mktemp("report") / "t"
    run = tournament(folder, "-n", "4", "--on-fault", "default", bots=(RANDOM, FIRST, FAULTY_BOT))
    assert run.returncode == 0, run.stderr
    assert run.stdout.strip().splitlines()[-1] == f"report: {folder / 'report.html'}"
    return folder


def violations_in(folder: Path) -> list[tuple[str, int, dict[str, Any]]]:
    """(game id, log line, record) of every violation in the folder's logs."""
    out = []
    for log in sorted((folder / "games").glob("g*.jsonl")):
        for line, record in read_records(log):
            if record["event"] == "violation":
                out.append((log.stem, line, record))
    return out


def test_the_report_is_one_file_that_loads_nothing(played: Path, browser: Browser) -> None:
    html = played / "report.html"
    text = html.read_text(encoding="utf-8")
    # no external resource of any kind: every script inline, no src, no link, no fetch
    assert not re.search(r"""<script[^>]+src=|<link|@import|<iframe|url\(http""", text, re.IGNORECASE)
    assert "Chart.js 4.6.1" in text
    page, problems = open_page(browser, html.as_uri())
    assert page.title() == "Report: t"
    assert problems == []


def test_the_numbers_are_those_of_standings_json(played: Path, browser: Browser) -> None:
    page, problems = open_page(browser, (played / "report.html").as_uri())
    rows = page.eval_on_selector_all(
        "#standings tr[data-bot]", "trs => trs.map(tr => [...tr.children].map(td => td.textContent))"
    )
    expected = standings(played)
    assert len(rows) == len(expected) == 3
    for shown, want in zip(rows, expected, strict=True):
        rank, bot, games, w, d, lost, pph, elo, err, faults, think = shown
        assert (int(rank), bot, int(games), int(w), int(d), int(lost)) == (
            want["rank"],
            want["bot"],
            want["games"],
            want["wins"],
            want["draws"],
            want["losses"],
        )
        assert pph == to_fixed(want["points_per_hand"], 2)
        assert elo == signed(want["elo"])
        assert err == to_fixed(want["elo_error_95"])
        assert int(faults) == want["violations"]
        assert think == f"{to_fixed(want['think_mean_ms'])}/{want['think_max_ms']}"
    # the Elo chart draws the same intervals
    bars = page.evaluate("() => Chart.getChart(document.getElementById('elo-chart')).data.datasets[0].data")
    for bar, want in zip(bars, expected, strict=True):
        assert bar == pytest.approx([want["elo"] - want["elo_error_95"], want["elo"] + want["elo_error_95"]], abs=0.11)
    # every game is listed, and the faulty bot's violations are counted by kind
    assert page.text_content("#games-count") == "12 of 12 games"
    faulty = next(r for r in expected if r["bot"] == "faulty")
    page.select_option("#bot-choice", label="faulty")
    assert page.eval_on_selector_all("#violations-table tr td:first-child", "tds => tds.map(td => td.textContent)") == [
        "illegal"
    ]
    assert page.text_content("#violations-table tr:nth-child(2) td:nth-child(2)") == str(faulty["violations"])
    assert problems == []


def test_each_fault_is_listed_with_its_reason(played: Path, browser: Browser) -> None:
    """Issue 38, item 1: beside the count of faults, why each happened (alike ones in a row, with their games)."""
    page, problems = open_page(browser, (played / "report.html").as_uri())
    rows = page.eval_on_selector_all(
        "#faults-table tr", "trs => trs.slice(1).map(tr => [...tr.children].map(td => td.textContent))"
    )
    want: dict[str, list[str]] = {}
    for record in results(played):
        for v in record["violations"]:
            want.setdefault(v["detail"], []).append(record["game_id"])
    assert want and page.is_visible("#faults-box")
    assert {row[4]: (row[0], row[1], int(row[2])) for row in rows} == {
        reason: ("faulty", "illegal (a default action played)", len(games)) for reason, games in want.items()
    }
    for row in rows:
        games = list(dict.fromkeys(want[row[4]]))
        assert row[3] == ", ".join(games[:5]) + (f" and {len(games) - 5} more" if len(games) > 5 else "")
    assert problems == []


def test_a_game_link_opens_its_replay_and_a_violation_its_decision(played: Path, browser: Browser) -> None:
    page, problems = open_page(browser, (played / "report.html").as_uri())
    # the first game in the table opens its own replay
    with page.context.expect_page() as opened:
        page.click('#games-table tr[data-game="g0001"] a[data-replay="game"]')
    replay = opened.value
    replay.wait_for_load_state()
    assert replay.title().startswith("Replay: g0001.jsonl")
    assert replay.get_attribute("body", "data-step") == "0"
    # a violation: the replay opens at the decision where it happened, its note shown
    page.check("#games-violations")
    game_id, line, record = violations_in(played)[0]
    link = page.locator(f'#games-table tr[data-game="{game_id}"] a[data-replay="violation"]').first
    assert text_of(link.get_attribute("href")).endswith(f"replays/{game_id}.html#line={line}")
    with page.context.expect_page() as opened:
        link.click()
    replay = opened.value
    replay.wait_for_load_state()
    replay.wait_for_function("document.body.dataset.step !== '0'")
    notes = text_of(replay.text_content("#notes"))
    assert "illegal" in notes and record["kind"] == "illegal"
    position = re.search(r"log line (\d+)", text_of(replay.text_content("#position")))
    assert position is not None
    shown_line = int(position.group(1))
    assert shown_line > line  # the default card played for the bot, right after the violation
    assert shown_line == next(n for n, r in read_records(played / "games" / f"{game_id}.jsonl") if n > line)
    assert problems == []


def fits(page: Page) -> list[str]:
    """What lies outside the window's width: the page itself, or any visible element."""
    return page.evaluate(
        """() => {
      const out = [];
      if (document.documentElement.scrollWidth > innerWidth) out.push("the page scrolls sideways");
      for (const e of document.querySelectorAll("section, canvas, h1, nav, .controls, .scroll")) {
        const r = e.getBoundingClientRect();
        if (r.width && (r.left < 0 || r.right > innerWidth)) out.push(e.id || e.className || e.tagName);
      }
      return out;
    }"""
    )


@pytest.mark.parametrize("size", [(1024, 768), (1920, 1080)])
def test_the_report_fits_the_window(played: Path, browser: Browser, tmp_path: Path, size: tuple[int, int]) -> None:
    width, height = size
    page, problems = open_page(browser, (played / "report.html").as_uri(), width, height)
    assert fits(page) == []
    # the standings table is whole (no column cut off behind a scroll bar)
    box = page.evaluate(
        "() => { const s = document.querySelector('#standings').parentElement; return [s.scrollWidth, s.clientWidth]; }"
    )
    assert box[0] <= box[1]
    page.screenshot(path=str(tmp_path / f"report-{width}x{height}.png"), full_page=True)
    page.select_option("#cross-metric", "elo")
    assert fits(page) == []
    assert problems == []


def test_three_teams_and_a_gauntlet_are_shown_as_played(tmp_path: Path, browser: Browser) -> None:
    three = tmp_path / "three"
    run = arena(
        "tournament",
        "--preset",
        "double-deck-3p",
        "--rule",
        "hand_limit=2",
        "--move-time",
        "2000",
        "--bot",
        RANDOM,
        "--bot",
        FIRST,
        "--bot",
        RULES,
        "--bot",
        "other=" + RANDOM.split("=", 1)[1],
        "--out",
        str(three),
        "--gauntlet",
        "rules",
    )
    assert run.returncode == 0, run.stderr
    data = page_data(three / "report.html")
    assert data["meta"]["kind"] == "gauntlet" and data["meta"]["teams"] == 3
    page, problems = open_page(browser, (three / "report.html").as_uri())
    # a gauntlet: the candidate against each opponent, one line each
    assert page.text_content("#cross-title") == "Gauntlet: rules against each opponent"
    pairs = page.eval_on_selector_all("#crosstable tr[data-pair]", "trs => trs.map(t => t.dataset.pair)")
    assert sorted(pairs) == ["rules|first", "rules|other", "rules|random"]
    # three teams: each group of three as it was played, every game counted once
    groups = page.eval_on_selector_all("#groups tr td:first-child", "tds => tds.map(td => td.textContent)")
    assert len(groups) == 3 and all("rules" in g for g in groups)
    assert sum(g["games"] for g in data["groups"]) == data["meta"]["games_played"] == data["meta"]["games_scheduled"]
    assert problems == []


@pytest.fixture(scope="module")
def sprt_folder(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """An SPRT's folder: a random bot against another (so that the Elo is finite), at most 12 pairs."""
    folder = tmp_path_factory.mktemp("report-sprt") / "sprt"
    run = arena(
        "sprt",
        *QUICK,
        "--bot",
        bot("other", "random_bot"),
        "--bot",
        RANDOM,
        "--elo0",
        "0",
        "--elo1",
        "200",
        "--max-pairs",
        "12",
        "--out",
        str(folder),
    )
    assert run.returncode == 0, run.stderr
    return folder


def test_an_sprt_folder_shows_the_llr_and_the_elo_as_the_run_went(sprt_folder: Path, browser: Browser) -> None:
    folder = sprt_folder
    result = json.loads((folder / "sprt-result.json").read_text())["final"]
    page, problems = open_page(browser, (folder / "report.html").as_uri())
    assert not page.locator("#sec-sprt").is_hidden()
    llr = page.evaluate("() => Chart.getChart(document.getElementById('llr-chart')).data")
    assert llr["labels"][-1] == result["pairs"]
    assert llr["datasets"][0]["data"][-1] == pytest.approx(result["llr"], abs=1e-3)
    assert llr["datasets"][1]["data"][0] == pytest.approx(result["upper_bound"], abs=1e-3)
    assert llr["datasets"][2]["data"][0] == pytest.approx(result["lower_bound"], abs=1e-3)
    elo = page.evaluate("() => Chart.getChart(document.getElementById('sprt-elo-chart')).data.datasets[2].data")
    assert len(elo) == result["pairs"]
    assert "-".join(map(str, result["pentanomial"])) in text_of(page.text_content("#sprt-summary")).replace(" ", "")
    assert problems == []


def test_the_sprt_page_says_what_each_elo_is(sprt_folder: Path, browser: Browser) -> None:
    """The standings' Elo (each bot's, centred on 0) and the SPRT's (the new bot's over the base, from pairs)
    differ: the page says why, and gives the standings' difference, which is what compares (issue 31, item 9)."""
    result = json.loads((sprt_folder / "sprt-result.json").read_text())["final"]
    elo = {row["bot"]: row["elo"] for row in page_data(sprt_folder / "report.html")["standings"]}
    page, problems = open_page(browser, (sprt_folder / "report.html").as_uri())
    note = text_of(page.text_content("#sprt-summary"))
    assert "Two Elo figures, two models." in note
    panel = re.search(r"This panel's \(([-+]?\d+\.\d)\) is the test's: other's Elo over random from the pairs", note)
    assert panel is not None, note
    assert float(panel.group(1)) == pytest.approx(result["elo"], abs=0.051)
    here = re.search(r"\(here other ([-+]?\d+) and random ([-+]?\d+): ([-+]?\d+) apart\)", note)
    assert here is not None, note
    other, random, apart = map(int, here.groups())
    assert other == pytest.approx(elo["other"], abs=0.5) and random == pytest.approx(elo["random"], abs=0.5)
    assert apart == pytest.approx(elo["other"] - elo["random"], abs=0.5)
    assert "the ratings centred to average 0" in note
    assert problems == []


def test_analysis_results_are_drawn_where_they_exist(played: Path, tmp_path: Path, browser: Browser) -> None:
    """``arena analyze FOLDER`` saves what ``--json`` prints as the folder's analysis.json; the report shows it."""
    folder = tmp_path / "t"
    shutil.copytree(played, folder)
    run = arena("analyze", str(folder), "--bot", "random", "--game", "1", "--samples", "8", "--workers", "1", "--json")
    assert run.returncode == 0, run.stderr
    saved = json.loads((folder / "analysis.json").read_text(encoding="utf-8"))
    assert saved["bots"] == json.loads(run.stdout)["bots"]
    assert f"wrote {folder / 'analysis.json'}" in run.stderr
    phases = {p: f for p, f in saved["bots"]["random"]["phases"].items() if f["mean"] is not None}
    assert phases and set(saved["bots"]) == {"random"}
    run = arena("report", str(folder), "--no-replays")
    assert run.returncode == 0, run.stderr
    assert "analysis.json" not in run.stderr  # read, not left out
    page, problems = open_page(browser, (folder / "report.html").as_uri())
    cells = page.eval_on_selector_all(
        "#analysis-table tr", "trs => trs.map(tr => [...tr.children].map(c => c.textContent))"
    )
    assert cells[0] == ["bot", *phases]
    assert cells[1] == ["random", *(f"{f['mean']:.3f} ({f['count']})" for f in phases.values())]
    assert problems == []
