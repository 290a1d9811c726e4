"""``arena ladder run``: the ladder's games played on tables until told to stop, each recorded as it ends.

The loop over the tables is every run's (``referee.games.driver.drive``), on any backend
(this process, ``--workers``, ``--ray``). What is the ladder's own:

- ``LadderQueue``, the driver's ``GameQueue``: when a table asks for a game, it hands out the next game
  of a set already made (a set is one deal, one game per seating, so several tables can play one set at
  once); when there is none, it makes the next set, in the database, as a pure function of the ladder's
  state and seed (``referee.ladder.matchmaking``): first the validation game of a new version, then the
  pairing. Sets left open by a run that was stopped are played first.
- The record step (``LadderQueue.record``): the coordinator commits each finished game with what it
  decides (``referee.ladder.policy.record_game``). The database connection lives in a thread of its own, so the tables'
  bots never wait on a commit.
- New versions while it plays: the backends take the bots from the settings when they open their
  tables, so when a version that the tables do not have appears (``arena ladder add`` from another
  shell), the queue hands out no more games; once the games in play are recorded, the tables close and
  open again with every version that plays. That is rare (a version is added once) and costs a few
  seconds of bot start-up, and it needs nothing of the backends beyond what a tournament uses.
- One run per ladder: ``run_lock`` holds an flock on ladder.lock, which the kernel releases when the
  process ends however it ends (kill -9 leaves no stale lock).
"""

from __future__ import annotations

import asyncio
import contextlib
import fcntl
import functools
import os
import time
from collections.abc import Callable, Iterator, Sequence
from concurrent.futures import ThreadPoolExecutor
from contextlib import contextmanager
from dataclasses import dataclass, replace
from typing import Any, TypeVar

import structlog

from referee.bots import BotCommand
from referee.games.backends import Backend
from referee.games.driver import drive
from referee.games.scheduled import ScheduledGame
from referee.games.tables import PlayedGame, TableRecords
from referee.ladder.database import (
    ACTIVE,
    LADDER,
    OPEN,
    PENDING,
    VALIDATION,
    LadderDatabase,
    LadderError,
    LadderSet,
    Version,
)
from referee.ladder.matchmaking import Entry, pair
from referee.ladder.policy import record_game, validation_seed
from referee.ladder.settings import LadderSettings
from referee.runfolder import RunFolder
from referee.seeding import derive_seed
from referee.server import Limits

log = structlog.get_logger("referee.ladder")
T = TypeVar("T")
_POLL_S = 1.0  # how often a table with no game to play, or a run with too few versions, looks again
_DRAIN = "drain"  # make_next_set: a version the tables lack plays now: reopen them


@contextmanager
def run_lock(folder: RunFolder) -> Iterator[None]:
    """Hold the ladder's run lock; LadderError (one line) when another run holds it."""
    fd = os.open(folder.ladder_lock, os.O_RDWR | os.O_CREAT, 0o644)
    try:
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            holder = os.pread(fd, 32, 0).decode(errors="replace").strip() or "?"
            raise LadderError(
                f"another `arena ladder run` (pid {holder}) is playing {folder.path}: one run per ladder; stop it first"
            ) from None
        os.ftruncate(fd, 0)
        os.pwrite(fd, f"{os.getpid()}\n".encode(), 0)
        yield
    finally:
        os.close(fd)  # the lock goes with the descriptor


class DatabaseThread:
    """The run's one connection to the database, in a thread of its own: every call waits its turn."""

    def __init__(self, folder: RunFolder) -> None:
        self.folder = folder
        self._thread = ThreadPoolExecutor(max_workers=1, thread_name_prefix="arena-ladder-db")
        self._db: LadderDatabase | None = None

    async def call(self, fn: Callable[..., T], *args: Any) -> T:
        """``fn(db, *args)`` in the database's thread (``db``: its ``LadderDatabase``)."""
        loop = asyncio.get_running_loop()
        return await loop.run_in_executor(self._thread, functools.partial(self._call, fn, *args))

    def _call(self, fn: Callable[..., T], *args: Any) -> T:
        if self._db is None:
            self._db = LadderDatabase.open(self.folder)
        return fn(self._db, *args)

    def close(self) -> None:
        """Wait for a transaction under way (a cancelled run still commits the game it was writing), close."""
        self._thread.submit(self._close).result()
        self._thread.shutdown(wait=True)

    def _close(self) -> None:
        if self._db is not None:
            self._db.close()
            self._db = None


@dataclass(frozen=True)
class Stop:
    """When the run stops by itself: after ``games`` games recorded, or at ``deadline`` (a time.monotonic)."""

    games: int | None = None
    deadline: float | None = None


