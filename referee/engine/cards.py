"""Cards, decks and trump-dependent card order.

A card is a small int: ``suit * 8 + rank``, with suits ``S H D C`` (0..3) and
ranks ``7 8 9 T J Q K A`` (0..7). Identical cards of a double or triple deck
share one code; a hand is a list of codes, duplicates allowed.

Trump is also an int: the four suits (0..3), then ``HIGH`` (4, no trump, normal
order) and ``LOW`` (5, no trump, order reversed). Everything that depends on
trump is a precomputed table indexed by ``[trump][card]`` so the hot path of a
trick is a few list lookups.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from enum import IntEnum
from functools import cache

from referee.engine.errors import InvalidActionError

Card = int
"""A card: the int ``suit * 8 + rank`` (suits S H D C are 0..3, ranks 7 8 9 T J Q K A are 0..7), so JH is 12."""

SUIT_LETTERS = "SHDC"
RANK_LETTERS = "789TJQKA"
SPADES, HEARTS, DIAMONDS, CLUBS = 0, 1, 2, 3
JACK = RANK_LETTERS.index("J")
NUM_CODES = 32


class Trump(IntEnum):
    """What a contract is played in: a suit, or no trump with high or low order."""

    S = 0
    H = 1
    D = 2
    C = 3
    HIGH = 4
    LOW = 5

    @property
    def is_suit(self) -> bool:
        """A suit (S, H, D, C), not one of the no-trumps (HIGH, LOW)."""
        return self <= 3

    def text(self) -> str:
        """``S``, ``H``, ``D``, ``C``, ``high`` or ``low``."""
        return TRUMP_TEXT[self]

    @classmethod
    def parse(cls, text: str) -> Trump:
        """The trump of a text as ``text`` writes it (any case)."""
        try:
            return _TRUMP_BY_TEXT[text.strip().lower()]
        except KeyError:
            raise InvalidActionError(f"unknown trump {text!r}: expected one of S, H, D, C, high, low") from None


TRUMP_TEXT = ("S", "H", "D", "C", "high", "low")
_TRUMP_BY_TEXT = {t.lower(): Trump(i) for i, t in enumerate(TRUMP_TEXT)}
SUIT_TRUMPS = (Trump.S, Trump.H, Trump.D, Trump.C)


def card_suit(card: Card) -> int:
    """The printed suit (ignoring trump: see ``effective_suit``)."""
    return card >> 3


def card_rank(card: Card) -> int:
    """The rank, 0..7 for 7 8 9 T J Q K A (its order without trump: see ``card_power``)."""
    return card & 7


def make_card(suit: int, rank: int) -> Card:
    """The card of ``suit`` (0..3, or a suit ``Trump``) and ``rank`` (0..7)."""
    return suit * 8 + rank


def same_colour_suit(suit: int) -> int:
    """S<->C and H<->D: the suit whose jack becomes the left bower."""
    return 3 - suit


def card_str(card: Card) -> str:
    """The card's text: rank then suit, like ``JH`` (``T`` is the ten)."""
    return RANK_LETTERS[card & 7] + SUIT_LETTERS[card >> 3]


def parse_card(text: str) -> Card:
    """``"JH"`` -> card code. Accepts ``10`` for the ten and lower case."""
    t = text.strip().upper()
    if t.startswith("10"):
        t = "T" + t[2:]
    if len(t) != 2 or t[0] not in RANK_LETTERS or t[1] not in SUIT_LETTERS:
        raise InvalidActionError(f"bad card {text!r}: expected rank (7 8 9 T J Q K A) then suit (S H D C), like 'JH'")
    return make_card(SUIT_LETTERS.index(t[1]), RANK_LETTERS.index(t[0]))


def cards_str(cards: Iterable[Card]) -> list[str]:
    """Each card's text (``card_str``)."""
    return [card_str(c) for c in cards]


def parse_cards(texts: Iterable[str]) -> list[Card]:
    """Each text's card (``parse_card``)."""
    return [parse_card(t) for t in texts]


# --- decks -----------------------------------------------------------------

# name -> (lowest rank letter, copies of each card)
DECKS: dict[str, tuple[str, int]] = {
    "single-24": ("9", 1),
    "single-28": ("8", 1),
    "single-32": ("7", 1),
    "double-32": ("J", 2),
    "double-40": ("T", 2),
    "double-48": ("9", 2),
    "triple-60": ("T", 3),
}


