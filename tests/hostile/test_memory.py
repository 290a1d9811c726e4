"""The referee does not grow with the games it plays: its RSS after 1,000 games is within 10% of it after 100.

``arena match`` plays 1,000 one-hand games of single-deck between instant
bots (real processes); the referee's resident set size is read from /proc as
its log reaches the 100th and the 1,000th game_end.
"""

from __future__ import annotations

import subprocess
import sys
import time
from pathlib import Path

import pytest

from tests.support.arena import ARENA


def rss_kib(pid: int) -> int:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1])
    raise AssertionError(f"no VmRSS for {pid}")


@pytest.mark.slow
def test_the_referee_rss_after_1000_games_is_within_10_percent_of_after_100(tmp_path: Path) -> None:
    first = f"first={sys.executable} -m example_bots.first_bot"
    logs = tmp_path / "logs"
    args = ["match", "--preset", "single-deck", "-r", "hand_limit=1", "--games", "1000", "--log-dir", str(logs)]
    out = (tmp_path / "arena.out").open("w")  # a file, not a pipe: a pipe nobody reads would stop the referee
    proc = subprocess.Popen([ARENA, *args, "--bot", first], stdout=out, stderr=subprocess.STDOUT, text=True)
    rss: dict[int, int] = {}
    ended = 0
    seen = b""
    try:
        deadline = time.monotonic() + 600
        while 1000 not in rss:
            assert proc.poll() is None, (tmp_path / "arena.out").read_text()[-2000:]
            assert time.monotonic() < deadline, f"{ended} games in 600 s"
            found = list(logs.glob("*.jsonl"))
            if found:
                with found[0].open("rb") as f:
                    f.seek(len(seen))
                    more = f.read()
                complete = more[: more.rfind(b"\n") + 1]
                seen += complete
                ended += complete.count(b'"event":"game_end"')
                for mark in (100, 1000):
                    if ended >= mark and mark not in rss:
                        rss[mark] = rss_kib(proc.pid)
            time.sleep(0.02)
        proc.wait(timeout=60)
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
        out.close()
    assert proc.returncode == 0
    print(f"referee RSS in KiB after 100 and 1000 games: {rss[100]}, {rss[1000]}")
    assert rss[1000] <= rss[100] * 1.10, rss
