"""A bot's files as a tree: every path checked, limits counted as the files come, and one canonical hash.

A tree is what a version of a bot is: regular files (with their mode: executable or not) and symbolic links
that stay inside the tree. Nothing else is taken: not a path that leaves the folder (``../``, an absolute
path), not a link that points out (a symbolic link whose target resolves outside, a hard link to a file that
is not in the tree), not a device file, a FIFO or a socket. Folders are implied by the paths of the files in
them (an empty folder is not part of a tree, as in git).

``TreeWriter`` writes a tree into a new folder, entry by entry, from any source (an archive being unpacked,
``referee.frozen.archive``; a folder on this machine, ``walk``): each entry is checked before anything is
written, and the limits (``Limits``: files, bytes) are counted while the bytes are written, so that an
archive bomb stops at the limit, not after it has filled the disk. It never follows a link it has written:
a file whose path goes through a link is refused, and each file is created with ``O_EXCL | O_NOFOLLOW``.

The canonical hash (``tree_hash``) names a tree by its content alone: for every entry, in the order of its
path's bytes, its kind, its mode, the SHA-256 of its content (a link's: of its target) and its path. The
same files give the same hash on any machine, whatever their times, owners or order in an archive.
"""

from __future__ import annotations

import hashlib
import os
import posixpath
import stat
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from pathlib import Path

from referee.errors import InputError

MIB = 1024 * 1024
FILE, LINK = "file", "link"
CHUNK = 64 * 1024
MAX_PATH = 255  # bytes of one path, inside the tree
MAX_DEPTH = 32  # folders in one path


class TreeError(InputError):
    """A tree that cannot be taken: the message is one line naming the entry and what is wrong with it."""


@dataclass(frozen=True)
class Limits:
    """How much one tree may hold; each is checked while the tree is written (``TreeWriter``)."""

    upload_bytes: int = 20 * MIB  # the archive as sent (compressed)
    unpacked_bytes: int = 100 * MIB  # every file's bytes, added up
    files: int = 2000  # files and links

    def describe(self) -> str:
        return (
            f"upload at most {self.upload_bytes // MIB} MiB, unpacked at most {self.unpacked_bytes // MIB} MiB, "
            f"at most {self.files} files"
        )


@dataclass(frozen=True)
class Entry:
    """One file or link of a tree."""

    path: str  # relative, '/'-separated, normalised
    kind: str  # FILE or LINK
    mode: int  # 0o644 or 0o755 for a file, 0o777 for a link
    size: int  # a file's bytes, a link's target's
    digest: str  # SHA-256 (hex) of the content, or of the link's target
    target: str = ""  # a link's target, relative

    def line(self) -> str:
        """The entry as the canonical hash reads it."""
        return f"{self.kind} {self.mode:o} {self.digest} {self.path}\n"

    def record(self) -> dict[str, object]:
        out: dict[str, object] = {"path": self.path, "kind": self.kind, "mode": self.mode, "size": self.size}
        out["sha256"] = self.digest
        if self.kind == LINK:
            out["target"] = self.target
        return out

    @classmethod
    def from_record(cls, data: dict[str, object]) -> Entry:
        return cls(
            str(data["path"]),
            str(data["kind"]),
            int(str(data["mode"])),
            int(str(data["size"])),
            str(data["sha256"]),
            str(data.get("target", "")),
        )


def tree_hash(entries: Iterable[Entry]) -> str:
    """The canonical hash of a tree (see the module's docstring), as 64 hex digits."""
    digest = hashlib.sha256(b"arena-tree-1\n")
    for entry in sorted(entries, key=lambda e: e.path.encode()):
        digest.update(entry.line().encode())
    return digest.hexdigest()


@dataclass(frozen=True)
class Tree:
    """A tree written whole: its entries, canonical hash, bytes and number of files."""

    entries: tuple[Entry, ...]
    hash: str

    @property
    def size(self) -> int:
        return sum(e.size for e in self.entries if e.kind == FILE)

    @property
    def files(self) -> int:
        return len(self.entries)

    def paths(self) -> set[str]:
        return {e.path for e in self.entries}


