"""``arena ladder run`` with real bot processes: a failing new version, kill -9 while a game's transaction is
being written, Ctrl-C and --hours, a three-team preset, worker processes with a version added while the run plays."""

from __future__ import annotations

import json
import os
import re
import signal
import sqlite3
import subprocess
import sys
import time
import urllib.request
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from tests.ladder.support import QUICK_LADDER, ladder, make_ladder, rows, standings
from tests.support.arena import ARENA, FIRST, RANDOM, RULES, SHAKY


def _wait_for(what: str, ready: object, proc: subprocess.Popen[str], timeout: float = 120) -> None:
    deadline = time.monotonic() + timeout
    while not ready():  # type: ignore[operator]
        if proc.poll() is not None or time.monotonic() > deadline:
            proc.kill()
            raise AssertionError(f"no {what}: {proc.communicate()}")
        time.sleep(0.05)


def _start(*args: str | Path) -> subprocess.Popen[str]:
    return subprocess.Popen(
        [ARENA, "ladder", *map(str, args)],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        process_group=0,  # its bots with it, as a terminal's process group
    )


def test_a_failing_new_version_is_in_error_and_never_paired(tmp_path: Path) -> None:
    folder = tmp_path / "l"
    crash = f"broken={sys.executable} -c 'import sys; print(\"cannot start\", file=sys.stderr); sys.exit(3)'"
    make_ladder(folder, RANDOM, FIRST, crash)
    run = ladder("run", folder, "--games", "9", "-j", "2")
    assert run.returncode == 0, run.stderr
    assert "broken.v1 is in error: validation game" in run.stdout
    (broken,) = [r for r in standings(folder)["standings"] if r["bot"] == "broken"]
    assert broken["status"] == "error" and broken["rank"] is None
    assert broken["reason"].startswith("validation game g") and "crash" in broken["reason"]
    assert "cannot start" in (folder / broken["output"]).read_text()
    (vid,) = rows(folder, "SELECT id FROM versions WHERE bot = 'broken'")[0]
    ladder_teams = rows(folder, "SELECT g.teams FROM games g JOIN sets s ON s.id = g.set_id WHERE s.kind = 'ladder'")
    assert len(ladder_teams) == 6 and all(vid not in json.loads(t) for (t,) in ladder_teams)
    listed = ladder("list", folder)
    assert "error" in listed.stdout and "crash" in listed.stdout


@contextmanager
def write_lock(folder: Path) -> Iterator[None]:
    """A connection of the test's own holding the ladder database's write lock (``BEGIN IMMEDIATE``), as another
    writer would: a game the run records meanwhile waits for it to be committed."""
    db = sqlite3.connect(folder / "ladder.db", isolation_level=None)
    try:
        db.execute("BEGIN IMMEDIATE")
        yield
    finally:
        db.close()  # its transaction rolled back, the lock released


def test_kill_9_while_a_game_is_being_committed_loses_only_that_game(tmp_path: Path) -> None:
    folder = tmp_path / "l"
    make_ladder(folder, RANDOM, FIRST)
    proc = _start("run", folder, "-j", "1")
    # the first game's set is made (nothing else is written before that game is recorded): from here on, the
    # game, once played, waits to be committed
    _wait_for("the first set", lambda: rows(folder, "SELECT COUNT(*) FROM sets") != [(0,)], proc)
    with write_lock(folder):
        _wait_for("the first game played", (folder / "games" / "g0001.jsonl").exists, proc)
        os.killpg(proc.pid, signal.SIGKILL)  # the arena and its bots, as kill -9 of the whole job
        proc.communicate(timeout=30)
    # the first game was on its way into the database: not in it, and nothing else half-written
    assert rows(folder, "SELECT COUNT(*) FROM games") == [(0,)]
    assert rows(folder, "SELECT status FROM versions") == [("pending",), ("pending",)]
    # once more, killed mid-run (no lock held) once three games are committed: they stay
    proc = _start("run", folder, "-j", "1")  # the lock the killed run held is free
    _wait_for("three games", lambda: len(rows(folder, "SELECT number FROM games")) >= 3, proc)
    os.killpg(proc.pid, signal.SIGKILL)
    proc.communicate(timeout=30)
    kept = rows(folder, "SELECT number, scores, record FROM games ORDER BY number")
    assert len(kept) >= 3
    again = ladder("run", folder, "--games", "4", "-j", "2")
    assert again.returncode == 0, again.stderr
    after = rows(folder, "SELECT number, scores, record FROM games ORDER BY number")
    assert after[: len(kept)] == kept  # nothing committed was lost or changed
    numbers = [n for n, _, _ in after]
    assert numbers == list(range(1, len(numbers) + 1))  # the games in play were played again, none twice
    checked = ladder("check", folder)
    assert checked.returncode == 0, checked.stdout


