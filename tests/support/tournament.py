"""``arena tournament`` as the tournament, report and sandbox tests run it: quick games of named bots."""

from __future__ import annotations

import subprocess
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from tests.support.arena import FIRST, QUICK, RANDOM, TESTS, arena, bot, script_bot

# the tournament tests' own bots (slow, crashing, busy ...)
BOTS = TESTS / "tournament" / "bots"


def tournament_bot(name: str, script: str, *args: str) -> str:
    """NAME=COMMAND of a bot in tests/tournament/bots."""
    return script_bot(name, BOTS / script, *args)


def tournament(
    folder: Path | None, *args: str, bots: Sequence[str] = (RANDOM, FIRST), quick: bool = True, **kw: Any
) -> subprocess.CompletedProcess[str]:
    """``arena tournament`` of ``bots`` (NAME=COMMAND) in ``folder``, quick games unless ``quick`` is off."""
    argv = ["tournament", *(QUICK if quick else []), *(a for b in bots for a in ("--bot", b)), *args]
    return arena(*argv, *(["--out", str(folder)] if folder is not None else []), **kw)


# a tournament of deterministic bots for --workers and --ray: 12 quick games
SCALE_ARGS = [*QUICK, "--bot", RANDOM, "--bot", FIRST, "--bot", bot("other"), "-n", "4", "--seed", "5"]
