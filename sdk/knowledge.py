"""What a seat knows about where the cards are: card counting for bots.

``knowledge_of(view)`` reads a ``SeatView`` and works out, for the hand in
progress: the cards whose place the seat cannot see (``unseen``), the cards it
knows another seat still holds (ones it gave that seat), the suits each seat
has shown out of (a failure to follow suit), how many cards each seat holds,
and the discards it did not see. Rule-based bots use it to tell whether a card
is the highest one left; Monte Carlo bots use it to deal the unseen cards in
ways consistent with the view (``sdk.worlds``).

Everything is computed from the view alone, so a stateless bot (or one
restarted mid-game) knows exactly as much as one that watched every event.

``sure_claim(view)`` tells from the view alone when a claim of every
remaining trick cannot fail (the referee's check sees every hand; a seat
cannot run it, but this condition is enough).
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass
from functools import cache

from referee.engine.cards import Card, Trump, card_power, deck_cards, effective_suit, is_trump
from referee.engine.events import PlayEvent
from referee.engine.view import SeatView


@cache
def _deck(deck: str) -> tuple[Card, ...]:
    return deck_cards(deck)


def deck_counter(deck: str) -> Counter[Card]:
    """Every card of the deck named ``deck`` with its number of copies."""
    return Counter(_deck(deck))


@dataclass(frozen=True)
class HiddenPile:
    """Cards a seat discarded without this seat seeing them (``exchange`` indexes ``view.exchanges``).

    ``suspects``: cards this seat gave the discarder before it discarded, not played since:
    each is in the discarder's hand or in this pile.
    """

    exchange: int
    seat: int
    count: int
    suspects: tuple[Card, ...] = ()


@dataclass(frozen=True)
class Knowledge:
    """Where the cards of the hand in progress are, as far as one seat can tell."""

    seat: int
    trump: Trump | None
    unseen: Counter[Card]  # cards this seat cannot place: in other hands or in hidden discards
    known: dict[int, Counter[Card]]  # other seat -> cards it surely holds now (cards this seat gave it)
    voids: dict[int, frozenset[int]]  # seat -> effective suits it has failed to follow
    hand_sizes: tuple[int, ...]  # cards each seat holds now
    hidden_piles: tuple[HiddenPile, ...]
    played: tuple[tuple[int, Card], ...]  # (seat, card) of every card played this hand

    def unknown_slots(self, seat: int) -> int:
        """How many of ``seat``'s cards this seat cannot name."""
        return self.hand_sizes[seat] - sum(self.known.get(seat, Counter()).values())

    def is_void(self, seat: int, suit: int) -> bool:
        return suit in self.voids.get(seat, frozenset())

    def higher_unseen(self, card: Card) -> int:
        """Unseen cards of ``card``'s effective suit that outrank it (an identical copy does not)."""
        trump = self.trump if self.trump is not None else Trump.HIGH
        suit = effective_suit(card, trump)
        power = card_power(card, trump)
        return sum(
            n for c, n in self.unseen.items() if effective_suit(c, trump) == suit and card_power(c, trump) > power
        )

    def is_master(self, card: Card) -> bool:
        """No unseen card of its suit outranks ``card``: led now, only a trump could beat it."""
        return self.higher_unseen(card) == 0

    def unseen_in_suit(self, suit: int) -> int:
        trump = self.trump if self.trump is not None else Trump.HIGH
        return sum(n for c, n in self.unseen.items() if effective_suit(c, trump) == suit)


