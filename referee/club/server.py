"""The club's HTTPS server: the members' API, and the pages.

aiohttp, in the server's own asyncio loop, over TLS (``referee.club.tls``); plain HTTP only on 127.0.0.1 and
only when asked for. The API speaks JSON; every refusal is ``{"error": "one line"}`` with a status that
says its kind (400 bad input, 401 no good token, 403 not yours, 404 no such thing, 409 replayed, 413 too
big, 429 over a quota or too many wrong tokens). A request that changes something carries a nonce and a
time (``referee.club.replay``). Answers that follow a version as it is built stream one JSON object a line
(``application/x-ndjson``).

The API (``Authorization: Bearer TOKEN`` on all but ``hello``):

- ``GET /api/hello``: that this is an arena club, and its arena's version;
- ``GET /api/me``: the token's member and scope;
- ``GET /api/info``: every quota, and the languages this server builds;
- ``POST /api/submit?bot=NAME[&lang=L]``: a tar.gz of the bot's folder (``X-Arena-Tree``: the tree's hash
  as the member's command computed it); then the version's states as they change;
- ``GET /api/status``: the member's versions (an admin's: every one), each with its state on the ladder, and
  its rating and rank while it plays;
- ``GET /api/logs?bot=NAME[&version=V]``: a version's build output, state and reason, and what its bot printed
  in its recent games (the owner's and the admin's);
- ``POST /api/retry?bot=NAME&version=V``: build again a version whose build failed, or validate again one
  whose validation failed;
- ``POST /api/page``: a one-time address that opens the member's page in a browser (a session cookie,
  ``HttpOnly``, ``Secure``, ``SameSite=Strict``).

The public pages (no token): ``/`` the ladder's page (its leaderboard, each bot's ratings and games), ``GET
/api/board`` its data (no version's reason, output or command: those are its member's), ``/events`` the
board again as it changes (Server-Sent Events), and ``/replays/gN.html`` a finished game's replay (every
seat's cards, as any replay; a fault's words, which are its bot's own output, left out).

Wrong tokens are rate-limited per address (``referee.club.throttle``): past the limit, requests from that
address are refused before any token is checked. No address serves a version's files.
"""

from __future__ import annotations

import asyncio
import json
import ssl
from collections.abc import Awaitable, Callable
from typing import Any

from aiohttp import web

from referee import __version__
from referee.club import entries
from referee.club import submissions as subs
from referee.club.db import ClubError
from referee.club.members import Member
from referee.club.pages import member_document, member_page, public_page, public_replay
from referee.club.replay import NONCE_HEADER, TIME_HEADER, ReplayError, answer, claim, drop
from referee.club.service import BOARD_S, Club, spooled
from referee.club.throttle import Throttle
from referee.errors import ArenaError
from referee.frozen.tree import MIB, TreeError
from referee.runfolder import REPLAYS, RunFolder
from referee.webserve import HEADERS, KEEPALIVE, sse_event

TREE_HEADER = "X-Arena-Tree"
KEEPALIVE_S = 15.0  # a quiet page's stream is sent a comment line this often
UPLOAD_S = 300.0  # an upload still coming after this long is dropped (a connection held open, sending little)
SESSION_COOKIE = "arena_club"
Handler = Callable[[web.Request], Awaitable[web.StreamResponse]]
_MEMBER = web.RequestKey("member", Member)


def refusal(status: int, message: str, **extra: Any) -> web.Response:
    return web.json_response({"error": message, **extra}, status=status, headers=HEADERS)


def status_of(error: ArenaError) -> int:
    """The HTTP status of a refusal, by its kind."""
    if isinstance(error, subs.QuotaError):
        return 429
    if isinstance(error, subs.NotYours):
        return 403
    if isinstance(error, ReplayError):
        return 409
    if isinstance(error, TreeError) and "over the limit" in str(error):
        return 413
    return 400