def commands(versions: Sequence[Version], teams: int) -> tuple[BotCommand, ...]:
    """The bots the tables need: each version that plays, and the copies a pending one meets in its validation."""
    out = []
    for v in versions:
        copies = teams if v.status == PENDING else 1
        readable = (v.code.folder,) if v.code.folder else ()  # its frozen copy, in the ladder's hidden folder
        out += [BotCommand(v.copy_label(k), v.argv, v.code.tcp, readable) for k in range(copies)]
    return tuple(out)


def games_of(ladder_set: LadderSet, labels: Sequence[str]) -> list[ScheduledGame]:
    """The games of a set: one per seating, all on the set's deal."""
    return [
        ScheduledGame(
            number=ladder_set.first_game + r,
            group=tuple(labels),
            deal=ladder_set.id,
            rotation=r,
            seed=ladder_set.seed,
        )
        for r in range(ladder_set.size)
    ]


class LadderRun:
    """A ladder's run, opened (``referee.opening.ladder.open_ladder``): ``await run(stop)`` plays until ``stop`` or
    cancelled."""

    def __init__(
        self,
        folder: RunFolder,
        settings: LadderSettings,
        options: dict[str, Any],
        backend: Backend,
        tables: int,
        *,
        limits: Limits | None = None,
        connect_timeout_s: float = 10.0,
        say: Callable[[str], None] = lambda line: None,
    ) -> None:
        self.folder = folder
        self.settings = settings
        self.options = options
        self.backend = backend
        self.tables = tables
        self.limits = limits or Limits()
        self.connect_timeout_s = connect_timeout_s
        self.say = say
        self.teams = settings.rules.teams
        self.set_size = settings.set_size
        self.recorded = 0  # games recorded by this run
        self.on_game: Callable[[], None] | None = None  # after each game is committed (the live view)
        self.on_records: TableRecords | None = None  # the tables' games in play, as they happen (the live view)
        self.stop = Stop()
        self._started = time.monotonic()

    def stopping(self) -> bool:
        """Whether the run is over: as many games as asked are recorded, or the time is up."""
        if self.stop.games is not None and self.recorded >= self.stop.games:
            return True
        return self.stop.deadline is not None and time.monotonic() >= self.stop.deadline

    async def run(self, stop: Stop = Stop()) -> int:
        """Play until ``stop`` (or until cancelled: the games in play are lost, nothing committed is); the games
        recorded."""
        self.stop, self.recorded = stop, 0
        db = DatabaseThread(self.folder)
        waiting_said = False
        try:
            while not self.stopping():
                roster = await db.call(_roster)
                if not _can_play(roster, self.teams):
                    if not waiting_said:
                        self.say(
                            f"waiting for bots: {sum(v.status == ACTIVE for v in roster)} version(s) play, "
                            f"{self.settings.preset} needs {self.teams}; add some with `arena ladder add`"
                        )
                        waiting_said = True
                    await asyncio.sleep(_POLL_S)
                    continue
                waiting_said = False
                queue = LadderQueue(self, db, frozenset(v.id for v in roster))
                await queue.load()
                if self.on_records is not None:
                    self.backend.on_records = self.on_records
                await drive(
                    self.backend,
                    replace(self.settings, bots=commands(roster, self.teams)),
                    self.folder,
                    queue,
                    tables=self.tables,
                    record=queue.record,
                    limits=self.limits,
                    connect_timeout_s=self.connect_timeout_s,
                    stopping=self.stopping,
                    done="the ladder's versions changed" if queue.drained else "the ladder run is over",
                )
                if not queue.drained:
                    break
                self.say("new versions to play: the tables open again with them")
        finally:
            await asyncio.shield(asyncio.to_thread(db.close))
        return self.recorded

    # ------------------------------------------------------------ in the database's thread

    def next_set(self, db: LadderDatabase, opened: frozenset[int]) -> list[tuple[LadderSet, ScheduledGame]] | str:
        """The games of the next set, made now: a new version's validation game first, else the pairing of the
        versions that play; [] when none can be made; ``_DRAIN`` when a version the tables lack plays."""
        versions = db.versions()
        by_id = {v.id: v for v in versions}
        if any(v.status in (PENDING, ACTIVE) and v.id not in opened for v in versions):
            return _DRAIN
        sets = db.sets(state=OPEN)
        validating = {s.versions[0] for s in sets if s.kind == VALIDATION}
        seed = self.settings.seed
        for v in versions:
            if v.status == PENDING and v.id not in validating:
                made = db.make_set(VALIDATION, [v.id], validation_seed(seed, v.id, v.tries), 1)
                return [(made, g) for g in games_of(made, [v.copy_label(k) for k in range(self.teams)])]
        counts = db.rated_sets()
        playing: dict[int, int] = {}
        for s in sets:
            if s.kind == LADDER:
                for vid in s.versions:
                    playing[vid] = playing.get(vid, 0) + 1
        pool = [
            Entry(v.id, v.rating, counts.get(v.id, 0), playing.get(v.id, 0)) for v in versions if v.status == ACTIVE
        ]
        set_id = db.next_set_id()
        group = pair(pool, self.teams, derive_seed(seed, "pair", set_id))
        if group is None:
            return []
        made = db.make_set(LADDER, group, derive_seed(seed, "set", set_id), self.set_size)
        return [(made, g) for g in games_of(made, [by_id[vid].label for vid in group])]

    def open_games(self, db: LadderDatabase) -> list[tuple[LadderSet, ScheduledGame]]:
        """The games of the sets a stopped run left open, still to play; a set whose versions no longer all play
        is dropped (never rated)."""
        by_id = {v.id: v for v in db.versions()}
        out = []
        for s in db.sets(state=OPEN):
            wanted = PENDING if s.kind == VALIDATION else ACTIVE
            if any(by_id[v].status != wanted for v in s.versions):
                db.drop_set(s.id)
                continue
            if s.kind == VALIDATION:
                labels = [by_id[s.versions[0]].copy_label(k) for k in range(self.teams)]
            else:
                labels = [by_id[v].label for v in s.versions]
            done = db.recorded(s.id)
            out += [(s, g) for g in games_of(s, labels) if g.number not in done]
        return out


