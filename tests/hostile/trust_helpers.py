"""Shared by the hostile-bot tests: the referee tests' helpers, importable by name, and the bots here."""

from __future__ import annotations

import re
import sys
from pathlib import Path

HERE = Path(__file__).parent
BOTS = HERE / "bots"
_referee_tests = str(HERE.parent / "referee")
if _referee_tests not in sys.path:
    sys.path.append(_referee_tests)

from arena_helpers import (  # noqa: E402
    ARENA,
    RANDOM,
    alive,
    children_of,
    faulty,
    in_process,
    records,
    run_async,
    run_match,
    start_serve,
)

# a card as the log writes it (rank, suit): every place a card can appear in a record
CARD = re.compile(r"\b[2-9TJQKA][SHDC]\b")

__all__ = [
    "ARENA",
    "BOTS",
    "CARD",
    "RANDOM",
    "start_serve", "alive", "children_of", "faulty", "in_process", "records", "run_async", "run_match"]
