"""Frozen versions: immutable copies of bots' files, stored by the canonical hash of their tree.

A store is a folder::

    HASH/files/...        the tree, read-only (files 0o444 or 0o555, folders 0o555)
    HASH/tree.json        its entries (path, kind, mode, size, SHA-256), hash, size and number of files
    .incoming/            trees being written; emptied when the store is opened

A tree is written into ``.incoming/`` through a ``TreeWriter`` (every entry checked, the limits counted as
it comes), and only when it is whole is its folder renamed to ``HASH``: one rename, so a version is there
whole or not at all, even when the process is killed half-way (what it left in ``.incoming/`` is removed
when the store is next opened). The same content sent again finds its hash there already: the new copy is
dropped, and ``Frozen.new`` says it was there before.
"""

from __future__ import annotations

import io
import json
import os
import shutil
import uuid
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from referee.frozen.archive import write_tar
from referee.frozen.tree import Entry, Limits, Tree, TreeError, TreeWriter, walk

INCOMING = ".incoming"
FILES = "files"
MANIFEST = "tree.json"


@dataclass(frozen=True)
class Frozen:
    """A frozen tree in a store: its hash, its folder of files, its size; ``new`` when this call stored it."""

    hash: str
    folder: Path  # HASH/files
    size: int
    files: int
    new: bool

    @property
    def short(self) -> str:
        """The hash as people read it: its first 12 hex digits."""
        return self.hash[:12]


class FrozenStore:
    """The store in ``root`` (made when missing). ``shared``: other processes may be writing into it at the same
    time (a node's cache of the versions its tables run), so what is in ``.incoming`` is left alone."""

    def __init__(self, root: Path, *, shared: bool = False) -> None:
        self.root = root
        root.mkdir(parents=True, exist_ok=True)
        incoming = root / INCOMING
        if incoming.exists() and not shared:
            for left in incoming.iterdir():  # trees a killed process was writing: never whole, never kept
                remove(left)
        incoming.mkdir(exist_ok=True)

    def put(self, write: Callable[[TreeWriter], Tree], limits: Limits) -> Frozen:
        """Store the tree ``write`` writes through the TreeWriter it is given (an archive's ``unpack``, a
        folder's ``walk``). TreeError (the tree refused; nothing is kept) or the Frozen tree."""
        work = self.root / INCOMING / uuid.uuid4().hex
        work.mkdir()
        try:
            files = work / FILES
            files.mkdir()
            tree = write(TreeWriter(files, limits))
            target = self.root / tree.hash
            if target.is_dir():
                return self._frozen(tree.hash, new=False)
            manifest = {
                "hash": tree.hash,
                "size": tree.size,
                "files": tree.files,
                "entries": [e.record() for e in tree.entries],
            }
            (work / MANIFEST).write_text(json.dumps(manifest, indent=1) + "\n", encoding="utf-8")
            freeze(files)
            _sync(work)
            try:
                os.rename(work, target)
            except OSError:
                if target.is_dir():  # stored by another request meanwhile: the same content
                    return self._frozen(tree.hash, new=False)
                raise
            _sync_entry(self.root)
            return self._frozen(tree.hash, new=True)
        finally:
            if work.exists():
                remove(work)

    def put_folder(self, folder: Path, limits: Limits) -> Frozen:
        """Store a copy of a bot's ``folder`` on this machine (``referee.frozen.tree.walk``)."""
        return self.put(lambda writer: walk(folder, writer), limits)

    def get(self, hash: str) -> Frozen:
        """The frozen tree of ``hash``; TreeError when the store has none."""
        if not (len(hash) == 64 and all(c in "0123456789abcdef" for c in hash)) or not (self.root / hash).is_dir():
            raise TreeError(f"no frozen version {hash[:12]!r} in {self.root}")
        return self._frozen(hash, new=False)

    def tree(self, hash: str) -> Tree:
        """The entries of a stored tree, from its manifest."""
        data = json.loads((self.root / hash / MANIFEST).read_text(encoding="utf-8"))
        return Tree(tuple(Entry.from_record(e) for e in data["entries"]), data["hash"])

    def _frozen(self, hash: str, *, new: bool) -> Frozen:
        data = json.loads((self.root / hash / MANIFEST).read_text(encoding="utf-8"))
        return Frozen(hash, self.root / hash / FILES, int(data["size"]), int(data["files"]), new)


def packed(folder: Path) -> bytes:
    """A frozen tree (its files' folder, ``ROOT/HASH/files``) as a plain tar: what ships it to another machine,
    where ``FrozenStore.put`` of it gives the same hash."""
    out = io.BytesIO()
    write_tar(folder, FrozenStore(folder.parent.parent, shared=True).tree(folder.parent.name), out, compress=False)
    return out.getvalue()


def freeze(folder: Path) -> None:
    """Make a tree read-only: files keep only their read and execute bits, folders become 0o555."""
    for top, dirs, files in os.walk(folder, topdown=False):
        for name in files:
            path = os.path.join(top, name)
            if not os.path.islink(path):
                os.chmod(path, os.stat(path).st_mode & 0o555)
        for name in dirs:
            path = os.path.join(top, name)
            if not os.path.islink(path):
                os.chmod(path, 0o555)
    os.chmod(folder, 0o555)


def _sync(folder: Path) -> None:
    """Flush a folder's entries (and its files') to disk, so that a rename after it names a whole tree."""
    for top, _, files in os.walk(folder):
        for name in files:
            path = os.path.join(top, name)
            if not os.path.islink(path):
                fd = os.open(path, os.O_RDONLY)
                try:
                    os.fsync(fd)
                finally:
                    os.close(fd)
        _sync_entry(Path(top))


def _sync_entry(folder: Path) -> None:
    """Flush a folder's own entries (a rename in it) to disk."""
    fd = os.open(folder, os.O_RDONLY)
    try:
        os.fsync(fd)
    finally:
        os.close(fd)


def remove(path: Path) -> None:
    """Remove a tree, read-only as it may be (its folders are made writable first)."""
    if path.is_dir() and not path.is_symlink():
        os.chmod(path, 0o755)
        for top, dirs, _ in os.walk(path):
            for name in dirs:
                full = os.path.join(top, name)
                if not os.path.islink(full):
                    os.chmod(full, 0o755)
        shutil.rmtree(path)
    else:
        path.unlink(missing_ok=True)
