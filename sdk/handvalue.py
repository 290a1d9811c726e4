"""How much a hand is worth, and which cards to part with: the rules bot's counting, for any bot.

``estimate_tricks`` counts the tricks a hand should take by itself as
declarer (masters, halved per higher card out, length, ruffs), ``losers`` the
cards that could lose a trick to the worst split, ``keep_value`` and
``weakest`` rank cards to keep or to give away or discard, and
``card_set_candidates`` lists the likeliest sets of cards to give or discard.
The example rules bot bids and exchanges with them; the Monte Carlo bot's
model of the other seats (``sdk.worldmodel``) and its reading of the auction
(``sdk.inference``) use them too, and so does ``arena analyze``.

The constants say how the rules bot reads a bid: ``BID_MARGIN`` is how far a
count must clear a level before bidding it, the ``SUPPORT_*`` shares what a
partner's bid (or pass) adds to a count.
"""

from __future__ import annotations

import itertools
from collections import Counter
from collections.abc import Iterable, Sequence

from referee.engine.cards import Card, Trump, card_power, effective_suit, is_trump
from referee.engine.rules import Rules
from referee.engine.view import SeatView
from sdk.knowledge import Knowledge, deck_counter, knowledge_of

# How far the count of tricks must clear a level before bidding it: a set
# costs the level, so a bid needs a little more than an even chance.
BID_MARGIN = 0.5
# Partner's tricks when its bid said nothing: before it speaks, and after it passed,
# as a share of an average hand (cards each / players).
SUPPORT_UNKNOWN = 0.8
SUPPORT_PASSED = 0.5
# Share of a partner's bid level it takes with the trump it named, and with another trump.
SUPPORT_SAME_TRUMP = 0.85
SUPPORT_OTHER_TRUMP = 0.4
SUPPORT_NO_TRUMP_NAMED = 0.6
# A master whose identical twin (double and triple decks) is still out: it wins only if played first.
TWIN_OUT = 0.6
# No-trump counts, shaded: the bid picks the best of up to six trumps, and a no-trump
# count varies most, so an unshaded one wins the choice when it is too high (measured
# in self-play: no-trump contracts went down about twice as often as suit ones).
NO_TRUMP_FACTOR = 0.85


def estimate_tricks(hand: Iterable[Card], trump: Trump, rules: Rules, unseen: Counter[Card] | None = None) -> float:
    """Tricks ``hand`` should take by itself as declarer (on lead) with ``trump``.

    Per card: a card no unseen card outranks (a master) is worth a trick; each
    unseen higher card halves that. In a long suit, a card is also a winner
    once the others must have run out (length). In a suit contract a side
    card's worth is the chance the opponents still follow on that round, and
    voids with spare trumps add ruffs.
    """
    hand = list(hand)
    if unseen is None:
        unseen = deck_counter(rules.deck)
        unseen.subtract(hand)
    players = rules.players
    opponents = players - rules.team_size
    total_unseen = sum(n for n in unseen.values() if n > 0)
    mine = _by_suit(hand, trump)
    others = _by_suit(unseen.elements(), trump)
    suit_trump = trump.is_suit
    tricks = 0.0
    for suit, cards in mine.items():
        out = sorted((card_power(c, trump) for c in others.get(suit, ())), reverse=True)
        side = suit_trump and suit != trump
        for i, card in enumerate(cards):
            power = card_power(card, trump)
            higher = sum(1 for p in out if p > power)
            value = 0.5**higher
            if higher == 0 and power in out:
                value = TWIN_OUT  # identical cards: the one played first wins, so its twin may beat it
            # Length: after i rounds the others, holding about len(out) / (players - 1) each, are out of the suit.
            if i >= len(out) / (players - 1) + 1:
                value = max(value, 0.85 if not side else 0.3)
            if side:
                value *= still_following(len(out), total_unseen, rules.cards_each, i + 1, opponents)
            tricks += value
    if not suit_trump:
        return tricks * NO_TRUMP_FACTOR
    spare = len(mine.get(trump, ())) - 2
    short = sum(max(0, 2 - len(mine.get(s, ()))) for s in range(4) if s != trump)
    return tricks + 0.5 * max(0, min(spare, short))  # ruffs: a void or singleton side suit and trumps to spare


def still_following(suit_unseen: int, total_unseen: int, hand_size: int, round_: int, opponents: int) -> float:
    """Chance every opponent still holds a card of a side suit on its ``round_``-th lead (else it may ruff)."""
    if total_unseen <= 0:
        return 1.0
    p = min(1.0, suit_unseen / total_unseen)
    # Binomial chance one opponent holds fewer than round_ cards of the suit.
    short = 0.0
    term = (1 - p) ** hand_size
    for j in range(round_):
        if j > 0:
            term *= (hand_size - j + 1) / j * (p / (1 - p)) if p < 1 else 0.0
        short += term
    return max(0.0, 1 - min(1.0, short)) ** opponents