def test_ctrl_c_then_a_run_by_the_hour_goes_on(tmp_path: Path) -> None:
    folder = tmp_path / "l"
    make_ladder(folder, RANDOM, FIRST)
    proc = _start("run", folder, "-j", "2")
    _wait_for("three games", lambda: len(rows(folder, "SELECT number FROM games")) >= 3, proc)
    os.killpg(proc.pid, signal.SIGINT)  # as a terminal's Ctrl-C
    _, err = proc.communicate(timeout=60)
    assert proc.returncode == 130, err
    assert "every one committed; `arena ladder run" in err
    kept = rows(folder, "SELECT number, scores, record FROM games ORDER BY number")
    again = ladder("run", folder, "--hours", "0.002", "-j", "2")  # 7.2 s, then it stops by itself
    assert again.returncode == 0, again.stderr
    after = rows(folder, "SELECT number, scores, record FROM games ORDER BY number")
    assert len(after) > len(kept) and all(game in after for game in kept)  # nothing committed lost or changed
    # the games in play (numbered as they were handed out, maybe before some committed ones) played again, none twice
    assert [n for n, _, _ in after] == list(range(1, len(after) + 1))
    assert ladder("check", folder).returncode == 0


def test_a_three_team_preset(tmp_path: Path) -> None:
    folder = tmp_path / "l"
    three = ["--preset", "double-deck-3p", "--rule", "hand_limit=3", "--move-time", "2000", "--sandbox", "off"]
    make_ladder(folder, RANDOM, FIRST, RULES, rules=three)
    run = ladder("run", folder, "--games", "9", "-j", "2")
    assert run.returncode == 0, run.stderr
    data = standings(folder)
    assert data["meta"]["teams"] == 3 and data["meta"]["set_size"] == 3
    assert data["meta"]["rated_sets"] == 2 and data["meta"]["ladder_games"] == 6
    assert all(r["sets"] == 2 and r["games"] == 6 for r in data["standings"])
    sigmas = {r["sigma"] for r in data["standings"]}
    assert all(s < 8.3334 for s in sigmas)
    # every set seats each version at each team once, on one deal
    for (set_id,) in rows(folder, "SELECT id FROM sets WHERE kind = 'ladder'"):
        games = rows(folder, "SELECT teams, seed FROM games WHERE set_id = ?", set_id)
        assert len({seed for _, seed in games}) == 1
        seatings = [json.loads(t) for t, _ in games]
        assert all(sorted(column) == sorted(seatings[0]) for column in zip(*seatings, strict=True))
    assert ladder("check", folder).returncode == 0


def test_workers_take_a_version_added_while_the_run_plays(tmp_path: Path) -> None:
    folder = tmp_path / "l"
    make_ladder(folder, RANDOM, FIRST)
    proc = _start("run", folder, "--games", "22", "-j", "2", "--workers", "2")
    _wait_for("four games", lambda: len(rows(folder, "SELECT number FROM games")) >= 4, proc)
    added = ladder("add", folder, SHAKY)
    assert added.returncode == 0, added.stderr
    out, err = proc.communicate(timeout=240)
    assert proc.returncode == 0, err
    assert "in 2 worker processes" in out
    assert "new versions to play: the tables open again with them" in out
    assert "shaky.v1 passed its validation game" in out
    shaky = next(r for r in standings(folder)["standings"] if r["bot"] == "shaky")
    assert shaky["status"] == "active" and shaky["games"] > 0
    assert rows(folder, "SELECT COUNT(*) FROM games") == [(22,)]
    assert ladder("check", folder).returncode == 0


def test_run_live_serves_the_page_and_the_tables_in_play(tmp_path: Path) -> None:
    folder = tmp_path / "l"
    make_ladder(folder, RANDOM, RULES, rules=[*QUICK_LADDER, "--rule", "hand_limit=40"])
    proc = _start("run", folder, "--games", "12", "-j", "2", "--live")
    assert proc.stdout is not None
    line = proc.stdout.readline()
    found = re.search(r"live view: (http://127\.0\.0\.1:\d+/\S+/)", line) or re.search(
        r"live view: (http://127\.0\.0\.1:\d+/\S+/)", proc.stdout.readline()
    )
    assert found is not None, line
    url = found[1]
    tables: list[str] = []
    deadline = time.monotonic() + 120
    while not tables and time.monotonic() < deadline and proc.poll() is None:
        page = urllib.request.urlopen(url, timeout=30).read().decode()
        tables = re.findall(r'\{"table":(\d+),"game":"g\d+"', page)  # the live entry's tables in play
        time.sleep(0.2)
    assert tables, "no table in play was shown"
    table = urllib.request.urlopen(f"{url}tables/{tables[0]}", timeout=30).read().decode()
    assert "table" in table and "<script" in table
    _, err = proc.communicate(timeout=240)
    assert proc.returncode == 0, err
