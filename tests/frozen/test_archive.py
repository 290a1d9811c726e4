"""Unpacking a bot's archive on the server: every hostile archive is refused with one line naming what is wrong,
and nothing of it is left in the store; the limits stop an archive while it is unpacked, not after."""

from __future__ import annotations

import gzip
import io
import os
import tarfile
import threading
import zlib
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

from referee.frozen.archive import pack, unpack
from referee.frozen.store import INCOMING, FrozenStore
from referee.frozen.tree import MIB, Limits, TreeError

SMALL = Limits(upload_bytes=1 * MIB, unpacked_bytes=1 * MIB, files=50)


def tar_gz(*members: tuple[tarfile.TarInfo, bytes | None]) -> bytes:
    out = io.BytesIO()
    with gzip.GzipFile(fileobj=out, mode="wb") as gz, tarfile.open(fileobj=gz, mode="w|") as tar:
        for info, data in members:
            if data is not None:
                info.size = len(data)
            tar.addfile(info, io.BytesIO(data) if data is not None else None)
    return out.getvalue()


def file(name: str, data: bytes = b"print('hi')\n", mode: int = 0o644) -> tuple[tarfile.TarInfo, bytes]:
    info = tarfile.TarInfo(name)
    info.mode = mode
    return info, data


def special(name: str, kind: bytes, link: str = "") -> tuple[tarfile.TarInfo, None]:
    info = tarfile.TarInfo(name)
    info.type = kind
    info.linkname = link
    return info, None


def left_in(store: FrozenStore) -> list[str]:
    """Everything in the store but its (empty) incoming folder."""
    out = [p.name for p in store.root.iterdir() if p.name != INCOMING]
    return out + [f"{INCOMING}/{p.name}" for p in (store.root / INCOMING).iterdir()]


def refused(store: FrozenStore, data: bytes, limits: Limits = SMALL) -> str:
    with pytest.raises(TreeError) as caught:
        store.put(lambda writer: unpack(io.BytesIO(data), writer), limits)
    message = str(caught.value)
    assert "\n" not in message
    assert left_in(store) == []  # nothing left behind
    return message


@pytest.fixture
def store(tmp_path: Path) -> FrozenStore:
    return FrozenStore(tmp_path / "store")


HOSTILE: dict[str, tuple[Callable[[], bytes], str]] = {
    "dot-dot": (lambda: tar_gz(file("bot.py"), file("../evil.py")), "outside the bot's folder"),
    "dot-dot deep": (lambda: tar_gz(file("a/b/../../../evil.py")), "outside the bot's folder"),
    "absolute": (lambda: tar_gz(file("/etc/cron.d/evil")), "an absolute path"),
    "symlink absolute": (lambda: tar_gz(special("x", tarfile.SYMTYPE, "/etc/passwd")), "outside the bot's folder"),
    "symlink up": (lambda: tar_gz(special("x", tarfile.SYMTYPE, "../../etc/passwd")), "outside the bot's folder"),
    # lexically inside, out through another link: d -> . makes d/.. the folder's parent
    "symlink chain": (
        lambda: tar_gz(special("d", tarfile.SYMTYPE, "."), special("e", tarfile.SYMTYPE, "d/..")),
        "leads outside",
    ),
    "write through a link": (
        lambda: tar_gz(special("d", tarfile.SYMTYPE, "sub"), file("sub/x"), file("d/y")),
        "a path through a link",
    ),
    "hard link out": (lambda: tar_gz(special("x", tarfile.LNKTYPE, "/etc/shadow")), "outside the bot's folder"),
    "hard link to nothing": (lambda: tar_gz(special("x", tarfile.LNKTYPE, "missing")), "not a file of the bot"),
    "char device": (lambda: tar_gz(special("null", tarfile.CHRTYPE)), "a device file"),
    "block device": (lambda: tar_gz(special("sda", tarfile.BLKTYPE)), "a device file"),
    "fifo": (lambda: tar_gz(special("pipe", tarfile.FIFOTYPE)), "a FIFO"),
    "empty": (lambda: tar_gz(), "empty"),
    "only folders": (lambda: tar_gz(special("src", tarfile.DIRTYPE)), "empty"),
    "twice": (lambda: tar_gz(file("bot.py"), file("bot.py")), "named twice"),
    "control character": (lambda: tar_gz(file("bot\n.py")), "control character"),
    "not an archive": (lambda: b"PK\x03\x04 this is a zip", "not a whole tar.gz archive"),
    "cut short": (lambda: tar_gz(file("bot.py", os.urandom(100_000)))[:50_000], "not a whole tar.gz archive"),
    "too many files": (lambda: tar_gz(*(file(f"f{k}") for k in range(51))), "over the limit of files"),
    "too big unpacked": (lambda: tar_gz(file("big", b"\0" * (MIB + 1))), "over the limit of unpacked bytes"),
}


@pytest.mark.parametrize("case", list(HOSTILE))
def test_a_hostile_archive_is_refused_and_nothing_is_kept(store: FrozenStore, case: str) -> None:
    make, expected = HOSTILE[case]
    assert expected in refused(store, make())


