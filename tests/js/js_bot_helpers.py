"""Shared by the JavaScript bot's tests: the bot commands, the arena CLI, what a log says the JS bot did."""

from __future__ import annotations

import shutil
import subprocess
import sys
from collections import Counter
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import pytest

from referee.gamelog import read_records

REPO = Path(__file__).resolve().parents[2]
JS_DIR = REPO / "example_bots" / "js"
ARENA = str(Path(sys.executable).parent / "arena")

# NAME=COMMAND, as a user types them from the repository's root.
JS = "js=node example_bots/js/bot.js"
RANDOM = "random=python -m example_bots.random_bot"
RULES = "rules=python -m example_bots.rules_bot"


def require_js_bot() -> None:
    """Fail (not skip) when Node.js or the bot's npm packages are missing: `make test` installs both."""
    if shutil.which("node") is None:
        pytest.fail("node is not on PATH: `make test` installs Node.js (Debian package nodejs) when it is missing")
    for package in ("@grpc/grpc-js", "@grpc/proto-loader"):
        if not (JS_DIR / "node_modules" / package / "package.json").is_file():
            pytest.fail(f"{package} is not installed in {JS_DIR}: `make test` runs npm ci there")


def arena(*args: str, timeout: float = 300) -> subprocess.CompletedProcess[str]:
    """Run the arena CLI from the repository's root, as a user would."""
    return subprocess.run([ARENA, *args], check=False, cwd=REPO, capture_output=True, text=True, timeout=timeout)


def records(log: Path) -> list[dict[str, Any]]:
    return [rec for _, rec in read_records(log)]


def only_log(log_dir: Path) -> Path:
    logs = sorted(log_dir.glob("*.jsonl"))
    assert len(logs) == 1, f"expected one log in {log_dir}, found {logs}"
    return logs[0]


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


def violations(recs: Sequence[dict[str, Any]]) -> list[dict[str, Any]]:
    return [r for r in recs if r["event"] == "violation"]


def verify(log: Path) -> None:
    """`arena replay LOG --verify` re-runs the engine over the log and accepts every line."""
    run = arena("replay", str(log), "--verify", timeout=120)
    assert run.returncode == 0, run.stdout + run.stderr
