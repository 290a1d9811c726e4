"""The server against hostile and confused clients: each protocol violation gets a clear Error,
a seated bot's violation reaches the game log, and the referee keeps serving.

Clients here are raw gRPC streams in the test process, so each test can send
exactly the bytes it wants; health checking and reflection are checked with
the standard stubs.
"""

from __future__ import annotations

import asyncio
import re
from collections.abc import Awaitable, Callable
from pathlib import Path

import grpc
import pytest
from grpc_health.v1 import health_pb2, health_pb2_grpc
from grpc_reflection.v1alpha import reflection_pb2, reflection_pb2_grpc

from referee.engine.game import DecisionKind
from referee.match import Match
from referee.protocol.decoded import ActionMsg, ErrorInfo, WelcomeInfo, decode_referee_message
from referee.protocol.domain import PLAY_METHOD, PROTOCOL_VERSION, SERVICE_NAME, ErrorCode
from referee.protocol.encoder import RequestEncoder
from referee.protocol.messages import action_to_pb, game_start_to_pb, hello_to_pb, to_bytes, welcome_to_pb
from referee.server import ArenaServer, Closed, Limits, Player
from tests.support.aio import run_async
from tests.support.logs import of_kind, revealed
from tests.support.processes import until
from tests.support.referee import in_process, run_match


class Raw:
    """One bidirectional stream, bytes in and out."""

    def __init__(self, address: str) -> None:
        self.channel = grpc.aio.insecure_channel(address)
        self.call = self.channel.stream_stream(PLAY_METHOD)()

    async def send(self, data: bytes) -> None:
        await self.call.write(data)

    async def hello(self, token: str, version: int = PROTOCOL_VERSION) -> None:
        msg = hello_to_pb(token, "raw", "1")
        msg.hello.protocol_version = version
        await self.send(to_bytes(msg))

    async def action(self, request_id: int, card: int = 0) -> None:
        await self.send(to_bytes(action_to_pb(request_id, DecisionKind.PLAY, card)))

    async def recv(self) -> object:
        data = await asyncio.wait_for(self.call.read(), 5)
        if data is grpc.aio.EOF:
            return data
        return decode_referee_message(data, seat=0, players=4)

    async def error(self) -> ErrorInfo:
        msg = await self.recv()
        assert isinstance(msg, ErrorInfo), msg
        return msg

    async def ended(self) -> bool:
        """True when the referee ended the stream (EOF or a final status)."""
        try:
            return await self.recv() is grpc.aio.EOF
        except grpc.aio.AioRpcError:
            return True

    async def close(self) -> None:
        self.call.cancel()
        await self.channel.close()


# what the referee "asks" in these tests: any referee message will do for a raw client
STAND_IN = to_bytes(welcome_to_pb("stand-in request", "0"))

Scenario = Callable[[ArenaServer, list[tuple[str, str, str]]], Awaitable[None]]


def serve(scenario: Scenario, limits: Limits | None = None) -> list[tuple[str, str, str]]:
    """Run ``scenario(server, reports)`` against a fresh server; returns what players reported."""
    reports: list[tuple[str, str, str]] = []

    async def go() -> None:
        async with ArenaServer(limits=limits) as server:
            await scenario(server, reports)

    run_async(go())
    return reports


def watch(player: Player, reports: list) -> None:
    player.on_violation = lambda kind, detail: reports.append((player.player_id, kind, detail))


async def connected(server: ArenaServer, name: str = "p") -> tuple[Player, Raw]:
    player = server.add_player(name, "raw")
    raw = Raw(server.address)
    await raw.hello(player.token)
    assert isinstance(await raw.recv(), WelcomeInfo)
    await asyncio.wait_for(player.wait_connected(), 5)
    return player, raw


def test_wrong_token_is_refused_and_the_server_goes_on() -> None:
    async def scenario(server: ArenaServer, reports: list) -> None:
        raw = Raw(server.address)
        await raw.hello("not-a-token")
        err = await raw.error()
        assert err.code is ErrorCode.BAD_TOKEN and err.fatal and "unknown token" in err.message
        assert await raw.ended()
        player, good = await connected(server)  # still serving
        assert player.connected
        await raw.close()
        await good.close()

    serve(scenario)


