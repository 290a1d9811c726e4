"""The ladder's database: SQLite (the standard library's, in WAL mode) in the ladder's folder; its schema and its
queries, and nothing of what the ladder decides (``referee.ladder.policy``, ``referee.ladder.rate``).

It holds the ladder's settings, its bots and their versions (command, when added, status, rating), every
set (the versions that meet on one deal, one game per seating), every finished game (seed, seating,
scores, points, violations, log, when it started and ended) and every rating update, in the order they
were applied. The coordinator of ``arena ladder run`` writes the games and ratings, even when the tables
run in worker processes or on Ray; ``add`` and ``retire`` write their own rows. Every write is one
transaction (``BEGIN IMMEDIATE``, so two writers queue instead of failing half-way), and a game is
committed together with what it decides: the rating update of the set it completes, the outcome of a
validation game, a suspension. ``synchronous=FULL``: a committed transaction survives a power cut, and a
killed process loses only what it had not committed.

Bad folders get one line each (``LadderError``): not a ladder, made by a newer arena (``SCHEMA``), a
database locked by another process, a file cut short (with how to rebuild it: ``referee.ladder.recover``).
"""

from __future__ import annotations

import json
import sqlite3
import threading
import time
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Self

from referee.errors import InputError
from referee.games.results import GameRecord
from referee.ladder.ratings import NEW, RatedSet, Rating, SetGame
from referee.ladder.settings import LadderSettings
from referee.runfolder import LADDER_DB, RunFolder, put_in_place
from referee.setting import SettingsError
from referee.sqlitefile import connect, snapshot, transaction

SCHEMA = 2  # the database's layout; a folder with a higher one was made by a newer arena (2: frozen versions)

# statuses of a version
BUILDING = "building"  # sent to a club and being built (referee.club): not yet a version that can play
PENDING = "pending"  # added; its validation game is still to be played
ACTIVE = "active"  # plays in the ladder
SUPERSEDED = "superseded"  # a newer version of its bot passed validation
RETIRED = "retired"  # taken out by `arena ladder retire`
ERROR = "error"  # failed its validation game (or, in a club, its build): never paired
SUSPENDED = "suspended"  # faulted in too many of its ladder games

LADDER = "ladder"  # a set of the ladder, rated when its games are all in
VALIDATION = "validation"  # a new version's game against itself
OPEN, RATED, VALIDATED, DROPPED = "open", "rated", "validated", "dropped"
INSERT_SET = "INSERT INTO sets (kind, versions, seed, first_game, size, made_at, state) VALUES (?, ?, ?, ?, ?, ?, ?)"

