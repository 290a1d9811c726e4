"""Driving tables: games handed to tables as they free up, what each table played handed to a record step.

``drive`` is the loop every long run shares (a tournament, and a ladder that
plays until told to stop): it opens the tables on a backend
(``referee.games.backends``), asks a ``GameQueue`` for each free
table's next game, puts the game's log and the bots' output in the run folder
when the table played elsewhere, and hands the result to the caller's
``record`` step, which is the one place a finished game is written down. A
table lost with its host gives its game back to the queue, and another table
plays it: none is lost, none counted twice. The loop knows neither the format
nor where the results go.
"""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable, Sequence
from typing import Protocol

import structlog

from referee.games.backends import Backend, Table, TableLost, TablesError
from referee.games.scheduled import ScheduledGame
from referee.games.settings import GameSettings
from referee.games.tables import PlayedGame
from referee.runfolder import PART, RunFolder, write_atomically
from referee.server import Limits

log = structlog.get_logger("referee.games")

Record = Callable[[ScheduledGame, PlayedGame], Awaitable[None]]  # write a finished game down


class GameQueue(Protocol):
    """Where tables take their games from."""

    async def next(self, table: int, bots: frozenset[str]) -> ScheduledGame | None:
        """The next game for ``table`` (which holds processes of ``bots``); None when the run has no more for it.
        May wait (for games in play to end, when the next games depend on them)."""
        ...

    def finish(self, table: int) -> None:
        """The table's game is over and recorded (or, stopping early, the table takes no more)."""
        ...

    def put_back(self, table: int, game: ScheduledGame) -> None:
        """The table was lost with ``game`` in play: the game is to be played again."""
        ...

    @property
    def finished(self) -> bool:
        """Every game there is to play has been played."""
        ...

    def left(self) -> int:
        """Games known to be left to play (for messages)."""
        ...


class Queue:
    """The games not yet started, handed to tables so that bot processes are started as rarely as possible.

    A table takes the first game (in order of number) that keeps most of its
    bots; among those, one of a group no other table is playing, so that
    tables spread over the pairings instead of all starting the same bots.
    A game whose table was lost is put back; ``extend`` adds games (the next
    round of a format played in rounds).
    """

    def __init__(self, games: Sequence[ScheduledGame] = ()) -> None:
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
        others are in play, it waits: one of them may be put back, or their results fix more games."""
        while (game := self.take(table, bots)) is None and self.playing:
            self._changed.clear()
            await self._changed.wait()
        return game

    def extend(self, games: Sequence[ScheduledGame]) -> None:
        self.pending.extend(games)
        self.pending.sort(key=lambda g: g.number)
        self._changed.set()

    def finish(self, table: int) -> None:
        self.playing.pop(table, None)
        self._changed.set()

    def put_back(self, table: int, game: ScheduledGame) -> None:
        self.playing.pop(table, None)
        self.extend([game])

    @property
    def finished(self) -> bool:
        return not self.pending and not self.playing

    def left(self) -> int:
        return len(self.pending) + len(self.playing)


async def drive(
    backend: Backend,
    settings: GameSettings,
    folder: RunFolder,
    queue: GameQueue,
    *,
    tables: int,
    record: Record,
    limits: Limits,
    connect_timeout_s: float,
    stopping: Callable[[], bool] = lambda: False,
    done: str = "tournament finished",
) -> None:
    """Play the queue's games on ``tables`` tables until it is finished (or ``stopping()`` says so before a
    game is handed out: games in play finish). On any way out every table is closed (its bots shut down).

    TablesError when a table fails, or when every table was lost with games left to play.
    """
    folder.games.mkdir(parents=True, exist_ok=True)
    folder.bots.mkdir(parents=True, exist_ok=True)
    tasks: set[asyncio.Task[None]] = set()
    reason = "interrupted"
    try:
        opened = await backend.open(
            settings, folder.path, range(1, tables + 1), limits=limits, connect_timeout_s=connect_timeout_s
        )
        tasks = {asyncio.create_task(_serve(backend, folder, table, queue, record, stopping)) for table in opened}
        running = set(tasks)
        while running and not queue.finished:
            ended, running = await asyncio.wait(running, return_when=asyncio.FIRST_COMPLETED)
            for task in ended:
                task.result()  # a table's failure ends the run
        if not queue.finished and not stopping():
            raise TablesError(f"every table was lost; {queue.left()} games are left to play (--resume)")
        reason = done
    finally:
        for task in tasks:  # tables still waiting for a replacement when the last game ended
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)
        await backend.close(reason)


async def _serve(
    backend: Backend,
    folder: RunFolder,
    table: Table | None,
    queue: GameQueue,
    record: Record,
    stopping: Callable[[], bool],
) -> None:
    bots: frozenset[str] = frozenset()
    while table is not None:
        try:
            await table.ready()
        except TableLost as exc:
            log.warning("table lost before it played", table=table.number, why=str(exc))
            table = await backend.replace(table)
            continue
        if stopping():
            queue.finish(table.number)
            return
        game = await queue.next(table.number, bots)
        if game is None:
            return
        if stopping():  # decided while this table waited for its game (the game that ended it was the last)
            queue.put_back(table.number, game)
            return
        try:
            played = await table.play(game)
        except TableLost as exc:
            log.warning("table lost, its game is played again", table=table.number, game=game.game_id, why=str(exc))
            queue.put_back(table.number, game)
            table, bots = await backend.replace(table), frozenset()
            continue
        if played.log is not None or played.outputs:  # off the event loop: other tables' bots are on the clock
            await asyncio.to_thread(_keep, folder, game, played)
        await record(game, played)
        queue.finish(table.number)
        bots = frozenset(game.group)


def _keep(folder: RunFolder, game: ScheduledGame, played: PlayedGame) -> None:
    """Put in the folder what a table that does not write there handed back: the log, the bots' output."""
    for name, data in played.outputs.items():
        with (folder.bots / name).open("ab") as out:
            out.write(data)
    if played.log is not None:
        write_atomically(folder.log(game.game_id), played.log, sync=True, suffix=PART)
