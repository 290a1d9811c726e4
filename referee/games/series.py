"""A series of games played into a run's folder: parallel tables, resumable game by game.

A tournament is a series (``referee.tournament.playing``), and an SPRT plays
one (``referee.sprt.playing``): the games come from a schedule, a pure function of
the outcomes of the games finished so far (a format played in rounds fixes
the next round once the last one's results are in), asked again whenever no
game is left to start. The loop over the tables is ``referee.games.driver.
drive``, on any backend (``referee.games.backends``): in this process, in
worker processes, on a Ray cluster. A game is recorded only here: its log is
put in place, then its result line appended (``referee.games.results``). A
table lost with its host gives its game back to the queue, and another table
plays it: none is lost, none counted twice.

A bot process plays a role: (bot, k), the k-th seat of its team counted
clockwise from seat 0. Its ARENA_SEED depends on the run's seed and the role
only, and the SDK reseeds a bot's rng from it and the game id at every game,
so a game is played the same whichever table, process, machine or history
it gets: a resumed run, or one spread over processes or machines, gives the
games of an uninterrupted one (for bots that do not use the clock or
remember earlier games).

The folder is a run folder (``referee.runfolder``): settings.json written
once at the start, results.jsonl (one fsync'd line per finished game), the
games' logs in games/ (``g0001.jsonl.part`` while one is played) and what
each table's bots printed in bots/.
"""

from __future__ import annotations

from collections.abc import Callable

from referee.errors import ConfigError
from referee.games.backends import Backend
from referee.games.backends.local import LocalBackend
from referee.games.driver import Queue, drive
from referee.games.results import GameRecord, ResultsWriter, Schedule, read_results
from referee.games.scheduled import ScheduledGame
from referee.games.settings import GameSettings
from referee.games.standings import Outcome
from referee.games.tables import PlayedGame, TableRecords
from referee.match import OnHand
from referee.runfolder import RunFolder
from referee.sandbox import Sandbox, SandboxMode, default_sandbox
from referee.server import Limits


class Series:
    """``Series(settings, folder, schedule, concurrency=2)``, then ``await run()``.

    ``done`` holds the result records of finished games (read from the folder
    at construction: a resumed run skips them); ``on_game`` is called with
    each new record. ``backend`` says where the tables run (default: in this
    process, ``LocalBackend``); ``schedule`` which games there are, given the
    outcomes so far.
    """

    def __init__(
        self,
        settings: GameSettings,
        folder: RunFolder,
        schedule: Schedule,
        *,
        concurrency: int,
        connect_timeout_s: float = 10.0,
        limits: Limits | None = None,
        sandbox: Sandbox | SandboxMode | None = SandboxMode.AUTO,
        on_game: Callable[[GameRecord], None] | None = None,
        backend: Backend | None = None,
    ) -> None:
        """``sandbox``: what each bot runs in when no ``backend`` is given (None: bare; default: one where it can
        be made, see referee/sandbox.py); the run's folder is hidden from it."""
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
        self.fixed_by = schedule
        self.done: dict[int, GameRecord] = read_results(folder.results, schedule)
        self.schedule: tuple[ScheduledGame, ...] = ()  # the games fixed so far
        self.replan()
        # asked before each game is handed to a table: True stops the run early (games in play finish)
        self.stop_when: Callable[[], bool] | None = None

    def outcomes(self) -> dict[int, Outcome]:
        """The finished games' outcomes, by number."""
        return {n: r.outcome() for n, r in self.done.items()}

    def replan(self) -> None:
        """Ask the schedule again, with the outcomes so far: a game just finished may fix more."""
        self.schedule = tuple(self.fixed_by(self.outcomes()))

    @property
    def expected(self) -> int:
        """The games the run is expected to play in all."""
        return len(self.schedule)

    @property
    def pending(self) -> list[ScheduledGame]:
        """The games fixed so far and not yet played."""
        return [g for g in self.schedule if g.number not in self.done]

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
            if not queue.pending:  # the last game fixed so far is in play or done: ask the schedule again
                known = len(self.schedule)
                self.replan()
                queue.extend(self.schedule[known:])
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
