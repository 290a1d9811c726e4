"""``arena tournament`` as the tournament, report and sandbox tests run it: quick games of named bots."""

from __future__ import annotations

import json
import subprocess
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

import pytest

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

# five deterministic bots for the formats played in rounds (a Swiss with a bye each round, a knockout with byes)
FIVE = ["--bot", RANDOM, "--bot", FIRST, "--bot", bot("r2"), "--bot", bot("f2", "first_bot"), "--bot", bot("r3")]


def play_each(
    tmp_path_factory: pytest.TempPathFactory, runs: Mapping[str, Sequence[str]], *more: str
) -> dict[str, Path]:
    """``arena tournament ARGS MORE`` for each NAME: ARGS of ``runs``, each in a folder of its own, which must
    succeed; the folders."""
    out = {}
    for name, args in runs.items():
        folder = tmp_path_factory.mktemp("run") / name
        run = arena("tournament", *args, *more, "--out", str(folder))
        assert run.returncode == 0, run.stderr
        out[name] = folder
    return out


def summary(folder: Path) -> dict[str, Any]:
    """standings.json, the summary with its rows."""
    data: dict[str, Any] = json.loads((folder / "standings.json").read_text())
    return data
