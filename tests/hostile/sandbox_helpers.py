"""Shared by the sandbox tests: the real ``arena`` executable, the hostile bots, processes by marker, logs."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import time
import uuid
from pathlib import Path
from typing import Any

from referee.gamelog import read_records
from referee.replay.logfile import load_log
from referee.replay.verify import verify_log

ARENA = Path(sys.executable).parent / "arena"
BOTS = Path(__file__).parent / "bots"
RANDOM = f"random={sys.executable} -m example_bots.random_bot"
FIRST = f"first={sys.executable} -m example_bots.first_bot"
# double-deck games between random bots end in a few hands; the hand limit keeps them short
QUICK = ["--preset", "double-deck", "--rule", "hand_limit=3", "--move-time", "2000"]
POLICIES = ["forfeit", "default"]


def hostile(name: str, script: str, *args: str) -> str:
    """NAME=COMMAND of a bot in tests/hostile/bots."""
    return f"{name}={sys.executable} {BOTS / script} {' '.join(args)}".rstrip()


def new_marker() -> str:
    return f"sbx-{uuid.uuid4().hex[:12]}"


def arena(*args: str, env: dict[str, str] | None = None, timeout: float = 240) -> subprocess.CompletedProcess[str]:
    return subprocess.run([str(ARENA), *args], check=False, capture_output=True, text=True, timeout=timeout, env=env)


def start(*args: str, env: dict[str, str] | None = None) -> subprocess.Popen[str]:
    return subprocess.Popen([str(ARENA), *args], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env)


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


# ------------------------------------------------------------ processes


def marked(marker: str) -> list[int]:
    """Processes (not zombies) with ``MARKER:child`` as an argument: the sleepers of sbx_forker."""
    wanted = f"{marker}:child".encode()
    pids = []
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            args = Path(f"/proc/{entry}/cmdline").read_bytes().split(b"\0")
            state = Path(f"/proc/{entry}/stat").read_text().rsplit(")", 1)[1].split()[0]
        except OSError:
            continue
        if wanted in args and state != "Z":
            pids.append(int(entry))
    return pids


def with_marker_in_cmdline(marker: str) -> list[int]:
    """Every live process whose command line holds ``marker`` (the referee, launchers, bots, sleepers)."""
    pids = []
    for entry in os.listdir("/proc"):
        if not entry.isdigit() or int(entry) == os.getpid():
            continue
        try:
            if marker.encode() in Path(f"/proc/{entry}/cmdline").read_bytes():
                state = Path(f"/proc/{entry}/stat").read_text().rsplit(")", 1)[1].split()[0]
                if state != "Z":
                    pids.append(int(entry))
        except OSError:
            continue
    return pids


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


def alive(pid: int) -> bool:
    try:
        return Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0] != "Z"
    except OSError:
        return False


def wait_for(condition: Any, what: str, timeout: float = 60) -> None:
    deadline = time.monotonic() + timeout
    while not condition():
        assert time.monotonic() < deadline, f"timed out waiting for {what}"
        time.sleep(0.05)


def wait_gone(marker: str, timeout: float = 15) -> None:
    """Every process carrying ``marker`` ends within ``timeout`` s (the kernel may take a moment)."""
    deadline = time.monotonic() + timeout
    while left := with_marker_in_cmdline(marker):
        assert time.monotonic() < deadline, f"processes left behind: {[_cmd(p) for p in left]}"
        time.sleep(0.05)


def _cmd(pid: int) -> str:
    try:
        return f"{pid}: " + Path(f"/proc/{pid}/cmdline").read_bytes().replace(b"\0", b" ").decode(errors="replace")
    except OSError:
        return f"{pid}: gone"


# ------------------------------------------------------------ logs


def match_log(log_dir: Path) -> Path:
    (log,) = log_dir.glob("*.jsonl")
    return log


def verified(log: Path) -> list[dict[str, Any]]:
    """The records of a log that ``arena replay --verify`` accepts (checked in process, the same code)."""
    verify_log(load_log(log))
    return [rec for _, rec in read_records(log)]


def violations(records: list[dict[str, Any]]) -> list[tuple[int, str, str]]:
    return [(r["seat"], r["kind"], r["penalty"]) for r in records if r["event"] == "violation"]


def output_of(folder: Path, pattern: str) -> str:
    """The text of the bots' output files matching ``pattern`` under ``folder``, joined."""
    return "".join(p.read_text(errors="replace") for p in sorted(folder.rglob(pattern)))


def results(folder: Path) -> list[dict[str, Any]]:
    lines = (folder / "results.jsonl").read_text().splitlines()
    return sorted((json.loads(line) for line in lines if line.strip()), key=lambda r: r["game"])


def standings(folder: Path) -> list[dict[str, Any]]:
    """The standings, but the think times (measured, so different in every run)."""
    rows = json.loads((folder / "standings.json").read_text())["standings"]
    return [{k: v for k, v in row.items() if not k.startswith("think_")} for row in rows]


def no_json_lines(text: str) -> bool:
    return not any(line.lstrip().startswith("{") for line in text.splitlines())
