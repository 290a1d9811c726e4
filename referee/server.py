"""The referee's gRPC server: seat tokens, bot connections, health and reflection.

``ArenaServer`` listens on TCP (127.0.0.1 by default, port 0 = any free
port) for bots started by hand (``arena serve``), and ``open_seat`` gives a
launched bot a Unix socket of its own: a server that serves that one seat's
token only. The socket is what the bot's sandbox lets it reach (its network
namespace has nothing else): ARENA_ADDRESS is ``unix:PATH``, a target every
official gRPC library dials. Each bot identity the referee expects is a
``Player`` with a secret token; a stream that presents the token in its Hello
becomes the player's ``Connection``. The match driver then talks to the player
through ``Connection.send`` and ``Connection.ask`` (one request, one answer,
with a time limit); everything a bot sends out of turn is answered here with an
Error and reported through ``Player.report``, so a hostile bot never reaches
the game.

Messages move as raw bytes in both directions: decoding is done by
``referee.protocol.decoded`` so that a malformed or oversized message is
answered with a clear Error instead of killing the stream.
"""

from __future__ import annotations

import asyncio
import contextlib
import enum
import itertools
import os
import secrets
import shutil
import tempfile
import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from functools import partial
from typing import Self

# Bot processes are forked and exec'ed at once: gRPC's fork handlers are not
# needed (and log noise about other threads). Read when grpc is first imported.
os.environ.setdefault("GRPC_ENABLE_FORK_SUPPORT", "false")

import grpc
import structlog
from grpc_health.v1 import health, health_pb2, health_pb2_grpc
from grpc_reflection.v1alpha import reflection

from referee import __version__
from referee.deadline import Deadline, StartupUse
from referee.faults import ViolationKind
from referee.ledger import FloodGuard, RequestLedger, ViolationHook
from referee.names import printable_name
from referee.protocol.decoded import ActionMsg, HelloMsg, decode_bot_message
from referee.protocol.domain import PROTOCOL_VERSION, SERVICE_NAME, ErrorCode, ProtocolError
from referee.protocol.messages import error_to_pb, to_bytes, welcome_to_pb
from referee.runqueue import WaitClock

log = structlog.get_logger("referee.server")

DEFAULT_HOST = "127.0.0.1"


@dataclass(frozen=True)
class Limits:
    """What the server tolerates from a bot."""

    # A message larger than this gets Error TOO_LARGE (and is ignored).
    max_message_bytes: int = 64 * 1024
    # gRPC's own cap: a larger message cuts the stream (a bot cannot make the
    # referee buffer more than this).
    hard_message_bytes: int = 1024 * 1024
    # A stream must say Hello within this time.
    hello_timeout_s: float = 10.0
    # A write the bot does not take within this time (it stopped reading)
    # closes its stream.
    write_timeout_s: float = 10.0
    # More errors than this within flood_window_s disconnects the bot.
    flood_errors: int = 20
    flood_window_s: float = 10.0
    # Event-loop lag above this, seen when a deadline fires, is given back to
    # the bot: the referee, not the bot, was late (see Connection.ask).
    lag_slack_s: float = 0.02


class Closed(enum.Enum):
    """Why ``Connection.ask`` got no answer."""

    TIMEOUT = "timeout"
    DISCONNECTED = "disconnected"


@dataclass(frozen=True)
class SeatEndpoint:
    """Where one launched bot reaches the referee: its seat's Unix socket, and a TCP port of the seat's
    own when asked for (a bot without the sandbox whose gRPC library cannot dial a Unix socket)."""

    socket: str
    tcp_port: int | None = None

    @property
    def target(self) -> str:
        """The gRPC target of the socket (ARENA_ADDRESS)."""
        return f"unix:{self.socket}"

    @property
    def tcp_address(self) -> str | None:
        return None if self.tcp_port is None else f"{DEFAULT_HOST}:{self.tcp_port}"