def test_a_seat_socket_serves_its_own_token_only() -> None:
    """Issue 19: each launched bot gets a Unix socket of its own; another seat's token is refused there
    (and on the TCP port both are still served, for bots started by hand)."""

    async def scenario(server: ArenaServer, reports: list) -> None:
        mine, other = server.add_player("mine", "raw"), server.add_player("other", "raw")
        seat = await server.open_seat(mine)
        assert seat.target == f"unix:{seat.socket}" and Path(seat.socket).is_socket()
        assert seat.tcp_port is None and await server.open_seat(mine) == seat  # made once
        intruder = Raw(seat.target)
        await intruder.hello(other.token)
        err = await intruder.error()
        assert err.code is ErrorCode.BAD_TOKEN and err.fatal and "serves one seat" in err.message
        assert await intruder.ended() and not other.connected
        owner = Raw(seat.target)
        await owner.hello(mine.token)
        assert isinstance(await owner.recv(), WelcomeInfo)
        await asyncio.wait_for(mine.wait_connected(), 5)
        with_port = await server.open_seat(other, tcp=True)  # a bare bot that cannot dial a Unix socket
        assert with_port.tcp_address == f"127.0.0.1:{with_port.tcp_port}" and with_port.socket != seat.socket
        by_tcp = Raw(str(with_port.tcp_address))
        await by_tcp.hello(mine.token)
        assert (await by_tcp.error()).code is ErrorCode.BAD_TOKEN
        await owner.close()
        await server.remove_player(mine)  # its socket goes with it
        assert not Path(seat.socket).exists() and mine.endpoint is None
        for raw in (intruder, by_tcp):
            await raw.close()

    serve(scenario)


@pytest.mark.parametrize(
    ("first", "code", "words"),
    [
        (to_bytes(action_to_pb(1, DecisionKind.PLAY, 0)), ErrorCode.BAD_HELLO, "must be a Hello"),
        (b"\xff\xff\xff garbage", ErrorCode.MALFORMED, "not a BotMessage"),
        (b"", ErrorCode.MALFORMED, "empty BotMessage"),
    ],
)
def test_a_stream_must_open_with_a_hello(first: bytes, code: ErrorCode, words: str) -> None:
    async def scenario(server: ArenaServer, reports: list) -> None:
        raw = Raw(server.address)
        await raw.send(first)
        err = await raw.error()
        assert err.code is code and err.fatal and words in err.message, err
        assert await raw.ended()
        await raw.close()

    serve(scenario)


def test_unsupported_protocol_version() -> None:
    async def scenario(server: ArenaServer, reports: list) -> None:
        player = server.add_player("p", "raw")
        raw = Raw(server.address)
        await raw.hello(player.token, version=2)
        err = await raw.error()
        assert err.code is ErrorCode.UNSUPPORTED_VERSION and "version 2" in err.message
        assert not player.connected
        await raw.close()

    serve(scenario)


def test_no_hello_in_time() -> None:
    async def scenario(server: ArenaServer, reports: list) -> None:
        raw = Raw(server.address)
        await raw.call.wait_for_connection()
        err = await raw.error()
        assert err.code is ErrorCode.BAD_HELLO and "no Hello within 0.3 s" in err.message
        await raw.close()

    serve(scenario, Limits(hello_timeout_s=0.3))


def test_second_connection_for_a_seat_is_refused_and_not_charged_to_the_seat() -> None:
    async def scenario(server: ArenaServer, reports: list) -> None:
        player, first = await connected(server)
        watch(player, reports)
        second = Raw(server.address)
        await second.hello(player.token)
        err = await second.error()
        assert err.code is ErrorCode.SEAT_TAKEN and err.fatal
        assert player.connection is not None
        ask = asyncio.create_task(player.connection.ask(STAND_IN, 1, 5))
        await first.recv()
        await first.action(1)
        answer = await ask  # the first stream still plays
        assert not isinstance(answer, Closed) and answer.request_id == 1
        await first.close()
        await second.close()

    reports = serve(scenario)
    assert reports == []  # the intruder is not the seat's bot


