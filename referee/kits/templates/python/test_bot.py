"""The bot's first test: ``arena check-bot`` puts it through every kind of decision on every preset, a whole
game of two hands, and the protocol's Hello, Error, restart and Shutdown. ``make test`` runs it (ARENA: the
arena command)."""

from __future__ import annotations

import os
import subprocess
from pathlib import Path

HERE = Path(__file__).resolve().parent


def test_the_bot_passes_check_bot() -> None:
    arena = os.environ.get("ARENA", "arena")
    bot = f"{HERE.name}=python bot.py"  # NAME=COMMAND, run from this folder; `python` is the arena's own
    check = subprocess.run(
        [arena, "check-bot", "--log-dir", "build/check-bot", bot], cwd=HERE, capture_output=True, text=True
    )
    assert check.returncode == 0, check.stdout + check.stderr
