"""Running a tournament: parallel tables on one referee, one folder, resumable.

One ``ArenaServer`` serves every table; each table has its own ``BotPool``
and plays one game at a time with ``referee.match.play_game`` (the match
driver of ``arena match``). A table keeps its bot processes from game to
game, as chess tournament managers do: when its next game has the same bots
they are only reseated, a bot that leaves the table is shut down and one that
joins is started, and ``BotPool.ready`` restarts a bot that crashed.

A bot process plays a role: (bot, k), the k-th seat of its team counted
clockwise from seat 0. Its ARENA_SEED depends on the tournament's seed and
the role only, and the SDK reseeds a bot's rng from it and the game id at
every game, so a game is played the same whichever table, process or
history it gets: a resumed tournament gives the games, and so the
standings, of an uninterrupted one (for bots that do not use the clock or
remember earlier games).

The folder::

    settings.json     the settings, written once at the start
    results.jsonl     one line per finished game, fsync'd (see results.py)
    games/g0001.jsonl the log of each game (`arena replay` reads it);
                      g0001.jsonl.part while it is being played
    bots/table1.rules.0.stderr   what each table's bot processes printed
    standings.csv, standings.json  written at the end of a run
"""

from __future__ import annotations

import asyncio
import csv
import io
import json
import os
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

import structlog

from referee.bots import BotCommand, BotPool
from referee.engine.rules import Rules
from referee.gamelog import LogWriter, match_end_record, match_start_record
from referee.match import OnHand, play_game
from referee.server import ArenaServer, Limits, Player
from referee.tournament.results import ResultsWriter, outcome, read_results, result_record
from referee.tournament.schedule import ScheduledGame
from referee.tournament.settings import SettingsError, TournamentSettings
from referee.tournament.standings import Standing, standings

log = structlog.get_logger("referee.tournament")

SETTINGS_FILE = "settings.json"
RESULTS_FILE = "results.jsonl"


class TournamentFolder:
    """Where a tournament keeps everything."""

    def __init__(self, path: Path) -> None:
        self.path = path
        self.settings_path = path / SETTINGS_FILE
        self.results_path = path / RESULTS_FILE
        self.games = path / "games"
        self.bots = path / "bots"

    def holds_tournament(self) -> bool:
        return self.settings_path.exists()

    def saved_settings(self) -> TournamentSettings:
        """The settings the tournament was started with; SettingsError when there are none."""
        if not self.holds_tournament():
            raise SettingsError(f"{self.path} holds no tournament to resume (no {SETTINGS_FILE})")
        try:
            data = json.loads(self.settings_path.read_text(encoding="utf-8"))
        except (OSError, UnicodeDecodeError, json.JSONDecodeError) as exc:
            raise SettingsError(f"{self.settings_path}: cannot read it ({exc})") from None
        return TournamentSettings.from_record(data, str(self.settings_path))

    def start(self, settings: TournamentSettings) -> None:
        """Create the folder for a new tournament and save its settings."""
        if self.holds_tournament():
            raise SettingsError(
                f"{self.path} already holds a tournament: continue it with --resume, or choose another --name or --out"
            )
        if self.path.exists() and any(self.path.iterdir()):
            raise SettingsError(f"{self.path} is not empty: choose another --name or --out for a new tournament")
        self.path.mkdir(parents=True, exist_ok=True)
        _write_atomically(self.settings_path, json.dumps(settings.record(), indent=2) + "\n")

    def log_path(self, game: ScheduledGame) -> Path:
        return self.games / f"{game.game_id}.jsonl"

    def write_standings(self, rows: Sequence[Standing], summary: dict[str, Any]) -> tuple[Path, Path]:
        """standings.csv and standings.json (written whole, then renamed into place)."""
        out = io.StringIO()
        fields = list(rows[0].as_dict()) if rows else ["bot"]
        writer = csv.DictWriter(out, fieldnames=["rank", *fields], lineterminator="\n")
        writer.writeheader()
        for rank, row in enumerate(rows, start=1):
            writer.writerow({"rank": rank, **row.as_dict()})
        csv_path, json_path = self.path / "standings.csv", self.path / "standings.json"
        _write_atomically(csv_path, out.getvalue())
        document = {**summary, "standings": [{"rank": k, **r.as_dict()} for k, r in enumerate(rows, start=1)]}
        _write_atomically(json_path, json.dumps(document, indent=2) + "\n")
        return csv_path, json_path


def _write_atomically(path: Path, text: str) -> None:
    tmp = path.with_name(path.name + ".tmp")
    tmp.write_text(text, encoding="utf-8")
    os.replace(tmp, path)