class ClubServer:
    """The aiohttp application of a ``Club``; ``throttle``: wrong tokens per address."""

    def __init__(self, club: Club, throttle: Throttle | None = None) -> None:
        self.club = club
        self.throttle = throttle or Throttle()
        self.secure = True  # served over TLS: cookies are Secure
        self.app = web.Application(middlewares=[self._errors])
        self.app.router.add_get("/api/hello", self.hello)
        for method, path, handler in (
            ("GET", "/api/me", self.me),
            ("GET", "/api/info", self.info),
            ("POST", "/api/submit", self.submit),
            ("GET", "/api/status", self.status),
            ("GET", "/api/logs", self.logs),
            ("POST", "/api/retry", self.retry),
            ("POST", "/api/page", self.page_code),
        ):
            self.app.router.add_route(method, path, self._member_only(handler))
        self.app.router.add_get("/login", self.login)
        self.app.router.add_get("/me", self.member_page)
        self.app.router.add_get("/", self.public)
        self.app.router.add_get("/api/board", self.board)
        self.app.router.add_get("/events", self.events)
        self.app.router.add_get(r"/replays/{game:g\d+}.html", self.replay)

    # ------------------------------------------------------------ plumbing

    @web.middleware
    async def _errors(self, request: web.Request, handler: Handler) -> web.StreamResponse:
        try:
            return await handler(request)
        except ArenaError as exc:
            return refusal(status_of(exc), str(exc))

    def _member_only(self, handler: Handler) -> Handler:
        async def checked(request: web.Request) -> web.StreamResponse:
            address = request.remote or "?"
            wait = self.throttle.wait(address)
            if wait > 0:
                return refusal(429, f"too many wrong tokens from {address}: try again in {wait:.0f} s", wait=wait)
            header = request.headers.get("Authorization", "")
            if not header.startswith("Bearer "):
                self.throttle.failed(address)
                return refusal(401, "no token: log in with `arena club login URL` and the token your club gave you")
            member = await self.club.member(header[len("Bearer ") :].strip())
            if member is None:
                self.throttle.failed(address)
                return refusal(401, "this token is not valid (wrong, or revoked): ask your club's admin for a new one")
            request[_MEMBER] = member
            return await handler(request)

        return checked

    async def _claimed(self, request: web.Request) -> dict[str, Any] | None:
        """The request's nonce taken (None), or the first answer to it (a replay)."""
        member = request[_MEMBER]
        nonce, sent = request.headers.get(NONCE_HEADER), request.headers.get(TIME_HEADER)
        return await self.club.db(lambda db: claim(db, member, nonce, sent))

    async def _answered(self, request: web.Request, given: dict[str, Any]) -> None:
        nonce = request.headers[NONCE_HEADER]
        await self.club.db(lambda db: answer(db, nonce, given))

    async def _refused(self, request: web.Request) -> None:
        nonce = request.headers[NONCE_HEADER]
        await self.club.db(lambda db: drop(db, nonce))

    # ------------------------------------------------------------ the API

    async def hello(self, request: web.Request) -> web.Response:
        return web.json_response({"club": "arena", "arena": __version__}, headers=HEADERS)

    async def me(self, request: web.Request) -> web.Response:
        member = request[_MEMBER]
        return web.json_response({"member": member.name, "scope": member.scope}, headers=HEADERS)

    async def info(self, request: web.Request) -> web.Response:
        languages = self.club.languages()
        return web.json_response(
            {
                "quotas": self.club.settings.shown(),
                "languages": {k: v or "ready" for k, v in languages.items()},
            },
            headers=HEADERS,
        )

    async def submit(self, request: web.Request) -> web.StreamResponse:
        member = request[_MEMBER]
        bot = request.query.get("bot", "")
        check_bot_name(bot)
        replayed = await self._claimed(request)
        if replayed is not None:
            return await self._follow(request, member, {**replayed, "replayed": True})
        try:
            body = await self._upload(request)
            submission, new = await self.club.submit(
                body, member, bot, request.query.get("lang"), request.headers.get(TREE_HEADER)
            )
        except (ArenaError, web.HTTPException):
            await self._refused(request)
            raise
        first = {"event": "version", "new": new, **submission.record()}
        await self._answered(request, first)
        return await self._follow(request, member, first)

    async def _upload(self, request: web.Request) -> Any:
        """The request's body, read into a spooled file, refused once it passes the upload limit."""
        limit = self.club.settings.upload_limits.upload_bytes
        too_big = f"the archive is over the limit of {limit // MIB} MiB"
        if request.content_length is not None and request.content_length > limit:
            raise TreeError(too_big)
        body = spooled()
        total = 0
        try:
            async with asyncio.timeout(UPLOAD_S):
                async for chunk in request.content.iter_chunked(65536):
                    total += len(chunk)
                    if total > limit:
                        raise TreeError(too_big)
                    body.write(chunk)
        except TimeoutError:
            body.close()
            raise ClubError(f"the upload took more than {UPLOAD_S:.0f} s: send it again") from None
        except BaseException:
            body.close()
            raise
        body.seek(0)
        return body

    async def _follow(self, request: web.Request, member: Member, first: dict[str, Any]) -> web.StreamResponse:
        """Stream ``first``, then the version's states until it is built or failed."""
        response = web.StreamResponse(headers={**HEADERS, "Content-Type": "application/x-ndjson"})
        await response.prepare(request)
        await response.write((json.dumps(first) + "\n").encode())
        async for entry in self.club.watch(member, first["bot"], first["version"]):
            if entry is None:
                await response.write(b"\n")  # a sign of life: the member's command waits for a line at a time
                continue
            event: dict[str, Any] = {"event": "state", **entry.record()}
            if entry.submission.state == subs.FAILED:
                event["log"] = self.club.build_log(entry.submission)[-4000:]
            await response.write((json.dumps(event) + "\n").encode())
        await response.write_eof()
        return response

    async def status(self, request: web.Request) -> web.Response:
        where = await self.club.where(await self.club.versions(request[_MEMBER]))
        return web.json_response({"versions": [e.record() for e in where]}, headers=HEADERS)

    async def logs(self, request: web.Request) -> web.Response:
        version = _version_of(request)
        submission = await self.club.version(request[_MEMBER], request.query.get("bot", ""), version)
        (entry,) = await self.club.where([submission])
        return web.json_response(
            {
                **entry.record(),
                "build_log": self.club.build_log(submission),
                "outputs": await self.club.outputs(submission),
            },
            headers=HEADERS,
        )

    async def retry(self, request: web.Request) -> web.StreamResponse:
        member = request[_MEMBER]
        bot, version = request.query.get("bot", ""), _version_of(request)
        if version is None:
            raise ClubError("retry names a version: NAME@VERSION")
        replayed = await self._claimed(request)
        if replayed is not None:
            return await self._follow(request, member, {**replayed, "replayed": True})
        try:
            submission = await self.club.retry(member, bot, version)
        except ArenaError:
            await self._refused(request)
            raise
        first = {"event": "retry", **submission.record()}
        await self._answered(request, first)
        return await self._follow(request, member, first)

    async def page_code(self, request: web.Request) -> web.Response:
        code = self.club.page_code(request[_MEMBER])
        return web.json_response({"path": f"/login?code={code}"}, headers=HEADERS)

    # ------------------------------------------------------------ the public pages

    async def public(self, request: web.Request) -> web.Response:
        board = json.loads(await self.club.board_json())
        return web.Response(text=public_page(board), content_type="text/html", headers=HEADERS)

    async def board(self, request: web.Request) -> web.Response:
        return web.Response(text=await self.club.board_json(), content_type="application/json", headers=HEADERS)

    async def events(self, request: web.Request) -> web.StreamResponse:
        """The board again each time it changes (Server-Sent Events, as the ladder's page takes them)."""
        response = web.StreamResponse(headers={**HEADERS, "Content-Type": "text/event-stream"})
        await response.prepare(request)
        sent = self.club.generation
        while True:
            changed = await self.club.next_change(KEEPALIVE_S)
            if not changed:
                await response.write(KEEPALIVE)
            elif self.club.generation != sent:
                sent = self.club.generation
                await asyncio.sleep(BOARD_S)  # games end in bursts: one board for a burst
                await response.write(sse_event("summary", await self.club.board_json()))

    async def replay(self, request: web.Request) -> web.Response:
        game = request.match_info["game"]
        folder = RunFolder(self.club.paths.folder)
        log = folder.log(game)
        if not await self.club.on_ladder(lambda ladder: entries.finished(ladder, game)) or not log.exists():
            raise web.HTTPNotFound(text=f"{game}: no such finished game", headers=HEADERS)
        page = await asyncio.to_thread(public_replay, log, self.club.paths.own / REPLAYS / f"{game}.html")
        return web.Response(text=page, content_type="text/html", headers=HEADERS)

    # ------------------------------------------------------------ the member's page

    async def login(self, request: web.Request) -> web.Response:
        session = self.club.open_session(request.query.get("code", ""))
        if session is None:
            return web.Response(
                status=403,
                text="This address was used already or is too old: run `arena club page` for a new one.",
                headers=HEADERS,
            )
        response = web.HTTPSeeOther("/me", headers=HEADERS)
        response.set_cookie(
            SESSION_COOKIE, session, httponly=True, secure=self.secure, samesite="Strict", max_age=12 * 3600
        )
        raise response

    async def member_page(self, request: web.Request) -> web.Response:
        member = self.club.session(request.cookies.get(SESSION_COOKIE, ""))
        if member is None:
            return web.Response(
                status=401, text="Not logged in: run `arena club page` for the address of your page.", headers=HEADERS
            )
        versions = await self.club.versions(member)
        where = {e.submission.id: e for e in await self.club.where(versions)}
        outputs = {v.id: await self.club.outputs(v) for v in versions}
        bots = await self.club.bots_of({v.bot for v in versions})

        def ladder(v: subs.Submission) -> dict[str, Any]:
            entry = where[v.id]
            return {
                "status": entry.state,
                "why": entry.reason,
                "validation": _validation(entry),
                "stderr": [{"game": o["file"], "text": o["text"]} for o in outputs[v.id]],
            }

        document = member_document(member, versions, self.club.build_log, ladder, lambda name: bots.get(name, {}))
        return web.Response(text=member_page(document), content_type="text/html", headers=HEADERS)


