"""Engine values <-> the parts of protocol messages, and the protocol's fixed vocabulary.

The lowest room of the wire package: the protocol's version, its service and
method names, its error codes and its error type, and the conversions of
single values both ways (a card, a bid, a trump, the rules, an event, a
contract, a decision, an action). Whole messages are built in ``messages``,
read in ``decoded``, and a DecisionRequest is written fast by ``encoder``.

A malformed value raises ``ProtocolError`` with a one-line reason: an answer in
the wrong field, a bid kind that is not one, text that names no card.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from enum import IntEnum

from referee.engine.bids import PASS, Bid, BidKind
from referee.engine.cards import Card, Trump, card_str, parse_card
from referee.engine.errors import InvalidActionError
from referee.engine.events import (
    BidEvent,
    ClaimEvent,
    ContractEvent,
    DealEvent,
    Event,
    ExchangeEvent,
    GameEndEvent,
    HandEndEvent,
    PlayEvent,
    TrickEvent,
)
from referee.engine.game import CLAIM, Answer, Contract, Decision, DecisionKind
from referee.engine.rules import Rules
from referee.errors import ArenaError
from referee.protocol.bideuchre.v1 import arena_pb2 as pb


class ProtocolError(ArenaError):
    """Bytes that are not the protocol: not a message, an empty one, an answer in the wrong field of Action,
    text that names no card. A rule broken by a well-formed answer is the engine's IllegalActionError."""


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
TRUMP_TO_PB = (pb.TRUMP_SPADES, pb.TRUMP_HEARTS, pb.TRUMP_DIAMONDS, pb.TRUMP_CLUBS, pb.TRUMP_HIGH, pb.TRUMP_LOW)
_TRUMP_FROM_PB: dict[int, Trump] = {v: Trump(i) for i, v in enumerate(TRUMP_TO_PB)}

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

DECISION_TO_PB = {
    DecisionKind.BID: pb.DECISION_KIND_BID,
    DecisionKind.TRUMP: pb.DECISION_KIND_TRUMP,
    DecisionKind.GIVE: pb.DECISION_KIND_GIVE,
    DecisionKind.DISCARD: pb.DECISION_KIND_DISCARD,
    DecisionKind.PLAY: pb.DECISION_KIND_PLAY,
}
_DECISION_FROM_PB = {v: k for k, v in DECISION_TO_PB.items()}

# which Action field answers which decision kind
_ANSWER_FIELD = {
    DecisionKind.BID: "bid",
    DecisionKind.TRUMP: "trump",
    DecisionKind.GIVE: "cards",
    DecisionKind.DISCARD: "cards",
    DecisionKind.PLAY: "card",
}


# --------------------------------------------------------------------- values


def _card(text: str) -> Card:
    try:
        return parse_card(text)
    except InvalidActionError as exc:
        raise ProtocolError(str(exc)) from None


def cards_from_text(texts: Iterable[str]) -> list[Card]:
    code = _CARD_CODE.get
    return [c if (c := code(t)) is not None else _card(t) for t in texts]


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
        msg.trump = TRUMP_TO_PB[bid.trump]
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


def rules_to_pb(rules: Rules) -> dict[str, str]:
    """The rules as name -> text, exactly as ``arena presets`` prints them."""
    return {name: value for name, value, _ in rules.describe()}


def rules_from_pb(values: Mapping[str, str]) -> Rules:
    return Rules().with_overrides(dict(values))


def contract_to_pb(contract: Contract, out: pb.Contract) -> pb.Contract:
    out.declarer = contract.declarer
    bid_to_pb(contract.bid, out.bid)
    out.trump = TRUMP_TO_PB[contract.trump]
    out.alone = contract.alone
    out.active_seats.extend(contract.active)
    return out


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
    elif isinstance(event, ClaimEvent):
        out.hand = event.hand
        c = out.claim
        c.seat, c.team, c.trick = event.seat, event.team, event.trick
        c.tricks, c.accepted = event.tricks, event.accepted
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


def event_from_pb(msg: pb.Event, seat: int, players: int) -> Event | None:
    """The engine event for a wire event received by ``seat``; None for an event of a kind this version of the
    protocol does not know (a newer referee's: protobuf keeps it as an unknown field, with no member of the
    oneof set), which a reader skips."""
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
    if which == "claim":
        claim = msg.claim
        return ClaimEvent(hand, claim.trick, claim.seat, claim.team, claim.tricks, claim.accepted)
    if which == "game_end":
        g = msg.game_end
        return GameEndEvent(tuple(g.scores), g.winner_team if g.has_winner else None, g.reason, g.detail)
    return None


def events_from_pb(msgs: Iterable[pb.Event], seat: int, players: int) -> tuple[Event, ...]:
    """The engine events for wire events received by ``seat``, those of kinds this version does not know left out."""
    return tuple([ev for msg in msgs if (ev := event_from_pb(msg, seat, players)) is not None])


# ------------------------------------------------------------ decisions and answers


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


def action_from_pb(action: pb.Action, decision: Decision) -> Answer:
    """The engine action in ``action`` for ``decision`` (``CLAIM`` for a claim); raises ProtocolError if malformed.

    Legality is the engine's business: this only checks the shape.
    """
    which = action.WhichOneof("choice")
    if which == "claim" and decision.kind is DecisionKind.PLAY:
        return CLAIM
    expected = _ANSWER_FIELD[decision.kind]
    if which != expected:
        got = "no choice" if which is None else f"Action.{which}"
        also = " (or Action.claim)" if decision.kind is DecisionKind.PLAY else ""
        raise ProtocolError(f"a {decision.kind} decision is answered with Action.{expected}{also}, got {got}")
    if which == "card":
        return _card(action.card)
    if which == "bid":
        return bid_from_pb(action.bid)
    if which == "trump":
        return trump_from_pb(action.trump)
    return cards_from_text(action.cards.cards)