_TABLES = """
CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE versions (
    id INTEGER PRIMARY KEY,
    bot TEXT NOT NULL,
    version INTEGER NOT NULL,
    argv TEXT NOT NULL,             -- the command, a JSON list of arguments
    added_at REAL NOT NULL,         -- seconds since the epoch
    status TEXT NOT NULL,
    reason TEXT NOT NULL DEFAULT '',  -- why it is in error, suspended, superseded or retired
    output TEXT NOT NULL DEFAULT '',  -- its output file when in error (relative to the folder)
    mu REAL NOT NULL,
    sigma REAL NOT NULL,
    frozen TEXT NOT NULL DEFAULT '',  -- its code: the hash of its frozen files, or 'arena VERSION' for the arena's own
    folder TEXT NOT NULL DEFAULT '',  -- the frozen copy its command runs from (absolute; '' for the arena's own)
    size INTEGER NOT NULL DEFAULT 0,  -- bytes of its frozen files
    language TEXT NOT NULL DEFAULT '',  -- its kit's language, where known
    tcp INTEGER NOT NULL DEFAULT 0,   -- 1: its gRPC library cannot dial a Unix socket (referee.bots.BotCommand.tcp)
    tries INTEGER NOT NULL DEFAULT 0,  -- its validation games after the first (arena ladder retry)
    UNIQUE (bot, version)
);
CREATE TABLE sets (
    id INTEGER PRIMARY KEY,
    kind TEXT NOT NULL,             -- ladder, validation
    versions TEXT NOT NULL,         -- JSON list of version ids, the focus first
    seed INTEGER NOT NULL,          -- the deal of every game of the set
    first_game INTEGER NOT NULL,    -- its games are numbered first_game .. first_game + size - 1
    size INTEGER NOT NULL,
    made_at REAL NOT NULL,
    state TEXT NOT NULL             -- open, rated, validated, dropped (a version left before it was played)
);
CREATE TABLE games (
    number INTEGER PRIMARY KEY,
    set_id INTEGER NOT NULL REFERENCES sets (id),
    rotation INTEGER NOT NULL,      -- the seating
    seed INTEGER NOT NULL,
    teams TEXT NOT NULL,            -- JSON list: the version id playing each team
    scores TEXT NOT NULL,           -- JSON list, per team
    winner INTEGER,
    forfeit INTEGER,
    reason TEXT NOT NULL,
    hands INTEGER NOT NULL,
    violations INTEGER NOT NULL,
    log TEXT NOT NULL,              -- relative to the folder
    record TEXT NOT NULL,           -- the whole result record (referee.games.results.GameRecord)
    started_at REAL NOT NULL,
    finished_at REAL NOT NULL
);
CREATE TABLE ratings (
    id INTEGER PRIMARY KEY,         -- the order the updates were applied in
    set_id INTEGER NOT NULL REFERENCES sets (id),
    version INTEGER NOT NULL REFERENCES versions (id),
    mu REAL NOT NULL,               -- after the set
    sigma REAL NOT NULL,
    rated_at REAL NOT NULL
);
CREATE INDEX games_set ON games (set_id);
CREATE INDEX ratings_version ON ratings (version);
"""


# the columns schema 2 added to the versions table, for a ladder an older arena made
_FROZEN_COLUMNS = (
    "frozen TEXT NOT NULL DEFAULT ''",
    "folder TEXT NOT NULL DEFAULT ''",
    "size INTEGER NOT NULL DEFAULT 0",
    "language TEXT NOT NULL DEFAULT ''",
    "tcp INTEGER NOT NULL DEFAULT 0",
    "tries INTEGER NOT NULL DEFAULT 0",
)


class LadderError(InputError):
    """A ladder folder or database that cannot be used as asked; one line (bad input: exit status 2)."""


@dataclass(frozen=True)
class Code:
    """What a version runs: its frozen files (``referee.ladder.freezing``)."""

    frozen: str = ""  # the hash of its frozen files, or "arena VERSION" for the arena's own bots
    folder: str = ""  # the frozen copy its command runs from ('' for the arena's own)
    size: int = 0
    language: str = ""
    tcp: bool = False

    @property
    def shown(self) -> str:
        """As a person reads it: the hash's first 12 digits and the size, or the arena's version."""
        if not self.frozen or " " in self.frozen:
            return self.frozen or "not frozen"
        size = f"{self.size / 1048576:.1f} MiB" if self.size >= 1048576 else f"{self.size / 1024:.1f} KiB"
        return f"{self.frozen[:12]}, {size}" + (f", {self.language}" if self.language else "")


NOT_FROZEN = Code()  # a version of a ladder made before versions were frozen: its command is all it is


@dataclass(frozen=True)
class Version:
    id: int
    bot: str
    version: int
    argv: tuple[str, ...]
    added_at: float
    status: str
    reason: str
    output: str
    rating: Rating
    code: Code = NOT_FROZEN
    tries: int = 0

    @property
    def label(self) -> str:
        """Its name at the table and in the logs: ``rules.v2``."""
        return f"{self.bot}.v{self.version}"

    def copy_label(self, k: int) -> str:
        """The k-th copy of it in its validation game (k >= 1; copy 0 is ``label``)."""
        return self.label if k == 0 else f"{self.label}.c{k + 1}"