def test_out_of_turn_and_stale_answers() -> None:
    async def scenario(server: ArenaServer, reports: list) -> None:
        player, raw = await connected(server)
        watch(player, reports)
        conn = player.connection
        assert conn is not None
        await raw.action(42)  # nothing asked yet
        err = await raw.error()
        assert err.code is ErrorCode.OUT_OF_TURN and err.request_id == 42 and not err.fatal
        # request 1 times out; its answer is late, a second one stale
        assert await conn.ask(STAND_IN, 1, 0.05) is Closed.TIMEOUT
        await raw.recv()
        await raw.action(1)
        err = await raw.error()
        assert err.code is ErrorCode.STALE_REQUEST and "request 1 after its time ran out" in err.message
        await raw.action(1)
        err = await raw.error()
        assert err.code is ErrorCode.STALE_REQUEST and "request 1, which is closed" in err.message
        # while request 2 is open: a wrong id is refused, the right one is taken
        ask = asyncio.create_task(conn.ask(STAND_IN, 2, 5))
        await raw.recv()
        await raw.action(7)
        err = await raw.error()
        assert err.code is ErrorCode.STALE_REQUEST and "never sent (the open request is 2)" in err.message
        await raw.action(2)
        answer = await ask
        assert not isinstance(answer, Closed) and answer.request_id == 2
        await raw.close()

    reports = serve(scenario)
    assert [kind for _, kind, _ in reports] == ["protocol", "late", "protocol", "protocol"]


def test_malformed_and_oversized_messages_get_errors_and_the_stream_goes_on() -> None:
    async def scenario(server: ArenaServer, reports: list) -> None:
        player, raw = await connected(server)
        watch(player, reports)
        await raw.send(b"\x08\x96\x01\xff")  # not a BotMessage
        err = await raw.error()
        assert err.code is ErrorCode.MALFORMED and not err.fatal
        await raw.send(to_bytes(hello_to_pb("x" * 70_000, "big", "1")))
        err = await raw.error()
        assert err.code is ErrorCode.TOO_LARGE and "over the limit of 65536 bytes" in err.message
        await raw.hello(player.token)  # a second Hello
        err = await raw.error()
        assert err.code is ErrorCode.BAD_HELLO
        assert player.connection is not None
        ask = asyncio.create_task(player.connection.ask(STAND_IN, 1, 5))
        await raw.recv()
        await raw.action(1)
        assert not isinstance(await ask, Closed)
        await raw.close()

    reports = serve(scenario)
    assert [kind for _, kind, _ in reports] == ["malformed", "malformed", "protocol"]


def test_a_huge_message_cuts_only_that_stream() -> None:
    async def scenario(server: ArenaServer, reports: list) -> None:
        player, raw = await connected(server)
        await raw.send(to_bytes(hello_to_pb("x" * 2_000_000, "huge", "1")))
        assert await raw.ended()
        await until(lambda: not player.connected, "the server to drop the cut stream")
        other, raw2 = await connected(server, "q")  # the server still serves
        assert other.connected
        await raw.close()
        await raw2.close()

    serve(scenario)


def test_a_flooding_bot_is_disconnected() -> None:
    async def scenario(server: ArenaServer, reports: list) -> None:
        player, raw = await connected(server)
        watch(player, reports)
        for k in range(30):
            try:
                await raw.action(1000 + k)
            except (grpc.aio.AioRpcError, asyncio.InvalidStateError):
                break
        errors: list[ErrorInfo] = []
        while True:
            msg = await raw.recv()
            if msg is grpc.aio.EOF:
                break
            assert isinstance(msg, ErrorInfo), msg
            errors.append(msg)
        assert len(errors) == 21 and errors[-1].fatal and "disconnected after 21 errors" in errors[-1].message
        await until(lambda: not player.connected, "the server to drop the flooding stream")
        await raw.close()

    reports = serve(scenario, Limits(flood_errors=20))
    assert len(reports) == 21


def test_an_intruder_in_a_game_is_refused_and_charges_no_seat(tmp_path: Path) -> None:
    """While a game runs, seat 0's token is presented by a second stream: refused; seat 0's bot did nothing wrong."""
    refused: list[ErrorInfo] = []

    def sabotage(match: Match) -> None:
        async def second_connection() -> None:
            player = match.players[0]
            await until(lambda: player.on_violation is not None, "the game to start")
            raw = Raw(match.server.address)
            await raw.hello(player.token)
            refused.append(await raw.error())
            await raw.close()

        asyncio.get_running_loop().create_task(second_connection())

    result = run_match(
        tmp_path, "neuralplay", [in_process() for _ in range(4)], rules=["hand_limit=6"], during=sabotage
    )
    assert [e.code for e in refused] == [ErrorCode.SEAT_TAKEN]
    assert of_kind(revealed(result.log_path), "violation") == []
    assert result.games[0].reason == "hand-limit" and result.games[0].violations == ()


