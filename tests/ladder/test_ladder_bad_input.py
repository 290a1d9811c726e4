"""Bad input to ``arena ladder``: one line each, a non-zero exit, and nothing in the database changed."""

from __future__ import annotations

import fcntl
import hashlib
import os
import sqlite3
import sys
from pathlib import Path

import pytest

from referee.cli.app import Status
from referee.ladder.settings import read_ladder_toml
from referee.setting import SettingsError
from tests.support.arena import RANDOM, bot
from tests.support.ladder import ladder, make_ladder, rows


@pytest.fixture
def small(tmp_path: Path) -> Path:
    folder = tmp_path / "small"
    make_ladder(folder, RANDOM)
    return folder


def _digest(folder: Path) -> str:
    """What the database holds (its rows, read through SQLite, so a checkpoint does not count as a change)."""
    db = sqlite3.connect(folder / "ladder.db")
    try:
        text = "\n".join(line for line in db.iterdump())
    finally:
        db.close()
    return hashlib.sha256(text.encode()).hexdigest()


def _one_line(stderr: str) -> str:
    lines = stderr.strip().splitlines()
    assert len(lines) == 1, stderr
    return lines[0]


def test_a_command_that_is_not_a_bot(small: Path) -> None:
    before = _digest(small)
    out = ladder("add", small, "ghost=no-such-program --fast")
    assert out.returncode == Status.BAD_INPUT
    assert "program 'no-such-program' not found" in _one_line(out.stderr)
    out = ladder("add", small, "no command")
    assert out.returncode == Status.BAD_INPUT and "expected NAME=COMMAND" in _one_line(out.stderr)
    assert _digest(small) == before


def test_the_same_command_again_under_the_same_name_changes_nothing(small: Path) -> None:
    before = _digest(small)
    out = ladder("add", small, RANDOM)
    assert out.returncode == Status.BAD_INPUT
    assert "random: this command is version 1 already (pending); nothing changed" in _one_line(out.stderr)
    assert _digest(small) == before
    assert rows(small, "SELECT bot, version FROM versions") == [("random", 1)]


def test_a_folder_that_is_not_a_ladder(tmp_path: Path) -> None:
    (tmp_path / "plain").mkdir()
    for command in (["standings"], ["add", bot("x")], ["run", "--games", "1"], ["check"]):
        out = ladder(command[0], tmp_path / "plain", *command[1:])
        assert out.returncode == Status.BAD_INPUT, out
        assert "is not a ladder: it has no ladder.db (make one with `arena ladder init FOLDER`)" in _one_line(
            out.stderr
        )
    (tmp_path / "notdb").mkdir()
    (tmp_path / "notdb" / "ladder.db").write_text("hello, this is no database at all" * 10)
    out = ladder("standings", tmp_path / "notdb")
    assert out.returncode == Status.BAD_INPUT
    assert "is not a ladder's database (not an SQLite file)" in _one_line(out.stderr)
    out = ladder("init", tmp_path / "notdb")
    assert out.returncode == Status.BAD_INPUT and "is a ladder already" in _one_line(out.stderr)


def test_a_ladder_made_by_a_newer_arena(small: Path) -> None:
    db = sqlite3.connect(small / "ladder.db")
    db.execute("UPDATE meta SET value = '99' WHERE key = 'schema'")
    db.commit()
    db.close()
    before = _digest(small)
    for command in (["standings"], ["add", bot("first", "first_bot")], ["run", "--games", "1"]):
        out = ladder(command[0], small, *command[1:])
        assert out.returncode == Status.BAD_INPUT
        assert "was made by a newer arena (ladder schema 99; this arena reads up to 2)" in _one_line(out.stderr)
    assert _digest(small) == before


def test_a_locked_database(small: Path) -> None:
    db = sqlite3.connect(small / "ladder.db", isolation_level=None)
    db.execute("BEGIN EXCLUSIVE")  # another process holding a write transaction open
    try:
        out = ladder("add", small, bot("first", "first_bot"))
        assert out.returncode == Status.BAD_INPUT
        assert "ladder.db is locked: another process holds a transaction open on it" in _one_line(out.stderr)
    finally:
        db.execute("ROLLBACK")
        db.close()
    assert rows(small, "SELECT bot FROM versions") == [("random",)]


def test_a_database_cut_short_says_how_to_recover(small: Path) -> None:
    path = small / "ladder.db"
    data = path.read_bytes()
    path.write_bytes(data[: len(data) // 2])
    out = ladder("standings", small)
    assert out.returncode == Status.BAD_INPUT
    line = _one_line(out.stderr)
    assert f"ladder.db is cut short ({len(data) // 2} of {len(data)} bytes)" in line
    assert f"`arena ladder recover {small}`" in line
    recovered = ladder("recover", small)
    assert recovered.returncode == 0, recovered.stderr
    assert rows(small, "SELECT bot, version, status FROM versions") == [("random", 1, "pending")]


def test_a_second_run_on_the_same_ladder_refuses(small: Path) -> None:
    fd = os.open(small / "ladder.lock", os.O_RDWR | os.O_CREAT)
    fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)  # as a run holds it
    os.pwrite(fd, b"4242\n", 0)
    try:
        out = ladder("run", small, "--games", "1")
        assert out.returncode == Status.BAD_INPUT
        assert "another `arena ladder run` (pid 4242) is playing" in _one_line(out.stderr)
    finally:
        os.close(fd)
    assert rows(small, "SELECT COUNT(*) FROM games") == [(0,)]


def test_settings_a_ladder_does_not_have(tmp_path: Path) -> None:
    config = tmp_path / "ladder.toml"
    config.write_text('preset = "double-deck"\ngames = 4\n')
    out = ladder("init", tmp_path / "l", "--config", config)
    assert out.returncode == Status.BAD_INPUT
    assert f"{config}:2: games: unknown setting" in _one_line(out.stderr)
    assert not (tmp_path / "l").exists()
    config.write_text(
        f'preset = "double-deck"\nseed = 5\n[bots]\nrandom = "{sys.executable} -m example_bots.random_bot"\n'
    )
    out = ladder("init", tmp_path / "l", "--config", config, "--seed", "6")
    assert out.returncode == 0, out.stderr
    assert "seed 6" in out.stdout and "added random, version 1" in out.stdout


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("seed = 1\nworkers = 2\n", "l.toml:2: workers: unknown setting"),  # each `arena ladder run` chooses it
        ("concurrency = 2\n", "l.toml:1: concurrency: unknown setting"),
        ('tcp = ["a"]\n', "l.toml:1: tcp: a ladder's bots connect over Unix sockets"),
        ("all_versions = 1\n", "l.toml:1: all_versions: expected true or false, got a number (1)"),
    ],
)
def test_a_ladder_file_takes_the_games_settings_and_its_policy_only(tmp_path: Path, text: str, message: str) -> None:
    path = tmp_path / "l.toml"
    path.write_text(text)
    with pytest.raises(SettingsError) as caught:
        read_ladder_toml(path)
    assert message in str(caught.value) and "\n" not in str(caught.value)
