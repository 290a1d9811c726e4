"""The one module that converts between engine types and protocol messages.

Generated protobuf types stop here. Code outside this module handles wire
messages only as opaque values or bytes:

- referee side: builds messages with the ``*_to_pb`` functions, turns them
  into bytes with ``to_bytes``, reads what a bot sent with
  ``decode_bot_message`` and the action in it with ``action_from_pb``;
- bot side (the SDK): ``hello_to_pb`` / ``action_to_pb`` out,
  ``decode_referee_message`` in, which yields the plain dataclasses below
  (``WelcomeInfo``, ``GameStartInfo``, ``RequestInfo``, ...), and
  ``view_from_request`` to rebuild the seat's ``SeatView``.

A malformed message raises ``ProtocolError`` with a one-line reason: bytes that
are not a message, an answer in the wrong field, text that names no card.
"""

from __future__ import annotations

import operator
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from enum import IntEnum
from typing import SupportsIndex, cast

from google.protobuf.message import DecodeError

from referee.engine.bids import PASS, Bid, BidKind
from referee.engine.cards import Card, Trump, card_str, parse_card, sort_hand
from referee.engine.errors import InvalidActionError
from referee.engine.events import (
    BidEvent,
    ContractEvent,
    DealEvent,
    Event,
    ExchangeEvent,
    GameEndEvent,
    HandEndEvent,
    PlayEvent,
    TrickEvent,
)
from referee.engine.game import Action, Contract, Decision, DecisionKind, Game
from referee.engine.rules import Rules
from referee.engine.view import SeatView
from referee.errors import ArenaError
from referee.protocol.bideuchre.v1 import arena_pb2 as pb


class ProtocolError(ArenaError):
    """Bytes that are not the protocol: not a message, an empty one, an answer in the wrong field of Action,
    text that names no card. A rule broken by a well-formed answer is the engine's IllegalActionError."""


def _card(text: str) -> Card:
    try:
        return parse_card(text)
    except InvalidActionError as exc:
        raise ProtocolError(str(exc)) from None


PROTOCOL_VERSION = 1

# The gRPC service and its one method, for servers and clients that move raw
# bytes (both sides do, so that decoding errors are theirs to report).
SERVICE_NAME: str = pb.DESCRIPTOR.services_by_name["Arena"].full_name
PLAY_METHOD = f"/{SERVICE_NAME}/Play"

CARD_TEXT = tuple(card_str(c) for c in range(32))
# Exact card text -> code: the fast path for reading cards the referee wrote.
_CARD_CODE = {text: code for code, text in enumerate(CARD_TEXT)}


class ErrorCode(IntEnum):
    """The protocol's error codes (values are the wire enum's)."""

    BAD_TOKEN = pb.ERROR_CODE_BAD_TOKEN
    SEAT_TAKEN = pb.ERROR_CODE_SEAT_TAKEN
    BAD_HELLO = pb.ERROR_CODE_BAD_HELLO
    UNSUPPORTED_VERSION = pb.ERROR_CODE_UNSUPPORTED_VERSION
    OUT_OF_TURN = pb.ERROR_CODE_OUT_OF_TURN
    STALE_REQUEST = pb.ERROR_CODE_STALE_REQUEST
    MALFORMED = pb.ERROR_CODE_MALFORMED
    ILLEGAL = pb.ERROR_CODE_ILLEGAL
    TIMEOUT = pb.ERROR_CODE_TIMEOUT
    TOO_LARGE = pb.ERROR_CODE_TOO_LARGE


# engine Trump <-> wire enum (the wire reserves 0 for "unspecified")
_TRUMP_TO_PB = (pb.TRUMP_SPADES, pb.TRUMP_HEARTS, pb.TRUMP_DIAMONDS, pb.TRUMP_CLUBS, pb.TRUMP_HIGH, pb.TRUMP_LOW)
_TRUMP_FROM_PB: dict[int, Trump] = {v: Trump(i) for i, v in enumerate(_TRUMP_TO_PB)}

