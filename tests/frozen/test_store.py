"""Frozen versions: the canonical hash names content alone; the same content is the same version; a stored tree
is read-only and whole; what a killed process was writing is gone when the store is opened again."""

from __future__ import annotations

import io
import os
import subprocess
import sys
import tarfile
import time
from pathlib import Path

import pytest

from referee.frozen.archive import pack, unpack
from referee.frozen.store import INCOMING, FrozenStore
from referee.frozen.tree import Limits, TreeError
from tests.frozen.test_archive import file, special, tar_gz


def bot_folder(root: Path) -> Path:
    (root / "lib").mkdir(parents=True)
    (root / "bot.py").write_text("import lib.util\n")
    (root / "lib" / "util.py").write_text("X = 1\n")
    (root / "run.sh").write_text("#!/bin/sh\nexec python bot.py\n")
    (root / "run.sh").chmod(0o755)
    (root / "build").mkdir()
    (root / "build" / "out.o").write_bytes(b"\0" * 10)  # build output: never part of a version
    return root


def stored(store: FrozenStore, data: bytes) -> str:
    return store.put(lambda writer: unpack(io.BytesIO(data), writer), Limits()).hash


def test_the_hash_names_the_content_not_its_order_times_or_owners(tmp_path: Path) -> None:
    store = FrozenStore(tmp_path / "store")
    a = tar_gz(file("a.py", b"1"), file("b/c.py", b"2", 0o755))
    second = file("b/c.py", b"2", 0o700)  # another mode with the execute bit: the same executable file
    second[0].mtime = time.time()
    second[0].uid, second[0].uname = 1234, "someone"
    b = tar_gz(second, file("a.py", b"1"))
    assert stored(store, a) == stored(store, b)
    changed = {
        "content": tar_gz(file("a.py", b"1 "), file("b/c.py", b"2", 0o755)),
        "mode": tar_gz(file("a.py", b"1"), file("b/c.py", b"2", 0o644)),
        "path": tar_gz(file("a.py", b"1"), file("b/d.py", b"2", 0o755)),
        "a file more": tar_gz(file("a.py", b"1"), file("b/c.py", b"2", 0o755), file("e", b"")),
        "a link for a file": tar_gz(file("a.py", b"1"), file("b/x.py", b"2", 0o755), special("b/c.py", b"2", "x.py")),
    }
    hashes = {name: stored(store, data) for name, data in changed.items()}
    assert len(set(hashes.values()) | {stored(store, a)}) == len(changed) + 1, hashes


def test_the_same_content_sent_again_is_the_same_version(tmp_path: Path) -> None:
    store = FrozenStore(tmp_path / "store")
    folder = bot_folder(tmp_path / "bot")
    first = store.put_folder(folder, Limits())
    again = store.put(lambda writer: unpack(io.BytesIO(pack(folder).data), writer), Limits())
    assert first.new and not again.new
    assert again.hash == first.hash and again.folder == first.folder
    assert sorted(p.name for p in store.root.iterdir()) == sorted([INCOMING, first.hash])
    assert first.files == 3 and not (first.folder / "build").exists()  # build output is left out


def test_a_frozen_tree_is_read_only_and_changing_the_authors_folder_changes_nothing(tmp_path: Path) -> None:
    store = FrozenStore(tmp_path / "store")
    folder = bot_folder(tmp_path / "bot")
    frozen = store.put_folder(folder, Limits())
    (folder / "bot.py").write_text("changed after it was frozen\n")
    assert (frozen.folder / "bot.py").read_text() == "import lib.util\n"
    assert os.stat(frozen.folder / "bot.py").st_mode & 0o777 == 0o444
    assert os.stat(frozen.folder / "run.sh").st_mode & 0o777 == 0o555
    assert os.stat(frozen.folder / "lib").st_mode & 0o777 == 0o555
    assert store.tree(frozen.hash).hash == frozen.hash
    assert store.put_folder(folder, Limits()).hash != frozen.hash


def test_a_store_opened_again_drops_what_a_killed_process_was_writing(tmp_path: Path) -> None:
    root = tmp_path / "store"
    FrozenStore(root)
    # a process that starts writing a tree and is killed with SIGKILL in the middle of a file
    code = f"""
import io, os, sys, tarfile
from pathlib import Path
from referee.frozen.store import FrozenStore
from referee.frozen.tree import Limits, TreeWriter
store = FrozenStore(Path({str(root)!r}))
def write(writer: TreeWriter):
    writer.add_file("bot.py", 0o644, [b"x" * 10])
    def slow():
        yield b"y" * 100
        print("writing", flush=True)
        os.kill(os.getpid(), 9)
    writer.add_file("half.py", 0o644, slow())
store.put(write, Limits())
"""
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60, check=False)
    assert done.returncode == -9 and "writing" in done.stdout, done.stderr
    assert len(list((root / INCOMING).iterdir())) == 1  # the half tree
    store = FrozenStore(root)
    assert [p.name for p in store.root.iterdir()] == [INCOMING]
    assert list((root / INCOMING).iterdir()) == []


def test_a_folder_with_a_device_or_a_link_out_is_refused(tmp_path: Path) -> None:
    store = FrozenStore(tmp_path / "store")
    folder = bot_folder(tmp_path / "bot")
    (folder / "lib" / "passwd").symlink_to("../../../../../../etc/passwd")
    with pytest.raises(TreeError, match="outside the bot's folder"):
        store.put_folder(folder, Limits())
    (folder / "lib" / "passwd").unlink()
    (folder / "up").symlink_to(tmp_path)
    with pytest.raises(TreeError, match="outside the bot's folder"):
        store.put_folder(folder, Limits())
    assert [p.name for p in store.root.iterdir()] == [INCOMING]


def test_a_tar_entry_of_a_folder_is_checked_too(tmp_path: Path) -> None:
    store = FrozenStore(tmp_path / "store")
    info = tarfile.TarInfo("../outside")
    info.type = tarfile.DIRTYPE
    with pytest.raises(TreeError, match="outside the bot's folder"):
        stored(store, tar_gz(file("bot.py"), (info, None)))
