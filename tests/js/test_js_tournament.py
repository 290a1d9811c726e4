"""The JavaScript bot in a short `arena tournament` beside the Python bots: every game played out, no violation."""

from __future__ import annotations

import json
from pathlib import Path

from tests.support.arena import RANDOM, RULES, arena_in_repo
from tests.support.js import JS, decisions_of, require_js_bot, verify
from tests.support.logs import records, violations


def test_js_bot_in_a_round_robin(tmp_path: Path) -> None:
    require_js_bot()
    out = tmp_path / "tour"
    bots = ["--bot", JS, "--bot", RANDOM, "--bot", RULES]
    # bloomington: six seats, so three JS processes per table; best bids exchange cards.
    run = arena_in_repo("tournament", *bots, "--preset", "bloomington", "--seed", "3", "-j", "2", "--out", str(out))
    assert run.returncode == 0, run.stdout + run.stderr

    results = [json.loads(line) for line in (out / "results.jsonl").read_text().splitlines()]
    assert len(results) == 6  # three pairs, each in both seatings
    js_games = [r for r in results if "js" in r["teams"]]
    assert len(js_games) == 4
    for result in results:
        assert result["violations"] == [] and result["forfeit"] is None, result
        assert result["reason"] in ("target", "mercy", "hands"), result  # played to its end

    standings = json.loads((out / "standings.json").read_text())
    assert standings["complete"] is True
    (js_row,) = [row for row in standings["standings"] if row["bot"] == "js"]
    assert (js_row["games"], js_row["violations"]) == (4, 0)

    for result in js_games:
        log = out / result["log"]
        recs = records(log)
        assert violations(recs) == []
        kinds = decisions_of(recs)
        assert kinds["bid"] > 0 and kinds["play"] > 0, kinds
        verify(log)

    # Every JS process the tables started left on a Shutdown, none crashed.
    outputs = sorted((out / "bots").glob("*.js.*.stderr"))
    assert outputs
    for output in outputs:
        text = output.read_text()
        started = text.count("--- node example_bots/js/bot.js")
        assert started >= 1 and text.count("js: shutdown (") == started, text
        assert "referee error" not in text, text