_BID_KIND_TO_PB = {
    "pass": pb.BID_KIND_PASS,
    "level": pb.BID_KIND_LEVEL,
    "call3": pb.BID_KIND_CALL3,
    "call2": pb.BID_KIND_CALL2,
    "call1": pb.BID_KIND_CALL1,
    "best": pb.BID_KIND_BEST,
    "moon": pb.BID_KIND_MOON,
    "alone": pb.BID_KIND_ALONE,
    "little-pepper": pb.BID_KIND_LITTLE_PEPPER,
    "big-pepper": pb.BID_KIND_BIG_PEPPER,
}
_BID_KIND_FROM_PB = {v: BidKind(k) for k, v in _BID_KIND_TO_PB.items()}

_DECISION_TO_PB = {
    DecisionKind.BID: pb.DECISION_KIND_BID,
    DecisionKind.TRUMP: pb.DECISION_KIND_TRUMP,
    DecisionKind.GIVE: pb.DECISION_KIND_GIVE,
    DecisionKind.DISCARD: pb.DECISION_KIND_DISCARD,
    DecisionKind.PLAY: pb.DECISION_KIND_PLAY,
}
_DECISION_FROM_PB = {v: k for k, v in _DECISION_TO_PB.items()}

# which Action field answers which decision kind
_ANSWER_FIELD = {
    DecisionKind.BID: "bid",
    DecisionKind.TRUMP: "trump",
    DecisionKind.GIVE: "cards",
    DecisionKind.DISCARD: "cards",
    DecisionKind.PLAY: "card",
}


# --------------------------------------------------------------------- values


def trump_from_pb(value: int) -> Trump:
    try:
        return _TRUMP_FROM_PB[value]
    except KeyError:
        raise ProtocolError(f"bad trump value {value}: expected one of TRUMP_SPADES..TRUMP_LOW") from None


def bid_to_pb(bid: Bid, out: pb.Bid | None = None) -> pb.Bid:
    msg = pb.Bid() if out is None else out
    msg.kind = _BID_KIND_TO_PB[bid.kind]
    msg.level = bid.level
    if bid.trump is not None:
        msg.trump = _TRUMP_TO_PB[bid.trump]
    msg.text = bid.text()
    return msg


# (kind, level, trump) on the wire -> Bid, for bids already read once.
_BIDS_READ: dict[tuple[int, int, int], Bid] = {}


def bid_from_pb(msg: pb.Bid) -> Bid:
    key = (msg.kind, msg.level, msg.trump)
    bid = _BIDS_READ.get(key)
    if bid is None:
        bid = _read_bid(msg)
        if msg.level <= 64:  # bounded: a bot cannot grow the cache with made-up levels
            _BIDS_READ[key] = bid
    return bid


def _read_bid(msg: pb.Bid) -> Bid:
    kind = _BID_KIND_FROM_PB.get(msg.kind)
    if kind is None:
        raise ProtocolError(f"bad bid: kind {msg.kind} is not a BidKind (BID_KIND_UNSPECIFIED is not a bid)")
    trump = None if msg.trump == pb.TRUMP_UNSPECIFIED else trump_from_pb(msg.trump)
    if kind == "pass":
        if msg.level or trump is not None:
            raise ProtocolError("bad bid: a pass has no level and no trump")
        return PASS
    if kind == "level":
        if msg.level < 1:
            raise ProtocolError("bad bid: BID_KIND_LEVEL needs a level of at least 1")
        return Bid(BidKind.LEVEL, msg.level, trump)
    if msg.level:
        raise ProtocolError(f"bad bid: special bid {kind} takes no level")
    return Bid(kind, 0, trump)


def cards_from_text(texts: Iterable[str]) -> list[Card]:
    code = _CARD_CODE.get
    return [c if (c := code(t)) is not None else _card(t) for t in texts]


def rules_to_pb(rules: Rules) -> dict[str, str]:
    """The rules as name -> text, exactly as ``arena presets`` prints them."""
    return {name: value for name, value, _ in rules.describe()}


def rules_from_pb(values: Mapping[str, str]) -> Rules:
    return Rules().with_overrides(dict(values))


# --------------------------------------------------------------------- events


