"""``arena tournament --workers N``: tables over N referee processes, the same games as one process."""

from __future__ import annotations

import os
import re
import signal
import subprocess
import time
from pathlib import Path

import pytest

from referee.cli.app import Status
from referee.cli.bare import bare_ray
from referee.replay.logfile import load_log
from referee.replay.verify import verify_log
from referee.tournament.settings import SettingsError, read_toml
from tests.support.arena import ARENA, arena
from tests.support.logs import result_lines, results, same_games
from tests.support.processes import children_of, wait_gone
from tests.support.tournament import SCALE_ARGS

ARGS = SCALE_ARGS
TOTAL = 3 * 4


def descendants(pid: int) -> list[int]:
    out, todo = [], [pid]
    while todo:
        kids = children_of(todo.pop())
        out += kids
        todo += kids
    return out


def test_two_workers_play_the_games_of_one_process(scale_plain: Path, tmp_path: Path) -> None:
    folder = tmp_path / "two"
    run = arena("tournament", *ARGS, "-j", "2", "--workers", "2", "--out", str(folder))
    assert run.returncode == 0, run.stderr
    assert f"{TOTAL} games, 2 table(s) in 2 worker processes" in run.stdout
    same_games(folder, scale_plain)
    # each worker ran its own table: both tables' bots wrote their output into the folder
    assert {p.name.split(".")[0] for p in (folder / "bots").iterdir()} == {"table1", "table2"}


def start(folder: Path, *extra: str) -> subprocess.Popen[str]:
    return subprocess.Popen(
        [str(ARENA), "tournament", *ARGS, "-j", "2", "--workers", "2", "--out", str(folder), *extra],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )


def wait_results(proc: subprocess.Popen[str], folder: Path, count: int) -> None:
    deadline = time.monotonic() + 120
    while result_lines(folder) < count:
        assert proc.poll() is None, proc.communicate()
        assert time.monotonic() < deadline, "the tournament did not get going"
        time.sleep(0.01)


def is_bot(pid: int) -> bool:
    """A bot's own process, not the sandbox launcher (bwrap) in front of it."""
    try:
        with open(f"/proc/{pid}/comm") as f:
            return f.read().strip() != "bwrap"
    except OSError:
        return False


def workers_and_bots(proc: subprocess.Popen[str]) -> tuple[list[int], list[int]]:
    """The worker processes, and every process under them (bots and their sandboxes)."""
    workers = children_of(proc.pid)
    return workers, [b for w in workers for b in descendants(w)]


def test_ctrl_c_stops_every_worker_and_bot_and_resume_finishes(scale_plain: Path, tmp_path: Path) -> None:
    folder = tmp_path / "stopped"
    proc = start(folder)
    wait_results(proc, folder, 2)
    workers, bots = workers_and_bots(proc)
    assert len(workers) == 2 and all(any(is_bot(b) for b in descendants(w)) for w in workers)  # a table in each
    proc.send_signal(signal.SIGINT)
    _, err = proc.communicate(timeout=60)
    assert proc.returncode == 130
    assert re.fullmatch(
        rf"interrupted: finished games kept in {re.escape(str(folder))}: \d+; "
        rf"continue with `arena tournament --resume --out {re.escape(str(folder))}`",
        err.strip().splitlines()[-1],
    )
    wait_gone(workers + bots)
    kept = results(folder)
    assert 2 <= len(kept) < TOTAL
    for r in kept:
        assert verify_log(load_log(folder / r["log"])).games == 1
    resumed = arena("tournament", "--resume", "--out", str(folder), "--workers", "2")
    assert resumed.returncode == 0, resumed.stderr
    same_games(folder, scale_plain)


def test_kill_9_of_the_arena_takes_its_workers_and_bots_with_it(tmp_path: Path) -> None:
    folder = tmp_path / "killed"
    proc = start(folder)
    wait_results(proc, folder, 1)
    workers, bots = workers_and_bots(proc)
    assert len(workers) == 2 and all(any(is_bot(b) for b in descendants(w)) for w in workers)
    proc.kill()
    proc.communicate(timeout=60)
    wait_gone(workers + bots)


