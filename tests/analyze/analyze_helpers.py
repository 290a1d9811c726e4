"""What the analysis tests share: the arena command, the matches they play, ``arena analyze --json``."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any

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
    return subprocess.run([str(ARENA), *map(str, args)], capture_output=True, text=True, timeout=timeout, check=False)


def analyze_json(*args: str | Path) -> dict[str, Any]:
    """``arena analyze ... --json``, which must succeed; its JSON."""
    run = arena("analyze", *args, "--json")
    assert run.returncode == 0, run.stderr
    data: dict[str, Any] = json.loads(run.stdout)
    return data