def deck_ranks(deck: str) -> tuple[int, ...]:
    low, _ = DECKS[deck]
    return tuple(range(RANK_LETTERS.index(low), 8))


def deck_copies(deck: str) -> int:
    return DECKS[deck][1]


@cache
def deck_cards(deck: str) -> tuple[Card, ...]:
    """Every card of the deck in a fixed order (suit, rank, copy): shuffle this."""
    ranks = deck_ranks(deck)
    copies = deck_copies(deck)
    return tuple(make_card(s, r) for s in range(4) for r in ranks for _ in range(copies))


@cache
def deck_size(deck: str) -> int:
    return 4 * len(deck_ranks(deck)) * deck_copies(deck)


# --- trump-dependent tables --------------------------------------------------


def _build_tables() -> tuple[list[list[int]], list[list[int]], list[list[list[int]]]]:
    effective: list[list[int]] = []
    power: list[list[int]] = []
    for trump in range(6):
        eff_row = []
        pow_row = []
        for card in range(NUM_CODES):
            suit, rank = card >> 3, card & 7
            if trump <= 3:
                if rank == JACK and suit == trump:
                    eff, pw = trump, 121  # right bower
                elif rank == JACK and suit == same_colour_suit(trump):
                    eff, pw = trump, 120  # left bower: a trump for every purpose
                elif suit == trump:
                    eff, pw = trump, 100 + rank
                else:
                    eff, pw = suit, rank
            elif trump == Trump.HIGH:
                eff, pw = suit, rank
            else:  # LOW: the lowest rank wins, the ace loses
                eff, pw = suit, 7 - rank
            eff_row.append(eff)
            pow_row.append(pw)
        effective.append(eff_row)
        power.append(pow_row)
    # TRICK_KEY[trump][led suit][card]: higher wins; -1 cannot win.
    trick_key = [
        [
            [
                power[t][c] if (effective[t][c] == led or (t <= 3 and effective[t][c] == t)) else -1
                for c in range(NUM_CODES)
            ]
            for led in range(4)
        ]
        for t in range(6)
    ]
    return effective, power, trick_key


EFFECTIVE_SUIT, CARD_POWER, TRICK_KEY = _build_tables()


def effective_suit(card: Card, trump: int) -> int:
    """The suit a card belongs to under ``trump``: the left bower is a trump."""
    return EFFECTIVE_SUIT[trump][card]


def is_trump(card: Card, trump: int) -> bool:
    """Whether ``card`` is a trump under ``trump``: the left bower is one; no-trump (HIGH, LOW) has none."""
    return trump <= 3 and EFFECTIVE_SUIT[trump][card] == trump


def card_power(card: Card, trump: int) -> int:
    """Rank of a card under ``trump``; trumps (100+) beat every plain card.

    Only comparable between cards of the same effective suit, or against trumps.
    """
    return CARD_POWER[trump][card]


def playable(hand: Sequence[Card], trump: int, led: int | None) -> tuple[Card, ...]:
    """The distinct cards of ``hand`` that may go to a trick whose led (effective) suit is ``led``, ascending.

    ``led`` is None for the lead: any card. Otherwise the hand follows the
    effective suit led when it can (the left bower is a trump), else plays any card.
    """
    if led is not None:
        eff = EFFECTIVE_SUIT[trump]
        hand = [c for c in hand if eff[c] == led] or hand
    return tuple(sorted(set(hand)))


def winning_index(cards: Sequence[Card], trump: int) -> int:
    """Index of the card winning a trick (led by ``cards[0]``) so far.

    Highest trump, else highest card of the suit led; of identical cards the
    one played first wins (strict comparison keeps the earlier one).
    """
    keys = TRICK_KEY[trump][EFFECTIVE_SUIT[trump][cards[0]]]
    best = 0
    best_key = keys[cards[0]]
    for i in range(1, len(cards)):
        k = keys[cards[i]]
        if k > best_key:
            best, best_key = i, k
    return best


def sort_hand(cards: Iterable[Card], trump: int | None = None) -> list[Card]:
    """Cards grouped by (effective) suit, strongest first within a suit."""
    if trump is None:
        return sorted(cards, key=lambda c: (c >> 3, -(c & 7)))
    eff, pw = EFFECTIVE_SUIT[trump], CARD_POWER[trump]
    return sorted(cards, key=lambda c: (eff[c] != trump, eff[c], -pw[c]))
