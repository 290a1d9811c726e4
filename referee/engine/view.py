"""What one seat may know: the only way hidden information leaves the engine.

``seat_view(game, seat)`` builds a ``SeatView``; the referee serialises only
this. Bots (through the SDK) rebuild the same type from the wire, so the
helpers below (contract, current trick, tricks won, who is winning) are the
same code on both sides. ``hand_end_view`` and ``game_over_view`` are the
views of a hand and of a game just over, built from the seat's events
alone, so the SDK's runner (from the wire) and its simulator (from a
``Game``) give a bot the same ones.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from referee.engine import cards as C
from referee.engine.bids import Bid
from referee.engine.cards import Card, Trump
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
    visible_to,
)
from referee.engine.game import Contract, Decision, DecisionKind, Game
from referee.engine.rules import Rules


@dataclass(frozen=True, slots=True)
class SeatView:
    """Everything ``seat`` may know at one moment of a game."""

    rules: Rules
    seat: int
    hand_number: int  # 1-based; 0 before the first deal
    dealer: int
    scores: tuple[int, ...]  # per team, running totals
    hand: tuple[Card, ...]  # cards held now, sorted
    events: tuple[Event, ...]  # this hand so far, as this seat may see them
    decision: Decision | None  # set when it is this seat's turn

    @property
    def team(self) -> int:
        return self.rules.team_of(self.seat)

    @property
    def partners(self) -> tuple[int, ...]:
        return self.rules.partners(self.seat)

    @property
    def dealt(self) -> tuple[Card, ...]:
        """The cards this seat was dealt (before any exchange)."""
        for ev in self.events:
            if isinstance(ev, DealEvent):
                dealt = ev.hands[self.seat]
                return dealt if dealt is not None else ()
        return ()

    @property
    def bids(self) -> tuple[tuple[int, Bid], ...]:
        return tuple((ev.seat, ev.bid) for ev in self.events if isinstance(ev, BidEvent))

    @property
    def contract(self) -> Contract | None:
        for ev in self.events:
            if isinstance(ev, ContractEvent):
                return Contract(ev.declarer, ev.bid, ev.trump, ev.alone, ev.active)
        return None

    @property
    def trump(self) -> Trump | None:
        contract = self.contract
        return None if contract is None else contract.trump

    @property
    def exchanges(self) -> tuple[ExchangeEvent, ...]:
        return tuple(ev for ev in self.events if isinstance(ev, ExchangeEvent))

    @property
    def plays(self) -> tuple[PlayEvent, ...]:
        return tuple(ev for ev in self.events if isinstance(ev, PlayEvent))

    @property
    def trick_number(self) -> int:
        """The trick being played (1-based), or 0 before play starts."""
        if self.contract is None:
            return 0
        done = sum(1 for ev in self.events if isinstance(ev, TrickEvent))
        return min(done + 1, self.rules.cards_each)

    @property
    def current_trick(self) -> tuple[tuple[int, Card], ...]:
        """(seat, card) of the trick in progress, in play order."""
        current: list[tuple[int, Card]] = []
        for ev in self.events:
            if isinstance(ev, PlayEvent):
                current.append((ev.seat, ev.card))
            elif isinstance(ev, TrickEvent):
                current = []
        return tuple(current)

    @property
    def tricks_won(self) -> tuple[int, ...]:
        """Tricks taken this hand per team, the tricks an accepted claim gave included."""
        won = [0] * self.rules.teams
        for ev in self.events:
            if isinstance(ev, TrickEvent):
                won[self.rules.team_of(ev.winner)] += 1
            elif isinstance(ev, ClaimEvent) and ev.accepted:
                won[ev.team] += ev.tricks
        return tuple(won)

    @property
    def may_claim(self) -> bool:
        """The seat may answer its decision with a claim (``CLAIM``): it is to play a card, and it has not made a
        claim at this play already (a refused claim leaves the position as it was, so it would be refused
        again: the seat plays a card next)."""
        decision = self.decision
        if decision is None or decision.kind is not DecisionKind.PLAY:
            return False
        trick = self.trick_number
        return not any(isinstance(ev, ClaimEvent) and ev.seat == self.seat and ev.trick == trick for ev in self.events)

    @property
    def hand_result(self) -> HandEndEvent | None:
        for ev in self.events:
            if isinstance(ev, HandEndEvent):
                return ev
        return None

    def winning_seat(self) -> int | None:
        """Who is winning the trick in progress, or None if nothing is played yet."""
        trick = self.current_trick
        trump = self.trump
        if not trick or trump is None:
            return None
        return trick[C.winning_index([c for _, c in trick], trump)][0]


# A refused claim at its place among a game's events: the index in ``Game.events`` it came before. A refused
# claim changes nothing in the game (``Game.claim``), so it is not one of the game's events, but every seat
# hears it: whoever tells the seats keeps these beside the game.
Refused = tuple[int, ClaimEvent]


def with_refused(events: Sequence[Event], start: int, refused: Sequence[Refused]) -> list[Event]:
    """``events[start:]`` with the ``refused`` claims made since ``start`` put in at their places (``refused`` in
    the order they were made; those made before ``start`` are left out)."""
    out: list[Event] = []
    i = start
    for at, claim in refused:
        if at < start:
            continue
        out.extend(events[i:at])
        out.append(claim)
        i = max(i, at)
    out.extend(events[i:])
    return out


def seat_view(game: Game, seat: int, refused: Sequence[Refused] = ()) -> SeatView:
    """The view of ``seat`` of ``game`` now; ``refused``: the game's refused claims, which its events do not hold
    (see ``Refused``), for the view to show those of the hand in play."""
    if not 0 <= seat < game.n:
        raise ValueError(f"seat {seat} is not a seat of a {game.n}-player game")
    decision = game.decision()
    events = with_refused(game.events, game.hand_start, refused) if refused else game.hand_events
    return SeatView(
        rules=game.rules,
        seat=seat,
        hand_number=game.hand_number,
        dealer=game.dealer,
        scores=tuple(game.scores),
        hand=tuple(C.sort_hand(game.hands[seat])),
        events=tuple(visible_to(ev, seat) for ev in events),
        decision=decision if decision is not None and decision.seat == seat else None,
    )


def hand_end_view(rules: Rules, seat: int, events: Sequence[Event]) -> SeatView:
    """What ``seat`` knows of a hand that has just ended (``Bot.hand_end`` is given it).

    ``events`` are the hand's events as the seat saw them, its deal first; the
    view keeps them up to the hand's result (what comes after, the game's end,
    is not part of the hand). The hand is over, so the view holds no cards, a
    thrown-in hand and a partner's who sat out alike, and asks no decision.
    """
    end = len(events)
    while end:
        result = events[end - 1]
        if isinstance(result, HandEndEvent):
            break
        end -= 1
    else:
        raise ValueError("the events hold no HandEndEvent: the hand has not ended")
    deal = events[0]
    if not isinstance(deal, DealEvent) or deal.hand != result.hand:
        raise ValueError(f"the events of hand {result.hand} must start with its deal, not {deal!r}")
    return SeatView(rules, seat, result.hand, deal.dealer, result.scores, (), tuple(events[:end]), None)


def game_over_view(rules: Rules, seat: int, first_dealer: int, events: Sequence[Event]) -> SeatView:
    """What ``seat`` knows once the game is over (``Bot.game_over`` is given it).

    ``events`` are those of the game's last hand as the seat saw them, from its
    deal (none if the game ended before the first), through the game's end.
    The scores are the final ones; no cards are held and nothing is to decide.
    """
    end = events[-1] if events else None
    if not isinstance(end, GameEndEvent):
        raise ValueError("the events must end with the GameEndEvent: the game is not over")
    deal = events[0]
    if isinstance(deal, DealEvent):
        return SeatView(rules, seat, deal.hand, deal.dealer, end.scores, (), tuple(events), None)
    return SeatView(rules, seat, 0, first_dealer, end.scores, (), tuple(events), None)
