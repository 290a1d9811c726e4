"""The club's database: SQLite (WAL) in the club's folder, ``club.db``, beside the ladder's own database.

It holds what the ladder does not: the members and their tokens (only a slow hash of each), which member
owns which bot, every submission (its frozen tree, its language, its build and validation, as they go) and
the nonces of recent requests (``referee.club.replay``). The server is its one writer while it runs, as the
coordinator is the ladder's; ``arena club invite`` and ``revoke`` write their own rows, from another shell,
each in one transaction (``BEGIN IMMEDIATE``: writers queue). ``synchronous=FULL``: what was committed
survives ``kill -9`` and a power cut.
"""

from __future__ import annotations

import sqlite3
import time
from pathlib import Path
from typing import Any

from referee import sqlitefile
from referee.errors import InputError

CLUB_DB = "club.db"
SCHEMA = 1

_TABLES = """
CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE members (
    id INTEGER PRIMARY KEY,
    name TEXT NOT NULL UNIQUE,
    scope TEXT NOT NULL,            -- member (its own bots) or admin (everything)
    invited_at REAL NOT NULL
);
CREATE TABLE tokens (
    id TEXT PRIMARY KEY,            -- the token's public part, for the lookup
    member INTEGER NOT NULL REFERENCES members (id),
    salt BLOB NOT NULL,
    hash BLOB NOT NULL,             -- scrypt of the token's secret part (referee.club.members)
    made_at REAL NOT NULL,
    revoked_at REAL                 -- NULL while it may be used
);
CREATE TABLE bots (
    name TEXT PRIMARY KEY,          -- the bot's name in the ladder
    member INTEGER NOT NULL REFERENCES members (id),
    made_at REAL NOT NULL
);
CREATE TABLE submissions (
    id INTEGER PRIMARY KEY,
    member INTEGER NOT NULL REFERENCES members (id),
    bot TEXT NOT NULL REFERENCES bots (name),
    version INTEGER NOT NULL,       -- the bot's version number (the ladder's)
    hash TEXT NOT NULL,             -- the frozen tree (referee.frozen)
    language TEXT NOT NULL,         -- the kit (referee.kits.Language)
    size INTEGER NOT NULL,
    files INTEGER NOT NULL,
    sent_at REAL NOT NULL,
    state TEXT NOT NULL,            -- referee.club.submissions: received, building, built, failed, ...
    reason TEXT NOT NULL DEFAULT '',
    build_seconds REAL,
    build TEXT,                     -- what its build made: a frozen tree in club/builds/
    UNIQUE (bot, version),
    UNIQUE (bot, hash)
);
CREATE TABLE nonces (
    nonce TEXT PRIMARY KEY,
    member INTEGER NOT NULL,
    seen_at REAL NOT NULL,
    answer TEXT NOT NULL            -- the first answer, given again to the same request
);
CREATE INDEX submissions_member ON submissions (member, sent_at);
CREATE INDEX nonces_seen ON nonces (seen_at);
"""


class ClubError(InputError):
    """A club folder or database that cannot be used as asked; one line."""


def connect(path: Path) -> sqlite3.Connection:
    """A connection to the database at ``path`` (made, with its tables, when missing)."""
    new = not path.exists()
    try:
        db = sqlitefile.connect(path)
    except sqlite3.DatabaseError as exc:
        raise ClubError(f"{path}: {exc}") from None
    try:
        if new:
            with sqlitefile.transaction(db):
                for statement in _TABLES.split(";"):
                    if statement.strip():
                        db.execute(statement)
                db.execute("INSERT INTO meta (key, value) VALUES ('schema', ?)", (str(SCHEMA),))
                db.execute("INSERT INTO meta (key, value) VALUES ('created_at', ?)", (repr(time.time()),))
        schema = rows(db, "SELECT value FROM meta WHERE key = 'schema'")
        if not schema or int(schema[0][0]) > SCHEMA:
            raise ClubError(f"{path} was made by a newer arena (or is no club's database)")
    except sqlite3.DatabaseError as exc:
        db.close()
        raise ClubError(f"{path}: {exc}") from None
    except BaseException:
        db.close()
        raise
    return db


def rows(db: sqlite3.Connection, query: str, args: tuple[Any, ...] = ()) -> list[sqlite3.Row]:
    """Every row of a query (all fetched: an unfinished statement would hold its read transaction)."""
    return db.execute(query, args).fetchall()
