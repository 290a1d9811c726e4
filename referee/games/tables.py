"""Tables: one referee (a gRPC server) and the tables it runs, playing a tournament's games one by one.

A ``TableHost`` is what runs wherever tables run: in the arena process
itself, in a worker process on the same machine (``--workers``), or in a Ray
actor on a node of a cluster (``--ray``). It is told which game each table
plays next and hands back a ``PlayedGame``: the result record and, when the
host does not write into the tournament folder itself (``ship=True``: a Ray
node), the game's log and the bots' new output, for the driver to write.

A table keeps its bot processes from game to game, as chess tournament
managers do: when its next game has the same bots they are only reseated, a
bot that leaves the table is shut down and one that joins is started, and
``BotPool.ready`` restarts a bot that crashed.
"""

from __future__ import annotations

import asyncio
import functools
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import structlog

from referee.bots import BotCommand, BotPool
from referee.engine.rules import Rules
from referee.gamelog import LogWriter, match_end_record, match_start_record
from referee.games.results import GameRecord
from referee.games.scheduled import ScheduledGame
from referee.games.settings import GameSettings
from referee.match import OnHand, play_game
from referee.runfolder import PART, RunFolder, log_name, put_in_place
from referee.sandbox import Sandbox, SandboxMode, resolve
from referee.server import ArenaServer, Limits, Player

log = structlog.get_logger("referee.games")

# The live view's feed: (table number, records of its game in play as they happen, every card shown). A game
# starts with its match_start and game_start records (see ``referee.match.OnRecords``).
TableRecords = Callable[[int, list[dict[str, Any]]], None]


@dataclass(frozen=True)
class PlayedGame:
    """A finished game, as a table hands it back to the driver."""

    record: GameRecord  # the game's line of results.jsonl
    # the game's log, when the host does not write into the tournament folder (else it is in games/ already)
    log: bytes | None = None
    # what the bots printed since the table's last game, by file name under bots/ (likewise)
    outputs: dict[str, bytes] = field(default_factory=dict)

    def as_dict(self) -> dict[str, Any]:
        """Plain data, to cross to the driver (a Ray node's answer)."""
        return {"record": self.record.to_json(), "log": self.log, "outputs": self.outputs}

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> PlayedGame:
        return cls(GameRecord.from_json(data["record"]), data.get("log"), data.get("outputs") or {})


class _Table:
    """One table: a bot pool and the processes seated at it, by role."""

    def __init__(
        self,
        number: int,
        server: ArenaServer,
        bots_dir: Path,
        settings: GameSettings,
        connect_timeout_s: float,
        sandbox: Sandbox | None,
    ) -> None:
        self.number = number
        self.pool = BotPool(
            server,
            output_dir=bots_dir,
            output_stem=f"table{number}",
            seed=settings.seed,  # the same for every table: a role's seed does not depend on its table
            connect_timeout_s=connect_timeout_s,
            sandbox=sandbox,
        )
        self.commands: dict[str, BotCommand] = {b.name: b for b in settings.bots}
        self.seated: dict[tuple[str, int], Player] = {}

    async def seat(self, roles: Sequence[tuple[str, int]]) -> list[Player]:
        """The players for these roles (per seat): kept, started, or shut down when not needed."""
        leaving = [p for role, p in self.seated.items() if role not in roles]
        if leaving:
            await self.pool.close("the table moves on to other bots", leaving)
            self.seated = {role: p for role, p in self.seated.items() if role in roles}
        for role in roles:
            if role not in self.seated:
                bot, k = role
                self.seated[role] = self.pool.add(f"{bot}.{k}", self.commands[bot])
        return [self.seated[role] for role in roles]