def losers(hand: Iterable[Card], trump: Trump, rules: Rules, unseen: Counter[Card] | None = None) -> int:
    """Cards of ``hand`` that could lose a trick to the worst split of the unseen cards, playing alone.

    Masters are sure; with a suit trump, so is every trump once the masters
    outnumber the unseen trumps (they can all be drawn), and side masters only then.
    """
    hand = list(hand)
    if unseen is None:
        unseen = deck_counter(rules.deck)
        unseen.subtract(hand)
    mine = _by_suit(hand, trump)
    others = _by_suit(unseen.elements(), trump)
    sure = 0
    trumps_drawn = True
    if trump.is_suit:
        my_trumps = mine.get(trump, [])
        out = others.get(trump, [])
        masters = _masters(my_trumps, out, trump)
        trumps_drawn = masters >= len(out)
        sure += len(my_trumps) if trumps_drawn else masters
    for suit, cards in mine.items():
        if trump.is_suit and suit == trump:
            continue
        out = others.get(suit, [])
        masters = _masters(cards, out, trump)
        if not trumps_drawn:
            continue
        # Masters outnumbering the unseen cards of the suit make the whole suit good.
        sure += len(cards) if masters >= len(out) else masters
    return len(hand) - sure


def _masters(cards: Sequence[Card], out: Sequence[Card], trump: Trump) -> int:
    """How many of ``cards`` (strongest first) no card of ``out`` outranks."""
    top = max((card_power(c, trump) for c in out), default=-1)
    return sum(1 for c in cards if card_power(c, trump) >= top)


def _by_suit(cards: Iterable[Card], trump: Trump) -> dict[int, list[Card]]:
    """Cards grouped by effective suit, strongest first."""
    groups: dict[int, list[Card]] = {}
    for c in cards:
        groups.setdefault(effective_suit(c, trump), []).append(c)
    for cards_ in groups.values():
        cards_.sort(key=lambda c: card_power(c, trump), reverse=True)
    return groups


def keep_value(card: Card, hand: Sequence[Card], trump: Trump, knowledge: Knowledge | None = None) -> float:
    """How much a card is worth keeping: trumps and masters first; short suits go first (voids ruff)."""
    power = card_power(card, trump)
    if is_trump(card, trump):
        return 1000 + power
    if knowledge is not None and knowledge.is_master(card):
        return 500 + power
    suit = effective_suit(card, trump)
    length = sum(1 for c in hand if effective_suit(c, trump) == suit)
    return power + 10 * length


def weakest(hand: Sequence[Card], count: int, trump: Trump, knowledge: Knowledge | None = None) -> list[Card]:
    """The ``count`` cards to part with, one at a time so a suit being emptied goes on to become a void."""
    left = list(hand)
    chosen = []
    for _ in range(count):
        card = min(left, key=lambda c: keep_value(c, left, trump, knowledge))
        left.remove(card)
        chosen.append(card)
    return chosen


# Gifts and discards: the candidate sets are drawn from this many cards beyond the count.
EXCHANGE_SPARE = 3


def card_set_candidates(
    view: SeatView, count: int, best_first: bool, default: Sequence[Card], spare: int = EXCHANGE_SPARE
) -> list[tuple[Card, ...]]:
    """Sets of ``count`` cards to give or discard: ``default``, and every set from the likeliest few cards.

    The likeliest cards are the ``count + spare`` weakest (``keep_value``), or the strongest when
    giving to a lone declarer (``best_first``). Each set is a sorted tuple.
    """
    hand = list(view.hand)
    trump = view.trump if view.trump is not None else Trump.HIGH
    knowledge = knowledge_of(view)
    ranked = sorted(hand, key=lambda c: keep_value(c, hand, trump, knowledge), reverse=best_first)
    pool = ranked[: count + spare]
    sets = {tuple(sorted(s)) for s in itertools.combinations(pool, count)}
    return [tuple(sorted(default)), *sorted(sets)]


__all__ = [
    "BID_MARGIN",
    "EXCHANGE_SPARE",
    "NO_TRUMP_FACTOR",
    "SUPPORT_NO_TRUMP_NAMED",
    "SUPPORT_OTHER_TRUMP",
    "SUPPORT_PASSED",
    "SUPPORT_SAME_TRUMP",
    "SUPPORT_UNKNOWN",
    "TWIN_OUT",
    "card_set_candidates",
    "estimate_tricks",
    "keep_value",
    "losers",
    "still_following",
    "weakest",
]
