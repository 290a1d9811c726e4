"""No false time forfeits under load: the referee gives back the time a bot waited for a CPU.

The wait is the kernel's own count (``referee.runqueue``), checked here on
real processes made to share one CPU; then whole tournaments run on two
tables while spinning processes oversubscribe the machine.
"""

from __future__ import annotations

import asyncio
import os
import subprocess
import sys
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from referee.deadline import Deadline
from referee.runqueue import Sample, WaitClock
from tests.support.aio import run_async
from tests.support.logs import results
from tests.support.processes import children_of
from tests.support.tournament import tournament, tournament_bot

SPIN = [sys.executable, "-c", "while True: pass"]
# a bot's process holds its stream, a socket: only such a process has its waits given back
SPIN_ANSWERING = [sys.executable, "-c", "import socket\ns = socket.socketpair()\nwhile True: pass"]
ONE_CPU = {min(os.sched_getaffinity(0))}


@contextmanager
def processes(*argvs: list[str], cpus: set[int] | None = None) -> Iterator[list[subprocess.Popen[bytes]]]:
    procs = [subprocess.Popen(argv) for argv in argvs]
    try:
        if cpus is not None:
            for p in procs:
                os.sched_setaffinity(p.pid, cpus)
        time.sleep(0.3)  # past their start, which may itself wait for a CPU on a busy machine
        yield procs
    finally:
        for p in procs:
            p.kill()
            p.wait()


def test_the_wait_clock_counts_time_without_a_cpu() -> None:
    # two spinning processes on one CPU: each waits about half the time
    with processes(SPIN_ANSWERING, SPIN, cpus=ONE_CPU) as (spinner, _):
        clock = WaitClock(spinner.pid)
        start = time.monotonic()
        before = clock.sample()
        time.sleep(0.6)
        waited, _ = clock.waited_since(before)
        took = time.monotonic() - start  # at least 0.6 s; more where this process itself waited for a CPU
        clock.close()
    # half the time or more (a busier machine makes it wait longer), and never more than the time itself
    assert 0.15 < waited < took + 0.01, (waited, took)
    # a sleeping process is not waiting for a CPU
    with processes(["sleep", "5"]) as (sleeper,):
        clock = WaitClock(sleeper.pid)
        before = clock.sample()
        time.sleep(0.3)
        waited, _ = clock.waited_since(before)
        clock.close()
    assert waited < 0.05


def test_the_wait_clock_follows_a_bot_started_through_a_wrapper() -> None:
    wrapper = ["sh", "-c", f"{sys.executable} -c 'import socket; s = socket.socketpair()\nwhile True: pass' & wait"]
    with processes(wrapper, SPIN, cpus=ONE_CPU) as (shell, _hog):
        deadline = time.monotonic() + 10
        while not children_of(shell.pid):
            assert time.monotonic() < deadline
            time.sleep(0.01)
        (inner,) = children_of(shell.pid)
        os.sched_setaffinity(inner, ONE_CPU)
        clock = WaitClock(shell.pid)
        before = clock.sample()
        time.sleep(0.6)
        waited, _ = clock.waited_since(before)
        clock.close()
        os.kill(inner, 9)
    assert waited > 0.15


class Readings:
    """The run-queue clock of a process, keeping what it reported at each look (``waited_since``)."""

    def __init__(self, pid: int) -> None:
        self.clock = WaitClock(pid)
        self.reported: list[float] = []

    def sample(self) -> Sample:
        return self.clock.sample()

    def waited_since(self, before: Sample) -> tuple[float, Sample]:
        waited, now = self.clock.waited_since(before)
        self.reported.append(waited)
        return waited, now


def deadline_outcome(pid: int, limit_s: float) -> tuple[Deadline, list[float]]:
    """A deadline of ``limit_s`` on the real run-queue clock of ``pid``, run until time is up: the deadline,
    and what the clock reported at each look.

    What is given back is at least what the clock reported, up to one more limit. The test's own loop may
    be late on a busy machine, and that lateness is given back too (a late first look counts as a wait): so
    the checks look at what the clock said and what was given back, not at when time was up."""

    async def go() -> tuple[Deadline, list[float]]:
        loop = asyncio.get_running_loop()
        readings = Readings(pid)
        up = loop.create_future()
        deadline = Deadline(limit_s, lambda: up.set_result(True), clock=readings)
        deadline.start()
        try:
            await asyncio.wait_for(up, 2 * limit_s + 30)
        finally:
            deadline.stop()
            readings.clock.close()
        return deadline, readings.reported

    return run_async(go())