def event_to_pb(event: Event, out: pb.Event) -> pb.Event:
    """Fill ``out`` with ``event`` (already filtered for the receiving seat)."""
    if isinstance(event, PlayEvent):
        out.hand = event.hand
        p = out.play
        p.trick, p.seat, p.card = event.trick, event.seat, CARD_TEXT[event.card]
    elif isinstance(event, TrickEvent):
        out.hand = event.hand
        out.trick.trick, out.trick.winner = event.trick, event.winner
    elif isinstance(event, BidEvent):
        out.hand = event.hand
        out.bid.seat = event.seat
        bid_to_pb(event.bid, out.bid.bid)
    elif isinstance(event, DealEvent):
        out.hand = event.hand
        out.deal.dealer = event.dealer
        shown = [h for h in event.hands if h is not None]
        if len(shown) != 1:  # the wire Deal holds one seat's cards: the receiver's, and only if filtered
            raise ValueError(
                f"a deal sent to a seat must show exactly one hand (filter with visible_to), not {len(shown)}"
            )
        out.deal.cards.extend(CARD_TEXT[c] for c in shown[0])
    elif isinstance(event, ContractEvent):
        out.hand = event.hand
        contract_to_pb(Contract(event.declarer, event.bid, event.trump, event.alone, event.active), out.contract)
    elif isinstance(event, ExchangeEvent):
        out.hand = event.hand
        ex = out.exchange
        ex.from_seat = event.from_seat
        ex.discard = event.to_seat is None
        ex.to_seat = event.to_seat or 0
        ex.count = event.count
        if event.cards is not None:
            ex.cards.extend(CARD_TEXT[c] for c in event.cards)
    elif isinstance(event, HandEndEvent):
        out.hand = event.hand
        h = out.hand_end
        h.tricks.extend(event.tricks)
        h.points.extend(event.points)
        h.scores.extend(event.scores)
        h.passed_out = event.passed_out
        h.declarer = event.declarer or 0
        h.made = bool(event.made)
    elif isinstance(event, GameEndEvent):
        g = out.game_end
        g.scores.extend(event.scores)
        g.has_winner = event.winner is not None
        g.winner_team = event.winner or 0
        g.reason = event.reason
        g.detail = event.detail
    else:  # pragma: no cover - the event union is closed
        raise TypeError(f"not an event: {event!r}")
    return out


def contract_to_pb(contract: Contract, out: pb.Contract) -> pb.Contract:
    out.declarer = contract.declarer
    bid_to_pb(contract.bid, out.bid)
    out.trump = _TRUMP_TO_PB[contract.trump]
    out.alone = contract.alone
    out.active_seats.extend(contract.active)
    return out


def event_from_pb(msg: pb.Event, seat: int, players: int) -> Event:
    """The engine event for a wire event received by ``seat``."""
    which = msg.WhichOneof("event")
    hand = msg.hand
    if which == "play":
        p = msg.play
        card = _CARD_CODE.get(p.card)
        return PlayEvent(hand, p.trick, p.seat, card if card is not None else _card(p.card))
    if which == "trick":
        return TrickEvent(hand, msg.trick.trick, msg.trick.winner)
    if which == "bid":
        return BidEvent(hand, msg.bid.seat, bid_from_pb(msg.bid.bid))
    if which == "deal":
        own = tuple(cards_from_text(msg.deal.cards))
        return DealEvent(hand, msg.deal.dealer, tuple(own if s == seat else None for s in range(players)))
    if which == "contract":
        c = msg.contract
        return ContractEvent(
            hand, c.declarer, bid_from_pb(c.bid), trump_from_pb(c.trump), c.alone, tuple(c.active_seats)
        )
    if which == "exchange":
        ex = msg.exchange
        cards = tuple(cards_from_text(ex.cards)) if ex.cards else None
        return ExchangeEvent(hand, ex.from_seat, None if ex.discard else ex.to_seat, cards, ex.count)
    if which == "hand_end":
        h = msg.hand_end
        return HandEndEvent(
            hand,
            tuple(h.tricks),
            tuple(h.points),
            tuple(h.scores),
            h.passed_out,
            None if h.passed_out else h.declarer,
            None if h.passed_out else h.made,
        )
    if which == "game_end":
        g = msg.game_end
        return GameEndEvent(tuple(g.scores), g.winner_team if g.has_winner else None, g.reason, g.detail)
    raise ProtocolError(f"event with no known kind (hand {hand})")


# ------------------------------------------------------------ referee -> bot


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


_SMALL_VARINTS = tuple(bytes((n,)) for n in range(128))