class Player:
    """One bot identity the referee expects: a token, and the stream using it now (if any).

    The match binds ``on_violation`` while the player sits in a game, so
    protocol faults the server sees are recorded against its seat.
    """

    def __init__(
        self, player_id: str, bot_name: str, token: str | None = None, *, name_from_hello: bool = False
    ) -> None:
        self.player_id = player_id
        self.bot_name = bot_name
        # a bot started by hand is known by the name in its Hello
        self.name_from_hello = name_from_hello
        # hex: a token never starts with '-', so `--token TOKEN` on a bot's command line always parses
        self.token = token or secrets.token_hex(16)
        self.connection: Connection | None = None
        self.hello: HelloMsg | None = None
        self.on_violation: ViolationHook | None = None
        # the bot's process tree, when the referee launched it: its waits for a CPU are given back
        self.wait_clock: WaitClock | None = None
        # the seat's own socket (and port), when the referee launched the bot (ArenaServer.open_seat)
        self.endpoint: SeatEndpoint | None = None
        self._connected = asyncio.Event()
        self._request_ids = itertools.count(1)

    def __repr__(self) -> str:
        return f"Player({self.player_id!r})"

    @property
    def connected(self) -> bool:
        return self.connection is not None and not self.connection.closed

    async def wait_connected(self) -> None:
        await self._connected.wait()

    def next_request_id(self) -> int:
        return next(self._request_ids)

    def report(self, kind: ViolationKind, detail: str, owner: ViolationHook | None = None) -> None:
        """A fault by this player's bot outside the game's own flow (out of turn, flooding ...).

        It goes to ``owner`` when given (the game of the request a late answer
        answers), else to the game the player sits in now.
        """
        # a late answer follows a timeout that was already reported: worth a line with --verbose only
        emit = log.info if kind == "late" else log.warning
        emit("bot fault", player=self.player_id, kind=kind, detail=detail)
        hook = owner or self.on_violation
        if hook is not None:
            hook(kind, detail)

    def drop(self) -> None:
        """Close the current stream, if any, and forget it (its process is gone)."""
        conn = self.connection
        if conn is not None:
            conn.close()
            self._detach(conn)

    def _attach(self, conn: Connection, hello: HelloMsg) -> None:
        self.connection = conn
        self.hello = hello
        if self.name_from_hello and hello.bot_name.strip():
            self.bot_name = printable_name(hello.bot_name)
        self._connected.set()

    def _detach(self, conn: Connection) -> None:
        if self.connection is conn:
            self.connection = None
            self._connected.clear()


