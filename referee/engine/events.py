"""The events of a game, as the engine records them.

Every change of a game is one event. The full list is the omniscient record
(the referee writes it to the game log); ``visible_to`` gives the copy one seat
may see: other players' dealt cards are hidden, and so are the cards of an
exchange the seat took no part in (its size stays public).
"""

from __future__ import annotations

from dataclasses import dataclass, replace

from referee.engine.bids import Bid
from referee.engine.cards import Card, Trump


@dataclass(frozen=True, slots=True)
class DealEvent:
    """A hand is dealt: its number (1-based), the dealer, and each seat's cards (None where the seat viewing
    may not see them: only its own are shown to a bot)."""

    hand: int
    dealer: int
    hands: tuple[tuple[Card, ...] | None, ...]  # per seat; None where hidden


@dataclass(frozen=True, slots=True)
class BidEvent:
    """A seat's turn in the auction: its bid, a pass included."""

    hand: int
    seat: int
    bid: Bid


@dataclass(frozen=True, slots=True)
class ContractEvent:
    """The auction is won and trump is set: who declared, the winning bid, trump (named with the bid or after
    it), whether the declarer plays alone, and the seats that play the tricks."""

    hand: int
    declarer: int
    bid: Bid
    trump: Trump
    alone: bool
    active: tuple[int, ...]  # seats that play the tricks


@dataclass(frozen=True, slots=True)
class ExchangeEvent:
    """Cards passed between partners (``to_seat``) or discarded (``to_seat`` None); ``cards`` is None for a
    seat that took no part (it sees only ``count``)."""

    hand: int
    from_seat: int
    to_seat: int | None  # None: a discard
    cards: tuple[Card, ...] | None  # None where hidden
    count: int


@dataclass(frozen=True, slots=True)
class PlayEvent:
    """A card played to trick ``trick`` (1-based) of the hand."""

    hand: int
    trick: int
    seat: int
    card: Card


@dataclass(frozen=True, slots=True)
class TrickEvent:
    """A trick is complete: the seat that won it."""

    hand: int
    trick: int
    winner: int


@dataclass(frozen=True, slots=True)
class ClaimEvent:
    """A claim of every remaining trick by the seat on turn to play (see ``Game.claim``).

    Accepted, the team takes ``tricks`` (every trick left, the one in progress
    included) and the hand ends. Refused, nothing changes: the event is only
    returned to the caller, never kept in the game's events.
    """

    hand: int
    trick: int  # the trick in progress when the claim was made
    seat: int
    team: int
    tricks: int  # the tricks claimed
    accepted: bool


@dataclass(frozen=True, slots=True)
class HandEndEvent:
    """A hand is over: tricks and points per team this hand, the running scores, whether the declarer made
    the contract (None when the hand was thrown in: ``passed_out``)."""

    hand: int
    tricks: tuple[int, ...]  # per team, this hand
    points: tuple[int, ...]  # per team, this hand
    scores: tuple[int, ...]  # per team, running totals
    passed_out: bool
    declarer: int | None
    made: bool | None


@dataclass(frozen=True, slots=True)
class GameEndEvent:
    """The game is over: final scores, the winning team (None for a draw or when every team lost) and why it
    ended."""

    scores: tuple[int, ...]
    winner: int | None  # team, or None for a draw or when every team lost
    reason: str  # target, hands, mercy, hand-limit, forfeit
    detail: str = ""


Event = (
    DealEvent
    | BidEvent
    | ContractEvent
    | ExchangeEvent
    | PlayEvent
    | TrickEvent
    | ClaimEvent
    | HandEndEvent
    | GameEndEvent
)
"""Any event of a game: ``SeatView.events`` holds the hand's, in order."""


def visible_to(event: Event, seat: int) -> Event:
    """The event as ``seat`` may see it."""
    if isinstance(event, DealEvent):
        return replace(event, hands=tuple(h if i == seat else None for i, h in enumerate(event.hands)))
    if isinstance(event, ExchangeEvent) and seat != event.from_seat and seat != event.to_seat:
        return replace(event, cards=None)
    return event