def _varint(n: int) -> bytes:
    """A non-negative integer in protobuf's varint form."""
    if n < 128:
        return _SMALL_VARINTS[n]
    out = bytearray()
    while n > 0x7F:
        out.append((n & 0x7F) | 0x80)
        n >>= 7
    out.append(n)
    return bytes(out)


def _signed(n: int) -> bytes:
    """An int32 as a varint (a negative one as its 64-bit two's complement, as protobuf writes it)."""
    return _varint(n if n >= 0 else n + (1 << 64))


def _field(number: int, payload: bytes) -> bytes:
    """A length-delimited field (submessage, string or packed list) in wire form."""
    return _varint(number << 3 | 2) + _varint(len(payload)) + payload


_REQ = pb.DecisionRequest.DESCRIPTOR.fields_by_name
_DECISION_FIELD = pb.RefereeMessage.DESCRIPTOR.fields_by_name["decision"].number


_F_EVENTS = _REQ["events"].number
_F_SCORES = _REQ["scores"].number
_F_CONTRACT = _REQ["contract"].number
_F_CURRENT_TRICK = _REQ["current_trick"].number
_F_TRICKS_WON = _REQ["tricks_won"].number
_F_LEGAL_BIDS = _REQ["legal_bids"].number
_F_LEGAL_TRUMPS = _REQ["legal_trumps"].number
_F_GAME_ID = _REQ["game_id"].number


def _tag(name: str) -> bytes:
    """The key of a varint field of DecisionRequest."""
    return _varint(_REQ[name].number << 3)


_T_REQUEST_ID, _T_KIND, _T_SEAT = _tag("request_id"), _tag("kind"), _tag("seat")
_T_HAND_NUMBER, _T_DEALER, _T_COUNT, _T_TO_SEAT = _tag("hand_number"), _tag("dealer"), _tag("count"), _tag("to_seat")
_T_TIME_LIMIT, _T_TIME_BANK = _tag("time_limit_ms"), _tag("time_bank_ms")
# per card code: the card as an entry of ``hand`` / of ``legal_cards``, in wire form
_HAND_ENTRY = tuple(_field(_REQ["hand"].number, t.encode()) for t in CARD_TEXT)
_LEGAL_CARD_ENTRY = tuple(_field(_REQ["legal_cards"].number, t.encode()) for t in CARD_TEXT)
_PLAY_CARD = tuple(b"\x1a" + _varint(len(t)) + t.encode() for t in CARD_TEXT)  # a Play's card (field 3)
# Bid -> its legal_bids entry in wire form (a small closed set: encoded once per process).
_LEGAL_BID_BYTES: dict[Bid, bytes] = {}


def _uint(tag: bytes, n: int) -> bytes:
    """A scalar field, left out at 0 as proto3 does."""
    return tag + _varint(n) if n else b""


