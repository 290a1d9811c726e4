"""Shared by the tournament tests: the real ``arena`` executable, quick bots, reading a tournament folder."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from referee.gamelog import read_json_lines, without_think_times
from referee.replay.logfile import revealed_records

ARENA = Path(sys.executable).parent / "arena"
BOTS = Path(__file__).parent / "bots"
RANDOM = f"random={sys.executable} -m example_bots.random_bot"
FIRST = f"first={sys.executable} -m example_bots.first_bot"
# random bots finish a double-deck game in a few hands (mercy rule); the hand limit keeps every game short
QUICK = ["--preset", "double-deck", "--rule", "hand_limit=3", "--move-time", "2000"]


def bot(name: str, module: str = "random_bot") -> str:
    return f"{name}={sys.executable} -m example_bots.{module}"


def script_bot(name: str, script: str, *args: str) -> str:
    return f"{name}={sys.executable} {BOTS / script} {' '.join(args)}".rstrip()


def arena(
    *args: str, cwd: Path | None = None, timeout: float = 240, cpus: set[int] | None = None
) -> subprocess.CompletedProcess[str]:
    """Run the ``arena`` executable; ``cpus``: pin it (and so its bots) to these CPUs."""
    pin = None if cpus is None else (lambda: os.sched_setaffinity(0, cpus))
    return subprocess.run(
        [str(ARENA), *args], check=False, capture_output=True, text=True, timeout=timeout, cwd=cwd, preexec_fn=pin
    )


def tournament(
    folder: Path | None, *args: str, bots: Sequence[str] = (RANDOM, FIRST), quick: bool = True, **kw: Any
) -> subprocess.CompletedProcess[str]:
    """``arena tournament`` of ``bots`` (NAME=COMMAND) in ``folder``, quick games unless ``quick`` is off."""
    argv = ["tournament", *(QUICK if quick else []), *(a for b in bots for a in ("--bot", b)), *args]
    return arena(*argv, *(["--out", str(folder)] if folder is not None else []), **kw)


# a tournament of deterministic bots for --workers and --ray: 12 quick games
SCALE_ARGS = [*QUICK, "--bot", RANDOM, "--bot", FIRST, "--bot", f"other={sys.executable} -m example_bots.random_bot"]
SCALE_ARGS += ["-n", "4", "--seed", "5"]


# a shell in a fresh user and network namespace: loopback up, then the command (Ray runs in it: see test_ray.py)
NETNS = ["unshare", "--user", "--map-root-user", "--net", "sh", "-c", 'ip link set lo up && exec "$@"', "netns"]
# the same, with process ids of its own too, so that processes left behind can be counted
NETNS_PIDS = [*NETNS[:4], "--pid", "--fork", "--mount-proc", *NETNS[4:]]


def in_netns(*argv: str, timeout: float = 400, namespaces: list[str] = NETNS) -> subprocess.CompletedProcess[str]:
    return subprocess.run([*namespaces, *argv], capture_output=True, text=True, timeout=timeout, check=False)


def results(folder: Path) -> list[dict[str, Any]]:
    """The result records of a tournament folder, by game number."""
    return sorted((r for _, r in read_json_lines(folder / "results.jsonl")), key=lambda r: r["game"])


def standings(folder: Path) -> list[dict[str, Any]]:
    return json.loads((folder / "standings.json").read_text())["standings"]


def without_think(rows: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Result or standings rows without the think times (the clock differs from run to run)."""
    return [{k: v for k, v in row.items() if not k.startswith("think")} for row in rows]


def same_games(folder: Path, plain: Path) -> None:
    """The folder holds the games of the plain run: results, standings and every log record for record,
    all but how long the bots took (the think times)."""
    assert without_think(results(folder)) == without_think(results(plain))
    assert without_think(standings(folder)) == without_think(standings(plain))
    for r in results(plain):
        assert without_think_times(revealed_records(folder / r["log"])) == without_think_times(
            revealed_records(plain / r["log"])
        )
    assert not list((folder / "games").glob("*.part"))


def game_records(log: Path) -> list[dict[str, Any]]:
    return revealed_records(log)


def _referee_helpers() -> None:
    """The referee tests' process helpers (``alive``, ``children_of``), importable by name."""
    here = str(Path(__file__).parent.parent / "referee")
    if here not in sys.path:
        sys.path.append(here)


_referee_helpers()
from arena_helpers import alive, all_gone, children_of, run_async  # noqa: E402


def result_lines(folder: Path) -> int:
    """Lines of the tournament's results file so far (0 before it exists)."""
    try:
        return (folder / "results.jsonl").read_bytes().count(b"\n")
    except FileNotFoundError:
        return 0


def wait_gone(pids: list[int], within_s: float = 20) -> None:
    """Every one of ``pids`` ends within ``within_s`` (the kernel may take a moment)."""
    assert all_gone(pids, within_s), f"processes outlived the arena: {[p for p in pids if alive(p)]}"


__all__ = ["alive", "children_of", "result_lines", "run_async", "wait_gone"]
