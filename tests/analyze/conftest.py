"""Logs for the analysis tests, made by real ``arena match`` and ``arena tournament`` runs.

``real_logs`` runs each match of ``MATCHES`` once per session (the referee, a
process per seat): the rules bot against the shaky bot (the rules bot with a
random card now and then), short games (a hand limit), on presets of four,
six and three seats. ``tournament`` is a two-game tournament folder.

The engine-built positions of ``tests/bots/bot_positions.py`` are shared with
the bots' tests: this folder puts that folder on the import path.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "bots"))  # bot_positions

ARENA = Path(sys.executable).with_name("arena")
RULES = "rules=python -m example_bots.rules_bot"
SHAKY = "shaky=python -m example_bots.shaky_bot"

MATCHES: dict[str, tuple[str, ...]] = {
    # two games of four seats
    "neuralplay": ("--preset", "neuralplay", "-b", RULES, "-b", SHAKY, "-r", "hand_limit=3", "-n", "2", "--seed", "21"),
    # two bidding rounds, trump named after the auction
    "hammerwalt": ("--preset", "hammerwalt", "-b", RULES, "-b", SHAKY, "-r", "hand_limit=2", "--seed", "22"),
    # six seats in two teams of three
    "bloomington": ("--preset", "bloomington", "-b", RULES, "-b", SHAKY, "-r", "hand_limit=2", "--seed", "23"),
    # three seats, each its own team
    "double-deck-3p": (
        "--preset",
        "double-deck-3p",
        "-b",
        RULES,
        "-b",
        SHAKY,
        "-b",
        "first=python -m example_bots.first_bot",
        "-r",
        "hand_limit=2",
        "--seed",
        "24",
    ),
}


def arena(*args: str | Path, timeout: float = 600) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [str(ARENA), *map(str, args)], capture_output=True, text=True, timeout=timeout, check=False
    )


def analyze_json(*args: str | Path) -> dict[str, Any]:
    """``arena analyze ... --json``, which must succeed; its JSON."""
    run = arena("analyze", *args, "--json")
    assert run.returncode == 0, run.stderr
    data: dict[str, Any] = json.loads(run.stdout)
    return data


@pytest.fixture(scope="session")
def real_logs(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    """Every match of ``MATCHES``, two at a time: the log of each."""
    root = tmp_path_factory.mktemp("analyze-logs")
    logs: dict[str, Path] = {}
    names = list(MATCHES)
    for batch in (names[k : k + 2] for k in range(0, len(names), 2)):
        running = {}
        for name in batch:
            folder = root / name
            argv = [str(ARENA), "match", *MATCHES[name], "--log-dir", str(folder)]
            running[name] = (folder, subprocess.Popen(argv, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True))
        for name, (folder, proc) in running.items():
            out, err = proc.communicate(timeout=300)
            assert proc.returncode == 0, f"arena match for {name} failed: {err or out}"
            (log,) = folder.glob("*.jsonl")
            logs[name] = log
    return logs


@pytest.fixture(scope="session")
def tournament(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A tournament folder: rules against shaky, one duplicate pair of short games."""
    folder = tmp_path_factory.mktemp("analyze-tournament") / "t"
    run = arena("tournament", "-b", RULES, "-b", SHAKY, "-r", "hand_limit=2", "--seed", "31", "--out", folder)
    assert run.returncode == 0, run.stderr
    return folder
