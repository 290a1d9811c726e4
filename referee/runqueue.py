"""Time a bot spent ready to run but without a CPU because of others (Linux's run-queue delay).

When the machine is oversubscribed (more busy threads than CPUs: parallel
tables, other bots thinking on every core, other work), a bot that would
answer in time can be late only because it waited for a CPU. The referee
gives that time back at the deadline (``Connection.ask``), as it gives back
the lag of its own event loop: the bot is charged for the time it had, not
for the time the machine withheld.

Load a bot makes itself earns it nothing. The kernel counts, per thread, the
nanoseconds spent on a CPU and waiting on a run queue (the first two fields
of ``/proc/PID/task/TID/schedstat``). ``WaitClock`` reads both for every
thread of the bot's process and of each process under it (a bot started
through a wrapper such as ``uv run``, and whatever the bot starts). Only the
threads of the processes that hold a socket, the ones that can talk to the
referee and so answer it, earn time back: the longest wait of one of them,
less the CPU time every other thread of the tree used meanwhile (each of
those seconds may have been taken from the waiting thread by the bot
itself). So a bot that keeps its own child processes or threads busy gets no
time back for them (issue 10, item 4), nor for the waits of its busy
children when others load the machine (issue 19, item 5: their waits were
given back, and such a bot answered at 1.6 times the move time without a
timeout), while a single-threaded bot kept waiting by other tables gets
nearly all of its wait.

Only processes under the bot are seen: a child that leaves the tree (by
double-forking) is invisible here, which the sandbox prevents (its PID
namespace keeps every process under the bot). The files stay open, so a
sample costs one ``pread`` per thread. Where they do not exist (not Linux, no
schedstats), samples are empty and nothing is given back.
"""

from __future__ import annotations

import contextlib
import os

Sample = dict[int, tuple[int, int]]  # thread id -> (nanoseconds on a CPU, nanoseconds waiting for one) so far


class WaitClock:
    """The run-queue delay of one process tree (every thread of ``pid`` and of its descendants)."""

    def __init__(self, pid: int) -> None:
        self.pid = pid
        self._files: dict[int, int] = {}  # thread id -> open schedstat file
        self._answering: set[int] = set()  # threads of the processes holding a socket, at the last refresh

    def sample(self) -> Sample:
        """Each known thread's CPU and wait times so far (threads known at the last refresh)."""
        if not self._files:
            self.refresh()
        out: Sample = {}
        gone = []
        pread = os.pread
        for tid, fd in self._files.items():  # one per request: kept lean
            try:
                run, wait, _ = pread(fd, 128, 0).split(None, 2)
                out[tid] = (int(run), int(wait))
            except (OSError, ValueError):  # the thread is gone
                gone.append(tid)
        for tid in gone:
            self._forget(tid)
        return out

    def waited_since(self, before: Sample) -> tuple[float, Sample]:
        """Seconds owed to the bot since ``before`` (see the module's docstring), and a new sample.

        A thread started since ``before`` counts whole.
        """
        self.refresh()
        now = self.sample()
        ran = {tid: max(0, run - before.get(tid, (0, 0))[0]) for tid, (run, _) in now.items()}
        waited = {tid: max(0, wait - before.get(tid, (0, 0))[1]) for tid, (_, wait) in now.items()}
        candidates = [tid for tid in waited if tid in self._answering]
        if not candidates:
            return 0.0, now
        longest = max(candidates, key=waited.__getitem__)
        own_load = sum(ran.values()) - ran[longest]
        return max(0, waited[longest] - own_load) / 1e9, now

    def refresh(self) -> None:
        """Find the tree's threads again: open the new ones, drop the ones that ended."""
        threads, answering = _threads(self.pid)
        self._answering = answering
        for tid in set(threads) - set(self._files):
            with contextlib.suppress(OSError):
                self._files[tid] = os.open(threads[tid], os.O_RDONLY | os.O_CLOEXEC)
        for tid in set(self._files) - set(threads):
            self._forget(tid)

    def close(self) -> None:
        for tid in list(self._files):
            self._forget(tid)

    def _forget(self, tid: int) -> None:
        fd = self._files.pop(tid, None)
        if fd is not None:
            with contextlib.suppress(OSError):
                os.close(fd)


def _threads(pid: int) -> tuple[dict[int, str], set[int]]:
    """Every thread of ``pid`` and of its descendants (a few levels deep), with its schedstat path; and
    the threads of those processes that hold a socket."""
    paths: dict[int, str] = {}
    answering: set[int] = set()
    todo = [(pid, 0)]
    while todo:
        proc, depth = todo.pop()
        try:
            tids = os.listdir(f"/proc/{proc}/task")
        except OSError:
            continue
        mine = {int(tid): f"/proc/{proc}/task/{tid}/schedstat" for tid in tids}
        paths |= mine
        if _holds_socket(proc):
            answering |= set(mine)
        if depth >= 4:
            continue
        for tid in tids:
            try:
                with open(f"/proc/{proc}/task/{tid}/children", "rb") as f:
                    todo += [(int(c), depth + 1) for c in f.read().split()]
            except (OSError, ValueError):
                continue
    return paths, answering


def _holds_socket(pid: int) -> bool:
    """Whether the process has a socket open (the referee's stream is one); False where that cannot be read."""
    folder = f"/proc/{pid}/fd"
    try:
        fds = os.listdir(folder)
    except OSError:
        return False
    for fd in fds:
        try:
            if os.readlink(f"{folder}/{fd}").startswith("socket:"):
                return True
        except OSError:
            continue
    return False
