"""Where a run's tables run (a tournament's, an SPRT's, a ladder's): one interface, three backends.

The driver (``referee.games.driver``) hands games to tables and the run writes
what comes back; it does not know where a table runs. A backend opens the
tables, replaces one whose host was lost, and closes them; it says where
they run (``describe``), and lets go of what it holds beyond its tables
(``release``: a Ray cluster joined). Which backend a run gets is decided
in one place (``referee.games.placement``), where runs are opened (``referee.opening``):

- ``local.LocalBackend``: every table in the arena process (one referee);
- ``workers.WorkerBackend``: tables spread over worker processes on this
  machine, a referee in each (``--workers N``);
- ``cluster.RayBackend``: each table in a Ray actor, on whichever node of a
  Ray cluster has room (``--ray``).

Every table plays through ``referee.games.tables.TableHost``.
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import Protocol

from referee.errors import ArenaError
from referee.games.scheduled import ScheduledGame
from referee.games.settings import GameSettings
from referee.games.tables import PlayedGame, TableRecords
from referee.match import OnHand
from referee.server import Limits


class TableLost(Exception):
    """The table's host is gone (a worker process died, a Ray node was lost): the game is to be played again."""


class TablesError(ArenaError, RuntimeError):
    """A table failed in a way playing again will not mend; the message is one line."""


class Table(Protocol):
    number: int

    async def ready(self) -> None:
        """Wait until the table can play (a Ray actor waits for a node with a CPU free); TableLost if it never can."""
        ...

    async def play(self, game: ScheduledGame) -> PlayedGame:
        """Play the game; TableLost when the table's host went away meanwhile."""
        ...


class TablePlayer(Protocol):
    async def play(self, number: int, game: ScheduledGame, /) -> PlayedGame:
        """Play the game at table ``number``."""
        ...


class HostedTable:
    """One table of a host that plays for several (a ``TableHost`` in this process, a worker process):
    ready from the start, its games played by the host."""

    def __init__(self, host: TablePlayer, number: int) -> None:
        self.host = host
        self.number = number

    async def ready(self) -> None:
        return None  # the host was started by the backend's ``open``

    async def play(self, game: ScheduledGame) -> PlayedGame:
        return await self.host.play(self.number, game)


class Backend(Protocol):
    # Set before ``open`` to watch the games in play (the live view): called with each table's records as they
    # happen, every card shown. None: nothing is sent, nothing costs.
    on_records: TableRecords | None
    # Set before ``open``: called as each hand of each game is dealt, where the tables run in this process (the
    # live line "game g0003 runs long"); elsewhere nothing is called.
    on_hand: OnHand | None

    def default_tables(self) -> int:
        """Tables to run when the user does not say: as many as there are CPUs for them."""
        ...

    def describe(self, tables: int) -> str:
        """Where ``tables`` tables run, as a run's start line says it after "N table(s)": "in 2 worker
        processes", "on Ray, 3 node(s), 24 CPUs"; "" for this process, the usual place, not worth a word."""
        ...

    def release(self) -> None:
        """Let go of what the backend holds beyond its tables, once the run is over (a Ray cluster it joined
        or started); ``close`` closes the tables themselves."""
        ...

    async def open(
        self,
        settings: GameSettings,
        folder: Path,
        numbers: Sequence[int],
        *,
        limits: Limits,
        connect_timeout_s: float,
    ) -> list[Table]:
        """Tables with these numbers for the tournament in ``folder`` (each ready to play once ``ready()`` returns)."""
        ...

    async def replace(self, table: Table) -> Table | None:
        """A table in place of a lost one, or None when the backend has no more room."""
        ...

    async def close(self, reason: str) -> None:
        """Shut every table down (its bots and referee); safe to call after a failed ``open``."""
        ...
