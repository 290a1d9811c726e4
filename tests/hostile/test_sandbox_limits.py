"""Issue 10, item 6 and the sandbox's limits: output file size, memory, processes.

The output cap (RLIMIT_FSIZE) and the memory limit (RLIMIT_AS) hold with or
without the sandbox; the process limit (RLIMIT_NPROC in the sandbox's own user
namespace) only in it.
"""

from __future__ import annotations

import dataclasses
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from referee.sandbox import ResourceLimits, SandboxMode, resolve
from tests.support.arena import RANDOM
from tests.support.logs import only_log, results, seat_kind_penalty
from tests.support.sandbox import hostile, match, output_of, tournament, verified

CAP = ResourceLimits().output_bytes
NOTE = f"--- output cut at {CAP} bytes"


@pytest.mark.parametrize("sandbox", ["required", "off"])
def test_a_flooding_bot_in_a_match_is_cut_at_the_cap(tmp_path: Path, sandbox: str) -> None:
    run = match(tmp_path, hostile("spammer", "sbx_spammer.py", str(CAP // 2**20 + 8)), RANDOM, sandbox=sandbox)
    assert run.returncode == 0, run.stderr
    outputs = sorted(tmp_path.glob("match-*/*spammer.stderr"))
    assert len(outputs) == 2
    for path in outputs:
        assert CAP <= path.stat().st_size <= CAP + 200  # the cap, the referee's first line and its note
        assert NOTE in path.read_bytes()[-200:].decode()
    assert seat_kind_penalty(verified(only_log(tmp_path))) == []  # it still played, every decision in time


def test_a_flooding_bot_in_a_tournament_is_cut_at_the_cap(tmp_path: Path) -> None:
    folder = tmp_path / "t"
    run = tournament(folder, hostile("spammer", "sbx_spammer.py", str(CAP // 2**20 + 8)), RANDOM, extra=("-n", "2"))
    assert run.returncode == 0, run.stderr
    outputs = [p for p in (folder / "bots").iterdir() if "spammer" in p.name]
    assert outputs
    for path in outputs:
        assert path.stat().st_size <= CAP + 200
        assert NOTE in path.read_text(errors="replace")
    for record in results(folder):
        assert record["violations"] == []
        verified(folder / record["log"])


def test_a_bot_cannot_take_more_memory_than_its_limit(tmp_path: Path) -> None:
    run = match(tmp_path, hostile("hog", "sbx_hog.py"), RANDOM)
    assert run.returncode == 0, run.stderr
    assert output_of(tmp_path, "*hog.stderr").count("sbx_hog: refused") == 2
    assert seat_kind_penalty(verified(only_log(tmp_path))) == []


FORK = """
import os, time
n = 0
try:
    while n < 200:
        if os.fork() == 0:
            time.sleep(3)
            os._exit(0)
        n += 1
except OSError:
    pass
print(n)
"""


def test_each_sandbox_has_its_own_process_limit() -> None:
    # RLIMIT_NPROC is not enforced for root: as root, run the sandboxes as the user nobody (setpriv)
    sandbox, _ = resolve(SandboxMode.REQUIRED)
    assert sandbox is not None
    sandbox = dataclasses.replace(sandbox, limits=ResourceLimits(processes=20))
    python = shutil.which("python3", path="/usr/bin:/bin") or sys.executable
    as_user: list[str] = []
    if os.getuid() == 0:
        as_user = ["setpriv", "--reuid=65534", "--regid=65534", "--clear-groups", "--"]
    argv = [*as_user, *sandbox.wrap([python, "-c", FORK], cwd="/")]
    # two at once: each counts its own processes, not the user's
    procs = [subprocess.Popen(argv, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True) for _ in range(2)]
    outs = [p.communicate(timeout=120) for p in procs]
    assert [p.returncode for p in procs] == [0, 0], outs
    forked = [int(out.split()[-1]) for out, _ in outs]
    assert all(10 <= n < 20 for n in forked), forked  # the limit counts the sandbox's own processes and threads