class Connection:
    """One bot's stream. The match writes and asks; the stream's own task reads.

    What it does not do itself: the deadline of a request and the time given
    back (``referee.deadline``), and the bookkeeping of requests and errors
    (``referee.ledger``).
    """

    def __init__(self, player: Player, context: grpc.aio.ServicerContext, limits: Limits) -> None:
        self.player = player
        self.closed = False
        self._context = context
        self._limits = limits
        self._loop = asyncio.get_running_loop()
        self._task = asyncio.current_task(self._loop)
        self._write_lock = asyncio.Lock()
        self._pending: asyncio.Future[ActionMsg | Closed] | None = None
        self._pending_id = 0
        self._ledger = RequestLedger()
        self._flood = FloodGuard(limits.flood_errors, limits.flood_window_s)
        self._ended = asyncio.Event()  # the bot's side of the stream has ended (read_loop returned)
        self._writer: asyncio.Task[object] | None = None  # the task of ask() while it hands a request to gRPC
        self._write_cut = False  # _time_up cancelled that write
        # the time the last answer is charged: from the request to the answer, less the time given back
        self.think_s = 0.0
        self.startup = StartupUse()  # the process's start-up allowance: a stream is a process (a new one, anew)

    # ----------------------------------------------------------- match side

    async def send(self, data: bytes) -> bool:
        """Write one message; False when the stream is gone (or stopped taking messages)."""
        if self.closed:
            return False
        try:
            async with self._write_lock:
                async with asyncio.timeout(self._limits.write_timeout_s):
                    await self._context.write(data)
            return True
        except TimeoutError:
            self.player.report(
                ViolationKind.PROTOCOL,
                f"stopped reading its stream (a write waited {self._limits.write_timeout_s:g} s)",
            )
            self.close()
            return False
        except Exception as exc:
            log.debug("write failed", player=self.player.player_id, error=repr(exc))
            return False

    async def ask(
        self, data: bytes, request_id: int, limit_s: float, *, free_s: float | None = None
    ) -> ActionMsg | Closed:
        """Send a request and wait for the Action naming ``request_id``.

        The clock starts as the request is handed to gRPC; ``referee.deadline``
        says when time is up, giving back the referee's own lateness and the
        bot's waits for a CPU caused by others. After an answer, ``think_s`` is
        the time charged for it (``free_s``: the part of the limit that costs
        nothing, a time bank paying the rest).
        """
        if self.closed:
            return Closed.DISCONNECTED
        loop = self._loop
        fut: asyncio.Future[ActionMsg | Closed] = loop.create_future()
        self._pending, self._pending_id = fut, request_id
        self._ledger.issue(request_id, self.player.on_violation)
        deadline = Deadline(
            limit_s,
            partial(self._time_up, fut),
            clock=self.player.wait_clock,
            slack_s=self._limits.lag_slack_s,
            loop=loop,
        )
        deadline.start()
        try:
            self._writer = asyncio.current_task(loop)
            async with self._write_lock:
                await self._context.write(data)
        except asyncio.CancelledError:
            if not self._write_cut:
                deadline.stop()
                self._ledger.withdraw(request_id)
                raise
            # cut off at the deadline (see _time_up): this request timed out, the stream is closed
            if self._writer is not None:
                self._writer.uncancel()
            self._write_cut = False
        except Exception as exc:
            log.debug("write failed", player=self.player.player_id, error=repr(exc))
            self.closed = True
            # the write may fail after the request left (the stream cut as the referee stops): an answer to it,
            # if one comes before the stream ends, is no fault
            self._ledger.withdraw(request_id)
            if not fut.done():
                fut.set_result(Closed.DISCONNECTED)
        finally:
            self._writer = None
        try:
            answer = await fut
        except asyncio.CancelledError:
            self._ledger.withdraw(request_id)  # the referee is stopping: the answer, if it comes, is no fault
            raise
        finally:
            self._pending = None
            deadline.stop()
        self.think_s = deadline.charged(free_s)
        return answer

    def _time_up(self, fut: asyncio.Future[ActionMsg | Closed]) -> None:
        if fut.done():
            return
        fut.set_result(Closed.TIMEOUT)
        self._ledger.time_out(self._pending_id)
        if self._writer is not None:
            # the request is still not taken: the bot stopped reading its stream
            self.player.report(
                ViolationKind.PROTOCOL, "stopped reading its stream (a request could not be delivered in time)"
            )
            self._write_cut = True
            self._writer.cancel()
            self.close()

    async def wait_ended(self, timeout_s: float) -> bool:
        """Wait up to ``timeout_s`` for the bot to end its side of the stream (a half-close after Shutdown);
        True when it did. The stream then ends with status OK, not cut by ``close``."""
        with contextlib.suppress(TimeoutError):
            async with asyncio.timeout(timeout_s):
                await self._ended.wait()
        return self._ended.is_set()

    def close(self) -> None:
        """Drop the stream now (the bot sees it cancelled)."""
        if not self.closed and self._task is not None and self._task is not asyncio.current_task():
            self._task.cancel()
        self.closed = True

    # ------------------------------------------------------------ reader side

    async def read_loop(self) -> None:
        """Read until the stream ends; deliver answers, answer everything else with an Error."""
        ctx = self._context
        limits = self._limits
        try:
            while True:
                data = await ctx.read()
                if data is grpc.aio.EOF:
                    return
                if len(data) > limits.max_message_bytes:
                    detail = f"a message of {len(data)} bytes is over the limit of {limits.max_message_bytes} bytes"
                    if not await self._fault(ErrorCode.TOO_LARGE, ViolationKind.MALFORMED, detail):
                        return
                    continue
                try:
                    msg = decode_bot_message(data)
                except ProtocolError as exc:
                    if not await self._fault(ErrorCode.MALFORMED, ViolationKind.MALFORMED, str(exc)):
                        return
                    continue
                if isinstance(msg, ActionMsg):
                    fut = self._pending
                    rid = msg.request_id
                    if fut is not None and rid == self._pending_id and not fut.done():
                        fut.set_result(msg)
                        continue
                    if rid and rid == self._ledger.withdrawn:
                        log.debug("answer to a withdrawn request", player=self.player.player_id, request_id=rid)
                        continue
                    open_id = self._pending_id if fut is not None and not fut.done() else None
                    wrong = self._ledger.misplaced(rid, open_id)
                    ok = await self._fault(
                        wrong.code, wrong.kind, wrong.detail, request_id=rid, owner=self._ledger.owner(rid)
                    )
                else:
                    ok = await self._fault(
                        ErrorCode.BAD_HELLO, ViolationKind.PROTOCOL, "a second Hello on the same stream"
                    )
                if not ok:
                    return
        finally:
            self.closed = True
            self._ended.set()
            if self._pending is not None and not self._pending.done():
                self._pending.set_result(Closed.DISCONNECTED)

    async def _fault(
        self,
        code: ErrorCode,
        kind: ViolationKind,
        detail: str,
        request_id: int = 0,
        owner: ViolationHook | None = None,
    ) -> bool:
        """Tell the bot, report it (to ``owner``, see ``Player.report``); False when the bot is flooding
        and is now disconnected."""
        if self._flood.hit(time.monotonic()):
            detail = (
                f"disconnected after {self._flood.count} errors within {self._limits.flood_window_s:g} s "
                f"(last: {detail})"
            )
            self.player.report(ViolationKind.PROTOCOL, detail)
            await self.send(to_bytes(error_to_pb(code, detail, request_id, fatal=True)))
            return False
        self.player.report(kind, detail, owner)
        await self.send(to_bytes(error_to_pb(code, detail, request_id)))
        return True


