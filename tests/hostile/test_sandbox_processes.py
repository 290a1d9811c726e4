"""Issue 10, item 1: what a bot starts (plain, setsid, double-forked) dies with it and with the referee.

sbx_forker starts three sleepers carrying a marker; each test first sees
them alive (so it could fail), then checks that no process carrying the
marker is left: after a match, after a tournament, and after kill -9 of the
referee mid-tournament (which then resumes to the standings of a plain run).
"""

from __future__ import annotations

import os
import signal
from pathlib import Path

import pytest

from tests.support.arena import QUICK, RANDOM, start
from tests.support.logs import only_log, results, seat_kind_penalty, standings, without_think
from tests.support.processes import alive, descendants, wait_for, wait_marker_gone
from tests.support.sandbox import hostile, marked, new_marker, tournament, verified


@pytest.mark.parametrize("sandbox", ["required", "off"])
def test_children_die_with_the_bot_after_a_match(tmp_path: Path, sandbox: str) -> None:
    # bare, the referee finds them by the token they inherit (docs/security.md)
    marker = new_marker()
    proc = start("match", *QUICK, "--sandbox", sandbox, "--log-dir", str(tmp_path),
                 "--bot", hostile("forker", "sbx_forker.py", marker), "--bot", RANDOM)  # fmt: skip
    try:
        wait_for(lambda: len(marked(marker)) >= 6 or proc.poll() is not None, "the sleepers of both forker seats")
        assert len(marked(marker)) == 6, proc.communicate()  # 3 per seat, 2 seats of team 0
        _, err = proc.communicate(timeout=240)
        assert proc.returncode == 0, err
        wait_marker_gone(marker)
    finally:
        proc.kill()
        for pid in marked(marker):  # what a failed test would leave
            os.kill(pid, signal.SIGKILL)
    records = verified(only_log(tmp_path))
    assert seat_kind_penalty(records) == []


def test_children_die_with_the_bots_after_a_tournament(tmp_path: Path) -> None:
    marker = new_marker()
    folder = tmp_path / "t"
    run = tournament(folder, hostile("forker", "sbx_forker.py", marker), RANDOM)
    assert run.returncode == 0, run.stderr
    assert "sbx_forker: started 3 sleepers" in "".join(p.read_text() for p in (folder / "bots").iterdir())
    wait_marker_gone(marker)
    for record in results(folder):
        assert record["violations"] == []
        verified(folder / record["log"])


@pytest.mark.slow
def test_kill_9_of_the_referee_mid_tournament(tmp_path: Path) -> None:
    marker = new_marker()
    bots = ["--bot", hostile("forker", "sbx_forker.py", marker), "--bot", RANDOM]
    args = [*QUICK, "--sandbox", "required", *bots, "-n", "8", "--seed", "3"]
    plain = tmp_path / "plain"
    run = tournament(plain, *bots[1::2], extra=("-n", "8", "--seed", "3"))
    assert run.returncode == 0, run.stderr
    wait_marker_gone(marker)

    folder = tmp_path / "killed"
    proc = start("tournament", *args, "-j", "2", "--out", str(folder))
    try:
        results_file = folder / "results.jsonl"
        wait_for(lambda: results_file.exists() and results_file.read_bytes().count(b"\n") >= 2, "two games")
        wait_for(lambda: len(marked(marker)) >= 3, "the forker's sleepers")
        under = descendants(proc.pid)  # launchers, bots (both), sleepers
        proc.send_signal(signal.SIGKILL)
        proc.wait(timeout=30)
    finally:
        proc.kill()
        proc.communicate()
    assert len(under) >= 2 * 3 + 3  # per table at least: launcher, namespace init, bot; and the sleepers
    wait_marker_gone(marker)  # bots, launchers and sleepers, setsid and double-forked ones too
    wait_for(lambda: not any(alive(p) for p in under), "every process under the killed referee to end", 15)
    for log in (folder / "games").iterdir():  # every log, finished or cut off (.part), valid up to its last line
        verified(log)
    done = len(results(folder))
    assert done < 8, "the tournament finished before it was killed"

    resumed = tournament(folder, extra=("--resume",))
    assert resumed.returncode == 0, resumed.stderr
    wait_marker_gone(marker)
    assert len(results(folder)) == 8
    assert without_think(standings(folder)) == without_think(standings(plain))
