"""The sandbox's plan of mounts (referee/sandbox/layout.py), from paths alone: what is kept, hidden, bound.

Every case here is one a real run met: a checkout and a tournament folder
under /tmp, the tournament folder inside ./logs (two hidden folders, one in
the other: bubblewrap failed to remount the inner one, covered by the outer),
a bot program under /tmp, the seats' sockets in a folder outside the private
places.
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from referee.sandbox import candidates, seccomp
from referee.sandbox.layout import ARENA_CODE, PRIVATE, in_private, plan


def test_a_checkout_under_tmp_is_kept_and_its_logs_hidden(tmp_path: Path) -> None:
    (tmp_path / "logs" / "from-file").mkdir(parents=True)
    layout = plan(["python", "-m", "bot"], str(tmp_path), hidden=[tmp_path / "logs" / "from-file"])
    assert str(tmp_path) in layout.keep and layout.cwd == str(tmp_path)
    # the tournament folder lies in ./logs: covering ./logs covers it, and it is not listed again
    assert layout.hide == (str(tmp_path / "logs"),)
    assert layout.private == tuple(p for p in PRIVATE if os.path.isdir(p) and not os.path.islink(p))


def test_the_arena_and_its_python_are_kept_only_where_they_are_private() -> None:
    layout = plan(["true"], "/")
    for folder in (sys.prefix, sys.base_prefix, ARENA_CODE):
        assert in_private(folder) == any(folder == k or folder.startswith(k + "/") for k in layout.keep)
    assert all(in_private(k) for k in layout.keep)


def test_a_program_named_on_the_command_line_is_kept_with_its_folder(tmp_path: Path) -> None:
    program = tmp_path / "build" / "bot"
    program.parent.mkdir()
    program.write_text("")
    program.chmod(0o755)
    data = tmp_path / "weights.bin"
    data.write_text("")
    layout = plan([str(program), f"--weights={data}", "--depth", "3"], "/")
    # their folders are given back (the one holding the other is enough), so the files show through them
    assert str(tmp_path) in layout.keep and str(program.parent) not in layout.keep and layout.files == ()
    # a program found on the PATH counts too
    layout = plan(["bot"], "/", search_path=str(program.parent))
    assert str(program.parent) in layout.keep
    # a file right in /tmp: its folder is the private place itself, so the file alone is bound
    loose = Path("/tmp") / f"arena-layout-test-{os.getpid()}"
    loose.write_text("")
    try:
        layout = plan([str(loose)], "/")
        assert layout.files == (str(loose),) and "/tmp" not in layout.keep
    finally:
        loose.unlink()


def test_a_named_file_in_a_hidden_folder_is_bound_but_the_folder_stays_hidden(tmp_path: Path) -> None:
    hidden = tmp_path / "tournament"
    hidden.mkdir()
    (hidden / "bot.py").write_text("")
    layout = plan(["python", str(hidden / "bot.py")], str(tmp_path), hidden=[hidden])
    assert str(hidden) in layout.hide and str(hidden) not in layout.keep
    assert layout.files == (str(hidden / "bot.py"),)


def test_the_socket_folder_is_hidden_where_it_is_visible(tmp_path: Path) -> None:
    elsewhere = Path(os.getcwd())  # a folder outside the private places (the checkout, in the suite)
    if in_private(str(elsewhere)):
        elsewhere = Path.home()
    seats = elsewhere / f".arena-seats-test-{os.getpid()}"
    seats.mkdir()
    try:
        layout = plan(["true"], "/", socket=str(seats / "1.sock"))
        assert layout.socket == str(seats / "1.sock") and str(seats) in layout.hide
    finally:
        seats.rmdir()
    # under /tmp the private /tmp hides it already: only the socket is bound
    (tmp_path / "seats").mkdir()
    layout = plan(["true"], "/", socket=str(tmp_path / "seats" / "1.sock"))
    assert layout.socket == str(tmp_path / "seats" / "1.sock") and layout.hide == ()


def test_a_program_in_a_kept_folder_is_not_bound_again(tmp_path: Path) -> None:
    """A checkout and its virtualenv under /tmp (a fresh clone there): ``python`` is found in the kept
    virtualenv, where it already shows; binding it again made bubblewrap fail ("Can't create file at
    .../.venv/bin/python") and no bot could start."""
    venv_bin = tmp_path / ".venv" / "bin"
    venv_bin.mkdir(parents=True)
    (venv_bin / "python").symlink_to(sys.executable)
    layout = plan(["python", "-m", "bot"], str(tmp_path), search_path=str(venv_bin))
    assert str(tmp_path) in layout.keep and str(venv_bin.parent) not in layout.keep  # not listed again
    assert layout.files == ()


def test_what_the_arena_imports_from_a_private_place_is_kept(tmp_path: Path, monkeypatch) -> None:
    site = tmp_path / "site-packages"
    site.mkdir()
    monkeypatch.setattr(sys, "path", [*sys.path, str(site)])
    assert str(site) in plan(["true"], "/").keep


@pytest.mark.parametrize("kind", ["bwrap", "unshare"])
def test_a_readable_folder_in_a_hidden_one_shows_alone(tmp_path: Path, kind: str) -> None:
    # a ladder's folder is hidden from its bots; each bot is given back its own version's frozen copy only
    ladder = tmp_path / "ladder"
    mine, theirs = ladder / "versions" / "mine", ladder / "versions" / "theirs"
    for folder in (mine, theirs):
        folder.mkdir(parents=True)
        (folder / "bot.py").write_text(f"# {folder.name}\n")
    (ladder / "ladder.db").write_text("secret")
    sandbox = {s.kind: s for s, _ in candidates() if s is not None}.get(kind)
    assert sandbox is not None, f"{kind} makes no sandbox here"
    sandbox = sandbox.with_hidden(ladder).with_readable(mine)
    assert plan(["true"], "/", hidden=[ladder], readable=[mine]).readable == (str(mine),)
    probe = (
        f"cat {mine}/bot.py; test ! -e {theirs}/bot.py && test ! -e {ladder}/ladder.db && echo hidden; "
        f"touch {mine}/x 2>/dev/null || echo read-only"
    )
    fd = seccomp.memfd() if kind == "bwrap" else None
    argv = sandbox.wrap(["sh", "-c", probe], cwd="/", seccomp_fd=fd)
    try:
        done = subprocess.run(argv, capture_output=True, text=True, timeout=60, pass_fds=() if fd is None else (fd,))
    finally:
        if fd is not None:
            os.close(fd)
    assert done.returncode == 0, done.stderr
    assert done.stdout.split("\n") == ["# mine", "hidden", "read-only", ""]