class RequestEncoder:
    """Builds the bytes of DecisionRequests, the referee's hot path, without building a message.

    Protobuf allows a message's fields in any order and repeated fields in
    pieces, so a request is written straight in wire form from parts, most of
    them encoded once: each card as a hand or legal-card entry, each legal
    bid, the contract snapshot and each event. Events are cached by
    identity, not by value (hashing and comparing the engine's dataclasses
    cost more than the lookup saves): a public event is the same object for
    every seat (``visible_to`` hands it on as it is), so it is encoded once;
    the copy a seat gets of a private one (a deal, an exchange it did not
    see) is a new object, encoded for that seat. The cache keeps each event
    it holds alive, so an id is never reused while it is a key. One encoder
    serves one game. ``decision_to_pb`` builds the same message field by
    field through the protobuf library, and the tests hold the two equal.
    """

    def __init__(self) -> None:
        self._events: dict[int, tuple[Event, bytes]] = {}
        self._contracts: dict[Contract, bytes] = {}
        self._game_ids: dict[str, bytes] = {}

    def event(self, event: Event) -> bytes:
        hit = self._events.get(id(event))
        if hit is not None and hit[0] is event:
            return hit[1]
        data = _field(_F_EVENTS, event_to_pb(event, pb.Event()).SerializeToString())
        self._events[id(event)] = (event, data)
        return data

    def decision(
        self,
        game: Game,
        decision: Decision,
        *,
        request_id: int,
        game_id: str,
        events: Iterable[Event],
        time_limit_ms: int,
        time_bank_ms: int = 0,
    ) -> bytes:
        """The RefereeMessage for ``decision``; ``events`` are the seat's untold events, already filtered."""
        seat = decision.seat
        gid = self._game_ids.get(game_id)
        if gid is None:
            gid = self._game_ids[game_id] = _field(_F_GAME_ID, game_id.encode()) if game_id else b""
        parts = [
            _uint(_T_REQUEST_ID, request_id),
            gid,
            _uint(_T_KIND, _DECISION_TO_PB[decision.kind]),
            _uint(_T_SEAT, seat),
            *[self.event(ev) for ev in events],
            _uint(_T_HAND_NUMBER, game.hand_number),
            _uint(_T_DEALER, game.dealer),
        ]
        if game.scores:
            parts.append(_field(_F_SCORES, b"".join([_signed(x) for x in game.scores])))
        parts.extend([_HAND_ENTRY[c] for c in sort_hand(game.hands[seat])])
        contract = game.contract
        if contract is not None:
            data = self._contracts.get(contract)
            if data is None:
                data = self._contracts[contract] = _field(
                    _F_CONTRACT, contract_to_pb(contract, pb.Contract()).SerializeToString()
                )
            parts.append(data)
            trick = _uint(b"\x08", game.trick_number)  # Play: trick = 1, seat = 2, card = 3
            for s, c in zip(game.trick_seats, game.trick_cards, strict=True):
                parts.append(_field(_F_CURRENT_TRICK, trick + _uint(b"\x10", s) + _PLAY_CARD[c]))
            if game.tricks_won:
                parts.append(_field(_F_TRICKS_WON, b"".join([_varint(t) for t in game.tricks_won])))
        kind = decision.kind
        if kind is DecisionKind.PLAY:
            parts.extend([_LEGAL_CARD_ENTRY[c] for c in decision.cards])
        elif kind is DecisionKind.BID:
            cache = _LEGAL_BID_BYTES
            for bid in decision.bids:
                data = cache.get(bid)
                if data is None:
                    data = cache[bid] = _field(_F_LEGAL_BIDS, bid_to_pb(bid).SerializeToString())
                parts.append(data)
        elif kind is DecisionKind.TRUMP:
            if decision.trumps:
                legal = b"".join([_varint(_TRUMP_TO_PB[t]) for t in decision.trumps])
                parts.append(_field(_F_LEGAL_TRUMPS, legal))
        else:
            parts.append(_uint(_T_COUNT, decision.count))
            if decision.to is not None:
                parts.append(_uint(_T_TO_SEAT, decision.to))
        parts.append(_uint(_T_TIME_LIMIT, time_limit_ms))
        parts.append(_uint(_T_TIME_BANK, time_bank_ms))
        inner = b"".join(parts)
        return _varint(_DECISION_FIELD << 3 | 2) + _varint(len(inner)) + inner


def decision_to_pb(
    game: Game,
    decision: Decision,
    *,
    request_id: int,
    game_id: str,
    events: Iterable[Event],
    time_limit_ms: int,
    time_bank_ms: int = 0,
) -> pb.RefereeMessage:
    """The DecisionRequest message built field by field through the protobuf library: the reference that
    ``RequestEncoder.decision`` (which writes the bytes itself) is tested against, and a tool's way to
    build one."""
    msg = pb.RefereeMessage()
    req = msg.decision
    seat = decision.seat
    req.request_id = request_id
    req.game_id = game_id
    req.kind = _DECISION_TO_PB[decision.kind]
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
        req.legal_trumps.extend([_TRUMP_TO_PB[t] for t in decision.trumps])
    else:
        req.count = decision.count
        if decision.to is not None:
            req.to_seat = decision.to
    req.time_limit_ms = time_limit_ms
    req.time_bank_ms = time_bank_ms
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


def welcome_to_pb(player: str, referee_version: str) -> pb.RefereeMessage:
    msg = pb.RefereeMessage()
    msg.welcome.protocol_version = PROTOCOL_VERSION
    msg.welcome.player = player
    msg.welcome.referee_version = referee_version
    return msg


