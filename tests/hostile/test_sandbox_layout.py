"""The sandbox's plan of mounts (referee/sandbox/layout.py), from paths alone: what is kept, hidden, bound.

Every case here is one a real run met: a checkout and a tournament folder
under /tmp, the tournament folder inside ./logs (two hidden folders, one in
the other: bubblewrap failed to remount the inner one, covered by the outer),
a bot program under /tmp, the seats' sockets in a folder outside the private
places.
"""

from __future__ import annotations

import os
import sys
from pathlib import Path

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
    expected = {f for f in (sys.prefix, sys.base_prefix, ARENA_CODE) if in_private(f)}
    assert set(layout.keep) == expected


def test_a_program_named_on_the_command_line_is_bound_with_its_folder(tmp_path: Path) -> None:
    program = tmp_path / "build" / "bot"
    program.parent.mkdir()
    program.write_text("")
    program.chmod(0o755)
    data = tmp_path / "weights.bin"
    data.write_text("")
    layout = plan([str(program), f"--weights={data}", "--depth", "3"], "/")
    assert layout.files == (str(program), str(data))
    assert str(program.parent) in layout.keep and str(tmp_path) in layout.keep
    # a program found on the PATH counts too
    layout = plan(["bot"], "/", search_path=str(program.parent))
    assert layout.files == (str(program),)


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
