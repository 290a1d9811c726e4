"""``arena report`` on folders that are not what they should be: one clear line each, and a partial report
where the data allows (in the browser: it opens, without errors, with what could be read)."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest
from playwright.sync_api import Browser

from referee.cli.app import Status
from tests.support.arena import FIRST, RANDOM, arena
from tests.support.browser import open_page, text_of
from tests.support.report import page_data
from tests.support.tournament import tournament


@pytest.fixture(scope="module")
def played(tmp_path_factory: pytest.TempPathFactory) -> Path:
    folder = tmp_path_factory.mktemp("bad") / "t"
    run = tournament(folder, "-n", "4", bots=(RANDOM, FIRST, OTHER))  # 12 games
    assert run.returncode == 0, run.stderr
    return folder


OTHER = "other=" + RANDOM.split("=", 1)[1]


def copy(played: Path, tmp_path: Path) -> Path:
    folder = tmp_path / "t"
    shutil.copytree(played, folder)
    (folder / "report.html").unlink()
    shutil.rmtree(folder / "replays")
    return folder


def no_traceback(stderr: str) -> None:
    assert "Traceback" not in stderr and "Error:" not in stderr.replace("error:", "")


def test_a_folder_that_is_not_a_tournament(tmp_path: Path) -> None:
    (tmp_path / "results.jsonl").write_text("")
    run = arena("report", str(tmp_path))
    assert run.returncode == Status.BAD_INPUT
    assert run.stderr.strip() == (
        f"error: {tmp_path} is not a tournament folder: it has no settings.json (arena tournament and arena sprt "
        "write one when they start)"
    )
    assert not (tmp_path / "report.html").exists()
    missing = arena("report", str(tmp_path / "nowhere"))
    assert (missing.returncode, missing.stderr.strip()) == (
        Status.BAD_INPUT,
        f"error: {tmp_path / 'nowhere'}: no such folder",
    )


def test_a_results_file_cut_mid_line(played: Path, tmp_path: Path, browser: Browser) -> None:
    folder = copy(played, tmp_path)
    results = folder / "results.jsonl"
    lines = results.read_bytes().splitlines(keepends=True)
    results.write_bytes(b"".join(lines[:5]) + lines[5][:40])  # five whole lines, then half of the sixth
    run = arena("report", str(folder))
    assert run.returncode == 0, run.stderr
    no_traceback(run.stderr)
    assert run.stderr.strip().splitlines() == [
        (
            f"warning: {results}: the last line is cut off (a write stopped mid-line, as when the run was killed); "
            "the report shows the 5 complete result(s) before it"
        )
    ]
    assert run.stdout.strip() == f"report: {folder / 'report.html'}"
    data = page_data(folder / "report.html")
    kept = sorted(json.loads(line)["game_id"] for line in lines[:5])  # results come in the order games ended
    assert [g[1] for g in data["games"]] == kept
    assert data["meta"]["games_played"] == 5
    page, problems = open_page(browser, (folder / "report.html").as_uri())
    assert page.text_content("#games-count") == "5 of 5 games"
    assert "cut off" in text_of(page.text_content("#problems"))
    assert problems == []


def test_a_missing_log_and_a_line_that_is_no_result(played: Path, tmp_path: Path, browser: Browser) -> None:
    folder = copy(played, tmp_path)
    (folder / "games" / "g0002.jsonl").unlink()
    with (folder / "results.jsonl").open("a") as f:
        f.write('{"game": 99, "teams": ["x"]}\n')
    run = arena("report", str(folder))
    assert run.returncode == 0, run.stderr
    no_traceback(run.stderr)
    warnings = run.stderr.strip().splitlines()
    assert len(warnings) == 2, warnings
    assert warnings[0].startswith(f"warning: {folder / 'results.jsonl'}: 1 line(s) left out: line 13: ")
    assert warnings[1] == ("warning: 1 game log(s) missing, shown without think times or a replay: games/g0002.jsonl")
    data = page_data(folder / "report.html")
    assert len(data["games"]) == 12
    page, problems = open_page(browser, (folder / "report.html").as_uri())
    # the game keeps its result, without a replay link; the others have theirs
    row = page.locator('#games-table tr[data-game="g0002"]')
    assert row.locator("a").count() == 0
    assert "its log is missing" in text_of(row.text_content())
    assert page.locator('#games-table tr[data-game="g0003"] a[data-replay="game"]').count() == 1
    assert not (folder / "replays" / "g0002.html").exists() and (folder / "replays" / "g0003.html").exists()
    assert problems == []
