"""An interrupted tournament (kill -9, Ctrl-C, a results line cut short) resumes to the standings of a plain run."""

from __future__ import annotations

import re
import signal
import subprocess
import time
from pathlib import Path

import pytest

from referee.cli.app import Status
from referee.replay.logfile import load_log
from referee.replay.verify import verify_log
from tests.support.arena import ARENA, FIRST, QUICK, RANDOM, arena, bot
from tests.support.logs import result_lines, results, same_games, standings, without_think
from tests.support.processes import children_of, wait_gone

ARGS = [*QUICK, "--bot", RANDOM, "--bot", FIRST, "--bot", bot("other"), "-n", "8", "--seed", "5"]
TOTAL = 3 * 8


def start_and_stop(folder: Path, sig: int, after: int) -> tuple[subprocess.CompletedProcess[str], list[int]]:
    """Start a tournament on two tables; send ``sig`` once ``after`` games are recorded (and the bots are up)."""
    proc = subprocess.Popen(
        [str(ARENA), "tournament", *ARGS, "-j", "2", "--out", str(folder)],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    deadline = time.monotonic() + 120
    while result_lines(folder) < after:
        assert proc.poll() is None, proc.communicate()
        assert time.monotonic() < deadline, "the tournament did not get going"
        time.sleep(0.01)
    bots = children_of(proc.pid)
    proc.send_signal(sig)
    out, err = proc.communicate(timeout=60)
    return subprocess.CompletedProcess(proc.args, proc.returncode, out, err), bots


@pytest.fixture(scope="module")
def plain(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The same tournament run without interruption, on one table."""
    folder = tmp_path_factory.mktemp("plain") / "t"
    run = arena("tournament", *ARGS, "-j", "1", "--out", str(folder))
    assert run.returncode == 0, run.stderr
    return folder


def test_kill_9_loses_only_the_games_in_flight_and_resume_gives_the_plain_standings(
    plain: Path, tmp_path: Path
) -> None:
    folder = tmp_path / "killed"
    killed, bots = start_and_stop(folder, signal.SIGKILL, after=3)
    assert killed.returncode == -signal.SIGKILL
    assert len(bots) == 8  # two tables of four seats
    wait_gone(bots)  # no bot outlives a referee killed with -9
    done = result_lines(folder)
    assert 3 <= done < TOTAL
    kept = results(folder)
    # what a finished game left is intact; only games in flight may have partial logs
    for r in kept:
        assert verify_log(load_log(folder / r["log"])).games == 1
    written = {r["log"]: (folder / r["log"]).stat().st_mtime_ns for r in kept}
    resumed = arena("tournament", "--resume", "--out", str(folder), "-j", "2")  # settings from the folder
    assert resumed.returncode == 0, resumed.stderr
    assert f"{TOTAL} games ({done} done)" in resumed.stdout
    assert {log: (folder / log).stat().st_mtime_ns for log in written} == written  # finished games not replayed
    same_games(folder, plain)  # the same games, apart from how long the bots took


def test_ctrl_c_stops_cleanly_and_says_how_to_resume(plain: Path, tmp_path: Path) -> None:
    folder = tmp_path / "stopped"
    stopped, bots = start_and_stop(folder, signal.SIGINT, after=2)
    assert stopped.returncode == 130
    last = stopped.stderr.strip().splitlines()[-1]
    assert re.fullmatch(
        rf"interrupted: finished games kept in {re.escape(str(folder))}: \d+; "
        rf"continue with `arena tournament --resume --out {re.escape(str(folder))}`",
        last,
    ), last
    wait_gone(bots)
    resumed = arena("tournament", *ARGS, "--resume", "--out", str(folder))  # the same command, resumed
    assert resumed.returncode == 0, resumed.stderr
    assert without_think(standings(folder)) == without_think(standings(plain))


def test_a_results_line_cut_short_is_played_again(plain: Path, tmp_path: Path) -> None:
    folder = tmp_path / "cut"
    subprocess.run(["cp", "-r", str(plain), str(folder)], check=True)
    path = folder / "results.jsonl"
    data = path.read_bytes()
    last_start = data.rstrip(b"\n").rfind(b"\n") + 1
    path.write_bytes(data[: last_start + 40])  # kill -9 in the middle of writing the last line
    (folder / "games" / f"g{TOTAL:04d}.jsonl").rename(folder / "games" / f"g{TOTAL:04d}.jsonl.part")
    resumed = arena("tournament", "--resume", "--out", str(folder))
    assert resumed.returncode == 0, resumed.stderr
    assert f"({TOTAL - 1} done)" in resumed.stdout
    assert without_think(results(folder)) == without_think(results(plain))  # the cut line is whole again
    assert path.read_bytes()[:last_start] == data[:last_start]  # the lines before it untouched
    assert without_think(standings(folder)) == without_think(standings(plain))
    assert not list((folder / "games").glob("*.part"))


def test_resume_refuses_other_settings(plain: Path) -> None:
    run = arena("tournament", *ARGS, "--seed", "6", "--move-time", "900", "--resume", "--out", str(plain))
    assert run.returncode == Status.BAD_INPUT
    (line,) = run.stderr.strip().splitlines()
    assert line.startswith(f"error: --resume: these settings differ from those {plain} was started with (here / there)")
    assert "seed 6 / 5" in line and "move_time_ms 900 / 2000" in line


def test_resume_refuses_a_results_file_of_other_settings(plain: Path, tmp_path: Path) -> None:
    folder = tmp_path / "edited"
    subprocess.run(["cp", "-r", str(plain), str(folder)], check=True)
    path = folder / "results.jsonl"
    lines = path.read_text().splitlines(keepends=True)
    lines[1] = lines[1].replace('"seed":', '"seed":1', 1)
    path.write_text("".join(lines))
    run = arena("tournament", "--resume", "--out", str(folder))
    assert run.returncode == Status.BAD_INPUT
    (line,) = run.stderr.strip().splitlines()
    assert f"{path}:2: game 2 was" in line and "the file belongs to other settings" in line
