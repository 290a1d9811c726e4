"""Whole games played on the page by clicking: what the page received is checked card by card against the
log, the log replays and verifies, the page shows each hand's tricks and result and the game's."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Browser, Page

from tests.support.arena import arena
from tests.support.browserseat import (
    check_received,
    click_bid,
    click_first_legal,
    open_table,
    play_by_clicking,
    start_table,
)


@pytest.mark.parametrize(
    ("preset", "seat", "extra", "kinds_wanted"),
    [
        ("neuralplay", 0, ["--rule", "hand_limit=2"], {"bid", "play"}),
        ("double-deck-3p", 1, ["--rule", "hand_limit=1"], {"bid", "play"}),  # three teams of one
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


def call_when_allowed(page: Page, decision: dict[str, Any]) -> None:
    """Bid a call (the partner gives cards, the person discards) whenever one is allowed, else as plainly as
    ever; the exchanges by clicking the cards."""
    calls = [b for b in decision["options"] if b.startswith("call")] if decision["kind"] == "bid" else []
    if calls:
        click_bid(page, calls[-1])
    else:
        click_first_legal(page, decision)


def test_a_call_and_exchange_by_clicking(browser: Browser, tmp_path: Path) -> None:
    run = start_table(tmp_path, "--preset", "neuralplay", "--level", "3", "--seed", "8", "--rule", "hand_limit=2")
    try:
        page, problems = open_table(browser, run.url)
        kinds = play_by_clicking(page, call_when_allowed)
        received = page.evaluate("() => window.tableReceived")
        page.close()
        status, out, err = run.finish()
    finally:
        run.stop()
    assert status == 0 and not problems, (out, err, problems)
    assert kinds["discard"] >= 1, kinds  # the person called, was given cards and discarded as many
    check_received(received, run.log, 0)
    records = [json.loads(line) for line in run.log.read_text().splitlines()]
    gifts = [r for r in records if r["event"] == "exchange" and r["to"] == 0]
    discards = [r for r in records if r["event"] == "exchange" and r["from"] == 0 and r["to"] is None]
    assert gifts and discards and discards[0]["count"] == gifts[0]["count"], (gifts, discards)
    verify = arena("replay", str(run.log), "--verify", timeout=60)
    assert verify.returncode == 0, verify.stdout + verify.stderr
