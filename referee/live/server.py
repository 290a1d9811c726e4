"""The live view's HTTP server: the report as games end, and each table's game in play, in the browser.

It runs in the arena's own asyncio loop (aiohttp's server is asyncio from end to end: no thread, no second
loop), on 127.0.0.1 only, every address under a random key printed with the port (``/KEY/``), so that
nothing else on the machine reaches it by guessing: a bot run bare (``--sandbox off``) could otherwise read
every hand. Sandboxed bots cannot reach the machine's loopback at all (a network namespace of their own).

Pages get what changes through Server-Sent Events (``EventSource`` in the page): one response a page, held
open, sent what changed at most twice a second (a page redraws for each event, and a table of instant bots
makes hundreds of steps a second; a bot that thinks for a second is shown move by move). Each page's
response is written by a task of its own that sends what is new since it last wrote, so a page that stops
reading only stops its own task (its writes wait on the socket, up to ``_WRITE_TIMEOUT_S``, then the
connection is dropped), and a closed page ends its task: the tables never wait on a page.

Addresses (all under ``/KEY/``):

- ``/``: the report (``referee.report.page``), updated as each game ends (``events``);
- ``tables/N``: table N's game in play in the replay viewer, every card shown, advancing as it is played
  (``tables/N/events``);
- ``replays/gNNNN.html``: a finished game's replay page (the report's links), made when first asked for.

The report's figures are recomputed off the event loop, in one thread that alone reads and changes the
report, at most once per ``_MIN_REFRESH_S`` and never more than about 1/``_REFRESH_SHARE`` of the time:
a 10,000-game report takes a while to recompute, and the tables must not wait for it.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import time
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from importlib import resources
from pathlib import Path
from typing import Any, Self

import structlog
from aiohttp import web

from referee.errors import ArenaError
from referee.gamelog import LogError
from referee.games.results import GameRecord
from referee.live.feed import LiveTable
from referee.replay.html import viewer_html, viewer_page
from referee.replay.logfile import load_log
from referee.report.data import Report
from referee.report.page import report_page, script_json
from referee.runfolder import REPLAYS, RunFolder, write_atomically
from referee.webserve import HEADERS, HOST, KEEPALIVE, ServeError, new_key, sse_event, start_site

log = structlog.get_logger("referee.live")

_KEEPALIVE_S = 15.0  # a comment line this often keeps proxies and browsers from dropping a quiet stream
_WRITE_TIMEOUT_S = 30.0  # a page that has not taken an event in this long is dropped
_MIN_REFRESH_S = 1.0  # the report's figures are recomputed at most this often (at once after a quiet second)
_PAGE_INTERVAL_S = 0.5  # a page is sent what changed at most this often: what comes meanwhile goes in one event
_REFRESH_SHARE = 20  # and then wait this many times as long as the recomputing took
__all__ = ["HOST", "LiveError", "LiveView"]


class LiveView:
    """``async with LiveView(report, port) as live``: serve until the block ends; ``live.url`` is printed.

    Feed it with ``game_over(record)`` as each game is recorded and ``table_records(table, records)`` as the
    tables play (``Tournament.on_records``). ``report`` is the folder's report so far (``read_folder``);
    only the view's own thread touches it while the view runs.
    """

    def __init__(self, report: Report, port: int = 0) -> None:
        self.report = report
        self.port = port
        self.key = new_key()
        self.url = ""
        self.tables: dict[int, LiveTable] = {}
        self.rows: list[list[Any]] = []  # the games, in the order they were added
        self.summary = ""  # the report's figures, as JSON, the latest computed
        self.closing = False
        self._changed = asyncio.Event()  # set (then replaced) whenever something pages show has changed
        self._dirty = asyncio.Event()  # a game was added since the figures were last computed
        self._worker = ThreadPoolExecutor(max_workers=1, thread_name_prefix="arena-live-report")
        self._pending: list[asyncio.Future[None]] = []
        self._refresher: asyncio.Task[None] | None = None
        self._runner: web.AppRunner | None = None
        self._streams: set[asyncio.Task[Any]] = set()

    # ------------------------------------------------------------ the feed

    def game_over(self, record: GameRecord) -> None:
        """A game was recorded (its log is in the folder): the report takes it in, off the event loop."""
        loop = asyncio.get_running_loop()
        future = loop.run_in_executor(self._worker, self.report.add_from_folder, record)
        self._pending.append(future)
        self._dirty.set()

    def table_records(self, table: int, records: list[dict[str, Any]]) -> None:
        """Records of the game in play at a table (kept; made into steps only when a page watches)."""
        live = self.tables.get(table)
        if live is None:
            live = self.tables[table] = LiveTable(table)
        live.add(records)
        self._notify()

    def _notify(self) -> None:
        self._changed.set()
        self._changed = asyncio.Event()

    async def _refresh(self) -> None:
        """Recompute the report's figures after games were added: in the view's thread, at a bounded rate."""
        loop = asyncio.get_running_loop()
        while not self.closing:
            await self._dirty.wait()
            self._dirty.clear()
            pending, self._pending = self._pending, []
            await asyncio.gather(*pending, return_exceptions=True)
            started = time.perf_counter()
            rows, summary = await loop.run_in_executor(self._worker, self._compute)
            took = time.perf_counter() - started
            self.rows.extend(rows)
            self.summary = summary
            self._notify()
            await asyncio.sleep(max(_MIN_REFRESH_S, _REFRESH_SHARE * took))

    def _compute(self) -> tuple[list[list[Any]], str]:
        """(new game rows, the summary as JSON): in the view's thread."""
        rows = self.report.game_rows(len(self.rows))
        summary = self.report.summary()
        summary["live"] = self._live_entry()
        return rows, json.dumps(summary, separators=(",", ":"))

    def _live_entry(self) -> dict[str, Any]:
        return {
            "events": f"/{self.key}/events",
            "tables": [t.describe() for _, t in sorted(self.tables.items())],
        }

    # ------------------------------------------------------------ serving

    async def __aenter__(self) -> Self:
        loop = asyncio.get_running_loop()
        self.rows, summary = await loop.run_in_executor(self._worker, self._compute)
        self.summary = summary
        app = web.Application()
        base = f"/{self.key}"
        app.router.add_get(f"{base}/", self._report_page)
        app.router.add_get(f"{base}/events", self._report_events)
        app.router.add_get(base + "/tables/{table:\\d+}", self._table_page)
        app.router.add_get(base + "/tables/{table:\\d+}/events", self._table_events)
        app.router.add_get(base + "/replays/{game:g\\d+}.html", self._replay_page)
        try:
            site = await start_site(app, self.port, self.key, "--live")
        except ServeError as exc:
            self._worker.shutdown(wait=False)
            raise LiveError(str(exc)) from None
        self._runner = site.runner
        self.url = site.url
        self._refresher = asyncio.create_task(self._refresh())
        return self

    async def __aexit__(self, *exc: object) -> None:
        """Stop: every page is told the run is over, the server stops, nothing is left running. After a run
        that ended well, the pages get the last games first."""
        if self._refresher is not None:
            self._refresher.cancel()
            await asyncio.gather(self._refresher, return_exceptions=True)
        if exc[0] is None and self._runner is not None:
            await asyncio.gather(*self._pending, return_exceptions=True)
            self._pending = []
            rows, self.summary = await asyncio.get_running_loop().run_in_executor(self._worker, self._compute)
            self.rows.extend(rows)
        self.closing = True
        self._notify()
        if self._streams:  # each stream sends "over" and ends; one that cannot is cancelled
            _, late = await asyncio.wait(set(self._streams), timeout=1.0)
            for task in late:
                task.cancel()
            await asyncio.gather(*late, return_exceptions=True)
        if self._runner is not None:
            await self._runner.cleanup()
        await asyncio.gather(*self._pending, return_exceptions=True)
        self._worker.shutdown(wait=True)

    async def settled(self) -> Report:
        """Wait for the games handed over to be taken in; the report (for the end of the run)."""
        await asyncio.gather(*self._pending, return_exceptions=True)
        return self.report

    # ------------------------------------------------------------ handlers

    async def _report_page(self, request: web.Request) -> web.Response:
        summary = json.loads(self.summary)
        summary["live"] = self._live_entry()
        document = {**summary, "games": self.rows}
        page = report_page(document, replays=REPLAYS + "/")
        return web.Response(text=page, content_type="text/html", headers=HEADERS)

    async def _report_events(self, request: web.Request) -> web.StreamResponse:
        sent = _count(request, "games")
        summary_sent = ""

        def poll() -> tuple[list[tuple[str, str]], bool]:
            nonlocal sent, summary_sent
            out = []
            if sent < len(self.rows):
                rows = self.rows[sent:]
                out.append(("games", json.dumps({"from": sent, "rows": rows}, separators=(",", ":"))))
                sent += len(rows)
            if self.summary != summary_sent:
                summary_sent = self.summary
                out.append(("summary", summary_sent))
            return out, False

        return await self._stream(request, poll)

    def _table(self, request: web.Request) -> LiveTable:
        number = int(request.match_info["table"])
        table = self.tables.get(number)
        if table is None:
            raise web.HTTPNotFound(text=f"no table {number} has played yet")
        return table

    async def _table_page(self, request: web.Request) -> web.Response:
        table = self._table(request)
        data = table.game_data(f"table {table.number}, live")
        data["live"] = f"/{self.key}/tables/{table.number}/events"
        page = viewer_html(data)
        script = resources.files("referee.live").joinpath("table.js").read_text(encoding="utf-8")
        page = page.replace("</body>", f"<script>{script}</script>\n</body>", 1)
        return web.Response(text=page, content_type="text/html", headers=HEADERS)

    async def _table_events(self, request: web.Request) -> web.StreamResponse:
        table = self._table(request)
        game = request.query.get("game", "")
        sent = _count(request, "steps")

        def poll() -> tuple[list[tuple[str, str]], bool]:
            nonlocal game, sent
            steps = table.steps()
            if table.game_id is not None and table.game_id != game:
                game, sent = table.game_id, len(steps)
                return [("game", script_json(table.game()))], False
            if sent < len(steps):
                more = steps[sent:]
                sent = len(steps)
                return [("more", script_json(more))], False
            return [], False

        return await self._stream(request, poll)

    async def _replay_page(self, request: web.Request) -> web.Response:
        game_id = request.match_info["game"]
        folder = RunFolder(self.report.folder)
        page_path, log_path = folder.replay(game_id), folder.log(game_id)
        try:
            page = await asyncio.to_thread(_replay, page_path, log_path)
        except FileNotFoundError:
            raise web.HTTPNotFound(text=f"{game_id} has no log in {folder.games} (not finished yet?)") from None
        except (OSError, LogError) as exc:
            raise web.HTTPInternalServerError(text=f"{game_id}: {exc}") from None
        return web.Response(text=page, content_type="text/html", headers=HEADERS)

    async def _stream(
        self, request: web.Request, poll: Callable[[], tuple[list[tuple[str, str]], bool]]
    ) -> web.StreamResponse:
        """Send what ``poll`` gives (named events) as Server-Sent Events whenever something changes, until the
        page goes away or the view closes (the page is told: ``over``)."""
        response = web.StreamResponse(headers={**HEADERS, "Content-Type": "text/event-stream"})
        await response.prepare(request)
        task = asyncio.current_task()
        assert task is not None
        self._streams.add(task)
        try:
            while True:
                changed = self._changed  # taken before looking: a change from now on wakes this stream
                batch, done = poll()
                if self.closing:
                    batch, done = [*batch, ("over", "{}")], True
                for name, payload in batch:
                    await asyncio.wait_for(response.write(sse_event(name, payload)), _WRITE_TIMEOUT_S)
                if done:
                    break
                if batch:  # a page redraws for each event: with instant bots, hundreds a second would help no one
                    await asyncio.sleep(_PAGE_INTERVAL_S)
                    continue
                try:
                    await asyncio.wait_for(changed.wait(), _KEEPALIVE_S)
                except TimeoutError:
                    await asyncio.wait_for(response.write(KEEPALIVE), _WRITE_TIMEOUT_S)
        except (ConnectionError, TimeoutError, asyncio.CancelledError) as exc:
            # the page went away, or stopped reading: only this stream ends
            log.debug("live page gone", path=request.path, why=type(exc).__name__)
            if isinstance(exc, asyncio.CancelledError) and not self.closing:
                raise
        finally:
            self._streams.discard(task)
        return response


def _count(request: web.Request, name: str) -> int:
    """A count the page sends in its query (what it has already), 0 when missing or not a number."""
    try:
        return max(0, int(request.query.get(name, "0")))
    except ValueError:
        return 0


class LiveError(ArenaError):
    """The live view cannot start (the port is taken); one line."""


def _replay(page_path: Path, log_path: Path) -> str:
    """A finished game's replay page: the one written into the folder, else made from its log now."""
    if page_path.exists() and page_path.stat().st_mtime_ns >= log_path.stat().st_mtime_ns:
        return page_path.read_text(encoding="utf-8")
    page = viewer_page(load_log(log_path))
    with contextlib.suppress(OSError):  # keep it for the report written at the end (a read-only folder is fine)
        page_path.parent.mkdir(parents=True, exist_ok=True)
        write_atomically(page_path, page)
    return page