class ArenaServer:
    """The gRPC server and its token registry. ``await start()``, then ``address``.

    ``tcp``: listen on ``host:port`` for bots started by hand (``arena
    serve``, ``arena play``'s own client). Launched bots get a seat of their
    own (``open_seat``) and never need it: a tournament's tables do without.
    """

    def __init__(
        self, host: str = DEFAULT_HOST, port: int = 0, limits: Limits | None = None, *, tcp: bool = True
    ) -> None:
        self.host = host
        self.port = port
        self.tcp = tcp
        self.limits = limits or Limits()
        self._players: dict[str, Player] = {}
        self._server: grpc.aio.Server | None = None
        self._seats: dict[Player, grpc.aio.Server] = {}
        self._sockets: str | None = None  # the folder of the seats' sockets (made at the first open_seat)
        self._socket_names = itertools.count(1)
        self._health = health.aio.HealthServicer()

    @property
    def address(self) -> str:
        if not self.tcp:
            raise RuntimeError("this server does not listen on TCP (ArenaServer(tcp=False))")
        host = f"[{self.host}]" if ":" in self.host else self.host
        return f"{host}:{self.port}"

    # ------------------------------------------------------------- registry

    def add_player(self, player_id: str, bot_name: str, *, name_from_hello: bool = False) -> Player:
        """A new expected bot with a fresh secret token."""
        player = Player(player_id, bot_name, name_from_hello=name_from_hello)
        self._players[player.token] = player
        return player

    async def remove_player(self, player: Player) -> None:
        """Forget the player, close its stream and its seat's socket."""
        self._players.pop(player.token, None)
        if player.connection is not None:
            player.connection.close()
        seat = self._seats.pop(player, None)
        if seat is not None:
            await seat.stop(0)
        if player.endpoint is not None:
            with contextlib.suppress(OSError):
                os.unlink(player.endpoint.socket)
            player.endpoint = None

    async def open_seat(self, player: Player, *, tcp: bool = False) -> SeatEndpoint:
        """The player's own endpoint (made at the first call): a Unix socket that serves its token only,
        and with ``tcp`` a 127.0.0.1 port of its own too."""
        if player.endpoint is not None and (player.endpoint.tcp_port is not None or not tcp):
            return player.endpoint
        if player.token not in self._players:
            raise ValueError(f"{player!r} is not a player of this server")
        old = self._seats.pop(player, None)
        if old is not None:
            await old.stop(0)
        if self._sockets is None:
            self._sockets = _socket_folder()
        path = os.path.join(self._sockets, f"{next(self._socket_names)}.sock")
        server = self._grpc_server(partial(self._play, seat=player))
        _listen(server, f"unix:{path}", f"cannot make the seat socket {path}")
        port = _listen(server, f"{DEFAULT_HOST}:0", "cannot listen on 127.0.0.1") if tcp else None
        await server.start()
        self._seats[player] = server
        player.endpoint = SeatEndpoint(path, port)
        log.debug("seat open", player=player.player_id, socket=path, port=port)
        return player.endpoint

    # ------------------------------------------------------------- lifecycle

    def _grpc_server(self, play_handler: Callable[..., Awaitable[None]]) -> grpc.aio.Server:
        limits = self.limits
        server = grpc.aio.server(
            options=[
                ("grpc.max_receive_message_length", limits.hard_message_bytes),
                ("grpc.max_send_message_length", limits.hard_message_bytes),
                # a busy fixed port must be an error, not a silently shared one
                ("grpc.so_reuseport", 0),
            ]
        )
        play = grpc.stream_stream_rpc_method_handler(play_handler)  # raw bytes both ways
        server.add_generic_rpc_handlers((grpc.method_handlers_generic_handler(SERVICE_NAME, {"Play": play}),))
        health_pb2_grpc.add_HealthServicer_to_server(self._health, server)
        reflection.enable_server_reflection((SERVICE_NAME, health.SERVICE_NAME, reflection.SERVICE_NAME), server)
        return server

    async def start(self) -> None:
        for service in ("", SERVICE_NAME):
            await self._health.set(service, health_pb2.HealthCheckResponse.SERVING)
        if not self.tcp:
            return
        server = self._grpc_server(self._play)
        what = f"cannot listen on {self.address}"
        self.port = _listen(
            server, f"{self._bind_host()}:{self.port}", what, "address in use, or not an address of this machine"
        )
        await server.start()
        self._server = server
        log.debug("listening", address=self.address)

    def _bind_host(self) -> str:
        return f"[{self.host}]" if ":" in self.host else self.host

    async def stop(self, grace_s: float = 1.0) -> None:
        await self._health.enter_graceful_shutdown()
        servers = [*self._seats.values(), *([self._server] if self._server is not None else [])]
        self._seats.clear()
        self._server = None
        await asyncio.gather(*(server.stop(grace_s) for server in servers))
        for player in self._players.values():
            player.endpoint = None
        if self._sockets is not None:
            shutil.rmtree(self._sockets, ignore_errors=True)
            self._sockets = None

    async def __aenter__(self) -> Self:
        await self.start()
        return self

    async def __aexit__(self, *exc: object) -> None:
        await self.stop()

    # ----------------------------------------------------------------- Play

    async def _play(self, _requests: object, context: grpc.aio.ServicerContext, seat: Player | None = None) -> None:
        """One stream; on a seat's socket (``seat``), only that seat's token is taken."""
        limits = self.limits
        try:
            async with asyncio.timeout(limits.hello_timeout_s):
                data = await context.read()
        except TimeoutError:
            await _reject(context, ErrorCode.BAD_HELLO, f"no Hello within {limits.hello_timeout_s:g} s")
            return
        if data is grpc.aio.EOF:
            return
        if len(data) > limits.max_message_bytes:
            await _reject(
                context,
                ErrorCode.TOO_LARGE,
                f"a Hello of {len(data)} bytes is over the limit of {limits.max_message_bytes}",
            )
            return
        try:
            hello = decode_bot_message(data)
        except ProtocolError as exc:
            await _reject(context, ErrorCode.MALFORMED, str(exc))
            return
        if not isinstance(hello, HelloMsg):
            await _reject(context, ErrorCode.BAD_HELLO, "the first message on a stream must be a Hello")
            return
        if hello.protocol_version != PROTOCOL_VERSION:
            await _reject(
                context,
                ErrorCode.UNSUPPORTED_VERSION,
                f"protocol version {hello.protocol_version} is not supported (this referee speaks {PROTOCOL_VERSION})",
            )
            return
        player = self._players.get(hello.token)
        if seat is not None and player is not seat:
            log.warning("wrong seat's token", seat=seat.player_id, bot=printable_name(hello.bot_name))
            await _reject(context, ErrorCode.BAD_TOKEN, "this socket serves one seat, and the token is not its own")
            return
        if player is None:
            log.warning("unknown token", peer=context.peer(), bot=printable_name(hello.bot_name))
            await _reject(context, ErrorCode.BAD_TOKEN, "unknown token: use the ARENA_TOKEN the referee gave you")
            return
        if player.connected:
            # an intrusion: whoever holds the token, the bot in the seat did nothing wrong
            log.warning(
                "intrusion refused", player=player.player_id, peer=context.peer(), bot=printable_name(hello.bot_name)
            )
            await _reject(context, ErrorCode.SEAT_TAKEN, f"another stream is already connected as {player.player_id}")
            return
        conn = Connection(player, context, limits)
        if not await conn.send(to_bytes(welcome_to_pb(player.player_id, __version__))):
            return
        player._attach(conn, hello)
        log.debug(
            "bot connected",
            player=player.player_id,
            bot=printable_name(hello.bot_name),
            version=printable_name(hello.bot_version),
        )
        try:
            await conn.read_loop()
        finally:
            player._detach(conn)
            log.debug("bot disconnected", player=player.player_id)