@dataclass(frozen=True)
class LadderSet:
    id: int
    kind: str
    versions: tuple[int, ...]
    seed: int
    first_game: int
    size: int
    state: str


@dataclass(frozen=True)
class GameRow:
    number: int
    set_id: int
    kind: str
    teams: tuple[int, ...]
    record: GameRecord
    started_at: float
    finished_at: float


def version_of(row: sqlite3.Row) -> Version:
    return Version(
        id=row["id"],
        bot=row["bot"],
        version=row["version"],
        argv=tuple(json.loads(row["argv"])),
        added_at=row["added_at"],
        status=row["status"],
        reason=row["reason"],
        output=row["output"],
        rating=Rating(row["mu"], row["sigma"]),
        code=Code(row["frozen"], row["folder"], row["size"], row["language"], bool(row["tcp"])),
        tries=row["tries"],
    )


def ladder_set_of(row: sqlite3.Row) -> LadderSet:
    return LadderSet(
        id=row["id"],
        kind=row["kind"],
        versions=tuple(json.loads(row["versions"])),
        seed=row["seed"],
        first_game=row["first_game"],
        size=row["size"],
        state=row["state"],
    )


# How many connections this process has open to each database file. SQLite's locks are POSIX locks, which a
# process loses on a file as soon as it closes any descriptor of that file, its own reading of the header
# included: with a connection open, another process closing its last connection would then find the file
# unlocked, checkpoint the WAL and delete it under this process's feet (its later commits go to a deleted
# file). So the header is read only by a process that has no connection to the file yet.
_OPEN: dict[Path, int] = {}
_OPEN_LOCK = threading.Lock()  # the run's connection and the page's open in threads of their own


def check_folder(folder: RunFolder) -> None:
    """LadderError unless ``folder`` holds a ladder's database that is whole (as long as its header says)."""
    path = folder.ladder_db
    if not folder.path.is_dir():
        raise LadderError(f"{folder.path}: no such folder (make a ladder with `arena ladder init {folder.path}`)")
    if not path.exists():
        raise LadderError(
            f"{folder.path} is not a ladder: it has no {LADDER_DB} (make one with `arena ladder init FOLDER`)"
        )
    with _OPEN_LOCK:
        connected = _OPEN.get(path.resolve(), 0)
    if connected:
        return  # it opened whole, and this process's connection to it must keep its locks (above)
    with path.open("rb") as f:
        header = f.read(100)
    if len(header) < 100 or not header.startswith(b"SQLite format 3\0"):
        if len(header) < 100 and header == b"SQLite format 3\0"[: len(header)]:
            raise _cut_short(folder, len(header), 100)
        raise LadderError(f"{path} is not a ladder's database (not an SQLite file)")
    page_size = int.from_bytes(header[16:18], "big")
    page_size = 65536 if page_size == 1 else page_size
    pages = int.from_bytes(header[28:32], "big")
    size = path.stat().st_size
    if pages and size < pages * page_size:
        raise _cut_short(folder, size, pages * page_size)


def _cut_short(folder: RunFolder, size: int, expected: int) -> LadderError:
    return LadderError(
        f"{folder.ladder_db} is cut short ({size} of {expected} bytes): rebuild it from the games' logs with "
        f"`arena ladder recover {folder.path}` (the damaged file is kept beside it)"
    )