def check_path(name: str) -> str:
    """``name`` as a path inside the tree (normalised: no ``./``, no doubled or trailing '/'), or TreeError
    saying why it cannot be one."""
    shown = repr(name)[:80]
    if not name or name in (".", "./"):
        raise TreeError("an entry with no name")
    if "\0" in name or any(ord(c) < 32 or ord(c) == 127 for c in name) or "\\" in name:
        raise TreeError(f"{shown}: a path with a control character or a backslash")
    if name.startswith("/"):
        raise TreeError(f"{shown}: an absolute path; every path must be inside the bot's folder")
    parts = [p for p in name.split("/") if p not in ("", ".")]
    if ".." in parts:
        raise TreeError(f"{shown}: a path through '..', outside the bot's folder")
    path = "/".join(parts)
    if not parts:
        raise TreeError(f"{shown}: an entry with no name")
    if len(path.encode()) > MAX_PATH or len(parts) > MAX_DEPTH:
        raise TreeError(f"{shown}: a path longer than {MAX_PATH} bytes or {MAX_DEPTH} folders deep")
    return path


def file_mode(mode: int) -> int:
    """The mode a tree keeps of a file's: executable (0o755) or not (0o644); nothing else (no setuid)."""
    return 0o755 if mode & 0o111 else 0o644


@dataclass
class TreeWriter:
    """Writes a tree into ``root`` (a new, empty folder), entry by entry, checking each and counting the limits
    as the bytes come. ``finish`` checks the whole and gives the ``Tree``. On a TreeError the caller removes
    ``root`` (``referee.frozen.store`` does): nothing of a refused tree is kept."""

    root: Path
    limits: Limits
    _entries: dict[str, Entry] = field(default_factory=dict)
    _dirs: set[str] = field(default_factory=set)
    _bytes: int = 0

    def _check_new(self, path: str) -> None:
        if len(self._entries) >= self.limits.files:
            raise TreeError(f"more than {self.limits.files} files: over the limit of files")
        if path in self._entries or path in self._dirs:
            raise TreeError(f"{path!r}: named twice")
        parts = path.split("/")
        for k in range(1, len(parts)):
            above = "/".join(parts[:k])
            if above in self._entries:
                kind = "a link" if self._entries[above].kind == LINK else "a file"
                raise TreeError(f"{path!r}: a path through {kind} ({above!r})")

    def _parent(self, path: str) -> None:
        parts = path.split("/")[:-1]
        for k in range(1, len(parts) + 1):
            self._dirs.add("/".join(parts[:k]))
        if parts:
            os.makedirs(self.root.joinpath(*parts), exist_ok=True)

    def add_file(self, name: str, mode: int, chunks: Iterable[bytes]) -> Entry:
        """A regular file from ``chunks``; the limit of bytes is checked at every chunk."""
        path = check_path(name)
        self._check_new(path)
        self._parent(path)
        digest = hashlib.sha256()
        size = 0
        flags = os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_NOFOLLOW | os.O_CLOEXEC
        fd = os.open(self.root / path, flags, 0o600)
        with os.fdopen(fd, "wb") as out:
            for chunk in chunks:
                size += len(chunk)
                self._bytes += len(chunk)
                if self._bytes > self.limits.unpacked_bytes:
                    raise TreeError(
                        f"more than {self.limits.unpacked_bytes // MIB} MiB unpacked (at {path!r}): over the "
                        "limit of unpacked bytes"
                    )
                digest.update(chunk)
                out.write(chunk)
        kept = file_mode(mode)
        os.chmod(self.root / path, kept)
        entry = Entry(path, FILE, kept, size, digest.hexdigest())
        self._entries[path] = entry
        return entry

    def add_link(self, name: str, target: str) -> Entry:
        """A symbolic link; its target must be relative and stay inside the tree (checked again, through every
        other link, in ``finish``)."""
        path = check_path(name)
        self._check_new(path)
        if not target or target.startswith("/") or "\0" in target:
            raise TreeError(f"{path!r}: a link to {target!r}, outside the bot's folder (links must be relative)")
        inside = posixpath.normpath(posixpath.join(posixpath.dirname(path), target))
        if inside == ".." or inside.startswith("../"):
            raise TreeError(f"{path!r}: a link to {target!r}, outside the bot's folder")
        self._parent(path)
        os.symlink(target, self.root / path)
        entry = Entry(path, LINK, 0o777, len(target.encode()), hashlib.sha256(target.encode()).hexdigest(), target)
        self._entries[path] = entry
        return entry

    def add_hard_link(self, name: str, to: str) -> Entry:
        """A hard link: a copy of a file already in the tree (any other is a link that points out)."""
        path = check_path(name)
        try:
            source = check_path(to)
        except TreeError:
            raise TreeError(f"{path!r}: a hard link to {to!r}, outside the bot's folder") from None
        earlier = self._entries.get(source)
        if earlier is None or earlier.kind != FILE:
            raise TreeError(f"{path!r}: a hard link to {to!r}, which is not a file of the bot's folder")
        return self.add_file(path, earlier.mode, read_chunks(self.root / source))

    def finish(self) -> Tree:
        """The tree, once every entry is in: TreeError when it is empty or a link resolves outside it."""
        if not self._entries:
            raise TreeError("the bot's folder is empty: no files to send")
        real_root = os.path.realpath(self.root)
        for entry in self._entries.values():
            if entry.kind != LINK:
                continue
            resolved = os.path.realpath(self.root / entry.path)
            if resolved != real_root and not resolved.startswith(real_root + os.sep):
                raise TreeError(f"{entry.path!r}: a link to {entry.target!r}, which leads outside the bot's folder")
        entries = tuple(sorted(self._entries.values(), key=lambda e: e.path.encode()))
        return Tree(entries, tree_hash(entries))


