"""Ctrl-C in `arena match` and `arena tournament` on a real terminal (a pty), as a person presses it.

The referee runs with its output on a pseudo-terminal, so the progress bar and
the human log format are on; random bots play neuralplay (long games), and
SIGINT arrives while their games are in play. It must stop with exit status
130 and one line, on its own line, saying what was kept and how to go on; no
"bot fault" warning for the answers that were in flight; and no bot process
left behind.
"""

from __future__ import annotations

import glob
import os
import pty
import re
import signal
import subprocess
import threading
import time
from pathlib import Path

import pytest

from tests.support.arena import ARENA, RANDOM, bot
from tests.support.processes import alive, all_gone, children_of

ANSI = re.compile(r"\x1b\[[0-9;?]*[A-Za-z]")


def log_text(log: Path) -> str:
    """A game log's text so far; empty once it is gone (a tournament's ``.part`` log renamed as its game ends)."""
    try:
        return log.read_text()
    except FileNotFoundError:
        return ""


def interrupt_on_a_terminal(argv: list[str], started: Path, bots: int) -> tuple[int, list[str], list[int]]:
    """Run ``argv`` on a pty until ``started`` (a game log being written; a glob) holds a deal and ``bots`` bots
    run, then SIGINT.

    Returns the exit status, the output lines as a terminal shows them (the
    last write of each line, colours dropped) and the bots' pids."""
    master, slave = pty.openpty()
    proc = subprocess.Popen(argv, stdin=slave, stdout=slave, stderr=slave, env={**os.environ, "COLUMNS": "120"})
    os.close(slave)
    chunks: list[bytes] = []

    def read() -> None:
        while True:
            try:
                data = os.read(master, 65536)
            except OSError:
                return
            if not data:
                return
            chunks.append(data)

    reader = threading.Thread(target=read, daemon=True)
    reader.start()
    kids: list[int] = []
    deadline = time.monotonic() + 90
    try:
        while time.monotonic() < deadline:
            logs = [Path(found) for found in glob.glob(str(started))]  # the pattern may name a match folder
            kids = [k for k in children_of(proc.pid) if alive(k)]
            if logs and '"event":"deal"' in log_text(logs[0]) and len(kids) >= bots:
                break
            time.sleep(0.1)
        else:
            raise AssertionError("the games did not start: " + b"".join(chunks).decode(errors="replace"))
        time.sleep(0.5)  # bots deep in their games, requests in flight
        proc.send_signal(signal.SIGINT)
        code = proc.wait(timeout=60)
    finally:
        if proc.poll() is None:
            proc.kill()
        reader.join(timeout=10)
        os.close(master)
    text = ANSI.sub("", b"".join(chunks).decode(errors="replace"))
    lines = [line.split("\r")[-1] for line in text.replace("\r\n", "\n").split("\n")]
    return code, [line for line in lines if line.strip()], kids


def check_clean_stop(code: int, lines: list[str], kids: list[int]) -> str:
    assert code == 130, lines
    assert all_gone(kids), [k for k in kids if alive(k)]
    assert not any("bot fault" in line or "Traceback" in line or "error" in line for line in lines), lines
    said = [line for line in lines if "interrupted" in line]
    assert len(said) == 1 and said[0].startswith("interrupted: "), lines  # on a line of its own
    return said[0]


def test_ctrl_c_stops_a_match_cleanly(tmp_path: Path) -> None:
    argv = [ARENA, "match", "--bot", RANDOM, "--games", "3", "--log-dir", str(tmp_path)]
    code, lines, kids = interrupt_on_a_terminal(argv, tmp_path / "match-*" / "match.jsonl", bots=4)
    said = check_clean_stop(code, lines, kids)
    (log,) = tmp_path.glob("match-*/match.jsonl")
    assert said.startswith(f"interrupted: finished games kept in {log}: 0; ") and "run it again" in said


@pytest.mark.slow
def test_ctrl_c_stops_a_tournament_cleanly(tmp_path: Path) -> None:
    out = tmp_path / "t"
    argv = [ARENA, "tournament", "--bot", bot("a"), "--bot", bot("b"), "--games", "2", "-j", "1"]
    argv += ["--out", str(out)]
    # the game in play: its log is games/g0001.jsonl.part until it ends
    code, lines, kids = interrupt_on_a_terminal(argv, out / "games" / "*.jsonl.part", bots=4)
    said = check_clean_stop(code, lines, kids)
    resume = f"continue with `arena tournament --resume --out {out}`"
    assert said.startswith(f"interrupted: finished games kept in {out}: 0; ") and said.endswith(resume)
