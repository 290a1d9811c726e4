"""Logs for the analysis tests, made by real ``arena match`` and ``arena tournament`` runs.

``real_logs`` runs each match of ``MATCHES`` once per session (the referee, a
process per seat): the rules bot against the shaky bot (the rules bot with a
random card now and then), short games (a hand limit), on presets of four,
six and three seats. ``tournament`` is a two-game tournament folder.

The engine-built positions of ``tests/bots/bot_positions.py`` are shared with
the bots' tests: this folder puts that folder on the import path.
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest
from analyze_helpers import ARENA, MATCHES, RULES, SHAKY, arena

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "bots"))  # bot_positions, when tests/bots is not run


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
