"""A bot's folder as an archive (tar.gz), both ways: packed on the author's machine, unpacked on the server.

``pack`` walks a folder with the same checks the server makes (``referee.frozen.tree.walk``), so an author
learns of a link that points out before anything is sent, and writes a tar.gz whose every entry has its
metadata made plain (no owner, no time, modes 0o644/0o755): the same folder packs to the same bytes.

``unpack`` reads an archive as it comes and writes it through a ``TreeWriter``: every entry is checked
before it is written, and three limits are counted while unpacking, never after: the archive's own bytes,
the bytes it unpacks to (counted on the decompressed stream itself, so that a header claiming gigabytes, or
a gzip bomb, stops at the limit) and its number of entries. An archive that is not a tar.gz, or is cut
short, is a TreeError like any other refusal.
"""

from __future__ import annotations

import gzip
import io
import tarfile
import tempfile
import zlib
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import BinaryIO

from referee.frozen.tree import CHUNK, LINK, MIB, Limits, Tree, TreeError, TreeWriter, check_path, walk

# what the tar headers of a tree may add to its bytes when unpacked: a few blocks per entry
_HEADER_ALLOWANCE = 4096


@dataclass(frozen=True)
class Packed:
    """A folder packed to send: the archive's bytes, and the tree it holds."""

    data: bytes
    tree: Tree


def pack(folder: Path, limits: Limits | None = None) -> Packed:
    """The bot's ``folder`` as a tar.gz (see the module's docstring); TreeError (one line) for what the
    server would refuse: a link that points out, a device or FIFO, an empty folder, a limit passed. The folder
    is first copied through a ``TreeWriter`` (the server's checks, exactly), then the copy is packed."""
    limits = limits or Limits()
    with tempfile.TemporaryDirectory(prefix="arena-pack-") as scratch:
        root = Path(scratch) / "tree"
        root.mkdir()
        tree = walk(folder, TreeWriter(root, limits))
        out = io.BytesIO()
        write_tar(root, tree, out, compress=True)
    data = out.getvalue()
    if len(data) > limits.upload_bytes:
        raise TreeError(f"the archive is {len(data) / MIB:.1f} MiB: over the limit of {limits.upload_bytes // MIB} MiB")
    return Packed(data, tree)


def write_tar(root: Path, tree: Tree, out: BinaryIO, *, compress: bool) -> None:
    """The tree written in ``root`` as a tar (gzip'd with ``compress``) on ``out``, its metadata made plain (no
    owner, no time): the same tree gives the same bytes."""
    gz = gzip.GzipFile(fileobj=out, mode="wb", mtime=0) if compress else None
    with tarfile.open(fileobj=gz or out, mode="w|", format=tarfile.PAX_FORMAT) as tar:
        for entry in tree.entries:
            info = tarfile.TarInfo(entry.path)
            info.mtime = 0
            info.mode = entry.mode
            if entry.kind == LINK:
                info.type = tarfile.SYMTYPE
                info.linkname = entry.target
                tar.addfile(info)
                continue
            info.size = entry.size
            with (root / entry.path).open("rb") as f:
                tar.addfile(info, f)
    if gz is not None:
        gz.close()


class _Counted(io.RawIOBase):
    """A readable stream that raises TreeError once more than ``limit`` bytes were read through it."""

    def __init__(self, inner: BinaryIO, limit: int, problem: str) -> None:
        self.inner = inner
        self.limit = limit
        self.problem = problem
        self.count = 0

    def readable(self) -> bool:
        return True

    def readinto(self, buffer: memoryview) -> int:  # type: ignore[override]
        data = self.inner.read(len(buffer))
        self.count += len(data)
        if self.count > self.limit:
            raise TreeError(self.problem)
        buffer[: len(data)] = data
        return len(data)


def unpack(source: BinaryIO, writer: TreeWriter) -> Tree:
    """Unpack the tar.gz ``source`` through ``writer`` (see the module's docstring): the Tree, or TreeError."""
    limits = writer.limits
    raw = _Counted(source, limits.upload_bytes, f"the archive is over the limit of {limits.upload_bytes // MIB} MiB")
    with _not_an_archive():
        gz = gzip.GzipFile(fileobj=io.BufferedReader(raw), mode="rb")
        return unpack_tar(gz, writer)  # type: ignore[arg-type]


def unpack_tar(source: BinaryIO, writer: TreeWriter) -> Tree:
    """Unpack the plain tar ``source`` through ``writer``, its unpacked bytes counted as they are read."""
    limits = writer.limits
    unpacked_cap = limits.unpacked_bytes + (limits.files + 8) * _HEADER_ALLOWANCE
    stream = _Counted(
        source,
        unpacked_cap,
        f"the archive unpacks to more than {limits.unpacked_bytes // MIB} MiB: over the limit of unpacked bytes",
    )
    with _not_an_archive(), tarfile.open(fileobj=io.BufferedReader(stream), mode="r|") as tar:
        for member in tar:
            _unpack_one(tar, member, writer)
    return writer.finish()


@contextmanager
def _not_an_archive() -> Iterator[None]:
    """What the archive modules raise for bytes that are no archive, or are cut short, as a TreeError."""
    try:
        yield
    except (tarfile.TarError, EOFError, zlib.error, gzip.BadGzipFile, OSError) as exc:
        if isinstance(exc, OSError) and exc.errno is not None:
            raise  # the server's own disk, not the archive
        raise TreeError(f"not a whole tar.gz archive ({type(exc).__name__}: {str(exc)[:120]})") from None


def _unpack_one(tar: tarfile.TarFile, member: tarfile.TarInfo, writer: TreeWriter) -> None:
    name = member.name
    if member.isdir():
        check_path(name)  # a folder's path is checked too, though folders are implied by the files in them
        return
    if member.isreg():
        extracted = tar.extractfile(member)
        if extracted is None:  # pragma: no cover - a regular member always has a file object
            raise TreeError(f"{name!r}: cannot be read")
        writer.add_file(name, member.mode, iter(lambda: extracted.read(CHUNK), b""))
    elif member.issym():
        writer.add_link(name, member.linkname)
    elif member.islnk():
        writer.add_hard_link(name, member.linkname)
    elif member.ischr() or member.isblk():
        raise TreeError(f"{name!r}: a device file, not a file a bot's folder can hold")
    elif member.isfifo():
        raise TreeError(f"{name!r}: a FIFO, not a file a bot's folder can hold")
    else:
        raise TreeError(f"{name!r}: an entry of an unknown kind ({member.type!r}), not a file or a link")
