"""Where each card of a deck goes: the packet deal and its inverse.

The deal goes clockwise from the dealer's left, one packet per player per
round, with packet sizes from ``rules.deal_packets``. ``deal_seats`` gives the
receiving seat of every deck position; ``deck_for_hands`` inverts a deal (for
replaying a log, or for arranging a deck that gives chosen hands).
"""

from __future__ import annotations

from collections.abc import Sequence

from referee.engine.cards import Card
from referee.engine.rules import Rules


def deal_seats(rules: Rules, dealer: int) -> list[int]:
    """The seat that receives each deck position, top card first."""
    n = rules.players
    seats: list[int] = []
    for packet in rules.deal_packets:
        for k in range(1, n + 1):
            seats.extend([(dealer + k) % n] * packet)
    return seats


def deck_for_hands(rules: Rules, dealer: int, hands: Sequence[Sequence[Card]]) -> list[Card]:
    """A deck that deals exactly ``hands`` (each in the order given)."""
    if len(hands) != rules.players or any(len(h) != rules.cards_each for h in hands):
        raise ValueError(f"expected {rules.players} hands of {rules.cards_each} cards")
    taken = [0] * rules.players
    deck: list[Card] = []
    for seat in deal_seats(rules, dealer):
        deck.append(hands[seat][taken[seat]])
        taken[seat] += 1
    return deck