def knowledge_of(view: SeatView) -> Knowledge:
    """Card counting from ``view``: see ``Knowledge``."""
    rules = view.rules
    me = view.seat
    trump = view.trump
    sizes = [rules.cards_each if view.dealt else 0] * rules.players
    known: dict[int, Counter[Card]] = {}
    seen_discards: Counter[Card] = Counter()
    piles: list[HiddenPile] = []
    suspects: dict[int, Counter[Card]] = {}  # pile -> cards this seat gave its discarder (see HiddenPile)

    # Exchanges: a card this seat gave stays known in the receiver's hand until
    # the receiver plays it, passes it on, or makes an exchange this seat does
    # not see (it could have gone there).
    for i, ev in enumerate(view.exchanges):
        sizes[ev.from_seat] -= ev.count
        if ev.to_seat is not None:
            sizes[ev.to_seat] += ev.count
        if ev.cards is None:
            held = known.pop(ev.from_seat, None)
            if ev.to_seat is None:
                piles.append(HiddenPile(i, ev.from_seat, ev.count))
                if held:
                    suspects[len(piles) - 1] = held
            continue
        if ev.to_seat is None:
            if ev.from_seat == me:
                seen_discards.update(ev.cards)
            continue
        if ev.from_seat != me:
            _remove_known(known, ev.from_seat, ev.cards)
        if ev.to_seat != me:
            known.setdefault(ev.to_seat, Counter()).update(ev.cards)

    # Plays, and the voids they show: not following the suit led means having none of it.
    played: list[tuple[int, Card]] = []
    voids: dict[int, set[int]] = {}
    led_suit: int | None = None
    for event in view.events:
        if not isinstance(event, PlayEvent):
            continue
        if len(played) % _trick_size(view) == 0:
            led_suit = None
        played.append((event.seat, event.card))
        sizes[event.seat] -= 1
        _remove_known(known, event.seat, (event.card,))
        if trump is None:
            continue
        suit = effective_suit(event.card, trump)
        if led_suit is None:
            led_suit = suit
        elif suit != led_suit:
            voids.setdefault(event.seat, set()).add(led_suit)

    for index, held in suspects.items():
        pile = piles[index]
        _remove_known({pile.seat: held}, pile.seat, tuple(c for s, c in played if s == pile.seat))
        piles[index] = HiddenPile(pile.exchange, pile.seat, pile.count, tuple(sorted(held.elements())))

    unseen = deck_counter(rules.deck) if view.dealt else Counter()
    unseen.subtract(view.hand)
    unseen.subtract(c for _, c in played)
    unseen.subtract(seen_discards)
    for holding in known.values():
        unseen.subtract(holding)
    unseen = +unseen  # drop the zero counts
    return Knowledge(
        seat=me,
        trump=trump,
        unseen=unseen,
        known={s: h for s, h in known.items() if h},
        voids={s: frozenset(v) for s, v in voids.items()},
        hand_sizes=tuple(sizes),
        hidden_piles=tuple(piles),
        played=tuple(played),
    )


def sure_claim(view: SeatView) -> bool:
    """A claim the seat is sure of from its own view: it may claim, it is to lead, and every card it holds is
    a sure winner: no card any other seat may hold (unseen, or known to be held) is higher in its suit, and
    when another seat may hold a trump, every card it holds is a trump. Leading any of them wins the trick
    (an equal card played later loses to the first), so it leads again, to the last trick.

    Sufficient, not necessary: a claim can hold without it (a partner's winners, a suit the others are out
    of), and then this says no."""
    trump = view.trump
    if not view.may_claim or view.current_trick or trump is None:
        return False
    k = knowledge_of(view)
    others = k.unseen.copy()
    for held in k.known.values():
        others.update(held)
    top: dict[int, int] = {}  # effective suit -> the highest power another seat may hold
    for c in others:
        suit, power = effective_suit(c, trump), card_power(c, trump)
        top[suit] = max(top.get(suit, -1), power)
    ruff = trump.is_suit and int(trump) in top  # another seat may hold a trump
    return all(
        card_power(c, trump) >= top.get(effective_suit(c, trump), -1) and (not ruff or is_trump(c, trump))
        for c in view.hand
    )


def _trick_size(view: SeatView) -> int:
    contract = view.contract
    return len(contract.active) if contract is not None else view.rules.players


def _remove_known(known: dict[int, Counter[Card]], seat: int, cards: tuple[Card, ...] | list[Card]) -> None:
    holding = known.get(seat)
    if holding is None:
        return
    for c in cards:
        if holding[c] > 0:
            holding[c] -= 1