class _Table:
    """One table: a bot pool and the processes seated at it, by role."""

    def __init__(
        self,
        number: int,
        server: ArenaServer,
        folder: TournamentFolder,
        settings: TournamentSettings,
        connect_timeout_s: float,
    ) -> None:
        self.number = number
        self.pool = BotPool(
            server,
            output_dir=folder.bots,
            output_stem=f"table{number}",
            seed=settings.seed,  # the same for every table: a role's seed does not depend on its table
            connect_timeout_s=connect_timeout_s,
        )
        self.commands: dict[str, BotCommand] = {b.name: b for b in settings.bots}
        self.seated: dict[tuple[str, int], Player] = {}

    @property
    def bots(self) -> frozenset[str]:
        return frozenset(bot for bot, _ in self.seated)

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


class _Queue:
    """The games not yet started, handed to tables so that bot processes are started as rarely as possible.

    A table takes the first game (in schedule order) that keeps most of its
    bots; among those, one of a group no other table is playing, so that
    tables spread over the pairings instead of all starting the same bots.
    """

    def __init__(self, games: Sequence[ScheduledGame]) -> None:
        self.pending = list(games)
        self.playing: dict[int, tuple[str, ...]] = {}  # table -> the group it plays now

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


class Tournament:
    """``Tournament(settings, folder, concurrency=2)``, then ``await run()``.

    ``done`` holds the result records of finished games (read from the folder
    at construction: a resumed tournament skips them); ``on_game`` is called
    with each new record.
    """

    def __init__(
        self,
        settings: TournamentSettings,
        folder: TournamentFolder,
        *,
        concurrency: int,
        connect_timeout_s: float = 10.0,
        limits: Limits | None = None,
        on_game: Callable[[dict[str, Any]], None] | None = None,
    ) -> None:
        if concurrency < 1:
            raise ValueError(f"concurrency must be at least 1, got {concurrency}")
        self.settings = settings
        self.folder = folder
        self.concurrency = concurrency
        self.connect_timeout_s = connect_timeout_s
        self.limits = limits or Limits()
        self.on_game = on_game
        self.on_hand: OnHand | None = None  # called as each hand of each game is dealt
        self.schedule = settings.schedule()
        self.done: dict[int, dict[str, Any]] = read_results(folder.results_path, self.schedule)
        # asked before each game is handed to a table: True stops the run early (games in play finish)
        self.stop_when: Callable[[], bool] | None = None

    @property
    def pending(self) -> list[ScheduledGame]:
        return [g for g in self.schedule if g.number not in self.done]

    @property
    def complete(self) -> bool:
        return len(self.done) == len(self.schedule)

    def standings(self) -> list[Standing]:
        return standings(self.settings.bot_names, [outcome(r) for r in self.done.values()])

    async def run(self) -> None:
        """Play every game not yet done; on any way out, every bot process is shut down."""
        pending = self.pending
        if not pending:
            return
        self.folder.games.mkdir(parents=True, exist_ok=True)
        self.folder.bots.mkdir(parents=True, exist_ok=True)
        server = ArenaServer(limits=self.limits)
        await server.start()
        results = ResultsWriter(self.folder.results_path)
        queue = _Queue(pending)
        count = min(self.concurrency, len(pending))
        tables = [_Table(k + 1, server, self.folder, self.settings, self.connect_timeout_s) for k in range(count)]
        tasks = [asyncio.create_task(self._serve(table, queue, results)) for table in tables]
        reason = "tournament interrupted"
        try:
            await asyncio.gather(*tasks)
            reason = "tournament finished"
        finally:
            for task in tasks:
                task.cancel()
            await asyncio.gather(*tasks, return_exceptions=True)
            try:
                await asyncio.gather(*(table.pool.close(reason) for table in tables))
            finally:
                await server.stop(0.5)
                results.close()

    async def _serve(self, table: _Table, queue: _Queue, results: ResultsWriter) -> None:
        while not (self.stop_when is not None and self.stop_when()) and (
            game := queue.take(table.number, table.bots)
        ) is not None:
            await self._play(table, game, results)

    async def _play(self, table: _Table, game: ScheduledGame, results: ResultsWriter) -> None:
        settings, rules = self.settings, self.settings.rules
        players = await table.seat(game.roles(rules))
        absent = await table.pool.ready(players)
        final = self.folder.log_path(game)
        part = final.with_name(final.name + ".part")
        part.unlink(missing_ok=True)  # what a killed run left of this game
        writer = LogWriter(part)
        try:
            writer.write(_start_record(settings, rules, game))
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
            )
            writer.write(match_end_record(games=1, results=[result.record()]))
            await asyncio.to_thread(writer.sync)
        finally:
            writer.close()
        os.replace(part, final)
        record = result_record(game, result, rules, final.relative_to(self.folder.path).as_posix())
        await results.append(record)
        self.done[game.number] = record
        log.info(
            "game over",
            game=game.game_id,
            table=table.number,
            teams=list(game.teams),
            scores=list(result.scores),
            winner=result.winner,
            reason=result.reason,
        )
        if self.on_game is not None:
            self.on_game(record)


def _start_record(settings: TournamentSettings, rules: Rules, game: ScheduledGame) -> dict[str, Any]:
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
