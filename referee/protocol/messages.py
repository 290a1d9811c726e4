"""Whole protocol messages, built through the protobuf library, and their bytes.

Referee to bot: ``welcome_to_pb``, ``game_start_to_pb``, ``decision_to_pb``,
``game_over_to_pb``, ``error_to_pb``, ``shutdown_to_pb``; bot to referee:
``hello_to_pb``, ``action_to_pb``. ``to_bytes`` gives any of them in wire
form. Code outside the wire package holds these messages only as opaque
values on their way to ``to_bytes``.

The referee sends a DecisionRequest at every turn, so it writes those with
``encoder.RequestEncoder`` instead; ``decision_to_pb`` here is the reference
that encoder is tested against.
"""

from __future__ import annotations

import operator
from collections.abc import Iterable, Sequence
from typing import SupportsIndex, cast

from referee.engine.bids import Bid
from referee.engine.cards import sort_hand
from referee.engine.events import Event, GameEndEvent
from referee.engine.game import CLAIM, Decision, DecisionKind, Game
from referee.engine.rules import Rules
from referee.protocol.bideuchre.v1 import arena_pb2 as pb
from referee.protocol.domain import (
    CARD_TEXT,
    DECISION_TO_PB,
    PROTOCOL_VERSION,
    TRUMP_TO_PB,
    ErrorCode,
    bid_to_pb,
    contract_to_pb,
    event_to_pb,
    rules_to_pb,
)

# ------------------------------------------------------------ referee -> bot


def welcome_to_pb(player: str, referee_version: str) -> pb.RefereeMessage:
    msg = pb.RefereeMessage()
    msg.welcome.protocol_version = PROTOCOL_VERSION
    msg.welcome.player = player
    msg.welcome.referee_version = referee_version
    return msg


def game_start_to_pb(
    *,
    game_id: str,
    preset: str,
    rules: Rules,
    seat: int,
    seat_names: Sequence[str],
    move_time_ms: int,
    first_dealer: int,
) -> pb.RefereeMessage:
    msg = pb.RefereeMessage()
    gs = msg.game_start
    gs.game_id = game_id
    gs.preset = preset
    gs.rules.update(rules_to_pb(rules))
    gs.seat = seat
    gs.players = rules.players
    gs.teams = rules.teams
    gs.cards_each = rules.cards_each
    gs.seat_names.extend(seat_names)
    gs.move_time_ms = move_time_ms
    gs.first_dealer = first_dealer
    return msg


def decision_to_pb(
    game: Game,
    decision: Decision,
    *,
    request_id: int,
    game_id: str,
    events: Iterable[Event],
    time_limit_ms: int,
    time_bank_ms: int = 0,
    may_claim: bool = False,
    startup_allowance_ms: int = 0,
) -> pb.RefereeMessage:
    """The DecisionRequest message built field by field through the protobuf library: the reference that
    ``RequestEncoder.decision`` (which writes the bytes itself) is tested against, and a tool's way to
    build one."""
    msg = pb.RefereeMessage()
    req = msg.decision
    seat = decision.seat
    req.request_id = request_id
    req.game_id = game_id
    req.kind = DECISION_TO_PB[decision.kind]
    req.seat = seat
    add_event = req.events.add
    for ev in events:
        event_to_pb(ev, add_event())
    req.hand_number = game.hand_number
    req.dealer = game.dealer
    req.scores.extend(game.scores)
    req.hand.extend([CARD_TEXT[c] for c in sort_hand(game.hands[seat])])
    contract = game.contract
    if contract is not None:
        contract_to_pb(contract, req.contract)
        for s, c in zip(game.trick_seats, game.trick_cards, strict=True):
            req.current_trick.add(trick=game.trick_number, seat=s, card=CARD_TEXT[c])
        req.tricks_won.extend(game.tricks_won)
    kind = decision.kind
    if kind is DecisionKind.PLAY:
        req.legal_cards.extend([CARD_TEXT[c] for c in decision.cards])
    elif kind is DecisionKind.BID:
        for bid in decision.bids:
            bid_to_pb(bid, req.legal_bids.add())
    elif kind is DecisionKind.TRUMP:
        req.legal_trumps.extend([TRUMP_TO_PB[t] for t in decision.trumps])
    else:
        req.count = decision.count
        if decision.to is not None:
            req.to_seat = decision.to
    req.time_limit_ms = time_limit_ms
    req.time_bank_ms = time_bank_ms
    req.may_claim = may_claim
    req.startup_allowance_ms = startup_allowance_ms
    return msg


def game_over_to_pb(game_id: str, end: GameEndEvent, events: Iterable[Event]) -> pb.RefereeMessage:
    msg = pb.RefereeMessage()
    go = msg.game_over
    go.game_id = game_id
    add = go.events.add
    for ev in events:
        event_to_pb(ev, add())
    go.scores.extend(end.scores)
    go.has_winner = end.winner is not None
    go.winner_team = end.winner or 0
    go.reason = end.reason
    return msg


def error_to_pb(code: ErrorCode, message: str, request_id: int = 0, fatal: bool = False) -> pb.RefereeMessage:
    msg = pb.RefereeMessage()
    msg.error.code = cast("pb.ErrorCode", code)  # the stub makes the wire enum a class; ErrorCode holds its values
    msg.error.message = message
    msg.error.request_id = request_id
    msg.error.fatal = fatal
    return msg


def shutdown_to_pb(reason: str) -> pb.RefereeMessage:
    msg = pb.RefereeMessage()
    msg.shutdown.reason = reason
    return msg


# ------------------------------------------------------------ bot -> referee


def hello_to_pb(token: str, bot_name: str, bot_version: str) -> pb.BotMessage:
    msg = pb.BotMessage()
    msg.hello.token = token
    msg.hello.bot_name = bot_name
    msg.hello.bot_version = bot_version
    msg.hello.protocol_version = PROTOCOL_VERSION
    return msg


def action_to_pb(request_id: int, kind: DecisionKind, action: object) -> pb.BotMessage:
    """A bot's answer to a ``kind`` decision (``CLAIM`` at a play: a claim); TypeError when ``action`` is not of
    the type the kind takes."""
    msg = pb.BotMessage()
    a = msg.action
    a.request_id = request_id
    if action is CLAIM and kind is DecisionKind.PLAY:
        a.claim.SetInParent()
    elif kind is DecisionKind.PLAY:
        a.card = CARD_TEXT[_index(action, "a card")]
    elif kind is DecisionKind.BID:
        if not isinstance(action, Bid):
            raise TypeError(f"a bid decision is answered with a Bid, not {action!r}")
        bid_to_pb(action, a.bid)
    elif kind is DecisionKind.TRUMP:
        a.trump = TRUMP_TO_PB[_index(action, "a Trump")]
    else:
        if not isinstance(action, Iterable):
            raise TypeError(f"a {kind} decision is answered with a list of cards, not {action!r}")
        a.cards.cards.extend(CARD_TEXT[_index(c, "a card")] for c in action)
    return msg


def _index(value: object, what: str) -> int:
    """``value`` as an index into a table of the wire's values: an int, or anything with ``__index__``."""
    if isinstance(value, int):  # the usual case first: isinstance on a Protocol costs microseconds
        return value
    if isinstance(value, SupportsIndex):  # numpy's integers and the like
        return operator.index(value)
    raise TypeError(f"expected {what}, got {value!r}")


def to_bytes(msg: pb.RefereeMessage | pb.BotMessage) -> bytes:
    """The wire form of a message built by this module."""
    return msg.SerializeToString()