def test_health_and_reflection_answer() -> None:
    async def scenario(server: ArenaServer, reports: list) -> None:
        async with grpc.aio.insecure_channel(server.address) as channel:
            health = health_pb2_grpc.HealthStub(channel)
            for service in ("", SERVICE_NAME):
                reply = await health.Check(health_pb2.HealthCheckRequest(service=service))
                assert reply.status == health_pb2.HealthCheckResponse.SERVING
            stub = reflection_pb2_grpc.ServerReflectionStub(channel)
            call = stub.ServerReflectionInfo()
            await call.write(reflection_pb2.ServerReflectionRequest(list_services=""))
            listed = await call.read()
            names = {s.name for s in listed.list_services_response.service}
            assert SERVICE_NAME in names
            await call.write(reflection_pb2.ServerReflectionRequest(file_containing_symbol=SERVICE_NAME))
            files = await call.read()
            assert files.file_descriptor_response.file_descriptor_proto
            await call.done_writing()

    serve(scenario)


def test_binds_loopback_by_default_and_reports_a_busy_port() -> None:
    async def scenario(server: ArenaServer, reports: list) -> None:
        assert server.address.startswith("127.0.0.1:") and server.port > 0
        with pytest.raises(OSError, match=r"cannot listen on 127\.0\.0\.1"):
            await ArenaServer(port=server.port).start()

    serve(scenario)


def _stalled_ask(limits: Limits) -> ActionMsg | Closed:
    """A real bot process answers at once, while the referee's event loop is stalled past the deadline."""
    import random
    import subprocess
    import sys
    import time

    from referee.engine.game import Game
    from referee.engine.presets import rules_for
    from referee.engine.simulate import shuffled_deck

    async def go() -> ActionMsg | Closed:
        async with ArenaServer(limits=limits) as server:
            player = server.add_player("p", "first")
            bot = subprocess.Popen(  # noqa: ASYNC220 - started once, before anything is timed
                [sys.executable, "-m", "example_bots.first_bot", "--address", server.address, "--token", player.token]
            )
            try:
                await asyncio.wait_for(player.wait_connected(), 20)
                conn = player.connection
                assert conn is not None
                rules = rules_for("neuralplay")
                await conn.send(
                    to_bytes(
                        game_start_to_pb(
                            game_id="g1",
                            preset="neuralplay",
                            rules=rules,
                            seat=1,
                            seat_names=["x"] * 4,
                            move_time_ms=200,
                            first_dealer=0,
                        )
                    )
                )
                game = Game(rules, 0)
                game.deal(shuffled_deck(rules, random.Random(1)))
                decision = game.decision()
                assert decision is not None and decision.seat == 1
                request = RequestEncoder().decision(
                    game, decision, request_id=1, game_id="g1", events=[], time_limit_ms=200
                )
                asyncio.get_running_loop().call_soon(time.sleep, 0.8)  # the referee is busy elsewhere
                return await conn.ask(request, 1, 0.25)
            finally:
                bot.kill()
                bot.wait()

    return run_async(go())


def test_an_answer_that_came_in_time_counts_even_if_the_referee_was_busy() -> None:
    answer = _stalled_ask(Limits())
    assert not isinstance(answer, Closed) and answer.request_id == 1


def test_a_bot_that_stops_reading_cannot_stall_the_referee() -> None:
    """Requests pile up unread until gRPC's flow control blocks the write: the deadline cuts the stream."""

    async def scenario(server: ArenaServer, reports: list) -> None:
        player, raw = await connected(server)
        watch(player, reports)
        conn = player.connection
        assert conn is not None
        bulky = to_bytes(welcome_to_pb("x" * 500_000, "0"))  # never read by the bot
        outcomes = []
        for request_id in range(1, 100):
            outcomes.append(await asyncio.wait_for(conn.ask(bulky, request_id, 0.1), 5))
            if outcomes[-1] is Closed.DISCONNECTED:
                break
        assert outcomes[-1] is Closed.DISCONNECTED and set(outcomes[:-1]) == {Closed.TIMEOUT}
        assert not player.connected
        await raw.close()

    reports = serve(scenario)
    assert ("p", "protocol", "stopped reading its stream (a request could not be delivered in time)") in reports


def test_seat_tokens_parse_as_a_command_line_value() -> None:
    """A token is handed to a bot as ``--token TOKEN``: one starting with '-' would be read as an option
    (seen: a urlsafe token made `arena serve` wait for a bot that could not start)."""
    server = ArenaServer()
    tokens = [server.add_player(f"p{k}", "bot").token for k in range(500)]
    assert len(set(tokens)) == 500
    assert all(re.fullmatch(r"[0-9a-f]{32}", t) for t in tokens)
