"""What every page the arena serves shares: 127.0.0.1 only, a random key in every address, the same headers,
Server-Sent Events.

The live view (``referee.live.server``) and the browser table (``referee.browserseat``) each build an aiohttp
application under ``/KEY/`` and start it here. Nothing else on the machine reaches a page by guessing: a bot
run bare (``--sandbox off``) could otherwise read what the page shows. ``start_site`` listens and gives the
address to print; a port that cannot be had is a ``ServeError`` of one line.
"""

from __future__ import annotations

import secrets
from dataclasses import dataclass

from aiohttp import web

from referee.errors import ArenaError

HOST = "127.0.0.1"
# Pages are never cached, send no referrer (the key is in the address) and are taken as what they say they are.
HEADERS = {"Cache-Control": "no-store", "Referrer-Policy": "no-referrer", "X-Content-Type-Options": "nosniff"}


class ServeError(ArenaError):
    """A page server cannot start (the port is taken); one line."""


def new_key() -> str:
    """The random part of every address of one server."""
    return secrets.token_urlsafe(12)


@dataclass
class Site:
    """A running server: its runner (``stop`` ends it) and the address of its pages."""

    runner: web.AppRunner
    url: str

    async def stop(self) -> None:
        await self.runner.cleanup()


async def start_site(app: web.Application, port: int, key: str, option: str) -> Site:
    """Serve ``app`` on 127.0.0.1:``port`` (0: a free one); its address is ``http://127.0.0.1:PORT/KEY/``.
    ``option`` names the command-line option in the error when the port cannot be had (``--live``)."""
    runner = web.AppRunner(app, access_log=None, shutdown_timeout=1.0, handle_signals=False)
    await runner.setup()
    site = web.TCPSite(runner, HOST, port, reuse_address=True)
    try:
        await site.start()
    except OSError as exc:
        await runner.cleanup()
        raise ServeError(f"{option} {port}: cannot listen on {HOST}:{port} ({exc.strerror or exc})") from None
    bound = runner.addresses[0][1]
    return Site(runner, f"http://{HOST}:{bound}/{key}/")


def sse_event(name: str, payload: str) -> bytes:
    """One Server-Sent Event named ``name`` (a page's ``EventSource`` listens for it) carrying ``payload``."""
    return f"event: {name}\ndata: {payload}\n\n".encode()


KEEPALIVE = b": keep-alive\n\n"  # a comment line: keeps proxies and browsers from dropping a quiet stream
