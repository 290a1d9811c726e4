"""Running a tournament: parallel tables, one folder, resumable.

The runner hands the games to tables and writes what comes back; where a
table runs is a backend's business (``referee.tournament.backends``): in
this process (the default), in worker processes on this machine
(``--workers``), or on a Ray cluster (``--ray``). A table plays one game at
a time (``referee.tournament.tables``) and keeps its bot processes from game
to game; the queue gives it, where it can, a game with the bots it has.

A bot process plays a role: (bot, k), the k-th seat of its team counted
clockwise from seat 0. Its ARENA_SEED depends on the tournament's seed and
the role only, and the SDK reseeds a bot's rng from it and the game id at
every game, so a game is played the same whichever table, process, machine
or history it gets: a resumed tournament, or one spread over processes or
machines, gives the games, and so the standings, of an uninterrupted one
(for bots that do not use the clock or remember earlier games).

A game is recorded only here, in the driver: its log is put in place, then
its result line appended. A table lost with its host (a lost Ray node) gives
its game back to the queue, and another table plays it: none is lost, none
counted twice.

The folder is a run folder (``referee.runfolder``): settings.json written
once at the start, results.jsonl (one fsync'd line per finished game, see
results.py), the games' logs in games/ (``g0001.jsonl.part`` while one is
played), what each table's bots printed in bots/, and standings.csv and
standings.json written at the end of a run.
"""

from __future__ import annotations

import asyncio
import csv
import io
from collections.abc import Callable, Sequence
from typing import Any

import structlog

from referee.errors import ConfigError
from referee.match import OnHand
from referee.runfolder import PART, RunFolder, write_atomically, write_json
from referee.sandbox import Sandbox, SandboxMode, default_sandbox
from referee.server import Limits
from referee.tournament.backends import Backend, Table, TableLost, TablesError
from referee.tournament.backends.local import LocalBackend
from referee.tournament.gauntlet import Matchup, head_to_head
from referee.tournament.results import GameRecord, ResultsWriter, read_results
from referee.tournament.schedule import ScheduledGame
from referee.tournament.settings import TournamentSettings
from referee.tournament.standings import Standing, standings
from referee.tournament.tables import PlayedGame, TableRecords

log = structlog.get_logger("referee.tournament")


class _Queue:
    """The games not yet started, handed to tables so that bot processes are started as rarely as possible.

    A table takes the first game (in schedule order) that keeps most of its
    bots; among those, one of a group no other table is playing, so that
    tables spread over the pairings instead of all starting the same bots.
    A game whose table was lost is put back.
    """

    def __init__(self, games: Sequence[ScheduledGame]) -> None:
        self.pending = list(games)
        self.playing: dict[int, tuple[str, ...]] = {}  # table -> the group it plays now
        self._changed = asyncio.Event()

    def take(self, table: int, bots: frozenset[str]) -> ScheduledGame | None:
        self.playing.pop(table, None)
        if not self.pending:
            return None
        elsewhere = set(self.playing.values())

        def preference(i: int) -> tuple[int, bool, int]:
            group = self.pending[i].group
            return len(bots.intersection(group)), group not in elsewhere, -i

        game = self.pending.pop(max(range(len(self.pending)), key=preference))
        self.playing[table] = game.group
        return game

    async def next(self, table: int, bots: frozenset[str]) -> ScheduledGame | None:
        """The table's next game; None once every game is finished. While none is left to start but
        others are in play, it waits: one of them may be put back."""
        while (game := self.take(table, bots)) is None and self.playing:
            self._changed.clear()
            await self._changed.wait()
        return game

    def finish(self, table: int) -> None:
        """The table's game is over (or, stopping early, the table takes no more)."""
        self.playing.pop(table, None)
        self._changed.set()

    def put_back(self, table: int, game: ScheduledGame) -> None:
        self.playing.pop(table, None)
        self.pending.append(game)
        self.pending.sort(key=lambda g: g.number)
        self._changed.set()

    @property
    def finished(self) -> bool:
        return not self.pending and not self.playing


