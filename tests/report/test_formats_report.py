"""The report of a Swiss and of a knockout in Chromium: a table per round, the bracket drawn on the page, the
numbers those of standings.json, and every game link opening that game's replay."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Browser

from referee.games.results import GameRecord
from referee.report.data import Report, read_settings
from tests.support.arena import QUICK
from tests.support.browser import open_page, text_of
from tests.support.logs import results
from tests.support.tournament import FIVE, play_each, summary

FORMATS = {
    "swiss": ["--format", "swiss", "--rounds", "2", "--seed", "8"],
    "knockout": ["--format", "knockout", "--seed", "8"],
}


@pytest.fixture(scope="module")
def played(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    return play_each(tmp_path_factory, {name: [*QUICK, *FIVE, *args] for name, args in FORMATS.items()}, "-j", "2")


def shown(value: float) -> str:
    """A number as the page's script writes it (String(x))."""
    return f"{value:g}"


@pytest.mark.parametrize("name", FORMATS)
def test_the_standings_and_each_round_are_those_of_standings_json(
    name: str, played: dict[str, Path], browser: Browser
) -> None:
    folder = played[name]
    data = summary(folder)
    page, problems = open_page(browser, (folder / "report.html").as_uri())
    assert f"{name}, round {data['rounds']} of {data['rounds']}" in text_of(page.text_content("#title"))
    columns = ["swiss_score", "buchholz", "sonneborn_berger"] if name == "swiss" else ["round_reached"]
    rows = page.eval_on_selector_all(
        "#standings tr[data-bot]", "trs => trs.map(tr => [...tr.children].map(td => td.textContent))"
    )
    assert len(rows) == len(data["standings"]) == 5
    for cells, want in zip(rows, data["standings"], strict=True):
        assert cells[:2] == [str(want["rank"]), want["bot"]]
        assert cells[2 : 2 + len(columns)] == [shown(want[c]) for c in columns]
        assert cells[2 + len(columns)] == str(want["games"])
        assert cells[2 + len(columns) + 5] == f"{round(want['elo']):+d}"
    # a table per round, each meeting with its bots and points
    for r in range(1, data["rounds"] + 1):
        meetings = [m for m in data["matches"] if m["round"] == r]
        table = page.locator(f'.round-table[data-round="{r}"] tr[data-bots]')
        assert table.count() == len(meetings)
        for k, m in enumerate(meetings):
            row = table.nth(k)
            assert row.get_attribute("data-bots") == "|".join(m["bots"])
            assert text_of(row.locator("td").nth(1).text_content()) == " : ".join(shown(p) for p in m["points"])
            ids = row.locator("a[data-replay=match]").all_text_contents()
            assert ids == [f"g{n:04d}" for n in m["games"]]
    assert page.locator("#bracket-box").is_visible() == (name == "knockout")
    assert problems == []


def meeting_result(meeting: dict[str, Any]) -> str:
    """A finished meeting's result as the round tables say it: the bot with the most points won, or a tie."""
    if meeting["bye"]:
        return "bye"
    if meeting["winner"] is not None:
        return f"{meeting['winner']} goes on" + (f" ({meeting['decided_by']})" if meeting["decided_by"] else "")
    top = max(meeting["points"])
    leaders = [bot for bot, points in zip(meeting["bots"], meeting["points"], strict=True) if points == top]
    return f"{leaders[0]} won" if len(leaders) == 1 else " and ".join(leaders) + " tied"


@pytest.mark.parametrize("name", FORMATS)
def test_each_meeting_of_each_round_shows_its_result(name: str, played: dict[str, Path], browser: Browser) -> None:
    """The round tables' "result" column: the winner of every meeting (Swiss: the most points; knockout: who goes
    on), or a tie, or a bye; never empty once the meeting is played."""
    folder = played[name]
    data = summary(folder)
    page, problems = open_page(browser, (folder / "report.html").as_uri())
    shown = page.eval_on_selector_all(".round-table tr[data-bots]", "trs => trs.map(tr => tr.children[2].textContent)")
    assert shown == [meeting_result(m) for m in data["matches"]]
    assert all(shown), shown
    if name == "swiss":
        assert any(result.endswith(" won") for result in shown), shown
    assert problems == []


def test_the_bracket_is_drawn_and_its_links_open_the_right_games(played: dict[str, Path], browser: Browser) -> None:
    folder = played["knockout"]
    data = summary(folder)
    page, problems = open_page(browser, (folder / "report.html").as_uri())
    columns = page.locator("#bracket .column")
    assert columns.count() == data["rounds"] == 3
    boxes = page.locator("#bracket .match[data-bots]")
    assert boxes.count() == len(data["matches"])
    for k, m in enumerate(data["matches"]):
        box = boxes.nth(k)
        assert box.get_attribute("data-bots") == "|".join(m["bots"])
        assert box.locator(".entrant.won").get_attribute("data-bot") == m["winner"]
        links = box.locator("a[data-replay=match]")
        assert links.all_text_contents() == [f"g{n:04d}" for n in m["games"]]
        for n in m["games"]:
            assert (folder / "replays" / f"g{n:04d}.html").exists()
    # the final's first game opens its own replay
    final = data["matches"][-1]
    with page.context.expect_page() as opened:
        boxes.nth(len(data["matches"]) - 1).locator("a[data-replay=match]").first.click()
    replay = opened.value
    replay.wait_for_load_state()
    assert replay.title().startswith(f"Replay: g{final['games'][0]:04d}.jsonl")
    # the box sits in the final's column, and the winner's name is the champion's
    assert text_of(columns.nth(2).locator("h3").text_content()) == "final"
    assert data["standings"][0]["bot"] == final["winner"]
    assert problems == []


def test_the_live_report_follows_the_rounds_as_games_end(played: dict[str, Path]) -> None:
    """The live view adds each game as it ends (``Report.add``); its summary names the round fixed so far, which
    the page's header shows (``test_live.py`` watches it there)."""
    folder = played["swiss"]
    settings, _ = read_settings(folder)
    report = Report(folder, settings)
    assert report.summary()["meta"]["round"] == 1 and report.summary()["meta"]["rounds"] == 2
    seen = []
    for line in results(folder):
        report.add_from_folder(GameRecord.from_json(line))
        seen.append(report.summary()["meta"]["round"])
    assert seen == [1, 1, 1, 2, 2, 2, 2, 2]  # round 2 is fixed once the 4 games of round 1 are in
    meetings = [m for m in report.summary()["rounds"][1]["matches"] if not m["bye"]]
    assert all(played for m in meetings for _, _, played in m["games"])  # played: their replays are linked