def test_an_archive_over_the_upload_limit_is_refused_while_it_is_read(store: FrozenStore) -> None:
    data = tar_gz(file("noise", os.urandom(MIB + 4096)))  # random bytes do not compress
    limits = Limits(upload_bytes=MIB, unpacked_bytes=4 * MIB, files=10)
    assert "the archive is over the limit of 1 MiB" in refused(store, data, limits)


def test_a_file_is_not_written_outside_even_when_a_link_was_accepted(store: FrozenStore, tmp_path: Path) -> None:
    outside = tmp_path / "outside"
    outside.mkdir()
    data = tar_gz(special("sub/up", tarfile.SYMTYPE, ".."), file("sub/up/escape"))
    refused(store, data)
    assert not (tmp_path / "store" / "escape").exists()
    assert list(outside.iterdir()) == []


def _infinite_gzip(make_chunk: Callable[[int], bytes], read: list[int]) -> io.RawIOBase:
    """A gzip stream that never ends (each chunk made on demand); ``read`` counts the bytes handed out."""

    def chunks() -> Iterator[bytes]:
        compressor = zlib.compressobj(9, zlib.DEFLATED, 31)
        k = 0
        while True:
            out = compressor.compress(make_chunk(k))
            k += 1
            if out:
                yield out

    source = chunks()

    class Stream(io.RawIOBase):
        pending = b""

        def readable(self) -> bool:
            return True

        def readinto(self, buffer: memoryview) -> int:  # type: ignore[override]
            while not self.pending:
                self.pending = next(source)
            n = min(len(buffer), len(self.pending))
            buffer[:n] = self.pending[:n]
            self.pending = self.pending[n:]
            read[0] += n
            return n

    return Stream()


def _header(name: str, size: int) -> bytes:
    info = tarfile.TarInfo(name)
    info.size = size
    return info.tobuf(format=tarfile.GNU_FORMAT)


def _stops(store: FrozenStore, stream: io.RawIOBase, limits: Limits) -> str:
    """Unpack a stream that never ends in a thread: it must stop by itself with a TreeError."""
    outcome: list[BaseException] = []

    def work() -> None:
        try:
            store.put(lambda writer: unpack(stream, writer), limits)  # type: ignore[arg-type]
        except BaseException as exc:
            outcome.append(exc)

    thread = threading.Thread(target=work, daemon=True)
    thread.start()
    thread.join(120)
    assert not thread.is_alive(), "the unpacking did not stop at a limit"
    assert len(outcome) == 1 and isinstance(outcome[0], TreeError), outcome
    assert left_in(store) == []
    return str(outcome[0])


def test_a_gzip_bomb_stops_at_the_unpacked_limit_while_unpacking(store: FrozenStore) -> None:
    # one file whose header claims 1 TiB of zeros, and a stream of zeros that never ends
    read = [0]
    stream = _infinite_gzip(lambda k: _header("bomb", 1 << 40) if k == 0 else b"\0" * 65536, read)
    limits = Limits(upload_bytes=64 * MIB, unpacked_bytes=2 * MIB, files=10)
    assert "over the limit of unpacked bytes" in _stops(store, stream, limits)
    assert read[0] < 64 * 1024  # a few KiB of compressed zeros were read: it stopped, it did not read on


def test_an_endless_stream_of_files_stops_at_the_file_limit_while_unpacking(store: FrozenStore) -> None:
    read = [0]
    stream = _infinite_gzip(lambda k: _header(f"f{k}", 0), read)
    assert "over the limit of files" in _stops(store, stream, Limits(64 * MIB, 64 * MIB, files=100))


def test_a_huge_pax_header_stops_at_the_unpacked_limit(store: FrozenStore) -> None:
    # a pax extended header that claims 1 TiB: tarfile would read it into memory whole
    read = [0]
    pax = tarfile.TarInfo("././@PaxHeader")
    pax.type = tarfile.XHDTYPE
    pax.size = 1 << 40
    head = pax.tobuf(format=tarfile.GNU_FORMAT)
    stream = _infinite_gzip(lambda k: head if k == 0 else b"9 a=b\n" * 10000, read)
    assert "over the limit of unpacked bytes" in _stops(store, stream, Limits(64 * MIB, 2 * MIB, files=10))


def test_links_inside_the_folder_are_kept(store: FrozenStore) -> None:
    data = tar_gz(file("lib/util.py"), special("util.py", tarfile.SYMTYPE, "lib/util.py"), file("bot.py"))
    frozen = store.put(lambda writer: unpack(io.BytesIO(data), writer), SMALL)
    assert os.readlink(frozen.folder / "util.py") == "lib/util.py"
    assert (frozen.folder / "util.py").read_text() == "print('hi')\n"


def test_pack_refuses_what_the_server_refuses(tmp_path: Path) -> None:
    bot = tmp_path / "bot"
    bot.mkdir()
    (bot / "bot.py").write_text("x = 1\n")
    (bot / "secret").symlink_to("/etc/hostname")
    with pytest.raises(TreeError, match="outside the bot's folder"):
        pack(bot)
    (bot / "secret").unlink()
    os.mkfifo(bot / "pipe")
    with pytest.raises(TreeError, match="a FIFO"):
        pack(bot)
    (bot / "pipe").unlink()
    empty = tmp_path / "empty"
    (empty / "build").mkdir(parents=True)
    (empty / "build" / "bot").write_text("made by the build: never sent")
    with pytest.raises(TreeError, match="empty"):
        pack(empty)
