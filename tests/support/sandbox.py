"""Shared by the sandbox tests: the hostile bots, matches and tournaments in the sandbox, processes by marker."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import uuid
from pathlib import Path
from typing import Any

from referee.gamelog import read_records
from referee.replay.logfile import load_log
from referee.replay.verify import verify_log
from tests.support.arena import QUICK, TESTS, arena, script_bot
from tests.support.logs import Record
from tests.support.processes import state_of

# the hostile bots (tests/hostile/bots)
BOTS = TESTS / "hostile" / "bots"
POLICIES = ["forfeit", "default"]


def hostile(name: str, script: str, *args: str) -> str:
    """NAME=COMMAND of a bot in tests/hostile/bots."""
    return script_bot(name, BOTS / script, *args)


def new_marker() -> str:
    return f"sbx-{uuid.uuid4().hex[:12]}"


def match(
    log_dir: Path, *bots: str, policy: str = "forfeit", sandbox: str = "required", **kw: Any
) -> subprocess.CompletedProcess[str]:
    """``arena match`` of ``bots`` (one per team) with quick games."""
    argv = ["match", *QUICK, "--on-fault", policy, "--sandbox", sandbox, "--log-dir", str(log_dir)]
    return arena(*argv, *(a for b in bots for a in ("--bot", b)), **kw)


def tournament(
    folder: Path, *bots: str, policy: str = "forfeit", sandbox: str = "required", extra: tuple[str, ...] = (), **kw: Any
) -> subprocess.CompletedProcess[str]:
    """``arena tournament`` of ``bots`` on two tables, quick games."""
    argv = ["tournament", *QUICK, "--on-fault", policy, "--sandbox", sandbox, "-j", "2", "--out", str(folder)]
    return arena(*argv, *(a for b in bots for a in ("--bot", b)), *extra, **kw)


def no_sandbox_env() -> dict[str, str]:
    """The environment with a PATH that has the venv's programs but neither bwrap nor unshare."""
    return {**os.environ, "PATH": str(Path(sys.executable).parent)}


def have_sandbox_tools() -> bool:
    return shutil.which("bwrap") is not None or shutil.which("unshare") is not None


def marked(marker: str) -> list[int]:
    """Processes (not zombies) with ``MARKER:child`` as an argument: the sleepers of sbx_forker."""
    wanted = f"{marker}:child".encode()
    pids = []
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            if wanted in Path(f"/proc/{entry}/cmdline").read_bytes().split(b"\0") and state_of(entry) != "Z":
                pids.append(int(entry))
        except OSError:
            continue
    return pids


def verified(log: Path) -> list[Record]:
    """The records of a log that ``arena replay --verify`` accepts (checked in process, the same code)."""
    verify_log(load_log(log))
    return [rec for _, rec in read_records(log)]


def output_of(folder: Path, pattern: str) -> str:
    """The text of the bots' output files matching ``pattern`` under ``folder``, joined."""
    return "".join(p.read_text(errors="replace") for p in sorted(folder.rglob(pattern)))


def no_json_lines(text: str) -> bool:
    return not any(line.lstrip().startswith("{") for line in text.splitlines())