class LadderDatabase:
    """One connection to a ladder's database. Not shared between threads: the run keeps it in a thread of its
    own (``referee.ladder.playing``); the commands open one each. ``sql``: the connection, for the statements a
    caller makes itself inside ``write()``."""

    def __init__(self, folder: RunFolder, sql: sqlite3.Connection) -> None:
        self.folder = folder
        self.sql = sql

    # ------------------------------------------------------------ opening

    @classmethod
    def open(cls, folder: RunFolder) -> Self:
        """The ladder in ``folder``; LadderError (one line) when there is none, or none this arena can use."""
        check_folder(folder)
        with _translated(folder):
            db = connect(folder.ladder_db)
            try:
                opened = cls(folder, db)
                opened._check_schema()
            except BaseException:
                db.close()
                raise
        key = folder.ladder_db.resolve()
        with _OPEN_LOCK:
            _OPEN[key] = _OPEN.get(key, 0) + 1
        return opened

    @classmethod
    def build(cls, folder: RunFolder, settings: LadderSettings, options: dict[str, Any]) -> Self:
        """An empty database in ``folder`` (which has none), written whole: made beside, renamed into place."""
        building = folder.ladder_db.with_name(LADDER_DB + ".new")
        building.unlink(missing_ok=True)
        db = connect(building)
        try:
            db.executescript(_TABLES)
            with transaction(db):
                meta = {
                    "schema": str(SCHEMA),
                    "created_at": repr(time.time()),
                    "settings": json.dumps(settings.record()),
                    "options": json.dumps(options),
                }
                db.executemany("INSERT INTO meta (key, value) VALUES (?, ?)", meta.items())
        finally:
            db.close()  # the WAL is checkpointed into the file and removed
        put_in_place(building, folder.ladder_db)
        return cls.open(folder)

    def close(self) -> None:
        self.sql.close()
        key = self.folder.ladder_db.resolve()
        with _OPEN_LOCK:
            _OPEN[key] = max(0, _OPEN.get(key, 0) - 1)

    def _check_schema(self) -> None:
        try:
            row = first_row(self.sql.execute("SELECT value FROM meta WHERE key = 'schema'"))
        except sqlite3.OperationalError as exc:
            if "no such table" in str(exc):
                raise LadderError(
                    f"{self.folder.ladder_db} is not a ladder's database (it has no meta table)"
                ) from None
            raise
        if row is None:
            raise LadderError(f"{self.folder.ladder_db} is not a ladder's database (no schema version)")
        schema = int(row[0])
        if schema > SCHEMA:
            raise LadderError(
                f"{self.folder.path} was made by a newer arena (ladder schema {schema}; this arena reads up to "
                f"{SCHEMA}): use that arena, or upgrade this one"
            )
        if schema < SCHEMA:
            self._upgrade(schema)

    def _upgrade(self, schema: int) -> None:
        """A ladder made by an older arena, brought to this schema in one transaction: its versions were not
        frozen (their code is their command, as it was)."""
        with self.write():
            if schema < 2:
                for column in _FROZEN_COLUMNS:
                    self.sql.execute(f"ALTER TABLE versions ADD COLUMN {column}")
            self.sql.execute("UPDATE meta SET value = ? WHERE key = 'schema'", (str(SCHEMA),))

    @contextmanager
    def errors(self) -> Iterator[None]:
        """SQLite's errors as one line naming the folder (locked, damaged)."""
        with _translated(self.folder):
            yield

    @contextmanager
    def read(self) -> Iterator[None]:
        """One read transaction: the reads in the block see the database at one moment, while a running ladder
        goes on writing."""
        with self.errors(), snapshot(self.sql):
            yield

    @contextmanager
    def write(self) -> Iterator[None]:
        """One transaction: everything in the block is committed together, or nothing is."""
        with self.errors(), transaction(self.sql):
            yield

    # ------------------------------------------------------------ the ladder's settings

    def meta(self, key: str) -> str | None:
        with self.errors():
            row = first_row(self.sql.execute("SELECT value FROM meta WHERE key = ?", (key,)))
        return None if row is None else str(row[0])

    def settings(self) -> LadderSettings:
        """The ladder's settings (without bots: the run adds the versions that play)."""
        text = self.meta("settings")
        try:
            return LadderSettings.from_record(json.loads(text or "null"), f"{self.folder.ladder_db} settings")
        except (SettingsError, json.JSONDecodeError) as exc:
            raise LadderError(str(exc)) from None

    def options(self) -> dict[str, Any]:
        """The ladder's own options (``all_versions``)."""
        return dict(json.loads(self.meta("options") or "{}"))

    # ------------------------------------------------------------ versions

    def versions(self) -> list[Version]:
        with self.errors():
            rows = self.sql.execute("SELECT * FROM versions ORDER BY id").fetchall()
        return [version_of(r) for r in rows]

    def version(self, vid: int) -> Version:
        with self.errors():
            row = first_row(self.sql.execute("SELECT * FROM versions WHERE id = ?", (vid,)))
        return version_of(row)

    def newest(self, bot: str) -> Version | None:
        """The bot's newest version, or None."""
        with self.errors():
            row = first_row(
                self.sql.execute("SELECT * FROM versions WHERE bot = ? ORDER BY version DESC LIMIT 1", (bot,))
            )
        return None if row is None else version_of(row)

    def versions_of(self, bot: str) -> list[Version]:
        """The bot's versions, oldest first."""
        with self.errors():
            rows = self.sql.execute("SELECT * FROM versions WHERE bot = ? ORDER BY version", (bot,)).fetchall()
        return [version_of(r) for r in rows]

    def insert_version(
        self, bot: str, number: int, argv: Sequence[str], code: Code = NOT_FROZEN, status: str = PENDING
    ) -> Version:
        """Version ``number`` of ``bot``, pending its validation game (or ``status``), with a new rating (within
        the caller's transaction)."""
        cursor = self.sql.execute(
            "INSERT INTO versions (bot, version, argv, added_at, status, mu, sigma, frozen, folder, size, language, "
            "tcp) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
            (bot, number, json.dumps(list(argv)), time.time(), status, NEW.mu, NEW.sigma, code.frozen, code.folder,
             code.size, code.language, int(code.tcp)),
        )  # fmt: skip
        assert cursor.lastrowid is not None
        return self.version(cursor.lastrowid)

    def set_command(self, vid: int, argv: Sequence[str], code: Code) -> None:
        """What a version runs, once its build made it (within the caller's transaction)."""
        self.sql.execute(
            "UPDATE versions SET argv = ?, frozen = ?, folder = ?, size = ?, language = ?, tcp = ? WHERE id = ?",
            (json.dumps(list(argv)), code.frozen, code.folder, code.size, code.language, int(code.tcp), vid),
        )

    def count_try(self, vid: int) -> None:
        """One more validation game for a version (within the caller's transaction)."""
        self.sql.execute("UPDATE versions SET tries = tries + 1 WHERE id = ?", (vid,))

    def set_status(self, vid: int, status: str, reason: str, output: str = "") -> None:
        """A version's status and why (within the caller's transaction)."""
        self.sql.execute(
            "UPDATE versions SET status = ?, reason = ?, output = ? WHERE id = ?", (status, reason, output, vid)
        )

    def set_rating(self, set_id: int, vid: int, rating: Rating, when: float) -> None:
        """A version's rating after the set ``set_id``, and the update's row (within the caller's transaction)."""
        self.sql.execute("UPDATE versions SET mu = ?, sigma = ? WHERE id = ?", (rating.mu, rating.sigma, vid))
        self.sql.execute(
            "INSERT INTO ratings (set_id, version, mu, sigma, rated_at) VALUES (?, ?, ?, ?, ?)",
            (set_id, vid, rating.mu, rating.sigma, when),
        )

    # ------------------------------------------------------------ sets

    def sets(self, *, state: str | None = None) -> list[LadderSet]:
        query, args = "SELECT * FROM sets", tuple[str, ...]()
        if state is not None:
            query, args = query + " WHERE state = ?", (state,)
        with self.errors():
            return [ladder_set_of(r) for r in self.sql.execute(query + " ORDER BY id", args).fetchall()]

    def next_set_id(self) -> int:
        with self.errors():
            return int(self.sql.execute("SELECT COALESCE(MAX(id), 0) + 1 FROM sets").fetchall()[0][0])

    def make_set(self, kind: str, versions: Sequence[int], seed: int, size: int) -> LadderSet:
        """A new open set; its games are numbered after every game of the sets before it."""
        with self.write():
            first = self.sql.execute("SELECT COALESCE(MAX(first_game + size), 1) FROM sets").fetchall()[0][0]
            cursor = self.sql.execute(
                INSERT_SET, (kind, json.dumps(list(versions)), seed, first, size, time.time(), OPEN)
            )
            row = first_row(self.sql.execute("SELECT * FROM sets WHERE id = ?", (cursor.lastrowid,)))
        return ladder_set_of(row)

    def drop_set(self, set_id: int) -> None:
        with self.write():
            self.set_state(set_id, DROPPED)

    def set_state(self, set_id: int, state: str) -> None:
        """A set's state (within the caller's transaction)."""
        self.sql.execute("UPDATE sets SET state = ? WHERE id = ?", (state, set_id))

    def recorded(self, set_id: int) -> set[int]:
        """The numbers of the set's games that are recorded."""
        with self.errors():
            rows = self.sql.execute("SELECT number FROM games WHERE set_id = ?", (set_id,)).fetchall()
        return {r[0] for r in rows}

    def rated_sets(self) -> dict[int, int]:
        """Rated sets per version."""
        with self.errors():
            rows = self.sql.execute("SELECT version, COUNT(*) FROM ratings GROUP BY version").fetchall()
        return {r[0]: r[1] for r in rows}

    # ------------------------------------------------------------ games

    def insert_game(
        self, set_id: int, record: GameRecord, teams: Sequence[int], started: float, finished: float
    ) -> None:
        """The game's row (within the caller's transaction)."""
        self.sql.execute(
            "INSERT INTO games (number, set_id, rotation, seed, teams, scores, winner, forfeit, reason, hands, "
            "violations, log, record, started_at, finished_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
            (
                record.game,
                set_id,
                record.rotation,
                record.seed,
                json.dumps(teams),
                json.dumps(list(record.scores)),
                record.winner,
                record.forfeit,
                record.reason,
                record.hands,
                len(record.violations),
                record.log,
                json.dumps(record.to_json(), separators=(",", ":")),
                started,
                finished,
            ),
        )

    def set_games(self, set_id: int) -> list[SetGame]:
        rows = self.sql.execute("SELECT teams, scores, forfeit FROM games WHERE set_id = ? ORDER BY number", (set_id,))
        return [SetGame(tuple(json.loads(t)), tuple(json.loads(s)), f) for t, s, f in rows.fetchall()]

    def ladder_games_of(self, vid: int) -> list[tuple[tuple[int, ...], GameRecord]]:
        """The ladder games (not validation games) a version played: the version of each team, the record."""
        rows = self.sql.execute(
            "SELECT g.teams, g.record FROM games g JOIN sets s ON s.id = g.set_id WHERE s.kind = ? "
            "AND EXISTS (SELECT 1 FROM json_each(g.teams) WHERE value = ?) ORDER BY g.number",
            (LADDER, vid),
        ).fetchall()
        return [(tuple(json.loads(teams)), GameRecord.from_json(json.loads(text))) for teams, text in rows]

    def games(self, *, after: int = 0) -> list[GameRow]:
        """The recorded games (numbered above ``after``), in order of number."""
        with self.errors():
            rows = self.sql.execute(
                "SELECT g.*, s.kind FROM games g JOIN sets s ON s.id = g.set_id WHERE g.number > ? ORDER BY g.number",
                (after,),
            ).fetchall()
        return [
            GameRow(
                number=r["number"],
                set_id=r["set_id"],
                kind=r["kind"],
                teams=tuple(json.loads(r["teams"])),
                record=GameRecord.from_json(json.loads(r["record"])),
                started_at=r["started_at"],
                finished_at=r["finished_at"],
            )
            for r in rows
        ]

    def result_copies(self) -> list[tuple[int, dict[str, Any], GameRecord]]:
        """Each recorded game's result as its row's columns hold it, beside its ``record`` JSON's copy: (number,
        the columns, the record), in order of number."""
        with self.errors():
            rows = self.sql.execute(
                "SELECT number, rotation, seed, teams, scores, winner, forfeit, reason, hands, violations, log, "
                "record FROM games ORDER BY number"
            ).fetchall()
        out = []
        for r in rows:
            columns = dict(r)
            record = GameRecord.from_json(json.loads(columns.pop("record")))
            columns["teams"], columns["scores"] = json.loads(r["teams"]), json.loads(r["scores"])
            out.append((r["number"], columns, record))
        return out

    def game_count(self) -> int:
        with self.errors():
            return int(self.sql.execute("SELECT COUNT(*) FROM games").fetchall()[0][0])

    def change_mark(self) -> tuple[int, int, str]:
        """Changes as far as the page is concerned: (games, last rating, versions and their statuses)."""
        with self.errors():
            row = first_row(
                self.sql.execute(
                    "SELECT (SELECT COUNT(*) FROM games), (SELECT COALESCE(MAX(id), 0) FROM ratings), "
                    "(SELECT COALESCE(group_concat(id || ':' || status, ','), '') FROM versions)"
                )
            )
        return int(row[0]), int(row[1]), str(row[2])

    # ------------------------------------------------------------ ratings

    def history(self) -> list[tuple[int, int, int, Rating, float]]:
        """Every rating update, in order: (update id, set, version, rating after, when)."""
        with self.errors():
            rows = self.sql.execute("SELECT id, set_id, version, mu, sigma, rated_at FROM ratings ORDER BY id")
            return [(r[0], r[1], r[2], Rating(r[3], r[4]), r[5]) for r in rows.fetchall()]

    def rated_in_order(self) -> list[RatedSet]:
        """The rated sets, in the order their updates were applied, with their games from the games table."""
        with self.errors():
            order = self.sql.execute("SELECT set_id FROM ratings GROUP BY set_id ORDER BY MIN(id)").fetchall()
            out = []
            for (set_id,) in order:
                row = first_row(self.sql.execute("SELECT versions FROM sets WHERE id = ?", (set_id,)))
                out.append(RatedSet(set_id, tuple(json.loads(row[0])), tuple(self.set_games(set_id))))
        return out

    def integrity(self) -> list[str]:
        """SQLite's own check of the file: [] when whole."""
        with self.errors():
            rows = self.sql.execute("PRAGMA integrity_check").fetchall()
        return [] if [r[0] for r in rows] == ["ok"] else [str(r[0]) for r in rows]


def first_row(cursor: sqlite3.Cursor) -> Any:
    """The first row of a query, or None. Every row is fetched: a statement left unfinished would keep its read
    transaction, and the connection would go on seeing the database as it was then."""
    rows = cursor.fetchall()
    return rows[0] if rows else None


@contextmanager
def _translated(folder: RunFolder) -> Iterator[None]:
    try:
        yield
    except sqlite3.OperationalError as exc:
        if "locked" in str(exc) or "busy" in str(exc):
            raise LadderError(
                f"{folder.ladder_db} is locked: another process holds a transaction open on it; try again once "
                "it is done"
            ) from None
        raise LadderError(f"{folder.ladder_db}: {exc}") from None
    except sqlite3.DatabaseError as exc:
        if "malformed" in str(exc) or "not a database" in str(exc):
            raise LadderError(
                f"{folder.ladder_db} is damaged ({exc}): rebuild it from the games' logs with "
                f"`arena ladder recover {folder.path}` (the damaged file is kept beside it)"
            ) from None
        raise LadderError(f"{folder.ladder_db}: {exc}") from None
