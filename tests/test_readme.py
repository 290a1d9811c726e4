"""Every command the README shows runs, as a new user runs them: in order, in a folder of their own.

The README's blocks are read as a reader copies them (``tests/support/docs.py``): each ``arena`` line runs
the real command in one fresh folder, shortened by options of its own (a hand limit, one game, few
samples), so the five-minute path is walked end to end: the bot is written where the README says, checked,
played, measured, analysed and tested again. What cannot run inside a test is checked otherwise, each for
the reason given:

- ``make demo``: a minute of the Monte Carlo bot; the command it runs (``make -n demo``) runs instead,
  shortened the same way;
- ``make test``: it is this suite; ``make -n`` checks the target;
- ``. .venv/bin/activate``: sourced in bash, after which ``arena`` must be on the PATH.
"""

from __future__ import annotations

import shlex
import subprocess
import sys
from pathlib import Path

from tests.support.arena import ARENA, REPO
from tests.support.docs import Block, blocks, environment, make_dry_run, run_line

README = REPO / "README.md"
VENV_BIN = Path(sys.executable).parent


def readme() -> list[Block]:
    return blocks(README)


def shell_lines() -> list[str]:
    return [line for block in readme() if block.language == "" for line in block.lines()]


def test_the_quick_start_is_two_commands_and_the_path_starts_from_arena_new() -> None:
    first = next(block for block in readme() if block.language == "")
    assert first.lines() == ["make demo", "make test"]
    arena_lines = [line for line in shell_lines() if line.startswith("arena ")]
    commands = [shlex.split(line)[1] for line in arena_lines]
    path = ["new", "check-bot", "match", "tournament", "analyze", "sprt"]  # write, check, play, measure ...
    assert [c for c in commands if c in path] == path, commands


def test_the_readmes_first_bot_is_the_one_arena_new_writes(tmp_path: Path) -> None:
    """The bot the README shows is, line for line, the Python starter ``arena new mybot`` writes."""
    [line] = [x for x in shell_lines() if x.startswith("arena new ")]
    run = run_line(line, tmp_path)
    assert run.returncode == 0, run.stderr
    [(shown, file)] = [(block, block.file) for block in readme() if block.file and block.file.endswith("bot.py")]
    written = (tmp_path / file).read_text(encoding="utf-8")
    assert shown.text == f"# {file}\n{written}"


def test_the_readme_runs_from_the_first_command_to_the_last(tmp_path: Path) -> None:
    """The README's blocks in order, in ``tmp_path``: python blocks saved where they say, ``arena`` lines run."""
    namespace: dict[str, object] = {"__name__": "readme"}
    ran: list[str] = []
    for block in readme():
        if block.language == "python":
            if block.file is None:
                exec(compile(block.text, str(README), "exec"), namespace)
            else:
                (tmp_path / block.file).write_text(block.text, encoding="utf-8")
            continue
        for line in block.lines():
            if line.startswith(("make ", ". ")):
                continue  # below: make's targets, and the venv's activation
            run = run_line(line, tmp_path)
            assert run.returncode == 0, (line, run.stdout[-3000:], run.stderr[-3000:])
            ran.append(line)
            check_what_it_did(line, run.stdout, tmp_path)
    assert len(ran) >= 7


def check_what_it_did(line: str, out: str, folder: Path) -> None:
    """What the README says each command of the five-minute path does, checked on what it did."""
    command = shlex.split(line)[1]
    if command == "check-bot":
        (verdict,) = out.strip().splitlines()
        assert "every check passed" in verdict
    elif command == "match":
        log = folder / out.strip().splitlines()[-1].removeprefix("log: ")
        assert log.is_file() and log.parent.parent == folder / "logs"
    elif command == "tournament":
        assert out.strip().splitlines()[-1] == "report: logs/first/report.html"
        assert (folder / "logs" / "first" / "report.html").is_file()
    elif command == "analyze":
        hint = next(x for x in out.splitlines() if x.startswith("Open one: "))
        opened = shlex.split(hint.removeprefix("Open one: ").split(" (")[0])
        asked = subprocess.run(
            [ARENA, *opened[1:], "--ask", "python mybot/bot.py"],  # as the README says: add --ask COMMAND
            cwd=folder,
            env=environment(),
            capture_output=True,
            text=True,
            timeout=120,
        )
        assert asked.returncode == 0, asked.stderr
        assert "  asked:  " in asked.stdout and "  output: " in asked.stdout
    elif command == "sprt":
        assert (folder / "logs" / "mybot-v2" / "report.html").is_file()


def test_make_demo_runs_what_it_says(tmp_path: Path) -> None:
    """``make demo``'s own command (``make -n demo``), shortened: it plays and ends with its report's path."""
    (line,) = [x for x in make_dry_run("demo").replace("\\\n", " ").splitlines() if " tournament " in x]
    argv = shlex.split(line)
    assert Path(argv[0]).name == "arena"
    run = subprocess.run(
        [ARENA, *argv[1:], "--rule", "hand_limit=1", "--games", "2"],
        cwd=tmp_path,
        env=environment(),
        capture_output=True,
        text=True,
        timeout=600,
    )
    assert run.returncode == 0, run.stderr[-3000:]
    report = run.stdout.strip().splitlines()[-1].removeprefix("report: ")
    assert (tmp_path / report).is_file() and report.startswith("logs/tournament-")


def test_each_make_line_names_a_target() -> None:
    lines = [line for line in shell_lines() if line.startswith("make ")]
    assert "make test" in lines
    for line in lines:
        make_dry_run(shlex.split(line)[1])


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
