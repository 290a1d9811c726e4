"""A version is code: ``arena ladder add`` freezes the files a bot's command runs, and the ladder runs the copy.

The command names what it runs: its program (``mybot/build/bot``), or the script or folder an interpreter
is given (``python mybot/bot.py``, ``node mybot/bot.js``, ``java -cp mybot/classes Bot``): the first
argument that is a file or a folder here. That file's folder (the bot's folder: what it imports or reads
beside itself), or the folder named, is copied into the ladder's store of frozen versions
(``referee.frozen.store``, ``versions/`` in the ladder's folder), every path checked as an upload's is
(no link out of it, no device file), and the command is rewritten to run the copy: changing a file in the
author's folder afterwards changes nothing that is rated. A file right in the folder the ladder is run from
is copied alone (that folder is not the bot's). The same files give the same hash: the same command on the
same files is the same version, and the ladder says so.

The arena's own bots (``python -m example_bots.rules_bot``, or a file of the arena's checkout such as
``example_bots/js/bot.js``) are not copied: they are frozen by the arena's version, ``arena X.Y.Z``. An
interpreter given its code inline (``python -c CODE``, ``node -e CODE``) is frozen by its command: the code
is in it.

A command that names no file or folder otherwise (a program found on the PATH, a module of an installed
package) has no files to freeze: the ladder refuses it, and says to give the path of the bot's script or
folder. An interpreter named by its path (``/usr/bin/python3 bot.py``) is not the bot: what it runs is.
"""

from __future__ import annotations

import os
import re
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from referee import __version__
from referee.frozen.store import FrozenStore
from referee.frozen.tree import MIB, Limits, Tree, TreeError, TreeWriter, read_chunks, walk
from referee.ladder.database import Code, LadderError
from referee.runfolder import RunFolder

VERSIONS = "versions"  # the ladder's store of frozen versions, in its folder
ARENA = f"arena {__version__}"
INLINE = "inline code"  # frozen by its command: an interpreter given its code on the command line
# programs that run the bot's code rather than being it, and their options that give the code inline
INTERPRETERS = re.compile(r"^(python[0-9.]*|pypy[0-9.]*|node|nodejs|deno|bun|java|sh|bash|dash|ruby|perl|php|lua)$")
INLINE_OPTIONS = ("-c", "-e", "--eval", "-p", "--print")
# what a local copy keeps: the bot's folder as it runs, build output included (a compiled bot, node_modules),
# but not a git repository or the caches tools remake
SKIPPED = frozenset({".git", "__pycache__", ".pytest_cache", ".mypy_cache"})
LIMITS = Limits(upload_bytes=1 << 62, unpacked_bytes=500 * MIB, files=50_000)
_ARENA_CODE = Path(__file__).resolve().parents[2]  # the arena's checkout (an editable install's project)


@dataclass(frozen=True)
class FrozenCommand:
    """A command made to run a frozen copy: its new arguments, and its code."""

    argv: tuple[str, ...]
    code: Code
    new: bool  # the copy was made now (False: these files were frozen before)


def store(folder: RunFolder) -> FrozenStore:
    return FrozenStore(folder.path / VERSIONS)


def freeze(folder: RunFolder, argv: Sequence[str], cwd: Path | None = None) -> FrozenCommand:
    """Freeze what ``argv`` runs (see the module's docstring) into the ladder in ``folder``. LadderError (one
    line) for a command that names no file or folder, or files that cannot be frozen."""
    cwd = Path(os.path.abspath(cwd or os.getcwd()))
    argv = tuple(argv)
    if _the_arenas(argv, cwd):
        return FrozenCommand(argv, Code(ARENA), new=False)
    found = _what_it_runs(argv, cwd)
    if found is None and _interpreter(argv[0]) and any(a in INLINE_OPTIONS for a in argv[1:]):
        return FrozenCommand(argv, Code(INLINE), new=False)
    if found is None:
        raise LadderError(
            f"{' '.join(argv)[:80]!r} names no file or folder of the bot to freeze (a program on the PATH, a module "
            "run with -m): give the path of its script, program or folder, so that the ladder keeps a copy"
        )
    k, path = found
    root = path if path.is_dir() else path.parent
    alone = path.is_file() and root == cwd
    try:
        if alone:
            frozen = store(folder).put(lambda writer: _one_file(writer, path), LIMITS)
        else:
            frozen = store(folder).put(lambda writer: walk(root, writer, SKIPPED), LIMITS)
    except TreeError as exc:
        raise LadderError(f"cannot freeze {path}: {exc}") from None
    rewritten = list(argv)
    for i, arg in enumerate(argv):
        inside = _inside(arg, cwd, root)
        if inside is None or (alone and i != k):  # a file copied alone: only it is in the copy
            continue
        if i == k or os.path.exists(os.path.join(cwd, arg)):
            rewritten[i] = str(frozen.folder / inside) if inside != "." else str(frozen.folder)
    code = Code(frozen.hash, str(frozen.folder), frozen.size)
    return FrozenCommand(tuple(rewritten), code, frozen.new)


def _the_arenas(argv: tuple[str, ...], cwd: Path) -> bool:
    """A command of the arena's own: a module of ``example_bots``, or a file of the arena's checkout."""
    for i, arg in enumerate(argv):
        if arg == "-m" and i + 1 < len(argv) and argv[i + 1].split(".")[0] == "example_bots":
            return True
    found = _what_it_runs(argv, cwd)
    return found is not None and _under(found[1], _ARENA_CODE / "example_bots")


def _interpreter(program: str) -> bool:
    return INTERPRETERS.match(os.path.basename(program)) is not None


def _what_it_runs(argv: tuple[str, ...], cwd: Path) -> tuple[int, Path] | None:
    """The first argument naming an existing file or folder (the program itself only when it is a path, and not
    an interpreter's)."""
    for i, arg in enumerate(argv):
        if not arg or arg.startswith("-") or (i == 0 and ("/" not in arg or _interpreter(arg))):
            continue
        path = Path(os.path.abspath(os.path.join(cwd, arg)))
        if path.exists():
            return i, path
    return None


def _inside(arg: str, cwd: Path, root: Path) -> str | None:
    """``arg`` as a path relative to ``root`` when it names something inside it, else None."""
    if not arg or arg.startswith("-"):
        return None
    path = Path(os.path.abspath(os.path.join(cwd, arg)))
    return os.path.relpath(path, root) if _under(path, root) else None


def _under(path: Path, root: Path) -> bool:
    return path == root or root in path.parents


def _one_file(writer: TreeWriter, path: Path) -> Tree:
    writer.add_file(path.name, path.stat().st_mode, read_chunks(path))
    return writer.finish()
