"""Shared by the hostile-bot tests: the referee tests' helpers, importable by name, and the bots here."""

from __future__ import annotations

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
    "records",
    "results",
    "run_async",
    "run_match",
    "standings",
    "start_serve",
    "tournament",
]
