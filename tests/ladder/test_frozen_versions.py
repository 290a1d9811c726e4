"""A version is code: ``arena ladder add`` freezes the files its command runs and the ladder runs the copy, in
the sandbox (the ladder's folder hidden but for the bot's own copy); the same files again are the same
version; the arena's own bots are frozen by its version; a version in error is validated again by ``retry``,
its files unchanged, and ``recover`` tells its validation games apart."""

from __future__ import annotations

import json
import sys
from pathlib import Path

from referee.cli.app import Status
from referee.ladder.freezing import ARENA
from tests.support.arena import FIRST, QUICK, RANDOM
from tests.support.ladder import QUICK_LADDER, ladder, make_ladder, marks, my_bot, rows


def test_the_ladder_runs_a_frozen_copy_in_the_sandbox_and_not_the_authors_folder(tmp_path: Path) -> None:
    author = my_bot(tmp_path / "mybot", "v1")
    folder = tmp_path / "club"
    made = ladder("init", folder, *QUICK, "--sandbox", "required")
    assert made.returncode == 0, made.stderr
    added = ladder("add", folder, f"mine={sys.executable} {author / 'bot.py'}")
    assert added.returncode == 0, added.stderr
    assert "added mine, version 1 (mine.v1, frozen as " in added.stdout and "KiB)" in added.stdout
    assert f"frozen as {ARENA}" in ladder("add", folder, FIRST).stdout
    (author / "note.py").write_text("MARK = 'changed after it was added'\n")  # rated code does not change
    run = ladder("run", folder, "--games", "4", "-j", "1")
    assert run.returncode == 0, run.stderr
    (version,) = rows(folder, "SELECT frozen, folder, argv FROM versions WHERE bot = 'mine'")
    frozen, copy, argv = version
    assert len(frozen) == 64 and copy == str(folder / "versions" / frozen / "files")
    assert json.loads(argv)[1] == f"{copy}/bot.py"
    assert marks(folder) == {f"mark v1 from {copy}/bot.py"}, marks(folder)
    assert sorted(p.name for p in Path(copy).iterdir()) == ["bot.py", "note.py"]
    # the author's folder as it is now is new files: a new version; the same files again change nothing
    again = ladder("add", folder, f"mine={sys.executable} {author / 'bot.py'}")
    assert again.returncode == 0 and "version 2 (mine.v2" in again.stdout, again.stderr
    same = ladder("add", folder, f"mine={sys.executable} {author / 'bot.py'}")
    assert same.returncode == Status.BAD_INPUT
    assert "is version 2 already (pending); nothing changed" in same.stderr and "its files frozen as" in same.stderr
    listed = ladder("list", folder)
    assert frozen[:12] in listed.stdout and ARENA in listed.stdout


def test_a_command_that_names_no_file_or_a_link_out_cannot_be_frozen(tmp_path: Path) -> None:
    folder = tmp_path / "l"
    make_ladder(folder)
    out = ladder("add", folder, "env=env")
    assert out.returncode == Status.BAD_INPUT and "names no file or folder of the bot to freeze" in out.stderr
    bad = my_bot(tmp_path / "bad", "x")
    (bad / "secret").symlink_to("/etc/hostname")
    out = ladder("add", folder, f"bad={sys.executable} {bad / 'bot.py'}")
    assert out.returncode == Status.BAD_INPUT and "outside the bot's folder" in out.stderr
    assert rows(folder, "SELECT COUNT(*) FROM versions") == [(0,)]


FLAKY = """\
import os, sys
if os.path.exists(sys.argv.pop(1)):
    sys.exit("the first time, something outside the bot was wrong")
from example_bots.first_bot import FirstBot
from sdk import run
run(FirstBot())
"""


def test_a_version_in_error_is_validated_again_by_retry_its_files_unchanged(tmp_path: Path) -> None:
    bot = tmp_path / "flaky"
    bot.mkdir()
    (bot / "bot.py").write_text(FLAKY)
    broken = tmp_path / "broken-now"
    broken.touch()
    folder = tmp_path / "l"
    make_ladder(folder, RANDOM, FIRST, f"flaky={sys.executable} {bot / 'bot.py'} {broken}", rules=QUICK_LADDER)
    active = ladder("retry", folder, "random@1")
    assert active.returncode == Status.BAD_INPUT and "only a version in error" in active.stderr
    run = ladder("run", folder, "--games", "3", "-j", "1")
    assert run.returncode == 0, run.stderr
    assert rows(folder, "SELECT status, tries FROM versions WHERE bot = 'flaky'") == [("error", 0)]
    broken.unlink()  # what was wrong is mended; the bot's files are what they were
    retried = ladder("retry", folder, "flaky@1")
    assert retried.returncode == 0 and "flaky.v1 waits for its validation game again" in retried.stdout
    run = ladder("run", folder, "--games", "1", "-j", "1")
    assert run.returncode == 0, run.stderr
    assert rows(folder, "SELECT status, tries FROM versions WHERE bot = 'flaky'") == [("active", 1)]
    seeds = rows(folder, "SELECT seed FROM sets WHERE kind = 'validation' AND versions = '[3]'")
    assert len(seeds) == 2 and seeds[0] != seeds[1]  # each validation game on a deal of its own
    (folder / "ladder.db").unlink()
    recovered = ladder("recover", folder)
    assert recovered.returncode == 0, recovered.stderr
    assert rows(folder, "SELECT status, tries FROM versions WHERE bot = 'flaky'") == [("active", 1)]
    assert len(rows(folder, "SELECT id FROM sets WHERE kind = 'validation' AND versions = '[3]'")) == 2
    assert ladder("check", folder).returncode == 0
