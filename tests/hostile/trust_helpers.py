"""Shared by the hostile-bot tests: the referee tests' helpers, importable by name, and the bots here."""

from __future__ import annotations

import os
import re
import sys
from pathlib import Path

HERE = Path(__file__).parent
BOTS = HERE / "bots"
for _tests in ("referee", "tournament"):
    if str(HERE.parent / _tests) not in sys.path:
        sys.path.append(str(HERE.parent / _tests))

from arena_helpers import (  # noqa: E402
    ARENA,
    RANDOM,
    RECORDING,
    alive,
    children_of,
    faulty,
    in_process,
    records,
    run_async,
    run_match,
    start_serve,
)
from tournament_helpers import results, standings, tournament  # noqa: E402

def processes_with(marker: str) -> list[int]:
    """Live processes whose command line holds ``marker`` (a bot's tag; works across PID namespaces)."""
    found = []
    for entry in os.listdir("/proc"):
        if entry.isdigit() and int(entry) != os.getpid():
            try:
                cmdline = Path(f"/proc/{entry}/cmdline").read_bytes()
            except OSError:
                continue
            if marker.encode() in cmdline and alive(int(entry)):
                found.append(int(entry))
    return found


# a card as the log writes it (rank, suit): every place a card can appear in a record
CARD = re.compile(r"\b[2-9TJQKA][SHDC]\b")

__all__ = [
    "ARENA",
    "BOTS",
    "CARD",
    "RANDOM",
    "RECORDING",
    "alive",
    "children_of",
    "faulty",
    "in_process",
    "processes_with",
    "records",
    "results",
    "run_async",
    "run_match",
    "standings",
    "start_serve",
    "tournament",
]