class TableHost:
    """``TableHost(settings, folder_path, tables=[1, 2])``; ``await start()``, ``await play(1, game)``,
    ``await close()``.

    ``sandbox``: what the bots run in: a ``Sandbox``, None (bare), or a mode
    to resolve on this host (workers and Ray nodes pass ``settings.sandbox``).
    The folder is hidden from the bots either way.

    ``folder`` is the tournament folder, or with ``ship`` a scratch folder of
    this host's own: the log of each game and the bots' output are then read
    back and handed over in the ``PlayedGame`` (and the log removed here).
    """

    def __init__(
        self,
        settings: GameSettings,
        folder: Path,
        tables: Sequence[int],
        *,
        limits: Limits | None = None,
        connect_timeout_s: float = 10.0,
        ship: bool = False,
        sandbox: Sandbox | SandboxMode | None = None,
        on_hand: OnHand | None = None,
        on_records: TableRecords | None = None,
    ) -> None:
        if sandbox is None or isinstance(sandbox, Sandbox):
            box = sandbox
        else:  # a mode: resolved on this host (a worker, a Ray node): `required` raises SandboxUnavailable here
            box = resolve(sandbox)[0]
        box = None if box is None else box.with_hidden(folder)  # the bots never see the tournament folder
        self.on_hand = on_hand
        self.on_records = on_records  # the live view's feed, when one watches
        self.settings = settings
        self.folder = RunFolder(folder)
        self.games = self.folder.games
        self.bots = self.folder.bots
        self.ship = ship
        self.server = ArenaServer(limits=limits or Limits(), tcp=False)  # every bot is launched: seat sockets
        self.tables = {n: _Table(n, self.server, self.bots, settings, connect_timeout_s, box) for n in tables}
        self._shipped: dict[Path, int] = {}  # bot output file -> bytes already handed over

    async def start(self) -> None:
        self.games.mkdir(parents=True, exist_ok=True)
        self.bots.mkdir(parents=True, exist_ok=True)
        await self.server.start()

    async def close(self, reason: str) -> None:
        """Shut down every bot process and the server."""
        try:
            await asyncio.gather(*(table.pool.close(reason) for table in self.tables.values()))
        finally:
            await self.server.stop(0.5)

    async def play(self, table_number: int, game: ScheduledGame) -> PlayedGame:
        table = self.tables[table_number]
        settings, rules = self.settings, self.settings.rules
        players = await table.seat(game.roles(rules))
        absent = await table.pool.ready(players)
        final = self.folder.log(game.game_id)
        part = final.with_name(final.name + PART)
        part.unlink(missing_ok=True)  # what a killed run left of this game
        writer = LogWriter(part)
        watch = self.on_records
        shown = None if watch is None else functools.partial(watch, table_number)
        try:
            start = _start_record(settings, rules, game)
            writer.write(start)
            if shown is not None:
                shown([start])
            result = await play_game(
                players,
                rules=rules,
                preset=settings.preset,
                game=1,
                game_id=game.game_id,
                seed=game.seed,
                clock=settings.clock,
                policy=settings.on_fault,
                log=writer,
                absent=absent,
                on_hand=self.on_hand,
                on_records=shown,
            )
            writer.write_last(match_end_record(games=1, results=[result.record()]))
            if not self.ship:
                await asyncio.to_thread(writer.sync)
        finally:
            writer.close()
        record = GameRecord.of(game, result, rules, log_name(game.game_id))
        log.info(
            "game over",
            game=game.game_id,
            table=table_number,
            teams=list(game.teams),
            scores=list(result.scores),
            winner=result.winner,
            reason=result.reason,
        )
        if not self.ship:
            put_in_place(part, final)
            return PlayedGame(record)
        data = part.read_bytes()
        part.unlink()
        return PlayedGame(record, log=data, outputs=self._new_output())

    def _new_output(self) -> dict[str, bytes]:
        """What each bot output file gained since it was last handed over."""
        out = {}
        for path in sorted(self.bots.glob("*.stderr")):
            start = self._shipped.get(path, 0)
            with path.open("rb") as f:
                f.seek(start)
                data = f.read()
            if data:
                out[path.name] = data
                self._shipped[path] = start + len(data)
        return out


def _start_record(settings: GameSettings, rules: Rules, game: ScheduledGame) -> dict[str, Any]:
    return match_start_record(
        preset=settings.preset,
        rules=rules,
        bot_names=game.seat_names(rules),
        seed=settings.seed,
        games=1,
        move_time_ms=settings.move_time_ms,
        time_bank_ms=settings.time_bank_ms,
        on_fault=settings.on_fault.value,
    )
