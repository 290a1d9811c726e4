"""``arena analyze`` on a real pseudo-terminal: a progress bar while it works; Ctrl-C stops it in one line.

On a terminal the progress bar counts the decisions analysed (it is drawn on
stderr, so ``--json`` output stays clean, and not at all when stderr is not a
terminal). Ctrl-C, as a terminal sends it, reaches the arena and its worker
processes alike: the arena stops the pool, says in one line that nothing was
written and exits with status 130; no worker is left behind.
"""

from __future__ import annotations

import os
import sys
import time
from pathlib import Path

import pexpect

from tests.support.arena import ARENA, arena


def workers_of(parent: int) -> set[int]:
    """The pool workers the arena process ``parent`` spawned (multiprocessing's children of this Python): only
    its own, whatever else runs on the machine."""
    found = set()
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            cmdline = Path(f"/proc/{entry}/cmdline").read_bytes().replace(b"\0", b" ").decode()
            ppid = int(Path(f"/proc/{entry}/stat").read_text().rsplit(")", 1)[1].split()[1])
        except (OSError, ValueError, IndexError):
            continue
        if ppid == parent and cmdline.startswith(sys.executable) and "spawn_main" in cmdline:
            found.add(int(entry))
    return found


def running(pids: set[int]) -> set[int]:
    """Those of ``pids`` still alive (a worker left behind is re-parented, but keeps its pid)."""
    return {pid for pid in pids if Path(f"/proc/{pid}").exists()}


def test_a_progress_bar_then_ctrl_c_stops_it_in_one_line(real_logs: dict[str, Path]) -> None:
    log = real_logs["bloomington"]
    child = pexpect.spawn(
        str(ARENA),
        ["analyze", str(log), "--samples", "200", "--workers", "2"],
        dimensions=(40, 160),
        encoding="utf-8",
        timeout=120,
        env={**os.environ, "COLUMNS": "160"},
    )
    child.expect(r"analysing.* +\d+/\d+\S* decisions")  # rich's colour codes around the count
    deadline = time.monotonic() + 30
    while len(workers_of(child.pid)) < 2 and time.monotonic() < deadline:
        time.sleep(0.1)
    workers = workers_of(child.pid)
    assert len(workers) == 2, "the analysis runs on two worker processes"
    time.sleep(1)  # into the work: a worker may be importing or analysing a hand
    child.sendintr()
    child.expect("interrupted: nothing was written")
    child.expect(pexpect.EOF)
    assert "Traceback" not in (child.before or "") and "KeyboardInterrupt" not in (child.before or "")
    child.close()
    assert child.exitstatus == 130
    deadline = time.monotonic() + 30
    while running(workers) and time.monotonic() < deadline:
        time.sleep(0.2)
    assert running(workers) == set()


def test_no_progress_bar_off_a_terminal(real_logs: dict[str, Path]) -> None:
    run = arena("analyze", str(real_logs["double-deck-3p"]), "--samples", "8", "--workers", "1", "--json", timeout=300)
    assert run.returncode == 0 and run.stderr == ""
    assert run.stdout.startswith("{")
