"""The referee does not grow with the games it plays: its RSS after 1,000 games is within 10% of it after 100.

``arena match`` plays 1,001 one-hand games of single-deck between instant
bots (real processes). The bots hold the 101st and the 1,001st game at its
start (``bots/gate_bot.py``) until the test has read the referee's resident
set size from /proc, so the referee is still there, its 100th or 1,000th
game_end logged and no later one, whatever the machine's load.
"""

from __future__ import annotations

import subprocess
from pathlib import Path

import pytest

from tests.support.arena import ARENA, script_bot
from tests.support.processes import wait_for
from tests.support.sandbox import BOTS

MARKS = (100, 1000)


def rss_kib(pid: int) -> int:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1])
    raise AssertionError(f"no VmRSS for {pid}")


def games_ended(logs: Path) -> int:
    """The game_end records of the match's log so far (complete lines only)."""
    found = list(logs.glob("match-*/*.jsonl"))
    if not found:
        return 0
    text = found[0].read_bytes()
    return text[: text.rfind(b"\n") + 1].count(b'"event":"game_end"')


def wait_ended(logs: Path, count: int, proc: subprocess.Popen[str]) -> None:
    """Until ``count`` games have ended, or the arena has."""
    wait_for(
        lambda: games_ended(logs) >= count or proc.poll() is not None,
        lambda: f"{count} games to end ({games_ended(logs)} so far)",
        within_s=600,
    )


@pytest.mark.slow
def test_the_referee_rss_after_1000_games_is_within_10_percent_of_after_100(tmp_path: Path) -> None:
    gates, logs = tmp_path / "gates", tmp_path / "logs"
    gates.mkdir()
    gated = script_bot("first", BOTS / "gate_bot.py", str(gates), *(str(mark + 1) for mark in MARKS))
    args = ["match", "--preset", "single-deck", "-r", "hand_limit=1", "--games", str(MARKS[-1] + 1)]
    args += ["--move-time", "3600000", "--log-dir", str(logs), "--bot", gated]  # a held bot never times out
    out = (tmp_path / "arena.out").open("w")  # a file, not a pipe: a pipe nobody reads would stop the referee
    proc = subprocess.Popen([ARENA, *args], stdout=out, stderr=subprocess.STDOUT, text=True)
    rss: dict[int, int] = {}
    try:
        for mark in MARKS:
            wait_ended(logs, mark, proc)
            assert proc.poll() is None, (tmp_path / "arena.out").read_text()[-2000:]
            assert games_ended(logs) == mark  # the next game is held at its start
            rss[mark] = rss_kib(proc.pid)
            (gates / str(mark + 1)).touch()
        assert proc.wait(timeout=120) == 0, (tmp_path / "arena.out").read_text()[-2000:]
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
        out.close()
    print(f"referee RSS in KiB after 100 and 1000 games: {rss[100]}, {rss[1000]}")
    assert rss[1000] <= rss[100] * 1.10, rss
