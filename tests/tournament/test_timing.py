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

from tournament_helpers import children_of, results, run_async, script_bot, tournament

from referee.runqueue import WaitClock
from referee.server import Closed, Connection, Limits, Player

SPIN = [sys.executable, "-c", "while True: pass"]
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
    with processes(SPIN, SPIN, cpus=ONE_CPU) as (spinner, _):
        clock = WaitClock(spinner.pid)
        before = clock.sample()
        time.sleep(0.6)
        waited, _ = clock.waited_since(before)
        clock.close()
    assert 0.15 < waited < 0.7
    # a sleeping process is not waiting for a CPU
    with processes(["sleep", "5"]) as (sleeper,):
        clock = WaitClock(sleeper.pid)
        before = clock.sample()
        time.sleep(0.3)
        waited, _ = clock.waited_since(before)
        clock.close()
    assert waited < 0.05


def test_the_wait_clock_follows_a_bot_started_through_a_wrapper() -> None:
    wrapper = ["sh", "-c", f"{sys.executable} -c 'while True: pass' & wait"]
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


def deadline_outcome(pid: int, wait_s: float) -> list[object]:
    """Sample the bot, let ``wait_s`` pass, fire its deadline on time: is the answer still awaited?"""

    async def go() -> list[object]:
        loop = asyncio.get_running_loop()
        player = Player("p", "x")
        player.wait_clock = WaitClock(pid)
        conn = Connection(player, None, Limits())  # type: ignore[arg-type]
        fut: asyncio.Future[object] = loop.create_future()
        waited = player.wait_clock.sample()
        await asyncio.sleep(wait_s)
        conn._deadline(fut, loop.time(), 0.3, waited)  # on time: the loop was not late
        await asyncio.sleep(0)  # time is called a loop turn later (an answer on its way comes first)
        seen = [fut.done()]
        await asyncio.sleep(0.35)
        seen.append(fut.done() and fut.result())
        player.wait_clock.close()
        return seen

    return run_async(go())


def test_a_deadline_gives_back_the_time_the_bot_had_no_cpu() -> None:
    with processes(SPIN, SPIN, cpus=ONE_CPU) as (starved, _):
        assert deadline_outcome(starved.pid, 0.4) == [False, Closed.TIMEOUT]  # extended, at most one more limit
    with processes(["sleep", "5"]) as (idle,):
        assert deadline_outcome(idle.pid, 0.4) == [True, Closed.TIMEOUT]  # nothing to give back


@contextmanager
def one_busy_cpu() -> Iterator[set[int]]:
    """One CPU with a spinning process on it: an arena pinned there shares it three ways with two thinking bots."""
    with processes(SPIN, cpus=ONE_CPU):
        yield ONE_CPU


def busy(name: str, share: str, mode: str) -> str:
    return script_bot(name, "busy_bot.py", share, mode)


def busy_tournament(folder: Path, *bots: str, args: tuple[str, ...] = ()) -> list[dict[str, object]]:
    """Two tables of bots at 100 ms a decision, the arena pinned to one busy CPU; the timeouts recorded."""
    with one_busy_cpu() as cpus:
        run = tournament(folder, "--move-time", "100", "-n", "2", "-j", "2", *args, bots=bots, cpus=cpus)
    assert run.returncode == 0, run.stderr
    assert len(results(folder)) == 2
    return [v for r in results(folder) for v in r["violations"] if v["kind"] == "timeout"]


def test_bots_that_think_almost_all_their_time_are_not_forfeited_on_two_busy_tables(tmp_path: Path) -> None:
    # Each decision costs a bot 90% of its 100 ms limit in CPU time; with a third of a CPU it needs about
    # 270 ms on the clock, past the limit and its grace: only the time it waited for the CPU is given back.
    folder = tmp_path / "busy"
    bots = (busy("busy1", "0.9", "cpu"), busy("busy2", "0.9", "cpu"))
    assert busy_tournament(folder, *bots, args=("--rule", "hand_limit=1", "--on-fault", "default")) == []
    assert all(r["decisions"] > 20 for r in results(folder))


def test_a_bot_that_is_late_by_itself_still_loses_on_time_under_load(tmp_path: Path) -> None:
    folder = tmp_path / "late"
    late = busy_tournament(folder, busy("late", "3", "sleep"), busy("busy", "0.9", "cpu"))
    assert len(late) == 2 and {v["bot"] for v in late} == {"late"}
    assert all(r["forfeit"] == r["teams"].index("late") for r in results(folder))