def _validation(entry: entries.Entry) -> str:
    """What a version's validation came to, in words."""
    if entry.state == "validating":
        return "waiting for its validation game"
    if entry.state == "error":
        return entry.reason
    if entry.state in ("playing", "superseded", "retired", "suspended"):
        return "passed its validation game"
    return ""


def check_bot_name(name: str) -> str:
    """A bot's name as the ladder takes it; ClubError saying why not."""
    from referee.bots import BotCommand

    try:
        parsed = BotCommand.parse(f"{name}=bot")
    except ArenaError:
        parsed = None
    if parsed is None or parsed.name != name or len(name) > 22:
        raise ClubError(
            f"{name[:40]!r} cannot name a bot: use up to 22 letters, digits, '_', '-' or '.', starting with a letter "
            "or digit"
        )
    return name


def _version_of(request: web.Request) -> int | None:
    text = request.query.get("version")
    if text is None:
        return None
    if not text.isdigit():
        raise ClubError(f"version {text[:20]!r}: a version is a whole number (NAME@3)")
    return int(text)


async def start(server: ClubServer, host: str, port: int, context: ssl.SSLContext | None) -> web.AppRunner:
    """Listen on ``host:port`` (TLS with ``context``, plain HTTP without); the runner (``cleanup`` ends it)."""
    runner = web.AppRunner(server.app, access_log=None, shutdown_timeout=2.0, handle_signals=False)
    await runner.setup()
    site = web.TCPSite(runner, host, port, ssl_context=context, reuse_address=True)
    try:
        await site.start()
    except OSError as exc:
        await runner.cleanup()
        raise ClubError(f"cannot listen on {host}:{port} ({exc.strerror or exc})") from None
    server.secure = context is not None
    return runner
