"""Whole games played on the page by clicking, on three seats (three teams of one) and with a call and its
exchange: what the page received is checked card by card against the log, the log replays and verifies, the
page shows each trick, each hand's result and the game's."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from playwright.sync_api import Browser, Page

from tests.support.arena import arena
from tests.support.browserseat import (
    Watch,
    check_received,
    check_tricks,
    click_bid,
    click_first_legal,
    close_and_finish,
    open_table,
    play_table,
    start_table,
)


def test_a_whole_game_of_three_seats_by_clicking(browser: Browser, tmp_path: Path) -> None:
    seat = 1
    run = start_table(
        tmp_path,
        "--preset",
        "double-deck-3p",
        "--seat",
        str(seat),
        "--level",
        "3",
        "--seed",
        "3",
        "--rule",
        "hand_limit=1",
    )
    watch = Watch()
    try:
        page, problems, traffic = open_table(browser, run.url)
        kinds = play_table(page, traffic, watch=watch)
        assert {"bid", "play"} <= set(kinds), kinds
        status, out, err = close_and_finish(run, page, problems)
    finally:
        run.stop()
    assert status == 0, (out, err)
    check_tricks(watch, run.log)
    stats = check_received(traffic.messages, run.log, seat)
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
        page, problems, traffic = open_table(browser, run.url, pause="200")
        kinds = play_table(page, traffic, call_when_allowed)
        page.close()
        status, out, err = run.finish()
    finally:
        run.stop()
    assert status == 0 and not problems, (out, err, problems)
    assert kinds["discard"] >= 1, kinds  # the person called, was given cards and discarded as many
    check_received(traffic.messages, run.log, 0)
    records = [json.loads(line) for line in run.log.read_text().splitlines()]
    gifts = [r for r in records if r["event"] == "exchange" and r["to"] == 0]
    discards = [r for r in records if r["event"] == "exchange" and r["from"] == 0 and r["to"] is None]
    assert gifts and discards and discards[0]["count"] == gifts[0]["count"], (gifts, discards)
    verify = arena("replay", str(run.log), "--verify", timeout=60)
    assert verify.returncode == 0, verify.stdout + verify.stderr