async def _reject(context: grpc.aio.ServicerContext, code: ErrorCode, message: str) -> None:
    """A fatal Error to a stream that is not (or not yet) a player's, then the stream ends."""
    try:
        await context.write(to_bytes(error_to_pb(code, message, fatal=True)))
    except Exception as exc:
        log.debug("reject not delivered", error=repr(exc))


def _listen(server: grpc.aio.Server, address: str, what: str, why: str = "") -> int:
    """Add ``address`` to ``server``; the port (1 for a Unix socket), or OSError saying ``what`` failed."""
    try:
        port = server.add_insecure_port(address)
    except RuntimeError as exc:
        raise OSError(f"{what}: {exc}") from None
    if port == 0:
        raise OSError(f"{what} ({why})" if why else what)
    return port


# a Unix socket's path holds at most 107 bytes: the folder leaves room for the file name
_MAX_SOCKET_FOLDER = 90


def _socket_folder() -> str:
    """A new folder (mode 0700) for the seats' sockets: in the temporary folder, or /tmp if its path is long."""
    folder = tempfile.mkdtemp(prefix="arena-seats-")
    if len(folder) > _MAX_SOCKET_FOLDER:
        os.rmdir(folder)
        folder = tempfile.mkdtemp(prefix="arena-seats-", dir="/tmp")
    return folder
