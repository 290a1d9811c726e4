"""Every table in the arena process: one referee, one event loop (the default, and ``--workers 1``)."""

from __future__ import annotations

import os
from collections.abc import Sequence
from pathlib import Path

from referee.games.backends import HostedTable, Table
from referee.games.settings import GameSettings
from referee.games.tables import TableHost, TableRecords
from referee.match import OnHand
from referee.sandbox import Sandbox, SandboxMode
from referee.server import Limits


def cpu_count() -> int:
    """CPUs this process may run on."""
    try:
        return len(os.sched_getaffinity(0))
    except AttributeError:  # not Linux
        return os.cpu_count() or 1


class LocalBackend:
    """``sandbox``: what the bots run in (see ``TableHost``); ``on_hand`` is called as each hand is dealt."""

    def __init__(
        self, *, sandbox: Sandbox | SandboxMode | None = SandboxMode.AUTO, on_hand: OnHand | None = None
    ) -> None:
        self.host: TableHost | None = None
        self.sandbox = sandbox
        self.on_hand = on_hand
        self.on_records: TableRecords | None = None  # the live view's feed (see ``Backend.on_records``)

    def default_tables(self) -> int:
        return cpu_count()

    def describe(self, tables: int) -> str:
        return ""

    def release(self) -> None:
        return None

    async def open(
        self,
        settings: GameSettings,
        folder: Path,
        numbers: Sequence[int],
        *,
        limits: Limits,
        connect_timeout_s: float,
    ) -> list[Table]:
        self.host = TableHost(
            settings,
            folder,
            numbers,
            limits=limits,
            connect_timeout_s=connect_timeout_s,
            sandbox=self.sandbox,
            on_hand=self.on_hand,
            on_records=self.on_records,
        )
        await self.host.start()
        return [HostedTable(self.host, n) for n in numbers]

    async def replace(self, table: Table) -> Table | None:
        return None  # a table in this process is never lost without the process

    async def close(self, reason: str) -> None:
        if self.host is not None:
            await self.host.close(reason)
