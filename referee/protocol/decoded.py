"""Protocol messages as each side reads them: plain values, no generated types.

The referee reads a bot's bytes with ``decode_bot_message`` (a ``HelloMsg``, or
an ``ActionMsg`` whose body ``domain.action_from_pb`` turns into the engine's
action once the decision it answers is known). A bot (the SDK) reads the
referee's bytes with ``decode_referee_message``, which yields the dataclasses
below (``WelcomeInfo``, ``GameStartInfo``, ``RequestInfo``, ...), and rebuilds
its seat's ``SeatView`` at a request with ``view_from_request``.

Bytes that are not a message, or a message with nothing set, raise
``ProtocolError`` with a one-line reason. An event of a kind this version
does not know (a newer referee's) is left out of the events read.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from google.protobuf.message import DecodeError

from referee.engine.cards import Card
from referee.engine.events import Event, GameEndEvent
from referee.engine.game import Decision
from referee.engine.rules import Rules
from referee.engine.view import SeatView
from referee.protocol.bideuchre.v1 import arena_pb2 as pb
from referee.protocol.domain import (
    ErrorCode,
    ProtocolError,
    cards_from_text,
    decision_from_pb,
    events_from_pb,
    rules_from_pb,
)

# ------------------------------------------------------------ bot -> referee, read by the referee


@dataclass(frozen=True, slots=True)
class HelloMsg:
    """A bot's Hello, as the referee reads it."""

    token: str
    bot_name: str
    bot_version: str
    protocol_version: int


@dataclass(frozen=True, slots=True)
class ActionMsg:
    """A bot's Action: the request it answers, and the body for ``domain.action_from_pb``."""

    request_id: int
    body: pb.Action


def decode_bot_message(data: bytes) -> HelloMsg | ActionMsg:
    """Read the bytes of one BotMessage; ProtocolError says what is wrong."""
    try:
        msg = pb.BotMessage.FromString(data)
    except DecodeError:
        raise ProtocolError(f"not a BotMessage: {len(data)} bytes that do not parse as protobuf") from None
    which = msg.WhichOneof("message")
    if which == "action":
        return ActionMsg(msg.action.request_id, msg.action)
    if which == "hello":
        h = msg.hello
        return HelloMsg(h.token, h.bot_name, h.bot_version, h.protocol_version)
    raise ProtocolError("empty BotMessage: set hello (first message) or action")


# ------------------------------------------------------------ referee -> bot, read by the bot


@dataclass(frozen=True, slots=True)
class WelcomeInfo:
    protocol_version: int
    player: str
    referee_version: str


@dataclass(frozen=True, slots=True)
class GameStartInfo:
    game_id: str
    preset: str
    rules: Rules
    seat: int
    seat_names: tuple[str, ...]
    move_time_ms: int
    first_dealer: int


@dataclass(frozen=True, slots=True)
class RequestInfo:
    """A DecisionRequest: ``events`` are the new ones only (the bot keeps the hand's)."""

    request_id: int
    game_id: str
    seat: int
    events: tuple[Event, ...]
    hand_number: int
    dealer: int
    scores: tuple[int, ...]
    hand: tuple[Card, ...]
    decision: Decision
    time_limit_ms: int
    time_bank_ms: int = 0
    may_claim: bool = False  # a PLAY decision the seat may answer with a claim (``CLAIM``)
    startup_allowance_ms: int = 0  # what is left of the process's start-up allowance


@dataclass(frozen=True, slots=True)
class GameOverInfo:
    game_id: str
    events: tuple[Event, ...]
    scores: tuple[int, ...]
    winner: int | None
    reason: str


@dataclass(frozen=True, slots=True)
class ErrorInfo:
    code: int  # an ErrorCode, or a code this version does not know
    message: str
    request_id: int
    fatal: bool


@dataclass(frozen=True, slots=True)
class ShutdownInfo:
    reason: str


RefereeInfo = WelcomeInfo | GameStartInfo | RequestInfo | GameOverInfo | ErrorInfo | ShutdownInfo


def decode_referee_message(data: bytes, *, seat: int, players: int) -> RefereeInfo:
    """Read one RefereeMessage; ``seat`` and ``players`` are those of the current game (for events)."""
    try:
        msg = pb.RefereeMessage.FromString(data)
    except DecodeError:
        raise ProtocolError(f"not a RefereeMessage: {len(data)} bytes that do not parse as protobuf") from None
    which = msg.WhichOneof("message")
    if which == "decision":
        req = msg.decision
        return RequestInfo(
            request_id=req.request_id,
            game_id=req.game_id,
            seat=req.seat,
            events=events_from_pb(req.events, req.seat, players),
            hand_number=req.hand_number,
            dealer=req.dealer,
            scores=tuple(req.scores),
            hand=tuple(cards_from_text(req.hand)),
            decision=decision_from_pb(req),
            time_limit_ms=req.time_limit_ms,
            time_bank_ms=req.time_bank_ms,
            may_claim=req.may_claim,
            startup_allowance_ms=req.startup_allowance_ms,
        )
    if which == "game_start":
        gs = msg.game_start
        return GameStartInfo(
            game_id=gs.game_id,
            preset=gs.preset,
            rules=rules_from_pb(gs.rules),
            seat=gs.seat,
            seat_names=tuple(gs.seat_names),
            move_time_ms=gs.move_time_ms,
            first_dealer=gs.first_dealer,
        )
    if which == "game_over":
        go = msg.game_over
        events = events_from_pb(go.events, seat, players)
        if not events or not isinstance(events[-1], GameEndEvent):
            raise ProtocolError("a GameOver's events end with the GameEnd event, and this one's do not")
        return GameOverInfo(
            game_id=go.game_id,
            events=events,
            scores=tuple(go.scores),
            winner=go.winner_team if go.has_winner else None,
            reason=go.reason,
        )
    if which == "error":
        e = msg.error
        code: int = ErrorCode(e.code) if e.code in ErrorCode._value2member_map_ else e.code
        return ErrorInfo(code, e.message, e.request_id, e.fatal)
    if which == "welcome":
        w = msg.welcome
        return WelcomeInfo(w.protocol_version, w.player, w.referee_version)
    if which == "shutdown":
        return ShutdownInfo(msg.shutdown.reason)
    raise ProtocolError("empty RefereeMessage: no known message set")


def view_from_request(req: RequestInfo, rules: Rules, hand_events: Sequence[Event]) -> SeatView:
    """The seat's view at a request; ``hand_events`` are the events of the current hand so far."""
    return SeatView(
        rules=rules,
        seat=req.seat,
        hand_number=req.hand_number,
        dealer=req.dealer,
        scores=req.scores,
        hand=req.hand,
        events=tuple(hand_events),
        decision=req.decision,
    )
