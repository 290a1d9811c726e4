"""Settings for the whole suite."""

from __future__ import annotations

import os
import signal

import pytest

# pytest-xdist's workers get COLUMNS=80 in their environment; the arena's consoles (made when referee.cli.app
# is imported) would take it as their fixed width, and the tests that give a command COLUMNS of their own
# (CliRunner's env) would not be heard. The suite runs as it does without workers: no COLUMNS of its own.
if os.environ.get("PYTEST_XDIST_WORKER"):
    os.environ.pop("COLUMNS", None)

# The helpers every test folder shares (tests/support) fail with pytest's own account of a failed assert,
# as a test does: their asserts are rewritten when they are imported, which is after this file.
pytest.register_assert_rewrite("tests.support")

# A suite started in the background by a non-interactive shell (`nohup make test &`) inherits
# SIGINT ignored, and every referee, tournament and bot it starts would inherit that too: the
# Ctrl-C tests need the signal delivered. A handler (not SIG_IGN) becomes the default in a child.
if signal.getsignal(signal.SIGINT) is signal.SIG_IGN:
    signal.signal(signal.SIGINT, signal.default_int_handler)

# Tests that measure time or CPU against a machine they expect to have to themselves (two tables pinned to
# one CPU, a bot's own children on a loaded machine, the referee's memory, a node of a Ray cluster killed
# mid-game): `make test` runs them after the rest, one at a time, while the rest runs on two workers.
SERIAL = {
    "tests/tournament/test_timing.py",
    "tests/referee/test_startup_allowance.py",
    "tests/hostile/test_time.py",
    "tests/hostile/test_memory.py",
    "tests/tournament/test_ray.py",
}


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    for item in items:
        if item.nodeid.split("::", 1)[0] in SERIAL:
            item.add_marker(pytest.mark.serial)