def read_chunks(path: Path) -> Iterator[bytes]:
    """A file's bytes, a chunk at a time (never following a link)."""
    fd = os.open(path, os.O_RDONLY | os.O_NOFOLLOW | os.O_CLOEXEC)
    with os.fdopen(fd, "rb") as f:
        while chunk := f.read(CHUNK):
            yield chunk


# what a bot's folder holds that is made by its build or its tools, not written by its author: never sent
SKIPPED = frozenset({".git", "build", "node_modules", "__pycache__", ".pytest_cache", ".venv", ".mypy_cache"})


def walk(folder: Path, writer: TreeWriter, skipped: frozenset[str] = SKIPPED) -> Tree:
    """Copy the bot's ``folder`` on this machine into ``writer``: every regular file and symbolic link, each
    checked as from an archive; folders named in ``skipped`` (build output, a git repository) are left out.
    TreeError for a device, a FIFO or a socket, a link that points out, or a folder that cannot be read."""
    if not folder.is_dir():
        raise TreeError(f"{folder}: not a folder")

    def refuse(error: OSError) -> None:
        raise TreeError(f"{error.filename}: cannot read it ({error.strerror})")

    for top, dirs, files in os.walk(folder, onerror=refuse):
        linked = [d for d in dirs if os.path.islink(os.path.join(top, d))]  # links to folders: entries, not walked
        dirs[:] = sorted(d for d in dirs if d not in skipped and d not in linked)
        for name in sorted(files + linked):
            full = os.path.join(top, name)
            relative = os.path.relpath(full, folder).replace(os.sep, "/")
            try:
                info = os.lstat(full)
            except OSError as exc:
                raise TreeError(f"{relative}: cannot read it ({exc.strerror})") from None
            if stat.S_ISLNK(info.st_mode):
                if name in skipped:
                    continue
                writer.add_link(relative, os.readlink(full))
            elif stat.S_ISREG(info.st_mode):
                writer.add_file(relative, info.st_mode, read_chunks(Path(full)))
            else:
                raise TreeError(f"{relative!r}: {special_kind(info.st_mode)}, not a file a bot's folder can hold")
    return writer.finish()


def special_kind(mode: int) -> str:
    """What a file that is neither a regular file, a folder nor a link is, as an error names it."""
    if stat.S_ISCHR(mode) or stat.S_ISBLK(mode):
        return "a device file"
    if stat.S_ISFIFO(mode):
        return "a FIFO"
    if stat.S_ISSOCK(mode):
        return "a socket"
    return "a special file"