def _roster(db: LadderDatabase) -> list[Version]:
    """The versions that play, or wait for their validation game."""
    return [v for v in db.versions() if v.status in (PENDING, ACTIVE)]


def _can_play(roster: Sequence[Version], teams: int) -> bool:
    return any(v.status == PENDING for v in roster) or sum(v.status == ACTIVE for v in roster) >= teams


class LadderQueue:
    """The driver's ``GameQueue`` for a ladder: sets made as tables ask (see the module's docstring)."""

    def __init__(self, ladder: LadderRun, db: DatabaseThread, opened: frozenset[int]) -> None:
        self.ladder = ladder
        self.db = db
        self.opened = opened  # the versions the tables were opened with
        self.pending: list[tuple[LadderSet, ScheduledGame]] = []
        self.in_play: dict[int, tuple[LadderSet, ScheduledGame, float]] = {}  # game number -> set, game, start
        self.tables: dict[int, int] = {}  # table -> the number of its game in play
        self.drained = False  # a version the tables lack plays now: no more games until they reopen
        self._changed = asyncio.Event()

    async def load(self) -> None:
        self.pending = await self.db.call(self.ladder.open_games)

    def _quota_reached(self) -> bool:
        stop = self.ladder.stop
        return stop.games is not None and self.ladder.recorded + len(self.in_play) >= stop.games

    async def next(self, table: int, bots: frozenset[str]) -> ScheduledGame | None:
        self._release(table)
        while True:
            if self.drained or self.ladder.stopping() or self._quota_reached():
                return None
            if not self.pending:
                made = await self.db.call(self.ladder.next_set, self.opened)
                if isinstance(made, str):
                    self.drained = True
                    self._changed.set()
                    return None
                self.pending.extend(made)
            if self.pending:
                # a game that keeps most of the table's bots (fewer processes started), else the oldest
                k = max(range(len(self.pending)), key=lambda i: (len(bots & set(self.pending[i][1].group)), -i))
                ladder_set, game = self.pending.pop(k)
                self.in_play[game.number] = (ladder_set, game, time.time())
                self.tables[table] = game.number
                return game
            self._changed.clear()
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self._changed.wait(), _POLL_S)

    def _release(self, table: int) -> None:
        number = self.tables.pop(table, None)
        if number is not None:
            self.in_play.pop(number, None)
            self._changed.set()

    async def record(self, game: ScheduledGame, played: PlayedGame) -> None:
        ladder_set, _, started = self.in_play[game.number]
        changes = await self.db.call(record_game, ladder_set, played.record, started, time.time())
        self.ladder.recorded += 1
        for line in changes:
            log.info("ladder", change=line)
            self.ladder.say(line)
        if changes:  # a version left the pool: the games of its sets not yet handed out are not played
            gone = {v.id for v in await self.db.call(LadderDatabase.versions) if v.status not in (PENDING, ACTIVE)}
            dropped = {s.id for s, _ in self.pending if gone.intersection(s.versions)}
            for set_id in dropped:
                await self.db.call(LadderDatabase.drop_set, set_id)
            self.pending = [(s, g) for s, g in self.pending if s.id not in dropped]
        if self.ladder.on_game is not None:
            self.ladder.on_game()

    def finish(self, table: int) -> None:
        self._release(table)

    def put_back(self, table: int, game: ScheduledGame) -> None:
        entry = self.in_play.pop(game.number, None)
        self.tables.pop(table, None)
        if entry is not None:
            self.pending.insert(0, (entry[0], entry[1]))
        self._changed.set()

    @property
    def finished(self) -> bool:
        over = self.drained or self.ladder.stopping() or self._quota_reached()
        return over and not self.in_play

    def left(self) -> int:
        return len(self.pending) + len(self.in_play)
