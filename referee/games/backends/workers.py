"""Tables spread over worker processes on this machine (``arena tournament --workers N``).

Each worker is ``python -m referee.games.backends.workers``: a referee
of its own (a gRPC server, its own event loop, so its own core) running some
of the tables, writing their game logs and bot output straight into the
tournament folder. The arena process (the driver) keeps the queue and the
results file; it talks to a worker over the worker's stdin and stdout, one
JSON object a line:

    driver -> worker   {"settings": {...}, "folder": "...", "tables": [1, 3], "limits": {...},
                        "connect_timeout_s": 10.0, "log_level": "warning"}     first line
                       {"table": 1, "game": {"number": 7, ...}}                play game 7 on table 1
                       {"close": "tournament finished"}                        then stdin is closed
    worker -> driver   {"ready": true}                                         its server is up
                       {"table": 1, "record": {...}}                           game over, log in place
                       {"table": 1, "error": "..."}                            the game could not be played
                       {"table": 1, "live": [...]}                             records of the game in play, every
                                                                               card shown (only with "live": true
                                                                               in the first line: the live view)

A worker runs in a session of its own (the terminal's Ctrl-C reaches the
driver only, which closes the workers in order) and is killed by the kernel
when the driver dies (PR_SET_PDEATHSIG), as its bots are when it dies: no
process outlives the arena, even after kill -9. A worker that dies anyway
loses its tables; their games in play go back to the queue, for the others.
"""

from __future__ import annotations

import asyncio
import contextlib
import dataclasses
import json
import os
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import structlog

from referee.bots import die_with_parent
from referee.errors import ConfigError
from referee.games.backends import HostedTable, Table, TableLost, TablesError
from referee.games.backends.local import cpu_count
from referee.games.results import GameRecord
from referee.games.scheduled import ScheduledGame
from referee.games.settings import GameSettings
from referee.games.tables import PlayedGame, TableHost, TableRecords
from referee.logging import configure
from referee.match import OnHand
from referee.server import Limits

log = structlog.get_logger("referee.games.workers")

_LINE_LIMIT = 64 * 1024 * 1024  # a result record is small; this is only a bound
_CLOSE_WAIT_S = 10.0  # for a worker to shut its bots down before it is killed
_LIVE_BATCH_S = 0.05  # a worker sends the live view the records of this long in one message


