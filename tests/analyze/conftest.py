"""Logs for the analysis tests, made by real ``arena match`` and ``arena tournament`` runs.

``real_logs`` runs each match of ``MATCHES`` once per session (the referee, a
process per seat): the rules bot against the shaky bot (the rules bot with a
random card now and then), short games (a hand limit), on presets of four,
six and three seats. ``tournament`` is a two-game tournament folder.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.support.analyze import MATCHES
from tests.support.arena import RULES, SHAKY, arena, run_matches


@pytest.fixture(scope="session")
def real_logs(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    """Every match of ``MATCHES``, two at a time: the log of each."""
    return run_matches(tmp_path_factory.mktemp("analyze-logs"), MATCHES)


@pytest.fixture(scope="session")
def tournament(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A tournament folder: rules against shaky, one duplicate pair of short games."""
    folder = tmp_path_factory.mktemp("analyze-tournament") / "t"
    run = arena("tournament", "-b", RULES, "-b", SHAKY, "-r", "hand_limit=2", "--seed", "31", "--out", folder)
    assert run.returncode == 0, run.stderr
    return folder