def test_a_deadline_gives_back_the_time_the_bot_had_no_cpu() -> None:
    with processes(SPIN_ANSWERING, SPIN, cpus=ONE_CPU) as (starved, _):
        deadline, reported = deadline_outcome(starved.pid, 0.4)
    # the bot waited for the CPU (about half the limit): what the clock saw before time was up is given back,
    # at most one more limit (a look that gives back nothing, its wait within the slack or the limit given
    # back already, ends the deadline)
    assert sum(reported) > deadline.slack_s, reported
    assert min(sum(reported[:-1]), 0.4) <= deadline.credited + 1e-9 and deadline.credited <= 0.4 + 1e-9, reported
    with processes(["sleep", "5"]) as (idle,):
        deadline, reported = deadline_outcome(idle.pid, 0.4)
    assert all(wait < deadline.slack_s for wait in reported), reported  # nothing to give back


def busy(name: str, share: str, mode: str) -> str:
    return tournament_bot(name, "busy_bot.py", share, mode)


def busy_tournament(folder: Path, *bots: str, move_time: int, args: tuple[str, ...] = ()) -> list[dict[str, object]]:
    """Two tables of single-deck games, the arena and its bots pinned to one CPU; the timeouts recorded. No
    start-up allowance: a one-hand game is all start-up, and what is measured here is each answer's time."""
    settings = (
        "--preset",
        "single-deck",
        "--rule",
        "hand_limit=1",
        "--move-time",
        str(move_time),
        "--startup-allowance",
        "0",
        "-n",
        "2",
        "-j",
        "2",
    )
    run = tournament(folder, *settings, *args, bots=bots, quick=False, cpus=ONE_CPU)
    assert run.returncode == 0, run.stderr
    assert len(results(folder)) == 2
    return [v for r in results(folder) for v in r["violations"] if v["kind"] == "timeout"]


def test_bots_that_think_most_of_their_time_are_not_forfeited_on_two_tables_sharing_a_cpu(tmp_path: Path) -> None:
    # Each decision costs a bot 80% of its 300 ms in CPU time. The two tables' bots think at the same time on
    # one CPU, so each needs about 480 ms on the clock, past the limit and its 100 ms grace: the referee must
    # give back the time the bot waited for the CPU (every decision timed out before it did).
    folder = tmp_path / "busy"
    bots = (busy("busy1", "0.8", "cpu"), busy("busy2", "0.8", "cpu"))
    assert busy_tournament(folder, *bots, move_time=300, args=("--on-fault", "default")) == []
    assert all(r["decisions"] > 20 for r in results(folder))


def test_a_bot_that_is_late_by_itself_still_loses_on_time_on_a_shared_cpu(tmp_path: Path) -> None:
    folder = tmp_path / "late"
    late = busy_tournament(folder, busy("late", "3", "sleep"), busy("busy", "0.8", "cpu"), move_time=100)
    assert len(late) == 2 and {v["bot"] for v in late} == {"late"}
    assert all(r["forfeit"] == r["teams"].index("late") for r in results(folder))


def test_monte_carlo_bots_searching_most_of_their_time_on_two_tables_of_a_loaded_machine(tmp_path: Path) -> None:
    folder = tmp_path / "mc"
    bots = (tournament_bot("mc1", "mc_bot.py", "0.9"), tournament_bot("mc2", "mc_bot.py", "0.9"))
    settings = ("--rule", "hand_limit=2", "--move-time", "100", "--on-fault", "default", "-n", "2", "-j", "2")
    with processes(*[SPIN] * len(os.sched_getaffinity(0))):  # as many other busy processes as CPUs
        run = tournament(folder, *settings, bots=bots, quick=False)
    assert run.returncode == 0, run.stderr
    recs = results(folder)
    assert len(recs) == 2 and all(r["decisions"] > 40 for r in recs)
    assert [v for r in recs for v in r["violations"]] == []
