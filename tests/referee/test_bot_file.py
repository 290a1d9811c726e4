"""A bot whose script is not there is a mistake on the command line, said before anything starts (issue 31,
item 12): one line naming the file and the folder it was looked for in, exit status 2, and no word of the
sandbox, which has nothing to do with it.
"""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

from referee.bots import BotCommand, BotSpecError
from referee.cli.app import Status
from tests.support.arena import RANDOM, arena


@pytest.mark.parametrize(
    "command",
    [
        ["match", "--bot", "mine=python mybot.py", "--bot", RANDOM, "--log-dir", "logs"],
        ["check-bot", "mine=python -u mybot.py", "--log-dir", "logs"],
        ["tournament", "--bot", "mine=python mybot.py", "--bot", RANDOM, "--out", "t"],
        ["sprt", "--bot", "mine=node mybot.js", "--bot", RANDOM, "--out", "s"],
    ],
)
def test_a_missing_bot_file_is_named_and_nothing_starts(tmp_path: Path, command: list[str]) -> None:
    run = arena(*command, cwd=tmp_path)
    assert run.returncode == Status.BAD_INPUT
    (line,) = run.stderr.strip().splitlines()
    script = "mybot.js" if "node" in " ".join(command) else "mybot.py"
    assert line.startswith(f"error: bot 'mine': no file '{script}' in {tmp_path} (command: ")
    assert "sandbox" not in line
    assert list(tmp_path.iterdir()) == []  # nothing written


def test_what_counts_as_a_script() -> None:
    here = Path(__file__)
    BotCommand("a", (sys.executable, "-m", "example_bots.random_bot")).check_runnable()  # a module: no file
    BotCommand("a", (sys.executable, str(here))).check_runnable()  # there
    BotCommand("a", ("bash", "-c", "python mybot.py")).check_runnable()  # code, not a file's name
    with pytest.raises(BotSpecError, match=r"no file 'gone\.py'"):
        BotCommand("a", (sys.executable, "-u", "gone.py")).check_runnable()
    with pytest.raises(BotSpecError, match=r"no file 'bot\.jar'"):
        BotCommand("a", ("sh", "bot.jar")).check_runnable()