def test_a_worker_that_dies_leaves_its_games_to_the_other(scale_plain: Path, tmp_path: Path) -> None:
    folder = tmp_path / "lost"
    proc = start(folder, "-v")
    wait_results(proc, folder, 2)
    workers, _ = workers_and_bots(proc)
    victim = max(workers)
    victim_bots = descendants(victim)
    os.kill(victim, signal.SIGKILL)
    _, err = proc.communicate(timeout=180)
    assert proc.returncode == 0, err
    wait_gone([victim, *victim_bots])  # its bots die with it
    assert "table lost, its game is played again" in err
    same_games(folder, scale_plain)


def test_workers_go_in_the_settings_file(tmp_path: Path) -> None:
    config = tmp_path / "t.toml"
    config.write_text("workers = 3\nconcurrency = 2\n")
    assert read_toml(config).workers == 3
    config.write_text("workers = 0\n")
    with pytest.raises(SettingsError, match=r"t.toml:1: workers: expected a whole number >= 1, got a number \(0\)"):
        read_toml(config)


@pytest.mark.parametrize(
    ("argv", "expected"),
    [
        (["tournament", "--ray"], ["tournament", "--ray", "local"]),
        (["tournament", "--ray", "-n", "2"], ["tournament", "--ray", "local", "-n", "2"]),
        (["tournament", "--ray", "10.0.0.1:6379", "-n", "2"], ["tournament", "--ray", "10.0.0.1:6379", "-n", "2"]),
        (["tournament", "--ray=auto"], ["tournament", "--ray=auto"]),
        (["tournament", "--ray", "--ray"], ["tournament", "--ray", "local", "--ray", "local"]),
        (["match", "--", "--ray"], ["match", "--", "--ray"]),
    ],
)
def test_a_bare_ray_option_means_a_local_ray(argv: list[str], expected: list[str]) -> None:
    assert bare_ray(argv) == expected


def test_ray_and_workers_do_not_go_together(tmp_path: Path) -> None:
    run = arena("tournament", *ARGS, "--ray", "--workers", "2", "--out", str(tmp_path / "t"))
    assert run.returncode == Status.BAD_INPUT
    assert run.stderr.strip() == "error: --ray and --workers: choose one (on Ray, each table is a process of its own)"
    assert not (tmp_path / "t").exists()


def test_ray_without_ray_installed_says_how_to_install_it(tmp_path: Path) -> None:
    hide = tmp_path / "hide" / "ray"
    hide.mkdir(parents=True)
    (hide / "__init__.py").write_text("raise ImportError('No module named ray')\n")
    env = {**os.environ, "PYTHONPATH": str(hide.parent)}
    run = arena("tournament", *ARGS, "--ray", "--out", str(tmp_path / "t"), env=env, timeout=120)
    assert run.returncode == Status.BAD_INPUT, run.stderr
    assert run.stderr.strip() == (
        "error: --ray needs Ray, an optional extra of the arena: pip install -e '.[ray]' in the arena's checkout"
    )
    assert not (tmp_path / "t").exists()


def test_a_game_put_back_goes_to_a_table_that_was_waiting() -> None:
    import asyncio

    from referee.engine.presets import rules_for
    from referee.games.driver import Queue
    from referee.tournament.schedule import round_robin

    async def scenario() -> list[str]:
        queue = Queue(round_robin(("a", "b"), rules_for("neuralplay"), games=2, seed=1))
        first = queue.take(1, frozenset())
        second = queue.take(2, frozenset())
        assert first is not None and second is not None and queue.take(3, frozenset()) is None
        waiting = asyncio.create_task(queue.next(3, frozenset()))  # nothing to start, two games in play
        await asyncio.sleep(0)
        assert not waiting.done()
        queue.put_back(1, first)  # table 1 was lost
        taken = await asyncio.wait_for(waiting, 5)
        assert taken is not None
        queue.finish(2)
        queue.finish(3)
        assert queue.finished and await queue.next(2, frozenset()) is None
        return [taken.game_id]

    assert asyncio.run(scenario()) == ["g0001"]


def test_ray_at_an_address_nobody_answers_on_is_a_one_line_error(tmp_path: Path) -> None:
    import socket

    with socket.socket() as unused:  # a port just freed: nothing listens on it
        unused.bind(("127.0.0.1", 0))
        port = unused.getsockname()[1]
    run = arena("tournament", *ARGS, "--ray", f"127.0.0.1:{port}", "--out", str(tmp_path / "t"), timeout=60)
    assert run.returncode == Status.BAD_INPUT
    (line,) = run.stderr.strip().splitlines()
    assert line.startswith(f"error: --ray 127.0.0.1:{port}: no Ray head answers there (")
    assert not (tmp_path / "t").exists()