def shutdown_to_pb(reason: str) -> pb.RefereeMessage:
    msg = pb.RefereeMessage()
    msg.shutdown.reason = reason
    return msg


def to_bytes(msg: pb.RefereeMessage | pb.BotMessage) -> bytes:
    """The wire form of a message built by this module."""
    return msg.SerializeToString()


def error_to_pb(code: ErrorCode, message: str, request_id: int = 0, fatal: bool = False) -> pb.RefereeMessage:
    msg = pb.RefereeMessage()
    msg.error.code = cast("pb.ErrorCode", code)  # the stub makes the wire enum a class; ErrorCode holds its values
    msg.error.message = message
    msg.error.request_id = request_id
    msg.error.fatal = fatal
    return msg


def action_from_pb(action: pb.Action, decision: Decision) -> Action:
    """The engine action in ``action`` for ``decision``; raises ProtocolError if malformed.

    Legality is the engine's business: this only checks the shape.
    """
    which = action.WhichOneof("choice")
    expected = _ANSWER_FIELD[decision.kind]
    if which != expected:
        got = "no choice" if which is None else f"Action.{which}"
        raise ProtocolError(f"a {decision.kind} decision is answered with Action.{expected}, got {got}")
    if which == "card":
        return _card(action.card)
    if which == "bid":
        return bid_from_pb(action.bid)
    if which == "trump":
        return trump_from_pb(action.trump)
    return cards_from_text(action.cards.cards)


@dataclass(frozen=True, slots=True)
class HelloMsg:
    """A bot's Hello, as the referee reads it."""

    token: str
    bot_name: str
    bot_version: str
    protocol_version: int


@dataclass(frozen=True, slots=True)
class ActionMsg:
    """A bot's Action: the request it answers, and the body for ``action_from_pb``."""

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


# ------------------------------------------------------------ bot -> referee


def hello_to_pb(token: str, bot_name: str, bot_version: str) -> pb.BotMessage:
    msg = pb.BotMessage()
    msg.hello.token = token
    msg.hello.bot_name = bot_name
    msg.hello.bot_version = bot_version
    msg.hello.protocol_version = PROTOCOL_VERSION
    return msg


def action_to_pb(request_id: int, kind: DecisionKind, action: object) -> pb.BotMessage:
    """A bot's answer to a ``kind`` decision; TypeError when ``action`` is not of the type the kind takes."""
    msg = pb.BotMessage()
    a = msg.action
    a.request_id = request_id
    if kind is DecisionKind.PLAY:
        a.card = CARD_TEXT[_index(action, "a card")]
    elif kind is DecisionKind.BID:
        if not isinstance(action, Bid):
            raise TypeError(f"a bid decision is answered with a Bid, not {action!r}")
        bid_to_pb(action, a.bid)
    elif kind is DecisionKind.TRUMP:
        a.trump = _TRUMP_TO_PB[_index(action, "a Trump")]
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


def decision_from_pb(req: pb.DecisionRequest) -> Decision:
    kind = _DECISION_FROM_PB.get(req.kind)
    if kind is None:
        raise ProtocolError(f"decision request with unknown kind {req.kind}")
    if kind is DecisionKind.PLAY:
        return Decision(kind, req.seat, tuple(cards_from_text(req.legal_cards)))
    if kind is DecisionKind.BID:
        return Decision(kind, req.seat, tuple(bid_from_pb(b) for b in req.legal_bids))
    if kind is DecisionKind.TRUMP:
        return Decision(kind, req.seat, tuple(trump_from_pb(t) for t in req.legal_trumps))
    to = req.to_seat if kind is DecisionKind.GIVE else None
    return Decision(kind, req.seat, tuple(sorted(cards_from_text(req.hand))), req.count, to)


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
            events=tuple([event_from_pb(e, req.seat, players) for e in req.events]),
            hand_number=req.hand_number,
            dealer=req.dealer,
            scores=tuple(req.scores),
            hand=tuple(cards_from_text(req.hand)),
            decision=decision_from_pb(req),
            time_limit_ms=req.time_limit_ms,
            time_bank_ms=req.time_bank_ms,
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
        return GameOverInfo(
            game_id=go.game_id,
            events=tuple([event_from_pb(e, seat, players) for e in go.events]),
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
