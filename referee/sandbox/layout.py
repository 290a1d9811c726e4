"""What a bot's sandbox shows it: the same plan for bubblewrap and for the ``unshare`` launcher.

The bot sees the machine's file system read-only, with these changes, made in
this order (later mounts go on top of earlier ones):

1. ``PRIVATE`` places (/tmp, /var/tmp, /dev/shm, /run) are empty tmpfs of its
   own: nothing another process writes there reaches it, nothing it writes
   leaves (the only writable places, with folders the arena's owner allows);
2. ``keep``: folders the bot needs that lie in a private place, given back
   read-only at the same path: its working folder, the arena's Python and
   code (every folder on the referee's ``sys.path``), the folders of the
   files named on its command line;
3. ``hide``: folders covered with an empty read-only tmpfs: the game logs, the
   tournament folder, the referee's folder of seat sockets;
4. ``files``: the files named on its command line that lie in a private or a
   hidden place, read-only at the same path (a program built under /tmp runs);
5. ``socket``: its own seat's socket, the one way to the referee;
6. ``readable``: folders the arena's owner gives this bot back read-only, even inside a hidden one: a
   ladder's frozen copy of the bot's own version, in the ladder's (hidden) folder;
7. ``writable``: folders it may write in (none unless the arena's owner says so);
8. ``masks``: the files of /proc that count the whole machine's CPU time and
   load (``MASKED_PROC``), replaced by a copy taken once: a partner's busy
   loop shows in them at once, a timing channel of about 50 bits a second
   (bench/side_channels.py); frozen, they tell nothing.

Everything here is computed from paths: nothing is mounted.
"""

from __future__ import annotations

import os
import shutil
import sys
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path

# Places every process of the machine can write in: private to each bot (each gets an empty tmpfs).
PRIVATE = ("/tmp", "/var/tmp", "/dev/shm", "/run")

# /proc files that count the whole machine's CPU time and load, kept still in the sandbox (item 7 above)
MASKED_PROC = (
    "/proc/stat",
    "/proc/uptime",
    "/proc/loadavg",
    "/proc/schedstat",
    "/proc/pressure/cpu",
    "/proc/pressure/io",
    "/proc/pressure/memory",
)

# where the arena's own code lives: the folder holding the ``referee`` package (an editable install's
# project, or site-packages), which ``python -m example_bots...`` imports from
ARENA_CODE = str(Path(__file__).resolve().parent.parent.parent)


@dataclass(frozen=True)
class Layout:
    """The mounts of one bot's sandbox (see the module's docstring); every path absolute."""

    cwd: str
    private: tuple[str, ...]
    keep: tuple[str, ...]
    hide: tuple[str, ...]
    files: tuple[str, ...]
    socket: str | None
    writable: tuple[str, ...]
    masks: tuple[tuple[str, str], ...] = ()  # (a /proc file, the still copy bound over it)
    readable: tuple[str, ...] = ()


def under(path: str, folder: str) -> bool:
    """``path`` is ``folder`` or lies inside it."""
    return path == folder or path.startswith(folder.rstrip("/") + "/")


def in_private(path: str) -> bool:
    return any(under(path, place) for place in PRIVATE)


def plan(
    argv: Sequence[str],
    cwd: str,
    *,
    hidden: Iterable[Path] = (),
    writable: Iterable[Path] = (),
    readable: Iterable[Path] = (),
    socket: str | None = None,
    helpers: Sequence[str] = (),
    search_path: str | None = None,
    masks: Sequence[tuple[str, str]] = (),
) -> Layout:
    """The layout for running ``argv`` in ``cwd``.

    ``helpers`` are programs the launcher runs before the bot (prlimit, the
    relay's interpreter): kept visible like the bot's own. ``search_path`` is
    the PATH the bot's program is looked up on.
    """
    cwd = os.path.abspath(cwd)
    named = [os.path.abspath(h) for h in helpers if os.path.exists(h)] + _named_files(argv, cwd, search_path)
    hide = [os.path.abspath(h) for h in hidden]
    default_logs = os.path.join(cwd, "logs")  # the arena's default log folder where the bot runs
    if default_logs not in hide:
        hide.append(default_logs)
    if socket is not None:
        hide.append(os.path.dirname(os.path.abspath(socket)))
    # what the arena's own Python can import (its prefix, site-packages and .pth entries, PYTHONPATH), which a
    # bot run by the same interpreter imports too
    wanted = [cwd, sys.prefix, sys.base_prefix, ARENA_CODE, *(p for p in sys.path if p and os.path.isdir(p))]
    for path in named:  # a script's own folder: what it imports or reads beside itself
        folder = path if os.path.isdir(path) else os.path.dirname(path)
        if folder not in PRIVATE:
            wanted.append(folder)
    keep = _unique(
        os.path.abspath(f)
        for f in wanted
        if in_private(os.path.abspath(f)) and os.path.isdir(f) and not any(under(os.path.abspath(f), h) for h in hide)
    )
    keep = tuple(k for k in keep if not any(k != outer and under(k, outer) for outer in keep))  # inside another
    hide_dirs = _unique(h for h in hide if os.path.isdir(h) and _visible(h, keep))
    hide_dirs = tuple(h for h in hide_dirs if not any(h != o and under(h, o) for o in hide_dirs))  # covered already
    files = _unique(
        f
        for f in named
        if os.path.isfile(f)
        and (any(under(f, h) for h in hide_dirs) or (in_private(f) and not any(under(f, k) for k in keep)))
    )  # what would not be seen: in a hidden folder, or in a private place outside the kept folders
    return Layout(
        cwd=cwd,
        private=tuple(p for p in PRIVATE if os.path.isdir(p) and not os.path.islink(p)),
        keep=keep,
        hide=hide_dirs,
        files=files,
        socket=None if socket is None else os.path.abspath(socket),
        writable=_unique(os.path.abspath(w) for w in writable),
        masks=tuple(masks),
        readable=_unique(os.path.abspath(r) for r in readable if os.path.isdir(r)),
    )


def still_copies(folder: str) -> tuple[tuple[str, str], ...]:
    """Copies of the ``MASKED_PROC`` files this machine has, written into ``folder``: (file, copy) pairs."""
    out = []
    for path in MASKED_PROC:
        try:
            with open(path, "rb") as f:
                data = f.read()
        except OSError:
            continue
        copy = os.path.join(folder, path.strip("/").replace("/", "-"))
        with open(copy, "wb") as f:
            f.write(data)
        out.append((path, copy))
    return tuple(out)


def _visible(path: str, keep: Sequence[str]) -> bool:
    """Whether ``path`` would be seen at all: outside the private places, or inside a kept folder."""
    return not in_private(path) or any(under(path, k) for k in keep)


def _named_files(argv: Sequence[str], cwd: str, search_path: str | None) -> list[str]:
    """The existing files and folders the command line names: the program (looked up on the PATH), and
    each argument that is a path (``--opt=PATH`` too), as absolute paths."""
    out: list[str] = []
    for k, arg in enumerate(argv):
        if not arg or (arg.startswith("-") and "=" not in arg):
            continue
        text = arg.split("=", 1)[1] if arg.startswith("-") else arg
        if not text:
            continue
        if k == 0 and "/" not in text:
            found = shutil.which(text, path=search_path)
            if found is not None:
                out.append(os.path.abspath(found))
            continue
        path = os.path.abspath(os.path.join(cwd, text))
        if os.path.exists(path):
            out.append(path)
    return out


def _unique(paths: Iterable[str]) -> tuple[str, ...]:
    seen: list[str] = []
    for p in paths:
        if p not in seen:
            seen.append(p)
    return tuple(seen)
