"""Every command the README shows works as shown.

The README's fenced blocks are read as a new user copies them: shell lines
(a trailing backslash joins lines, ``#`` starts a comment) and Python.

- ``arena ...`` lines go through the real command line parser of that
  command (options, values, ranges): a renamed option or a bad value fails.
  Nothing is run, so the long ones (a tournament) cost nothing.
- ``make TARGET`` lines name a target of the Makefile (``make -n``).
- ``. .venv/bin/activate`` is sourced in bash, and ``arena`` must then be on
  the PATH: the line that makes every other ``arena`` line work.
- The Python blocks run, in order, in one namespace (the bot class of the
  first is used by the second), from the repository's root.
"""

from __future__ import annotations

import re
import shlex
import subprocess
import sys
from pathlib import Path

import pytest
import typer
from typer.core import TyperGroup

from referee.cli.app import app
from tests.support.arena import REPO

README = REPO / "README.md"
VENV_BIN = Path(sys.executable).parent
FENCE = re.compile(r"^( *)```(\w*)\n(.*?)^\1```", re.MULTILINE | re.DOTALL)


def blocks(language: str) -> list[str]:
    """The fenced blocks of one language ("" for shell), their indentation removed."""
    found = []
    for indent, lang, body in FENCE.findall(README.read_text(encoding="utf-8")):
        if lang == language:
            found.append("\n".join(line[len(indent) :] for line in body.splitlines()))
    return found


def shell_lines() -> list[str]:
    lines = []
    for block in blocks(""):
        for line in block.replace("\\\n", " ").splitlines():
            words = shlex.split(line, comments=True)
            if words:
                lines.append(shlex.join(words))
    return lines


def test_the_readme_shows_commands_to_check() -> None:
    lines = shell_lines()
    assert sum(line.startswith("arena ") for line in lines) >= 3
    assert any(line.startswith("make ") for line in lines)
    assert len(blocks("python")) >= 2


@pytest.mark.parametrize("line", [line for line in shell_lines() if line.startswith("arena ")], ids=lambda x: x[:40])
def test_each_arena_line_parses(line: str) -> None:
    args = shlex.split(line)[1:]
    group = typer.main.get_command(app)
    assert isinstance(group, TyperGroup)
    with group.make_context("arena", list(args)) as ctx:
        command = group.get_command(ctx, args[0])
        assert command is not None, f"no command {args[0]!r}: {line}"
        command.make_context(args[0], args[1:], parent=ctx)  # raises on an unknown option or a bad value


@pytest.mark.parametrize("line", [line for line in shell_lines() if line.startswith("make ")])
def test_each_make_line_names_a_target(line: str) -> None:
    run = subprocess.run(["make", "-n", *shlex.split(line)[1:]], cwd=REPO, capture_output=True, text=True, timeout=60)
    assert run.returncode == 0, run.stderr


def test_activating_the_venv_puts_arena_on_the_path() -> None:
    [line] = [line for line in shell_lines() if line.startswith(". .venv/bin/activate")]
    activate = VENV_BIN / "activate"  # the test's own venv: make test's .venv
    assert line.split()[1] == ".venv/bin/activate" and activate.is_file()
    run = subprocess.run(
        ["bash", "-c", f'. "{activate}" && command -v arena && arena presets'],
        cwd=REPO,
        capture_output=True,
        text=True,
        timeout=60,
        env={"PATH": "/usr/bin:/bin", "HOME": str(REPO)},
    )
    assert run.returncode == 0, run.stderr
    assert run.stdout.splitlines()[0] == str(VENV_BIN / "arena")
    assert "neuralplay" in run.stdout


def test_the_python_blocks_run(monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.chdir(REPO)
    namespace: dict[str, object] = {"__name__": "readme"}
    for block in blocks("python"):
        exec(compile(block, str(README), "exec"), namespace)
    assert "Lowest" in namespace and "result" in namespace
    printed = capsys.readouterr().out
    assert "lowest" in printed and "random" in printed, printed  # the summary names both bots
