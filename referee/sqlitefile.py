"""A SQLite file kept by a long-running arena process (the ladder's ``ladder.db``, the club's ``club.db``): one
way to open it, one way to write to it and one way to read it whole at one moment.

The connection opens no transaction behind the caller's back (``isolation_level=None``); every write is an
explicit ``BEGIN IMMEDIATE`` (``transaction``), so that writers from other processes queue for up to
``BUSY_MS`` rather than fail. WAL lets readers go on while one writes; ``synchronous=FULL``: what was committed
survives ``kill -9`` and a power cut.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

BUSY_MS = 3000  # how long a write waits for another process's transaction before the database is "locked"


def connect(path: Path) -> sqlite3.Connection:
    """A connection to the file at ``path`` (made empty when missing), rows as ``sqlite3.Row``, in WAL mode with
    foreign keys on. The connection may move to the thread that uses it (``check_same_thread`` off): it is made
    for one thread of its own. Raises ``sqlite3.DatabaseError`` when the file cannot be used so, closing it."""
    db = sqlite3.connect(path, isolation_level=None, timeout=BUSY_MS / 1000, check_same_thread=False)
    db.row_factory = sqlite3.Row
    try:
        db.execute(f"PRAGMA busy_timeout = {BUSY_MS}")
        mode = db.execute("PRAGMA journal_mode = WAL").fetchall()[0][0]
        if mode != "wal":
            raise sqlite3.OperationalError(f"cannot switch to WAL (journal mode {mode})")
        db.execute("PRAGMA synchronous = FULL")
        db.execute("PRAGMA foreign_keys = ON")
    except BaseException:
        db.close()
        raise
    return db


@contextmanager
def transaction(db: sqlite3.Connection) -> Iterator[None]:
    """One transaction: everything in the block is committed together, or nothing is."""
    db.execute("BEGIN IMMEDIATE")
    try:
        yield
    except BaseException:
        db.execute("ROLLBACK")
        raise
    db.execute("COMMIT")


@contextmanager
def snapshot(db: sqlite3.Connection) -> Iterator[None]:
    """One read transaction: every read in the block sees the file as it was at the first, whatever other
    processes commit meanwhile (WAL keeps that state for the reader)."""
    db.execute("BEGIN DEFERRED")
    try:
        yield
    finally:
        db.execute("COMMIT")
