"""The ladder's page: ``page.html`` with Chart.js and the board's data put in, served on 127.0.0.1.

The page is self-contained and offline like the tournament report (``referee.report.page``): styles,
Chart.js (``referee.webassets``), the script and the data in one file. It is served by the live view's
server (``referee.live.server.LiveView``, aiohttp in the arena's own loop, every address under a random
key): ``LadderView`` is a live view whose page at ``/`` is the ladder's instead of a tournament's report.
It keeps the rest as it is: the Server-Sent Events that refresh the page (the board's data, sent whole,
as the report's summary is), the tables in play (``tables/N``, with ``arena ladder run --live``), and a
finished game's replay page made on demand (``replays/gNNNN.html``, in the ladder's folder).

The board is recomputed from the database in the view's own thread (its own connection), after a game
is committed (``changed()``, from the run) or when the database changes (looked at every second: ``arena
ladder serve`` beside a run in another process).
"""

from __future__ import annotations

import asyncio
import contextlib
import json
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any, cast

from aiohttp import web

from referee.ladder.board import board
from referee.ladder.database import LadderDatabase
from referee.live.server import LiveView
from referee.report.data import Report
from referee.report.page import filled_page
from referee.runfolder import RunFolder

_DATA_MARK = "/*LADDER-DATA*/null"
_POLL_S = 1.0
# as every page the live view serves: never cached, no referrer (the key is in the address)
_HEADERS = {"Cache-Control": "no-store", "Referrer-Policy": "no-referrer", "X-Content-Type-Options": "nosniff"}


def ladder_page(document: dict[str, Any]) -> str:
    """The whole page for ``document`` (``board(db)``, perhaps with ``live``)."""
    return filled_page("referee.ladder", "page.html", _DATA_MARK, document)


@dataclass(frozen=True)
class _Folder:
    """What the live view's replay pages need of its report: the folder the games' logs are in."""

    folder: Path


class LadderView(LiveView):
    """``async with LadderView(folder, port) as view``: the ladder's page at ``view.url`` until the block ends.

    ``changed()`` after a game is committed; ``table_records`` is the tables' feed, as for a tournament."""

    def __init__(self, folder: RunFolder, port: int = 0) -> None:
        # the live view's report is a tournament's; of it, the ladder's view uses only the folder (replays)
        super().__init__(cast(Report, _Folder(folder.path)), port)
        self.folder = folder
        self._db: LadderDatabase | None = None  # opened in the view's thread, used only there
        self._poller: asyncio.Task[None] | None = None
        self._mark: tuple[int, int, str] | None = None

    def changed(self) -> None:
        """Something the page shows has changed: it is recomputed (at the view's bounded rate)."""
        self._dirty.set()

    def game_over(self, record: Any) -> None:
        self.changed()

    def _compute(self) -> tuple[list[list[Any]], str]:
        if self._db is None:
            self._db = LadderDatabase.open(self.folder)
        self._mark = self._db.change_mark()
        data = board(self._db)
        data["live"] = self._live_entry()
        return [], json.dumps(data, separators=(",", ":"))

    def _changed_since(self) -> bool:
        return self._db is not None and self._db.change_mark() != self._mark

    async def _poll(self) -> None:
        loop = asyncio.get_running_loop()
        while True:
            await asyncio.sleep(_POLL_S)
            if await loop.run_in_executor(self._worker, self._changed_since):
                self.changed()

    async def __aenter__(self) -> LadderView:
        await super().__aenter__()
        self._poller = asyncio.create_task(self._poll())
        return self

    async def __aexit__(self, *exc: object) -> None:
        if self._poller is not None:
            self._poller.cancel()
            await asyncio.gather(self._poller, return_exceptions=True)
        try:
            await super().__aexit__(*exc)
        finally:
            if self._db is not None:
                with contextlib.suppress(Exception):
                    self._db.close()

    async def _report_page(self, request: web.Request) -> web.Response:
        document = json.loads(self.summary)
        document["live"] = self._live_entry()
        return web.Response(text=ladder_page(document), content_type="text/html", headers=_HEADERS)


async def serve_ladder(folder: RunFolder, port: int, say: Callable[[str], None]) -> None:
    """``arena ladder serve``: the page until cancelled (Ctrl-C)."""
    async with LadderView(folder, port) as view:
        say(f"ladder page: {view.url}")
        await asyncio.Event().wait()
