"""What the analysis tests share: the matches they play, ``arena analyze --json``."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from tests.support.arena import FIRST, RULES, SHAKY, arena

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
        FIRST,
        "-r",
        "hand_limit=2",
        "--seed",
        "24",
    ),
}


def analyze_json(*args: str | Path) -> dict[str, Any]:
    """``arena analyze ... --json``, which must succeed; its JSON."""
    run = arena("analyze", *args, "--json", timeout=600)
    assert run.returncode == 0, run.stderr
    data: dict[str, Any] = json.loads(run.stdout)
    return data
