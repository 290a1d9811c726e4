"""Connect a ``Bot`` to the referee and play until it says Shutdown.

``run(bot)`` reads the referee's address and the seat token from
ARENA_ADDRESS / ARENA_TOKEN (or ``--address`` / ``--token``), says Hello and
then answers the referee: GameStart (``bot.game_start``), DecisionRequest
(``bot.decide`` on the rebuilt ``SeatView``; ``bot.hand_end`` first when the
request brings the end of a hand), GameOver (``bot.hand_end`` for the last
hand, then ``bot.game_over``),
Error (logged to stderr; a fatal one ends the process with status 1) and
Shutdown (status 0). One process plays game after game, whatever seat the
referee gives it.

Where the compiled double-dummy solver is not built (a slim install without a
compiler), ``run`` says so in one line on stderr as it starts: the engine's
claims then fall back to its pure-Python search.

When ARENA_SEED is set, ``bot.rng`` is reseeded at every GameStart from the
seed and the game id, so a game replays exactly whatever the process played
before it.

The loop is a single grpc.aio coroutine moving raw bytes; ``decide`` runs
inline, so the runner adds a few tens of microseconds per decision.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import sys
from collections.abc import Sequence

import grpc

from referee.engine.events import DealEvent, Event, HandEndEvent
from referee.engine.rules import Rules
from referee.engine.view import SeatView, game_over_view, hand_end_view
from referee.protocol import decoded, messages
from referee.protocol.decoded import (
    ErrorInfo,
    GameOverInfo,
    GameStartInfo,
    RequestInfo,
    ShutdownInfo,
    WelcomeInfo,
)
from referee.protocol.domain import PLAY_METHOD, ErrorCode, ProtocolError
from referee.solver import unavailable_reason
from sdk.bot import Bot
from sdk.log import configure, get_logger

log = get_logger("sdk")


class SessionError(Exception):
    """The session cannot go on; the message says why (one line)."""


def parse_args(argv: Sequence[str] | None, bot: Bot) -> argparse.Namespace:
    parser = argparse.ArgumentParser(
        prog=bot.name, description=f"Bid Euchre arena bot {bot.name!r}: connects to a referee and plays."
    )
    parser.add_argument(
        "--address",
        default=os.environ.get("ARENA_ADDRESS"),
        help="the referee's gRPC target: unix:/PATH or host:port (ARENA_ADDRESS)",
    )
    parser.add_argument("--token", default=os.environ.get("ARENA_TOKEN"), help="seat token (ARENA_TOKEN)")
    parser.add_argument(
        "--seed", type=int, default=_env_int("ARENA_SEED"), help="seed for bot.rng, per game (ARENA_SEED)"
    )
    parser.add_argument("--log-level", default="info", choices=("debug", "info", "warning", "error"))
    args = parser.parse_args(argv)
    if not args.address:
        parser.error("no referee address: set ARENA_ADDRESS or pass --address TARGET (unix:/PATH or HOST:PORT)")
    if not args.token:
        parser.error("no seat token: set ARENA_TOKEN or pass --token TOKEN")
    return args


def _env_int(name: str) -> int | None:
    text = os.environ.get(name)
    if text is None or not text.strip():
        return None
    try:
        return int(text)
    except ValueError:
        print(f"{name}={text!r} is not an integer", file=sys.stderr)
        raise SystemExit(2) from None


def run(bot: Bot, argv: Sequence[str] | None = None) -> None:
    """Play as ``bot`` until the referee shuts the session down; exits the process."""
    args = parse_args(sys.argv[1:] if argv is None else argv, bot)
    configure(args.log_level)
    if (missing := unavailable_reason()) is not None:
        print(f"note: {missing}; the engine's claims fall back to its pure-Python search", file=sys.stderr)
    try:
        asyncio.run(play_session(bot, args.address, args.token, seed=args.seed))
    except SessionError as exc:
        log.error("session ended", bot=bot.name, reason=str(exc))
        raise SystemExit(1) from None
    except KeyboardInterrupt:
        raise SystemExit(130) from None
    raise SystemExit(0)


async def play_session(bot: Bot, address: str, token: str, *, seed: int | None = None) -> None:
    """One session with the referee at ``address``; returns on Shutdown, raises SessionError otherwise."""
    async with grpc.aio.insecure_channel(address) as channel:
        call = channel.stream_stream(PLAY_METHOD)()  # raw bytes both ways
        try:
            await _serve(bot, call, token, seed)
        except grpc.aio.AioRpcError as exc:
            raise SessionError(f"the stream to {address} failed: {exc.code().name}: {exc.details()}") from None
        finally:
            call.cancel()


async def _serve(bot: Bot, call: grpc.aio.StreamStreamCall, token: str, seed: int | None) -> None:
    await call.write(messages.to_bytes(messages.hello_to_pb(token, bot.name, bot.version)))
    read, write = call.read, call.write
    decode, to_bytes, action_to_pb = decoded.decode_referee_message, messages.to_bytes, messages.action_to_pb
    view_from_request = decoded.view_from_request
    seat, players, first_dealer = 0, 0, 0
    rules = None
    hand_events: list[Event] = []
    while True:
        data = await read()
        if data is grpc.aio.EOF:
            raise SessionError("the referee closed the stream without a Shutdown")
        try:
            msg = decode(data, seat=seat, players=players)
        except ProtocolError as exc:
            raise SessionError(f"cannot read a referee message: {exc}") from None
        if isinstance(msg, RequestInfo):
            assert rules is not None, "a request before GameStart"
            hand_events = _told(bot, rules, seat, msg.events, hand_events)
            bot.time_limit_ms = msg.time_limit_ms
            bot.time_bank_ms = msg.time_bank_ms
            action = bot.decide(view_from_request(msg, rules, hand_events))
            await write(to_bytes(action_to_pb(msg.request_id, msg.decision.kind, action)))
        elif isinstance(msg, GameStartInfo):
            seat, players, rules, first_dealer = msg.seat, msg.rules.players, msg.rules, msg.first_dealer
            hand_events = []
            if seed is not None:
                bot.rng.seed(f"{seed}:{msg.game_id}")
            bot.time_limit_ms = msg.move_time_ms
            bot.seat_names = msg.seat_names
            bot.game_start(_bare_view(msg))
        elif isinstance(msg, GameOverInfo):
            assert rules is not None, "a GameOver before GameStart"
            hand_events = _told(bot, rules, seat, msg.events, hand_events)
            bot.game_over(game_over_view(rules, seat, first_dealer, hand_events), msg.winner, msg.reason)
        elif isinstance(msg, ErrorInfo):
            code = msg.code.name if isinstance(msg.code, ErrorCode) else str(msg.code)
            if msg.fatal:
                raise SessionError(f"the referee refused the session: {code}: {msg.message}")
            log.warning("referee error", code=code, message=msg.message, request_id=msg.request_id)
        elif isinstance(msg, ShutdownInfo):
            log.debug("shutdown", reason=msg.reason)
            await call.done_writing()
            return
        elif isinstance(msg, WelcomeInfo):
            log.debug("welcome", player=msg.player, referee=msg.referee_version)


def _told(bot: Bot, rules: Rules, seat: int, events: Sequence[Event], hand_events: list[Event]) -> list[Event]:
    """The events of the hand in play once ``events`` are told (a deal starts a new list); ``bot.hand_end`` is
    called as each hand's result comes."""
    for ev in events:
        if isinstance(ev, DealEvent):
            hand_events = [ev]
        else:
            hand_events.append(ev)
        if isinstance(ev, HandEndEvent):
            try:
                view = hand_end_view(rules, seat, hand_events)
            except ValueError as exc:
                raise SessionError(f"the referee's events do not make a hand: {exc}") from None
            bot.hand_end(view)
    return hand_events


def _bare_view(start: GameStartInfo) -> SeatView:
    """The view at GameStart: rules and seat, no cards yet."""
    rules = start.rules
    return SeatView(rules, start.seat, 0, start.first_dealer, (0,) * rules.teams, (), (), None)
