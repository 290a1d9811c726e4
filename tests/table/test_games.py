"""Whole games played on the page by clicking: what the page received is checked card by card against the
log, the log replays and verifies, the page shows each hand's tricks and result and the game's."""

from __future__ import annotations

from pathlib import Path

import pytest
from playwright.sync_api import Browser

from tests.support.arena import arena
from tests.support.table import check_received, open_table, play_by_clicking, start_table


@pytest.mark.parametrize(
    ("preset", "seat", "extra", "kinds_wanted"),
    [
        ("neuralplay", 0, ["--rule", "hand_limit=2"], {"bid", "play"}),
        ("double-deck-3p", 1, ["--rule", "hand_limit=2"], {"bid", "play"}),  # three teams of one
    ],
)
def test_a_whole_game_by_clicking(
    browser: Browser, tmp_path: Path, preset: str, seat: int, extra: list[str], kinds_wanted: set[str]
) -> None:
    run = start_table(tmp_path, "--preset", preset, "--seat", str(seat), "--level", "3", "--seed", "3", *extra)
    try:
        page, problems = open_table(browser, run.url)
        kinds = play_by_clicking(page)
        assert kinds_wanted <= set(kinds), kinds
        received = page.evaluate("() => window.tableReceived")
        assert not problems, problems
        page.close()
        status, out, err = run.finish()
    finally:
        run.stop()
    assert status == 0, (out, err)
    stats = check_received(received, run.log, seat)
    assert stats["decisions checked"] == sum(kinds.values()), stats
    verify = arena("replay", str(run.log), "--verify", timeout=60)
    assert verify.returncode == 0, verify.stdout + verify.stderr
    assert "the match is over" in out
