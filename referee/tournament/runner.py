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

The games come from the settings' format (``referee.tournament.schedule``):
its plan is asked again whenever no game is left to start, so a format
played in rounds adds the next round once the last one's results are in,
and the runner never learns which format it runs. The loop over the tables
is ``referee.tournament.driver.drive``; a game is recorded only here: its log
is put in place, then its result line appended. A table lost with its host
(a lost Ray node) gives its game back to the queue, and another table plays
it: none is lost, none counted twice.

The folder is a run folder (``referee.runfolder``): settings.json written
once at the start, results.jsonl (one fsync'd line per finished game, see
results.py), the games' logs in games/ (``g0001.jsonl.part`` while one is
played), what each table's bots printed in bots/, and standings.csv and
standings.json written at the end of a run.
"""

from __future__ import annotations

import csv
import io
from collections.abc import Callable
from typing import Any

from referee.errors import ConfigError
from referee.match import OnHand
from referee.runfolder import RunFolder, write_atomically, write_json
from referee.sandbox import Sandbox, SandboxMode, default_sandbox
from referee.server import Limits
from referee.tournament.backends import Backend
from referee.tournament.backends.local import LocalBackend
from referee.tournament.driver import Queue, drive
from referee.tournament.gauntlet import Matchup, head_to_head
from referee.tournament.results import GameRecord, ResultsWriter, read_results
from referee.tournament.schedule import Format, Plan, ScheduledGame
from referee.tournament.settings import TournamentSettings
from referee.tournament.standings import RANKING, Standing, standings
from referee.tournament.tables import PlayedGame, TableRecords


class Tournament:
    """``Tournament(settings, folder, concurrency=2)``, then ``await run()``.

    ``done`` holds the result records of finished games (read from the folder
    at construction: a resumed tournament skips them); ``on_game`` is called
    with each new record. ``backend`` says where the tables run (default:
    in this process, ``LocalBackend``); ``format`` how the games follow from the
    results (default: the settings' format).
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
        format: Format | None = None,
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
        self.format: Format = settings.format() if format is None else format
        self.done: dict[int, GameRecord] = read_results(folder.results, self.format)
        self.plan: Plan = self._plan()
        # asked before each game is handed to a table: True stops the run early (games in play finish)
        self.stop_when: Callable[[], bool] | None = None

    def _plan(self) -> Plan:
        return self.format.plan({n: r.outcome() for n, r in self.done.items()})

    @property
    def schedule(self) -> tuple[ScheduledGame, ...]:
        """The games fixed so far (all of them, for a format not played in rounds)."""
        return self.plan.games

    @property
    def expected(self) -> int:
        """The games the tournament is expected to play in all."""
        return self.plan.expected

    @property
    def ranking(self) -> str:
        """How the standings are ordered, in words."""
        return self.plan.ranking or RANKING

    @property
    def pending(self) -> list[ScheduledGame]:
        """The games fixed so far and not yet played."""
        return [g for g in self.schedule if g.number not in self.done]

    @property
    def complete(self) -> bool:
        return self.plan.final and len(self.done) == len(self.schedule)

    def standings(self) -> list[Standing]:
        """The rows, in the format's order where it ranks the bots itself (with its figures), else by Elo."""
        plan = self.plan
        return standings(
            self.settings.bot_names, [r.outcome() for r in self.done.values()], order=plan.order, columns=plan.columns
        )

    def head_to_head(self) -> list[Matchup]:
        """A gauntlet's candidate against each other bot (empty for a round-robin)."""
        candidate = self.settings.gauntlet
        if candidate is None:
            return []
        return head_to_head(candidate, self.settings.bot_names, [r.outcome() for r in self.done.values()])

    def summary(self) -> dict[str, Any]:
        """standings.json without its rows: what the tournament is and how far it got."""
        settings, plan = self.settings, self.plan
        return {
            "name": settings.name,
            "preset": settings.preset,
            "seed": settings.seed,
            **settings.describe(plan),
            "games_per_pairing": settings.games,
            "duplicate": settings.duplicate,
            "all_seatings": settings.all_seatings,
            "games_played": len(self.done),
            "games_scheduled": self.expected,
            "complete": self.complete,
            "ranking": self.ranking,
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
        """Play every game not yet done (and, round after round, those their results fix); on any way out,
        every table is closed (its bots shut down).

        TablesError when a table fails, or when every table was lost with games left to play.
        """
        pending = self.pending
        if not pending:
            return
        self.backend.on_hand = self.on_hand
        if self.on_records is not None:
            self.backend.on_records = self.on_records
        queue = Queue(pending)
        results = ResultsWriter(self.folder.results)

        async def record(game: ScheduledGame, played: PlayedGame) -> None:
            await results.append(played.record)
            self.done[game.number] = played.record
            if not queue.pending:  # the last game fixed so far is in play or done: ask the format again
                known = len(self.plan.games)
                self.plan = self._plan()
                queue.extend(self.plan.games[known:])
            if self.on_game is not None:
                self.on_game(played.record)

        try:
            await drive(
                self.backend,
                self.settings,
                self.folder,
                queue,
                tables=min(self.concurrency, self.expected - len(self.done)),
                record=record,
                limits=self.limits,
                connect_timeout_s=self.connect_timeout_s,
                stopping=self._stopping,
            )
        finally:
            results.close()

    def _stopping(self) -> bool:
        return self.stop_when is not None and self.stop_when()
