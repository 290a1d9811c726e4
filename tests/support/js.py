"""Shared by the JavaScript bot's tests: the bot commands, the arena CLI, what a log says the JS bot did."""

from __future__ import annotations

import shutil
from collections import Counter
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import pytest

from tests.support.arena import REPO, arena_in_repo

JS_DIR = REPO / "example_bots" / "js"
# NAME=COMMAND, as a user types it from the repository's root (where ``arena_in_repo`` runs the arena)
JS = "js=node example_bots/js/bot.js"


def require_js_bot() -> None:
    """Fail (not skip) when Node.js or the bot's npm packages are missing: `make test` installs both."""
    if shutil.which("node") is None:
        pytest.fail("node is not on PATH: `make test` installs Node.js (Debian package nodejs) when it is missing")
    for package in ("@grpc/grpc-js", "@grpc/proto-loader"):
        if not (JS_DIR / "node_modules" / package / "package.json").is_file():
            pytest.fail(f"{package} is not installed in {JS_DIR}: `make test` runs npm ci there")


def decisions_of(recs: Sequence[dict[str, Any]], bot: str = "js") -> Counter[str]:
    """The decisions the seats played by ``bot`` answered, by kind, as the referee's log records them.

    A bid record is a BID answer, a play a PLAY, an exchange a GIVE (to a seat)
    or a DISCARD (to nobody). A contract whose bid names no trump ("6",
    "alone", "little-pepper") was followed by the declarer's TRUMP decision.
    """
    kinds: Counter[str] = Counter()
    seats: set[int] = set()
    for rec in recs:
        event = rec["event"]
        if event == "game_start":
            seats = {s["seat"] for s in rec["seats"] if s["bot"] == bot}
        elif event == "bid" and rec["seat"] in seats:
            kinds["bid"] += 1
        elif event == "contract" and rec["declarer"] in seats and len(rec["bid"].split()) == 1:
            kinds["trump"] += 1
        elif event == "exchange" and rec["from"] in seats:
            kinds["discard" if rec["to"] is None else "give"] += 1
        elif event == "play" and rec["seat"] in seats:
            kinds["play"] += 1
    return kinds


def verify(log: Path) -> None:
    """`arena replay LOG --verify` re-runs the engine over the log and accepts every line."""
    run = arena_in_repo("replay", str(log), "--verify", timeout=120)
    assert run.returncode == 0, run.stdout + run.stderr
