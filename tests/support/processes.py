"""Processes as the kernel shows them (/proc), and waiting for a state with a deadline.

Every wait here polls a state until it holds or its deadline passes (then it fails saying what it
waited for): a test waits for what it needs, never for a fixed time.
"""

from __future__ import annotations

import asyncio
import os
import time
from collections.abc import Callable
from pathlib import Path


def state_of(pid: int | str) -> str:
    """The state letter of ``/proc/PID/stat`` (``Z``: a zombie); OSError when there is no such process."""
    return Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]


def alive(pid: int) -> bool:
    """True while ``pid`` exists and is not a zombie."""
    try:
        return state_of(pid) != "Z"
    except OSError:
        return False


def children_of(pid: int) -> list[int]:
    """The processes whose parent is ``pid``, now."""
    kids = []
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            stat = Path(f"/proc/{entry}/stat").read_text()
        except OSError:
            continue
        if int(stat.rsplit(")", 1)[1].split()[1]) == pid:
            kids.append(int(entry))
    return kids


def descendants(pid: int) -> list[int]:
    """Every live process under ``pid`` (children, their children ...), as the kernel sees them now."""
    out, todo = [], [pid]
    while todo:
        parent = todo.pop()
        try:
            tasks = os.listdir(f"/proc/{parent}/task")
        except OSError:
            continue
        for tid in tasks:
            try:
                children = [int(c) for c in Path(f"/proc/{parent}/task/{tid}/children").read_text().split()]
            except (OSError, ValueError):
                continue
            out += children
            todo += children
    return out


def with_marker_in_cmdline(marker: str) -> list[int]:
    """Every live process but this one whose command line holds ``marker`` (a referee, launchers, bots ...)."""
    pids = []
    for entry in os.listdir("/proc"):
        if not entry.isdigit() or int(entry) == os.getpid():
            continue
        try:
            if marker.encode() in Path(f"/proc/{entry}/cmdline").read_bytes() and state_of(entry) != "Z":
                pids.append(int(entry))
        except OSError:
            continue
    return pids


def command_line(pid: int) -> str:
    """``PID: COMMAND LINE``, or ``PID: gone``."""
    try:
        return f"{pid}: " + Path(f"/proc/{pid}/cmdline").read_bytes().replace(b"\0", b" ").decode(errors="replace")
    except OSError:
        return f"{pid}: gone"


# ------------------------------------------------------------ waiting

POLL_S = 0.02


# what a wait is for, said when it fails: text, or a function giving it then (what is left, say)
What = str | Callable[[], str]


def _timed_out(what: What, within_s: float) -> str:
    return f"timed out after {within_s} s waiting for {what if isinstance(what, str) else what()}"


def wait_for(condition: Callable[[], object], what: What, within_s: float = 60) -> None:
    """Return once ``condition()`` is true; fail saying ``what`` if it is not within ``within_s``."""
    deadline = time.monotonic() + within_s
    while not condition():
        assert time.monotonic() < deadline, _timed_out(what, within_s)
        time.sleep(POLL_S)


async def until(condition: Callable[[], object], what: What, within_s: float = 10) -> None:
    """``wait_for`` on an event loop: the loop runs on while the condition is polled."""
    deadline = time.monotonic() + within_s
    while not condition():
        assert time.monotonic() < deadline, _timed_out(what, within_s)
        await asyncio.sleep(POLL_S)


def all_gone(pids: list[int], within_s: float = 10) -> bool:
    """True once none of ``pids`` is alive (waiting up to ``within_s``)."""
    deadline = time.monotonic() + within_s
    while any(alive(p) for p in pids):
        if time.monotonic() >= deadline:
            return False
        time.sleep(POLL_S)
    return True


def wait_gone(pids: list[int], within_s: float = 20) -> None:
    """Every one of ``pids`` ends within ``within_s`` (the kernel may take a moment)."""
    assert all_gone(pids, within_s), f"processes outlived the arena: {[command_line(p) for p in pids if alive(p)]}"


def wait_marker_gone(marker: str, within_s: float = 15) -> None:
    """Every process carrying ``marker`` in its command line ends within ``within_s``."""

    def left() -> str:
        return f"these to end: {[command_line(p) for p in with_marker_in_cmdline(marker)]}"

    wait_for(lambda: not with_marker_in_cmdline(marker), left, within_s)