class Tournament:
    """``Tournament(settings, folder, concurrency=2)``, then ``await run()``.

    ``done`` holds the result records of finished games (read from the folder
    at construction: a resumed tournament skips them); ``on_game`` is called
    with each new record. ``backend`` says where the tables run (default:
    in this process, ``LocalBackend``).
    """

    def __init__(
        self,
        settings: TournamentSettings,
        folder: RunFolder,
        *,
        concurrency: int,
        connect_timeout_s: float = 10.0,
        limits: Limits | None = None,
        sandbox: Sandbox | SandboxMode | None = SandboxMode.AUTO,
        on_game: Callable[[GameRecord], None] | None = None,
        backend: Backend | None = None,
    ) -> None:
        """``sandbox``: what each bot runs in when no ``backend`` is given (None: bare; default: one where it can
        be made, see referee/sandbox.py); the tournament folder is hidden from it."""
        if concurrency < 1:
            raise ConfigError(f"concurrency must be at least 1, got {concurrency}")
        self.settings = settings
        self.folder = folder
        self.concurrency = concurrency
        self.connect_timeout_s = connect_timeout_s
        self.limits = limits or Limits()
        self.on_game = on_game
        self.on_hand: OnHand | None = None  # called as each hand of each game is dealt (tables in this process)
        self.on_records: TableRecords | None = None  # the live view: each table's records as they happen
        if backend is None:
            backend = LocalBackend(sandbox=default_sandbox() if sandbox is SandboxMode.AUTO else sandbox)
        self.backend: Backend = backend
        self.schedule = settings.schedule()
        self.done: dict[int, GameRecord] = read_results(folder.results, self.schedule)
        # asked before each game is handed to a table: True stops the run early (games in play finish)
        self.stop_when: Callable[[], bool] | None = None

    @property
    def pending(self) -> list[ScheduledGame]:
        return [g for g in self.schedule if g.number not in self.done]

    @property
    def complete(self) -> bool:
        return len(self.done) == len(self.schedule)

    def standings(self) -> list[Standing]:
        return standings(self.settings.bot_names, [r.outcome() for r in self.done.values()])

    def head_to_head(self) -> list[Matchup]:
        """A gauntlet's candidate against each other bot (empty for a round-robin)."""
        candidate = self.settings.gauntlet
        if candidate is None:
            return []
        return head_to_head(candidate, self.settings.bot_names, [r.outcome() for r in self.done.values()])

    def summary(self) -> dict[str, Any]:
        """standings.json without its rows: what the tournament is and how far it got."""
        settings = self.settings
        return {
            "name": settings.name,
            "preset": settings.preset,
            "seed": settings.seed,
            "games_per_pairing": settings.games,
            "duplicate": settings.duplicate,
            "all_seatings": settings.all_seatings,
            "games_played": len(self.done),
            "games_scheduled": len(self.schedule),
            "complete": self.complete,
            "elo": "Bradley-Terry maximum likelihood, draws as half points, one virtual draw per pair, mean 0; "
            "elo_error_95 is 1.96 standard errors",
            **(
                {"gauntlet": settings.gauntlet, "head_to_head": [m.as_dict() for m in self.head_to_head()]}
                if settings.gauntlet is not None
                else {}
            ),
        }

    def write_standings(self) -> list[Standing]:
        """Write standings.csv and standings.json (each whole, then renamed into place); the rows."""
        rows = self.standings()
        out = io.StringIO()
        fields = list(rows[0].as_dict()) if rows else ["bot"]
        writer = csv.DictWriter(out, fieldnames=["rank", *fields], lineterminator="\n")
        writer.writeheader()
        for rank, row in enumerate(rows, start=1):
            writer.writerow({"rank": rank, **row.as_dict()})
        write_atomically(self.folder.standings_csv, out.getvalue())
        ranked = [{"rank": k, **r.as_dict()} for k, r in enumerate(rows, start=1)]
        write_json(self.folder.standings_json, {**self.summary(), "standings": ranked})
        return rows

    async def run(self) -> None:
        """Play every game not yet done; on any way out, every table is closed (its bots shut down).

        TablesError when a table fails, or when every table was lost with games left to play.
        """
        pending = self.pending
        if not pending:
            return
        self.folder.games.mkdir(parents=True, exist_ok=True)
        self.folder.bots.mkdir(parents=True, exist_ok=True)
        results = ResultsWriter(self.folder.results)
        queue = _Queue(pending)
        count = min(self.concurrency, len(pending))
        tasks: set[asyncio.Task[None]] = set()
        reason = "tournament interrupted"
        self.backend.on_hand = self.on_hand
        if self.on_records is not None:
            self.backend.on_records = self.on_records
        try:
            tables = await self.backend.open(
                self.settings,
                self.folder.path,
                range(1, count + 1),
                limits=self.limits,
                connect_timeout_s=self.connect_timeout_s,
            )
            tasks = {asyncio.create_task(self._serve(table, queue, results)) for table in tables}
            running = set(tasks)
            while running and not queue.finished:
                ended, running = await asyncio.wait(running, return_when=asyncio.FIRST_COMPLETED)
                for task in ended:
                    task.result()  # a table's failure ends the tournament
            if not queue.finished and not self._stopping():
                raise TablesError(f"every table was lost; {len(self.pending)} games are left to play (--resume)")
            reason = "tournament finished"
        finally:
            for task in tasks:  # tables still waiting for a replacement when the last game ended
                task.cancel()
            await asyncio.gather(*tasks, return_exceptions=True)
            try:
                await self.backend.close(reason)
            finally:
                results.close()

    def _stopping(self) -> bool:
        return self.stop_when is not None and self.stop_when()

    async def _serve(self, table: Table | None, queue: _Queue, results: ResultsWriter) -> None:
        backend = self.backend
        bots: frozenset[str] = frozenset()
        while table is not None:
            try:
                await table.ready()
            except TableLost as exc:
                log.warning("table lost before it played", table=table.number, why=str(exc))
                table = await backend.replace(table)
                continue
            if self._stopping():
                queue.finish(table.number)
                return
            game = await queue.next(table.number, bots)
            if game is None:
                return
            try:
                played = await table.play(game)
            except TableLost as exc:
                log.warning("table lost, its game is played again", table=table.number, game=game.game_id, why=str(exc))
                queue.put_back(table.number, game)
                table, bots = await backend.replace(table), frozenset()
                continue
            if played.log is not None or played.outputs:  # off the event loop: other tables' bots are on the clock
                await asyncio.to_thread(self._keep, game, played)
            await results.append(played.record)
            self.done[game.number] = played.record
            queue.finish(table.number)
            bots = frozenset(game.group)
            if self.on_game is not None:
                self.on_game(played.record)

    def _keep(self, game: ScheduledGame, played: PlayedGame) -> None:
        """Put in the folder what a table that does not write there handed back: the log, the bots' output."""
        for name, data in played.outputs.items():
            with (self.folder.bots / name).open("ab") as out:
                out.write(data)
        if played.log is not None:
            write_atomically(self.folder.log(game.game_id), played.log, sync=True, suffix=PART)
