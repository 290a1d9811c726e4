"""The ladder's page in Chromium, served by ``arena ladder serve``: its numbers are ``standings --json``'s, its
links open the right replay, a bot's page shows its versions, and it refreshes as a run in another process
commits games."""

from __future__ import annotations

import re
import subprocess
from collections.abc import Iterator
from pathlib import Path

import pytest
from playwright.sync_api import Browser, Page

from tests.support.arena import ARENA
from tests.support.browser import open_page, text_of
from tests.support.ladder import ladder, standings


@pytest.fixture
def served(played: Path) -> Iterator[tuple[str, Path]]:
    proc = subprocess.Popen(
        [ARENA, "ladder", "serve", str(played), "0"], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True
    )
    assert proc.stdout is not None
    line = proc.stdout.readline()
    found = re.search(r"ladder page: (http://127\.0\.0\.1:\d+/\S+/)", line)
    if found is None:
        proc.kill()
        raise AssertionError(f"no address: {line}{proc.communicate()}")
    yield found[1], played
    proc.terminate()
    proc.communicate(timeout=30)


def _leaderboard(page: Page) -> list[dict[str, str]]:
    return page.eval_on_selector_all(
        "#leaderboard tr[data-label]",
        "rows => rows.map(r => ({label: r.dataset.label, rank: r.querySelector('.rank').textContent,"
        " ordinal: r.querySelector('.ordinal').textContent, games: r.querySelector('.games').textContent}))",
    )


def test_the_page_shows_the_standings_and_opens_the_replays(browser: Browser, served: tuple[str, Path]) -> None:
    url, folder = served
    page, problems = open_page(browser, url, loopback=True)
    expected = standings(folder)["standings"]
    shown = _leaderboard(page)
    assert [r["label"] for r in shown] == [r["label"] for r in expected]
    for got, want in zip(shown, expected, strict=True):
        assert got["rank"] == ("" if want["rank"] is None else str(want["rank"]))
        assert got["ordinal"] == f"{want['ordinal']:.2f}" and got["games"] == str(want["games"])
    # the leader's last game opens its replay
    leader = expected[0]
    link = page.locator(f"#leaderboard tr[data-label='{leader['label']}'] a[data-game]")
    assert link.inner_text() == leader["last_game"]
    with page.expect_navigation():
        link.click()
    assert page.url.endswith(f"/replays/{leader['last_game']}.html")
    page.wait_for_function("document.body.dataset.step !== undefined")
    assert page.title().startswith(f"Replay: {leader['last_game']}.jsonl")
    assert problems == []


def test_a_bot_s_page(browser: Browser, served: tuple[str, Path]) -> None:
    url, folder = served
    page, problems = open_page(browser, url + "#bot=rules", loopback=True)
    assert text_of(page.locator("#bot-title").text_content()) == "rules: its versions"
    versions = page.eval_on_selector_all("#versions tr[data-label]", "rows => rows.map(r => r.dataset.label)")
    assert versions == ["rules.v1", "rules.v2"]
    assert "superseded by v2" in text_of(page.locator("#versions").text_content())
    opponents = page.eval_on_selector_all("#h2h tr[data-opponent]", "rows => rows.map(r => r.dataset.opponent)")
    assert opponents == ["first", "random"]
    points = page.evaluate("Chart.getChart('rating-chart').data.datasets.map(d => [d.label, d.data.length])")
    sets = {r["label"]: r["sets"] for r in standings(folder)["standings"]}
    assert points == [["rules.v1", sets["rules.v1"]], ["rules.v2", sets["rules.v2"]]]
    recent = page.locator("#recent tr[data-game] a").first
    game = recent.inner_text()
    with page.expect_navigation():
        recent.click()
    page.wait_for_function("document.body.dataset.step !== undefined")
    assert page.title().startswith(f"Replay: {game}.jsonl")
    assert problems == []


def test_the_page_refreshes_as_games_end(browser: Browser, served: tuple[str, Path], tmp_path: Path) -> None:
    url, folder = served
    page, problems = open_page(browser, url, loopback=True)
    run = ladder("run", folder, "--games", "2", "-j", "1")
    assert run.returncode == 0, run.stderr
    after = standings(folder)
    page.wait_for_function(
        f"document.getElementById('meta').textContent.includes('{after['meta']['ladder_games']} ladder games')",
        timeout=30_000,
    )
    assert int(page.evaluate("document.body.dataset.updates")) >= 1
    shown = _leaderboard(page)
    assert [(r["label"], r["games"]) for r in shown] == [(r["label"], str(r["games"])) for r in after["standings"]]
    assert problems == []
