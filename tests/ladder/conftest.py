"""A ladder played once for the tests of this folder that only read it (standings, check, the page)."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.support.arena import FIRST, RANDOM, RULES, SHAKY
from tests.support.browser import browser  # noqa: F401  (the fixture)
from tests.support.ladder import ladder, make_ladder


@pytest.fixture(scope="package")
def played(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """Four bots, one of them in two versions (the second added after some games), played for 24 games on two
    tables."""
    folder = tmp_path_factory.mktemp("ladder") / "club"
    make_ladder(folder, RANDOM, FIRST, RULES)
    run = ladder("run", folder, "--games", "14", "-j", "2")
    assert run.returncode == 0, run.stderr
    add = ladder("add", folder, SHAKY.replace("shaky=", "rules=") + " --random-share 0.05")
    assert add.returncode == 0, add.stderr
    run = ladder("run", folder, "--games", "10", "-j", "2")
    assert run.returncode == 0, run.stderr
    return folder
