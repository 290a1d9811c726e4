"""The referee's hot path: a DecisionRequest's bytes written straight in wire form, from parts encoded once.

Protobuf allows a message's fields in any order and repeated fields in
pieces, so a request is the concatenation of its fields, each a key (the
field's number and wire type) and a value. Every key here is read from the
message descriptors of the generated code when this module is imported, and
each field is checked to have the type its writer puts on the wire: a field
renumbered in the .proto moves with it, and a field whose type changed stops
the import with a line naming it, rather than drifting from the protocol.
``messages.decision_to_pb`` builds the same message through the protobuf
library, and the tests hold the two equal over every field written here.
"""

from __future__ import annotations

from collections.abc import Iterable
from enum import Enum

from google.protobuf.descriptor import FieldDescriptor
from google.protobuf.descriptor_pb2 import FieldDescriptorProto
from google.protobuf.message import Message

from referee.engine.bids import Bid
from referee.engine.cards import sort_hand
from referee.engine.events import Event
from referee.engine.game import Contract, Decision, DecisionKind, Game
from referee.protocol.bideuchre.v1 import arena_pb2 as pb
from referee.protocol.domain import CARD_TEXT, DECISION_TO_PB, TRUMP_TO_PB, bid_to_pb, contract_to_pb, event_to_pb

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


_T = FieldDescriptor


class Form(Enum):
    """How the encoder writes a field: its wire type, the field types that fit, and whether it is repeated."""

    VARINT = (0, frozenset({_T.TYPE_UINT32, _T.TYPE_UINT64, _T.TYPE_ENUM}), False)  # by _varint
    FLAG = (0, frozenset({_T.TYPE_BOOL}), False)  # 1 when true, left out when false
    PACKED_VARINTS = (2, frozenset({_T.TYPE_UINT32, _T.TYPE_ENUM}), True)  # each by _varint, packed
    PACKED_SIGNED = (2, frozenset({_T.TYPE_INT32}), True)  # each by _signed, packed
    TEXT = (2, frozenset({_T.TYPE_STRING}), False)
    TEXTS = (2, frozenset({_T.TYPE_STRING}), True)  # one entry at a time
    MESSAGE = (2, frozenset({_T.TYPE_MESSAGE}), False)  # a serialised submessage
    MESSAGES = (2, frozenset({_T.TYPE_MESSAGE}), True)  # one entry at a time


# Each field the encoder writes, by full name (``bideuchre.v1.Play.card``), and how: what the tests check.
WRITTEN: dict[str, Form] = {}


def field_key(message: type[Message], name: str, form: Form) -> bytes:
    """The key of field ``name`` of ``message`` in wire form (its number and wire type), after checking that
    its type is one ``form`` writes; TypeError, naming the field, when it is not."""
    field = message.DESCRIPTOR.fields_by_name[name]
    wire_type, types, repeated = form.value
    # packed or not, a repeated number is read either way (protobuf's parsers accept both), so only the type
    # and the repetition are checked
    if field.type not in types or field.is_repeated != repeated:
        shown = FieldDescriptorProto.Type.Name(field.type).removeprefix("TYPE_").lower()  # type: ignore[arg-type]
        raise TypeError(
            f"{field.full_name} is a{' repeated' if field.is_repeated else ''} {shown} field, which the request "
            f"encoder does not write as {form.name}: update referee/protocol/encoder.py with the .proto"
        )
    WRITTEN[field.full_name] = form
    return _varint(field.number << 3 | wire_type)


def _field(key: bytes, payload: bytes) -> bytes:
    """A length-delimited field (submessage, string or packed list) in wire form."""
    return key + _varint(len(payload)) + payload


def _uint(key: bytes, n: int) -> bytes:
    """A varint field, left out at 0 as proto3 does."""
    return key + _varint(n) if n else b""


_REQUEST = pb.DecisionRequest
_K_DECISION = field_key(pb.RefereeMessage, "decision", Form.MESSAGE)
_K_REQUEST_ID = field_key(_REQUEST, "request_id", Form.VARINT)
_K_GAME_ID = field_key(_REQUEST, "game_id", Form.TEXT)
_K_KIND = field_key(_REQUEST, "kind", Form.VARINT)
_K_SEAT = field_key(_REQUEST, "seat", Form.VARINT)
_K_EVENTS = field_key(_REQUEST, "events", Form.MESSAGES)
_K_HAND_NUMBER = field_key(_REQUEST, "hand_number", Form.VARINT)
_K_DEALER = field_key(_REQUEST, "dealer", Form.VARINT)
_K_SCORES = field_key(_REQUEST, "scores", Form.PACKED_SIGNED)
_K_HAND = field_key(_REQUEST, "hand", Form.TEXTS)
_K_CONTRACT = field_key(_REQUEST, "contract", Form.MESSAGE)
_K_CURRENT_TRICK = field_key(_REQUEST, "current_trick", Form.MESSAGES)
_K_TRICKS_WON = field_key(_REQUEST, "tricks_won", Form.PACKED_VARINTS)
_K_LEGAL_BIDS = field_key(_REQUEST, "legal_bids", Form.MESSAGES)
_K_LEGAL_TRUMPS = field_key(_REQUEST, "legal_trumps", Form.PACKED_VARINTS)
_K_LEGAL_CARDS = field_key(_REQUEST, "legal_cards", Form.TEXTS)
_K_COUNT = field_key(_REQUEST, "count", Form.VARINT)
_K_TO_SEAT = field_key(_REQUEST, "to_seat", Form.VARINT)
_K_TIME_LIMIT = field_key(_REQUEST, "time_limit_ms", Form.VARINT)
_K_TIME_BANK = field_key(_REQUEST, "time_bank_ms", Form.VARINT)
_K_MAY_CLAIM = field_key(_REQUEST, "may_claim", Form.FLAG)
_K_STARTUP_ALLOWANCE = field_key(_REQUEST, "startup_allowance_ms", Form.VARINT)
_K_PLAY_TRICK = field_key(pb.Play, "trick", Form.VARINT)
_K_PLAY_SEAT = field_key(pb.Play, "seat", Form.VARINT)
_K_PLAY_CARD = field_key(pb.Play, "card", Form.TEXT)

