"""Issue 19: the seccomp filter (referee/sandbox/seccomp.py) in both sandboxes.

A file both partners can read carries signals through its locks, inotify
events and page-cache residency (tests/hostile/test_partner_channels.py
shows the first three end to end). In the sandbox the lock calls succeed
without locking, lock queries, inotify and mincore fail, fadvise does
nothing; pinning to a CPU does nothing and /proc's machine-wide CPU counters
stand still (the two fast timing channels of bench/side_channels.py);
ordinary programs still run: SQLite on a file in its /tmp, a
multiprocessing pool.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from referee.sandbox import Sandbox, candidates, seccomp

PROBE = r"""
import ctypes, errno, fcntl, multiprocessing, os, sqlite3, struct
libc = ctypes.CDLL(None, use_errno=True)
fd = os.open(os.environ["SHARED"], os.O_RDONLY)
out = {}
out["flock"] = libc.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
try:
    fcntl.fcntl(fd, fcntl.F_GETLK, struct.pack("hhqqi", fcntl.F_WRLCK, 0, 0, 0, 0))
    out["getlk"] = "answered"
except OSError as exc:
    out["getlk"] = errno.errorcode[exc.errno]
out["inotify"] = libc.inotify_init1(0) >= 0 or errno.errorcode[ctypes.get_errno()]
buf = ctypes.create_string_buffer(1)
out["mincore"] = libc.mincore(ctypes.c_void_p(0x10000), 4096, buf) == 0 or errno.errorcode[ctypes.get_errno()]
out["fadvise"] = os.posix_fadvise(fd, 0, 0, os.POSIX_FADV_DONTNEED)
db = sqlite3.connect(os.environ["DB"])
db.execute("create table t(a)")
db.execute("insert into t values (7)")
db.commit()
out["sqlite"] = sqlite3.connect(os.environ["DB"]).execute("select a from t").fetchone()[0]
with multiprocessing.Pool(2) as pool:
    out["pool"] = sum(pool.map(abs, [-1, -2]))
import time
def counters():
    with open("/proc/stat") as f, open("/proc/uptime") as g:
        return f.readline() + g.read()
before, end = counters(), time.time() + 0.3
while time.time() < end:
    pass
out["cpu_counters_move"] = counters() != before
cpus = os.sched_getaffinity(0)
os.sched_setaffinity(0, {min(cpus)})
out["pinned"] = os.sched_getaffinity(0) != cpus
print(out)
"""


def run_probe(sandbox: Sandbox | None, shared: Path, db: str = "/tmp/t.db") -> dict:
    fd = seccomp.memfd() if sandbox is not None and sandbox.kind == "bwrap" else None
    argv = [sys.executable, "-c", PROBE]
    if sandbox is not None:
        argv = sandbox.wrap(argv, seccomp_fd=fd)
    try:
        done = subprocess.run(
            argv, capture_output=True, text=True, timeout=60, env={**os.environ, "SHARED": str(shared), "DB": db},
            pass_fds=() if fd is None else (fd,),
        )  # fmt: skip
    finally:
        if fd is not None:
            os.close(fd)
    assert done.returncode == 0, done.stderr
    return eval(done.stdout)


@pytest.mark.parametrize("kind", ["bwrap", "unshare"])
def test_the_filter_holds_in_the_sandbox_and_programs_still_run(kind: str) -> None:
    if shutil.which(kind) is None:
        pytest.fail(f"{kind} is not installed: `make test` installs bubblewrap; unshare comes with util-linux")
    sandbox = {s.kind: s for s, _ in candidates() if s is not None}[kind]
    shared = Path(__file__)  # a file every sandbox can read
    assert run_probe(sandbox, shared) == {
        "flock": 0,  # succeeds, locking nothing
        "getlk": "ENOLCK",
        "inotify": "ENOSYS",
        "mincore": "ENOSYS",
        "fadvise": None,
        "sqlite": 7,
        "pool": 3,
        "cpu_counters_move": False,  # /proc's machine-wide CPU counters are a still copy
        "pinned": False,  # pinning to a CPU succeeds and does nothing
    }


def test_bare_the_same_calls_work(tmp_path: Path) -> None:
    """The control: outside the sandbox inotify and lock queries answer (so the probe can tell)."""
    out = run_probe(None, Path(__file__), db=str(tmp_path / "t.db"))
    assert out["getlk"] == "answered" and out["inotify"] is True and out["cpu_counters_move"] is True
    assert out["pinned"] is (len(os.sched_getaffinity(0)) > 1)


def test_the_filter_is_made_for_known_machines_only() -> None:
    for machine in ("x86_64", "aarch64"):
        program = seccomp.program(machine)
        assert program is not None and len(program) % 8 == 0 and len(program) // 8 < 64
    assert seccomp.program("riscv64") is None
