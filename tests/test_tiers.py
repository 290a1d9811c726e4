"""The suite's two tiers (tests/conftest.py): a test is of the in-process tier unless ``PROCESSES`` names it, and
there the guard (tests/support/inprocess.py) fails it when it starts a process or opens a socket, even when the
code under test caught the error."""

from __future__ import annotations

import asyncio
import multiprocessing
import os
import re
import socket
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

import grpc.aio
import pytest

from tests.conftest import PROCESSES, SERIAL, SLOWEST, listed
from tests.support import inprocess

TESTS = Path(__file__).parent


async def _a_subprocess() -> None:
    await asyncio.create_subprocess_exec(sys.executable, "-c", "pass")


async def _a_server() -> None:
    await asyncio.start_server(lambda reader, writer: None, "127.0.0.1", 0)


async def _a_grpc_server() -> None:
    grpc.aio.server()


WAYS_OUT: list[tuple[str, Callable[[], object]]] = [
    ("a subprocess", lambda: subprocess.run([sys.executable, "-c", "pass"], check=False)),
    ("a subprocess", lambda: asyncio.run(_a_subprocess())),
    ("a process (multiprocessing)", lambda: multiprocessing.get_context("spawn").Process(target=print).start()),
    ("a process (posix_spawn)", lambda: os.posix_spawn("/bin/true", ["true"], {})),
    ("a shell", lambda: os.system("true")),
    ("a socket bound", lambda: socket.socket().bind(("127.0.0.1", 0))),
    ("a socket bound", lambda: asyncio.run(_a_server())),
    ("a socket connected", lambda: socket.create_connection(("127.0.0.1", 9), timeout=1)),
    ("a gRPC server", lambda: asyncio.run(_a_grpc_server())),
    ("a gRPC channel", lambda: grpc.aio.insecure_channel("127.0.0.1:9")),
]


@pytest.mark.parametrize(("what", "start"), WAYS_OUT, ids=[f"{n}-{what}" for n, (what, _) in enumerate(WAYS_OUT)])
def test_a_guarded_phase_that_leaves_the_process_fails_saying_how(what: str, start: Callable[[], object]) -> None:
    message = f"this test started {re.escape(what)}: .*tests/conftest.py PROCESSES"
    with pytest.raises(pytest.fail.Exception, match=message), inprocess.guarding():
        start()


def test_the_guard_holds_when_the_code_under_test_swallows_the_error() -> None:
    with pytest.raises(pytest.fail.Exception, match="this test started a subprocess"), inprocess.guarding():
        try:
            subprocess.run(["true"], check=False)
        except RuntimeError:
            print("the code under test carries on")


def test_asyncio_runs_in_the_fast_tier_and_a_failure_of_its_own_stays_itself() -> None:
    """An event loop (its own socketpair) is no way out; an error that is not the guard's comes through as is."""
    with inprocess.guarding():
        assert asyncio.run(asyncio.sleep(0, result=7)) == 7
    with pytest.raises(ZeroDivisionError), inprocess.guarding():
        _ = 1 / 0


def test_this_test_runs_guarded(request: pytest.FixtureRequest) -> None:
    assert request.node.get_closest_marker("processes") is None
    assert inprocess._started == []  # this phase is guarded, and nothing has left the process
    assert hasattr(os.fork, "__wrapped__")  # every way out is wrapped for the session


def test_an_entry_names_a_folder_a_file_or_a_test() -> None:
    entries = {"tests/report/", "tests/test_readme.py", "tests/sdk/test_simulator.py::test_worker"}
    assert listed("tests/report/test_live.py::test_x", entries)
    assert listed("tests/test_readme.py::test_y[a-b]", entries)
    assert listed("tests/sdk/test_simulator.py::test_worker[indiana]", entries)
    assert not listed("tests/sdk/test_simulator.py::test_worker_processes", entries)
    assert not listed("tests/sdk/test_simulator.py::test_every_bot_kind", entries)
    assert not listed("tests/reporting/test_z.py::test_z", entries)


def test_every_entry_names_what_is_there() -> None:
    """An entry left behind by a move or a rename would leave its tests in the fast tier, where the guard fails
    them: this says which entry first."""
    for entry in PROCESSES | SERIAL | set(SLOWEST):
        path, _, name = entry.partition("::")
        assert (TESTS.parent / path).exists(), entry
        if name:
            assert f"def {name}(" in (TESTS.parent / path).read_text(), entry


def test_the_run_goes_file_by_file_the_slowest_files_first(request: pytest.FixtureRequest) -> None:
    """The order tests/conftest.py gives the run (make test's workers take the files in it): a file's tests
    together, the files of SLOWEST first and longest first, the in-process files last."""
    paths = [item.nodeid.split("::", 1)[0] for item in request.session.items]
    files = list(dict.fromkeys(paths))
    assert paths == sorted(paths, key=files.index)  # each file's tests are one stretch of the run
    slowest = [path for path in files if path in SLOWEST]
    assert files[: len(slowest)] == sorted(slowest, key=SLOWEST.index)
    in_process = [
        all(
            item.get_closest_marker("processes") is None
            for item in request.session.items
            if item.nodeid.startswith(f"{path}::")
        )
        for path in files[len(slowest) :]
    ]
    assert in_process == sorted(in_process)  # the files with tests of the process tier, then the others
