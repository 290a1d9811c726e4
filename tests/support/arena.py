"""The ``arena`` command as the tests run it, and the bots they name on its command line.

A bot is given as ``NAME=COMMAND`` text, as a user types it (``RANDOM``, ``bot(...)``,
``script_bot(...)``); ``arena(...)`` runs the real executable of the venv, ``start(...)`` starts it
without waiting, ``invoke(...)`` runs the same typer app in this process (typer's ``CliRunner``).
"""

from __future__ import annotations

import os
import re
import subprocess
import sys
from collections.abc import Mapping, Sequence
from pathlib import Path

from typer.testing import CliRunner

from referee.cli.app import app

REPO = Path(__file__).resolve().parents[2]
TESTS = REPO / "tests"
# the executable the venv installs (pyproject.toml's console script), as text for a command line
ARENA = str(Path(sys.executable).parent / "arena")

# random bots finish a double-deck game in a few hands (mercy rule); the hand limit keeps every game short
QUICK = ["--preset", "double-deck", "--rule", "hand_limit=3", "--move-time", "2000"]


def bot(name: str, module: str = "random_bot") -> str:
    """NAME=COMMAND of an example bot (``example_bots.MODULE``), run by this interpreter."""
    return f"{name}={sys.executable} -m example_bots.{module}"


def script_bot(name: str, script: Path, *args: str) -> str:
    """NAME=COMMAND of a test bot: ``script`` (a file under ``tests/*/bots``) with ``args``."""
    return f"{name}={sys.executable} {script} {' '.join(args)}".rstrip()


RANDOM = bot("random", "random_bot")
FIRST = bot("first", "first_bot")
RULES = bot("rules", "rules_bot")
SHAKY = bot("shaky", "shaky_bot")


def arena(
    *args: str | Path,
    cwd: Path | None = None,
    env: dict[str, str] | None = None,
    timeout: float = 240,
    cpus: set[int] | None = None,
    columns: int | None = None,
) -> subprocess.CompletedProcess[str]:
    """Run ``arena ARGS`` to its end: ``cpus`` pins it (and so its bots) to these CPUs; ``columns`` is the
    terminal width rich lays its output out for."""
    pin = None if cpus is None else (lambda: os.sched_setaffinity(0, cpus))
    # The environment given whole, as os.environ holds it: a library of the test process may have put COLUMNS
    # into the C environment (which a child inherits) without os.environ knowing; rich would take it as the width.
    env = {**(os.environ if env is None else env)}
    if columns is not None:
        env["COLUMNS"] = str(columns)
    return subprocess.run(
        [ARENA, *map(str, args)],
        check=False,
        capture_output=True,
        text=True,
        timeout=timeout,
        cwd=cwd,
        env=env,
        preexec_fn=pin,
    )


def arena_in_repo(*args: str | Path, timeout: float = 300) -> subprocess.CompletedProcess[str]:
    """``arena ARGS`` run from the repository's root, as a user types it there (bots named by relative paths)."""
    return arena(*args, cwd=REPO, timeout=timeout)


def start(*args: str | Path, env: dict[str, str] | None = None) -> subprocess.Popen[str]:
    """``arena ARGS`` started, its output on pipes."""
    return subprocess.Popen(
        [ARENA, *map(str, args)], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env
    )


def invoke(*args: str | Path, columns: int | None = None) -> tuple[int, str, str]:
    """``arena ARGS`` in this process: (exit status, stdout, stderr). An exception other than the exit
    is raised, not turned into a status."""
    env = None if columns is None else {"COLUMNS": str(columns)}
    result = CliRunner().invoke(app, [str(a) for a in args], env=env)
    if result.exception is not None and not isinstance(result.exception, SystemExit):
        raise result.exception
    return result.exit_code, result.stdout, result.stderr


def start_serve(log_dir: Path, *args: str) -> tuple[subprocess.Popen[str], list[tuple[str, str]], str]:
    """``arena serve`` with ``args``, read up to its seat tokens: the process, (address, token) per seat,
    and what it printed so far."""
    serve = start("serve", "--log-dir", log_dir, *args)
    assert serve.stdout is not None
    tokens: list[tuple[str, str]] = []
    head = []
    while True:
        line = serve.stdout.readline()
        if not line:
            serve.kill()
            raise AssertionError(serve.stderr.read() if serve.stderr else "arena serve printed no tokens")
        head.append(line)
        found = re.search(r"ARENA_ADDRESS=(\S+) ARENA_TOKEN=(\S+)", line)
        if found:
            tokens.append((found[1], found[2]))
        elif tokens:  # the line after the last token
            return serve, tokens, "".join(head)


def run_matches(
    root: Path,
    matches: Mapping[str, Sequence[str]],
    env: Mapping[str, Mapping[str, str]] | None = None,
    timeout: float = 300,
) -> dict[str, Path]:
    """``arena match ARGS --log-dir ROOT/NAME`` for each NAME: ARGS of ``matches``, two at a time (with
    ``env[NAME]`` added to the environment); the log of each, once all have succeeded."""
    logs: dict[str, Path] = {}
    names = list(matches)
    for batch in (names[k : k + 2] for k in range(0, len(names), 2)):
        running = {}
        for name in batch:
            folder = root / name
            more = (env or {}).get(name, {})
            running[name] = (
                folder,
                start("match", *matches[name], "--log-dir", folder, env={**os.environ, **more} if more else None),
            )
        for name, (folder, proc) in running.items():
            out, err = proc.communicate(timeout=timeout)
            assert proc.returncode == 0, f"arena match for {name} failed: {err or out}"
            (logs[name],) = folder.glob("match-*/*.jsonl")
    return logs
