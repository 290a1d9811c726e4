"""The ladder's command as the tests run it: ``arena ladder ...`` on quick games (tests.support.arena.QUICK)."""

from __future__ import annotations

import json
import sqlite3
import subprocess
from pathlib import Path
from typing import Any

from tests.support.arena import QUICK, arena, invoke

# a ladder's rules as the quick tournaments': double-deck, at most 3 hands a game, bots run bare (fast)
QUICK_LADDER = [*QUICK, "--sandbox", "off"]


def ladder(*args: str | Path, timeout: float = 240) -> subprocess.CompletedProcess[str]:
    """``arena ladder ARGS``: ``run`` and ``serve`` in a process of their own, the other commands in this one
    (typer's CliRunner: they start in no time)."""
    if str(args[0]) in ("run", "serve"):
        return arena("ladder", *args, timeout=timeout)
    code, out, err = invoke("ladder", *args)
    return subprocess.CompletedProcess(["arena", "ladder", *map(str, args)], code, out, err)


def make_ladder(folder: Path, *bots: str, rules: list[str] = QUICK_LADDER) -> None:
    """``arena ladder init`` on quick rules, then ``add`` for each NAME=COMMAND."""
    made = ladder("init", folder, *rules)
    assert made.returncode == 0, made.stderr
    for bot in bots:
        added = ladder("add", folder, bot)
        assert added.returncode == 0, added.stderr


def standings(folder: Path) -> dict[str, Any]:
    out = ladder("standings", folder, "--json")
    assert out.returncode == 0, out.stderr
    data: dict[str, Any] = json.loads(out.stdout)
    return data


def rows(folder: Path, query: str, *args: Any) -> list[tuple[Any, ...]]:
    """Rows of a query on the ladder's database, read with a connection of the test's own."""
    db = sqlite3.connect(folder / "ladder.db")
    try:
        return [tuple(r) for r in db.execute(query, args).fetchall()]
    finally:
        db.close()


# A bot of two files whose stderr says which copy of it runs (a frozen version, or the author's folder).
BOT = """\
import sys
import note

print("mark", note.MARK, "from", __file__, file=sys.stderr, flush=True)
from example_bots.first_bot import FirstBot
from sdk import run

run(FirstBot())
"""


def my_bot(folder: Path, mark: str) -> Path:
    """A bot folder of two files whose bot prints its mark and where it runs from in its stderr."""
    folder.mkdir(parents=True, exist_ok=True)
    (folder / "bot.py").write_text(BOT)
    (folder / "note.py").write_text(f"MARK = {mark!r}\n")
    return folder


def marks(folder: Path) -> set[str]:
    """The marks the bot printed in the ladder's games, and where it ran from."""
    out = set()
    for path in (folder / "bots").glob("*mine*"):
        for line in path.read_text().splitlines():
            if line.startswith("mark "):
                out.add(line)
    return out