def default_workers(tables: int) -> int:
    """Worker processes when the user does not say: one per two CPUs (its bots need the other), at most one per
    table."""
    return max(1, min(tables, cpu_count() // 2))


class _Worker:
    """The driver's side of one worker process."""

    def __init__(self, index: int, tables: Sequence[int], on_records: TableRecords | None = None) -> None:
        self.index = index
        self.on_records = on_records
        self.tables = list(tables)
        self.proc: asyncio.subprocess.Process | None = None
        self._waiting: dict[int, asyncio.Future[dict[str, Any]]] = {}
        self._ready: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        self._reader: asyncio.Task[None] | None = None
        self.gone = ""  # why the worker is gone, once it is

    async def start(self, init: dict[str, Any]) -> None:
        self.proc = await asyncio.create_subprocess_exec(
            sys.executable,
            "-m",
            "referee.games.backends.workers",
            stdin=asyncio.subprocess.PIPE,
            stdout=asyncio.subprocess.PIPE,
            start_new_session=True,  # Ctrl-C on the terminal goes to the driver, which closes us in order
            preexec_fn=die_with_parent,  # forked from the event loop's (main) thread, which lives as long as the driver
            limit=_LINE_LIMIT,
        )
        self._reader = asyncio.create_task(self._read())
        self._send({**init, "tables": self.tables})
        await self._ready
        log.info("worker ready", worker=self.index, pid=self.proc.pid, tables=self.tables)

    def _send(self, message: dict[str, Any]) -> None:
        assert self.proc is not None and self.proc.stdin is not None
        if self.gone:
            raise TableLost(self.gone)
        self.proc.stdin.write((json.dumps(message) + "\n").encode())

    async def _read(self) -> None:
        assert self.proc is not None and self.proc.stdout is not None
        try:
            while line := await self.proc.stdout.readline():
                message = json.loads(line)
                if message.get("ready"):
                    self._ready.set_result(None)
                    continue
                if "live" in message:
                    if self.on_records is not None:
                        self.on_records(message["table"], message["live"])
                    continue
                waiting = self._waiting.pop(message["table"], None)
                if waiting is not None and not waiting.done():
                    waiting.set_result(message)
        finally:
            code = await self.proc.wait()
            self.gone = f"worker process {self.proc.pid} exited with code {code}"
            unanswered: list[asyncio.Future[None] | asyncio.Future[dict[str, Any]]] = [self._ready]
            unanswered += self._waiting.values()
            for fut in unanswered:
                if not fut.done():
                    fut.set_exception(TableLost(self.gone))
            self._waiting.clear()

    async def play(self, table: int, game: ScheduledGame) -> PlayedGame:
        fut = asyncio.get_running_loop().create_future()
        self._waiting[table] = fut
        self._send({"table": table, "game": game.to_json()})
        message = await fut
        if "error" in message:
            raise TablesError(f"table {table}, game {game.game_id}: {message['error']}")
        return PlayedGame(GameRecord.from_json(message["record"]))

    async def close(self, reason: str) -> None:
        proc = self.proc
        if proc is None:
            return
        if proc.returncode is None and proc.stdin is not None and not self.gone:
            with contextlib.suppress(ConnectionError):
                self._send({"close": reason})
                proc.stdin.close()
        try:
            await asyncio.wait_for(proc.wait(), _CLOSE_WAIT_S)
        except TimeoutError:
            log.warning("worker did not stop, killing it", worker=self.index, pid=proc.pid)
            proc.kill()
            await proc.wait()
        if self._reader is not None:
            await asyncio.gather(self._reader, return_exceptions=True)


class WorkerBackend:
    """``WorkerBackend(workers)``: the tables dealt round the worker processes (table k to worker k mod n)."""

    def __init__(self, workers: int, *, log_level: str = "warning") -> None:
        if workers < 1:
            raise ConfigError(f"workers must be at least 1, got {workers}")
        self.workers = workers
        self.log_level = log_level
        self.on_records: TableRecords | None = None  # the live view's feed (see ``Backend.on_records``)
        self.on_hand: OnHand | None = None  # not called: the hands are dealt in the worker processes
        self._running: list[_Worker] = []

    def default_tables(self) -> int:
        return cpu_count()

    def describe(self, tables: int) -> str:
        return f"in {min(self.workers, tables)} worker processes"

    def release(self) -> None:
        return None  # the workers end with their tables (``close``)

    async def open(
        self,
        settings: GameSettings,
        folder: Path,
        numbers: Sequence[int],
        *,
        limits: Limits,
        connect_timeout_s: float,
    ) -> list[Table]:
        numbers = list(numbers)
        count = min(self.workers, len(numbers))
        init = {
            "settings": settings.record(),
            "folder": str(folder.resolve()),
            "limits": dataclasses.asdict(limits),
            "connect_timeout_s": connect_timeout_s,
            "log_level": self.log_level,
            "live": self.on_records is not None,
        }
        self._running = [_Worker(k, numbers[k::count], self.on_records) for k in range(count)]
        try:
            await asyncio.gather(*(w.start(init) for w in self._running))
        except TableLost as exc:
            raise TablesError(f"a worker process did not start: {exc} (its error is above)") from None
        return [HostedTable(w, n) for w in self._running for n in w.tables]

    async def replace(self, table: Table) -> Table | None:
        return None  # a worker that died is not started again: the others play its games

    async def close(self, reason: str) -> None:
        await asyncio.gather(*(w.close(reason) for w in self._running))


# ------------------------------------------------------------ the worker process


async def _serve_driver(protocol_out: int) -> None:
    loop = asyncio.get_running_loop()
    reader = asyncio.StreamReader(limit=_LINE_LIMIT)
    await loop.connect_read_pipe(lambda: asyncio.StreamReaderProtocol(reader), sys.stdin)

    def send(message: dict[str, Any]) -> None:
        os.write(protocol_out, (json.dumps(message) + "\n").encode())

    init = json.loads(await reader.readline())
    configure(init["log_level"])
    settings = GameSettings.from_record(init["settings"], "the driver's settings")

    # the live view's records, sent together every _LIVE_BATCH_S (a message a decision would cost the tables)
    waiting: dict[int, list[dict[str, Any]]] = {}

    def send_live() -> None:
        for table, records in waiting.items():
            send({"table": table, "live": records})
        waiting.clear()

    def live(table: int, records: list[dict[str, Any]]) -> None:
        if not waiting:
            loop.call_later(_LIVE_BATCH_S, send_live)
        waiting.setdefault(table, []).extend(records)

    host = TableHost(
        settings,
        Path(init["folder"]),
        init["tables"],
        limits=Limits(**init["limits"]),
        connect_timeout_s=init["connect_timeout_s"],
        sandbox=settings.sandbox,
        on_records=live if init.get("live") else None,
    )
    playing: set[asyncio.Task[None]] = set()

    async def play(table: int, game: ScheduledGame) -> None:
        try:
            played = await host.play(table, game)
        except Exception as exc:
            send({"table": table, "error": f"{type(exc).__name__}: {exc}"})
        else:
            send_live()  # the game's last records before its result
            send({"table": table, "record": played.record.to_json()})

    reason = "the tournament stopped"
    try:
        await host.start()
        send({"ready": True})
        while line := await reader.readline():
            message = json.loads(line)
            if "close" in message:
                reason = message["close"]
                break
            task = asyncio.create_task(play(message["table"], ScheduledGame.from_json(message["game"])))
            playing.add(task)
            task.add_done_callback(playing.discard)
    finally:
        for task in list(playing):
            task.cancel()
        await asyncio.gather(*playing, return_exceptions=True)
        await host.close(reason)


def main() -> None:
    # stdout is the protocol: anything else printed goes to stderr
    protocol_out = os.dup(1)
    os.dup2(2, 1)
    with contextlib.suppress(KeyboardInterrupt):
        asyncio.run(_serve_driver(protocol_out))


if __name__ == "__main__":
    main()
