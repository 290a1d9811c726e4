"""Time a bot spent ready to run but without a CPU (Linux's run-queue delay).

When the machine is oversubscribed (more busy threads than CPUs: parallel
tables, bots that think on every core, other work), a bot that would answer
in time can be late only because it waited for a CPU. The referee gives that
time back at the deadline (``Connection.ask``), as it gives back the lag of
its own event loop: the bot is charged for the time it had, not for the time
the machine withheld.

The kernel counts, per thread, the nanoseconds spent waiting on a run queue
(the second field of ``/proc/PID/schedstat``). ``WaitClock`` sums that over
the main thread of the bot's process and of each process under it (a bot
started through a wrapper such as ``uv run``): the thread that reads the
request, thinks and answers in most bots. The files stay open, so a sample
costs one ``pread`` per process. Where they do not exist (not Linux, no
schedstats), samples are empty and nothing is given back.
"""

from __future__ import annotations

import contextlib
import os

Sample = dict[int, int]  # pid -> nanoseconds its main thread has waited so far


class WaitClock:
    """The run-queue delay of one process tree (the main thread of ``pid`` and of its descendants)."""

    def __init__(self, pid: int) -> None:
        self.pid = pid
        self._files: dict[int, int] = {}  # pid -> open schedstat file

    def sample(self) -> Sample:
        """Nanoseconds waited so far, per process (those known at the last refresh)."""
        if not self._files:
            self.refresh()
        out: Sample = {}
        for pid, fd in list(self._files.items()):
            try:
                out[pid] = int(os.pread(fd, 128, 0).split()[1])
            except (OSError, ValueError, IndexError):  # the process is gone
                self._forget(pid)
        return out

    def waited_since(self, before: Sample) -> tuple[float, Sample]:
        """Seconds waited since ``before`` (a process started since then counts whole), and a new sample."""
        self.refresh()
        now = self.sample()
        nanoseconds = sum(max(0, value - before.get(pid, 0)) for pid, value in now.items())
        return nanoseconds / 1e9, now

    def refresh(self) -> None:
        """Find the tree's processes again: open the new ones, drop the ones that ended."""
        alive = set(_tree(self.pid))
        for pid in alive - set(self._files):
            with contextlib.suppress(OSError):
                self._files[pid] = os.open(f"/proc/{pid}/schedstat", os.O_RDONLY | os.O_CLOEXEC)
        for pid in set(self._files) - alive:
            self._forget(pid)

    def close(self) -> None:
        for pid in list(self._files):
            self._forget(pid)

    def _forget(self, pid: int) -> None:
        fd = self._files.pop(pid, None)
        if fd is not None:
            with contextlib.suppress(OSError):
                os.close(fd)


def _tree(pid: int, depth: int = 0) -> list[int]:
    """``pid`` and its descendants (a few levels deep); empty when ``pid`` is gone."""
    try:
        tids = os.listdir(f"/proc/{pid}/task")
    except OSError:
        return []
    out = [pid]
    if depth < 4:
        for tid in tids:
            try:
                with open(f"/proc/{pid}/task/{tid}/children", "rb") as f:
                    children = [int(c) for c in f.read().split()]
            except (OSError, ValueError):
                continue
            for child in children:
                out += _tree(child, depth + 1)
    return out
