"""Fixtures shared by the tournament tests."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.support.arena import arena
from tests.support.tournament import SCALE_ARGS


@pytest.fixture(scope="session")
def scale_plain(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """SCALE_ARGS played on two tables in one referee process (--workers 1): what --workers and --ray must match."""
    folder = tmp_path_factory.mktemp("plain") / "t"
    run = arena("tournament", *SCALE_ARGS, "-j", "2", "--workers", "1", "--out", str(folder))
    assert run.returncode == 0, run.stderr
    assert "worker processes" not in run.stdout and " on Ray" not in run.stdout
    return folder