# per card code: the card as an entry of ``hand``, of ``legal_cards``, and as a Play's card, in wire form
_HAND_ENTRY = tuple(_field(_K_HAND, t.encode()) for t in CARD_TEXT)
_LEGAL_CARD_ENTRY = tuple(_field(_K_LEGAL_CARDS, t.encode()) for t in CARD_TEXT)
_PLAY_CARD = tuple(_field(_K_PLAY_CARD, t.encode()) for t in CARD_TEXT)
# Bid -> its legal_bids entry in wire form (a small closed set: encoded once per process).
_LEGAL_BID_BYTES: dict[Bid, bytes] = {}


class RequestEncoder:
    """Builds the bytes of DecisionRequests, the referee's hot path, without building a message.

    A request is written from parts, most of them encoded once: each card as a
    hand or legal-card entry, each legal bid, the contract snapshot and each
    event. Events are cached by identity, not by value (hashing and comparing
    the engine's dataclasses cost more than the lookup saves): a public event
    is the same object for every seat (``visible_to`` hands it on as it is), so
    it is encoded once; the copy a seat gets of a private one (a deal, an
    exchange it did not see) is a new object, encoded for that seat. The cache
    keeps each event it holds alive, so an id is never reused while it is a
    key. One encoder serves one game.
    """

    def __init__(self) -> None:
        self._events: dict[int, tuple[Event, bytes]] = {}
        self._contracts: dict[Contract, bytes] = {}
        self._game_ids: dict[str, bytes] = {}

    def event(self, event: Event) -> bytes:
        hit = self._events.get(id(event))
        if hit is not None and hit[0] is event:
            return hit[1]
        data = _field(_K_EVENTS, event_to_pb(event, pb.Event()).SerializeToString())
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
        may_claim: bool = False,
        startup_allowance_ms: int = 0,
    ) -> bytes:
        """The RefereeMessage for ``decision``; ``events`` are the seat's untold events, already filtered."""
        seat = decision.seat
        gid = self._game_ids.get(game_id)
        if gid is None:
            gid = self._game_ids[game_id] = _field(_K_GAME_ID, game_id.encode()) if game_id else b""
        parts = [
            _uint(_K_REQUEST_ID, request_id),
            gid,
            _uint(_K_KIND, DECISION_TO_PB[decision.kind]),
            _uint(_K_SEAT, seat),
            *[self.event(ev) for ev in events],
            _uint(_K_HAND_NUMBER, game.hand_number),
            _uint(_K_DEALER, game.dealer),
        ]
        if game.scores:
            parts.append(_field(_K_SCORES, b"".join([_signed(x) for x in game.scores])))
        parts.extend([_HAND_ENTRY[c] for c in sort_hand(game.hands[seat])])
        contract = game.contract
        if contract is not None:
            data = self._contracts.get(contract)
            if data is None:
                data = self._contracts[contract] = _field(
                    _K_CONTRACT, contract_to_pb(contract, pb.Contract()).SerializeToString()
                )
            parts.append(data)
            trick = _uint(_K_PLAY_TRICK, game.trick_number)
            for s, c in zip(game.trick_seats, game.trick_cards, strict=True):
                parts.append(_field(_K_CURRENT_TRICK, trick + _uint(_K_PLAY_SEAT, s) + _PLAY_CARD[c]))
            if game.tricks_won:
                parts.append(_field(_K_TRICKS_WON, b"".join([_varint(t) for t in game.tricks_won])))
        kind = decision.kind
        if kind is DecisionKind.PLAY:
            parts.extend([_LEGAL_CARD_ENTRY[c] for c in decision.cards])
        elif kind is DecisionKind.BID:
            cache = _LEGAL_BID_BYTES
            for bid in decision.bids:
                data = cache.get(bid)
                if data is None:
                    data = cache[bid] = _field(_K_LEGAL_BIDS, bid_to_pb(bid).SerializeToString())
                parts.append(data)
        elif kind is DecisionKind.TRUMP:
            if decision.trumps:
                legal = b"".join([_varint(TRUMP_TO_PB[t]) for t in decision.trumps])
                parts.append(_field(_K_LEGAL_TRUMPS, legal))
        else:
            parts.append(_uint(_K_COUNT, decision.count))
            if decision.to is not None:
                parts.append(_uint(_K_TO_SEAT, decision.to))
        parts.append(_uint(_K_TIME_LIMIT, time_limit_ms))
        parts.append(_uint(_K_TIME_BANK, time_bank_ms))
        if may_claim:
            parts.append(_K_MAY_CLAIM + b"\x01")
        parts.append(_uint(_K_STARTUP_ALLOWANCE, startup_allowance_ms))
        return _field(_K_DECISION, b"".join(parts))
