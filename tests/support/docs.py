"""Running what a page of the docs shows, as a reader would: its fenced blocks, in order, in a folder of its own.

A page's blocks are shell (no language) or ``python``. A shell line (a trailing backslash joins lines, ``#``
starts a comment) that starts with ``arena`` runs the real command, with options appended that keep it short
(``QUICK``: a hand limit, one game, few samples: the command's own options, so the line as shown must parse
and run, only smaller); a ``cp`` line runs as it is. A python block whose first line is a comment naming a
file (``# mybot.py: ...``, ``# mybot/bot.py``) is written to that file, as the reader saves it; the other
python blocks run, in order, in one namespace, in the folder.
"""

from __future__ import annotations

import os
import re
import shlex
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

from tests.support.arena import ARENA, REPO

FENCE = re.compile(r"^( *)```(\w*)\n(.*?)^\1```", re.MULTILINE | re.DOTALL)
FILE_BLOCK = re.compile(r"^# ([\w./-]+\.py)\b")

# What each command gets appended when a page's line runs in a test: games short (a hand limit), few of them.
QUICK: dict[str, tuple[str, ...]] = {
    "match": ("--rule", "hand_limit=2", "--games", "1"),
    "tournament": ("--rule", "hand_limit=2", "--games", "2"),  # two: a deal from both sides
    "sprt": ("--rule", "hand_limit=2", "--max-pairs", "2", "--move-time", "1000"),
    "analyze": ("--samples", "8", "--workers", "1", "--game", "1"),
}


@dataclass(frozen=True)
class Block:
    language: str  # "" for shell
    text: str  # its indentation removed

    @property
    def file(self) -> str | None:
        """The file a python block is saved as (its first line names it), or None."""
        found = FILE_BLOCK.match(self.text) if self.language == "python" else None
        return found.group(1) if found else None

    def lines(self) -> list[str]:
        """A shell block's command lines: continuations joined, comments and blank lines dropped."""
        lines = []
        for line in self.text.replace("\\\n", " ").splitlines():
            words = shlex.split(line, comments=True)
            if words:
                lines.append(shlex.join(words))
        return lines


def blocks(page: Path) -> list[Block]:
    """The fenced blocks of a page, in order."""
    found = []
    for indent, language, body in FENCE.findall(page.read_text(encoding="utf-8")):
        found.append(Block(language, "\n".join(line[len(indent) :] for line in body.splitlines()) + "\n"))
    return found


def environment() -> dict[str, str]:
    """The reader's shell after ``. .venv/bin/activate``: the venv's programs first; no test's ARENA_* leaks in."""
    env = {k: v for k, v in os.environ.items() if not k.startswith("ARENA_")}
    env["PATH"] = f"{Path(sys.executable).parent}{os.pathsep}{env.get('PATH', '')}"
    return env


def run_line(line: str, cwd: Path, timeout: float = 300) -> subprocess.CompletedProcess[str]:
    """Run one shell line of a page in ``cwd``: ``arena ...`` shortened by ``QUICK``, ``cp ...`` as it is."""
    words = shlex.split(line)
    if words[0] == "arena":
        argv = [ARENA, *words[1:], *QUICK.get(words[1], ())]
    elif words[0] == "cp":
        argv = words
    else:
        raise AssertionError(f"a line of a page the tests do not know how to run: {line}")
    return subprocess.run(argv, cwd=cwd, env=environment(), capture_output=True, text=True, timeout=timeout)


def make_dry_run(target: str) -> str:
    """What ``make -n TARGET`` would run, in the checkout (raises when the target does not exist)."""
    run = subprocess.run(["make", "-n", target], cwd=REPO, capture_output=True, text=True, timeout=60)
    assert run.returncode == 0, run.stderr
    return run.stdout
