"""A pytest plugin that writes, for every test, its wall time and the CPU time it cost, children included.

``bench/suite.py`` loads it (``-p bench.suite_cpu``, from the checkout) and reads what it writes. The CPU
time of a test is that of its worker process and of everything the test started (the ``arena`` command, bots, their
sandboxes, Chromium, Ray, compilers), whether or not those processes were waited for: each worker process moves
itself into a cpuacct control group of its own (cgroup v1, ``/sys/fs/cgroup/cpuacct``), which every process it
starts inherits, and a test's CPU time is the group's usage at its end less that at its start.
``resource.getrusage`` would miss the processes nobody waited for (a bot killed by a referee that is itself killed,
Chromium's helpers), which made the suite look as if it waited two thirds of its time when it was bound by the CPU.

Where the control group cannot be made (not root, no cgroup v1 cpuacct), the plugin says so and records the CPU time
of the worker and of its waited-for children instead, each line marked ``"whole": false``.

One JSON object a line, appended to the file named by ``ARENA_CPU_PROFILE``: the worker (``gw0`` ..., or ``main``),
the test's node id, its start and end (Unix time) and its CPU seconds.
"""

from __future__ import annotations

import json
import os
import resource
import time
from pathlib import Path

import pytest

CGROUPS = Path("/sys/fs/cgroup/cpuacct")
OUT = os.environ.get("ARENA_CPU_PROFILE", "")
WORKER = os.environ.get("PYTEST_XDIST_WORKER", "main")
_group: Path | None = None
_controller = False  # the process of pytest-xdist that hands tests out: its workers write the lines
_started: dict[str, tuple[float, float]] = {}


def _own_group() -> Path | None:
    """This worker's control group, with this process in it; None where one cannot be made."""
    group = CGROUPS / f"arena-suite-{os.getppid()}-{WORKER}"
    try:
        group.mkdir(exist_ok=True)
        (group / "cgroup.procs").write_text(str(os.getpid()))
        (group / "cpuacct.usage").read_text()
    except OSError:
        return None
    return group


def _cpu_seconds() -> float:
    if _group is not None:
        return int((_group / "cpuacct.usage").read_text()) / 1e9
    own, kids = resource.getrusage(resource.RUSAGE_SELF), resource.getrusage(resource.RUSAGE_CHILDREN)
    return own.ru_utime + own.ru_stime + kids.ru_utime + kids.ru_stime


def pytest_configure(config: pytest.Config) -> None:
    global _group, _controller
    if not OUT:
        raise pytest.UsageError("suite_cpu: set ARENA_CPU_PROFILE to the file to write")
    _controller = WORKER == "main" and bool(getattr(config.option, "numprocesses", None))
    if _controller:
        return
    _group = _own_group()
    if _group is None and WORKER in ("main", "gw0"):
        print(f"suite_cpu: no cpuacct control group under {CGROUPS}: CPU times leave out processes not waited for")


def pytest_runtest_logstart(nodeid: str, location: object) -> None:
    if _controller:
        return
    _started[nodeid] = (time.time(), _cpu_seconds())


def pytest_runtest_logfinish(nodeid: str, location: object) -> None:
    if nodeid not in _started:
        return
    start, cpu = _started.pop(nodeid)
    line = {"worker": WORKER, "test": nodeid, "start": start, "end": time.time(), "cpu": _cpu_seconds() - cpu}
    line["whole"] = _group is not None
    with open(OUT, "a") as f:
        f.write(json.dumps(line) + "\n")


def pytest_unconfigure(config: pytest.Config) -> None:
    if _group is not None:  # leave the group (an empty one can go); its processes are gone or go with the run
        try:
            (CGROUPS / "cgroup.procs").write_text(str(os.getpid()))
            _group.rmdir()
        except OSError:
            pass
