"""What the auction says about the hands a seat cannot see: for Monte Carlo bots and ``arena analyze``.

``quick_tricks`` is the rules bot's count of a hand's tricks (``estimate_tricks``:
masters, halved per higher card out, length, ruffs) with everything that does
not depend on the hand worked out once per rules and trump, so a search can
count the hands of every seat in every sampled world.

``auction_likelihood`` scores a sampled world against the bids so far, read
the way the rules bot bids (NeuralPlay's convention): a seat's first bid shows
tricks of its own, so a world in which it holds far fewer is unlikely; a seat
that passed at its first turn when it could have bid showed it lacked them, so
a world in which it holds far more is unlikely. A shortfall or excess of one
trick keeps the world with probability 0.61, of two 0.14.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from functools import lru_cache, partial

from referee.engine.bids import Bid
from referee.engine.cards import CARD_POWER, EFFECTIVE_SUIT, NUM_CODES, Card, Trump
from referee.engine.rules import Rules
from referee.engine.view import SeatView
from sdk.handvalue import BID_MARGIN, NO_TRUMP_FACTOR, TWIN_OUT, still_following
from sdk.knowledge import deck_counter
from sdk.worlds import World

# A bid shows this share of its level in tricks of the bidder's own.
BID_SHOWS = 0.6
# A first-turn pass shows a count below the cheapest bid plus BID_MARGIN plus this.
PASS_SLACK = 1.0


@dataclass(frozen=True)
class _TrumpTable:
    """Per card under one trump: its effective suit and sort order, and the deck's copies above it."""

    suit: tuple[int, ...]
    order: tuple[int, ...]  # sort key: by effective suit, strongest first
    higher: tuple[int, ...]  # cards of the deck (all copies) of its suit that outrank it
    copies: tuple[int, ...]
    suit_size: tuple[int, ...]  # cards of the deck in each effective suit
    side_following: tuple[tuple[float, ...], ...]  # [cards held in the suit][round]: chance nobody ruffs


@lru_cache(maxsize=128)
def _table(rules: Rules, trump: Trump) -> _TrumpTable:
    deck = deck_counter(rules.deck)
    suit = EFFECTIVE_SUIT[trump]
    power = CARD_POWER[trump]
    higher = [0] * NUM_CODES
    for c in deck:
        higher[c] = sum(n for d, n in deck.items() if suit[d] == suit[c] and power[d] > power[c])
    suit_size = [sum(n for c, n in deck.items() if suit[c] == s) for s in range(4)]
    each = rules.cards_each
    total_unseen = sum(deck.values()) - each
    opponents = rules.players - rules.team_size
    # A side suit's card on its k-th round: the chance every opponent still follows.
    following = tuple(
        tuple(still_following(max(0, max(suit_size) - held), total_unseen, each, k + 1, opponents) for k in range(each))
        for held in range(each + 1)
    )
    copies = [deck[c] for c in range(NUM_CODES)]
    order = tuple(suit[c] * 1000 - power[c] for c in range(NUM_CODES))
    return _TrumpTable(tuple(suit), order, tuple(higher), tuple(copies), tuple(suit_size), following)


_HALVES = tuple(0.5**k for k in range(64))


def quick_tricks(hand: Sequence[Card], trump: Trump, rules: Rules) -> float:
    """Tricks ``hand`` should take by itself as declarer with ``trump`` (``estimate_tricks``, from tables)."""
    t = _table(rules, trump)
    suit, higher, copies = t.suit, t.higher, t.copies
    cards = sorted(hand, key=t.order.__getitem__)
    players1 = rules.players - 1
    suit_trump = trump <= 3
    held_in = [0, 0, 0, 0]
    for c in cards:
        held_in[suit[c]] += 1
    tricks = 0.0
    current = -1
    i = above = 0
    previous = -1
    side = False
    following: tuple[float, ...] = ()
    long_from = 0.0
    for c in cards:
        s = suit[c]
        if s != current:
            current, i, previous = s, 0, -1
            held = held_in[s]
            side = suit_trump and s != trump
            following = t.side_following[min(held, len(t.side_following) - 1)]
            long_from = (t.suit_size[s] - held) / players1 + 1
        if c != previous:
            above, previous = i, c  # cards of this suit in the hand above this one
        beaten_by = higher[c] - above
        value = _HALVES[beaten_by] if beaten_by < 64 else 0.0
        if beaten_by == 0 and copies[c] > 1 and cards.count(c) < copies[c]:
            value = TWIN_OUT  # its identical twin is out: played first, it beats this one
        if i >= long_from:
            value = max(value, 0.3 if side else 0.85)
        if side:
            value *= following[i if i < len(following) else -1]
        tricks += value
        i += 1
    if not suit_trump:
        return tricks * NO_TRUMP_FACTOR
    spare = held_in[trump] - 2
    short = sum(max(0, 2 - held_in[s]) for s in range(4) if s != trump)
    return tricks + 0.5 * max(0, min(spare, short))


def best_tricks(hand: Sequence[Card], rules: Rules, trumps: Sequence[Trump] | None = None) -> float:
    return max(quick_tricks(hand, t, rules) for t in (trumps or rules.trump_choices))


@dataclass(frozen=True)
class Evidence:
    """What one seat's bidding showed: at least ``shown`` tricks in ``trump`` (None: its best),
    or (a first-turn pass, ``shown`` None) fewer than ``short_of``."""

    seat: int
    trump: Trump | None
    shown: float | None
    short_of: float | None


def auction_evidence(
    rules: Rules,
    me: int,
    bids: Sequence[tuple[int, Bid]],
    contract_trump: Trump | None = None,
    declarer: int | None = None,
) -> list[Evidence]:
    """The evidence of every other seat's first turn of the auction (see the module docstring)."""
    evidence: list[Evidence] = []
    seen: set[int] = set()
    standing = 0  # level a bid had to beat
    special_standing = False
    partner_spoke: set[int] = set()  # teams in which someone bid before
    for seat, bid in bids:
        first_turn = seat not in seen
        seen.add(seat)
        team = rules.team_of(seat)
        if first_turn and seat != me:
            if not bid.is_pass:
                level = bid.level if bid.kind == "level" else rules.cards_each
                trump = bid.trump
                if trump is None and seat == declarer:
                    trump = contract_trump
                # A bid after partner's shows the team's strength: count only part of it as the bidder's own.
                share = BID_SHOWS * (0.6 if team in partner_spoke else 1.0)
                evidence.append(Evidence(seat, trump, share * level, None))
            elif not special_standing and team not in partner_spoke:
                floor = max(rules.min_bid, standing + 1)
                if floor <= rules.max_level:
                    # Before its partners speak, the rules bot opens with what its own hand is worth:
                    # passing says its count missed the cheapest bid (by PASS_SLACK, the count being rough).
                    evidence.append(Evidence(seat, None, None, floor + BID_MARGIN + PASS_SLACK))
        if not bid.is_pass:
            partner_spoke.add(team)
            if bid.kind == "level":
                standing = max(standing, bid.level)
            else:
                special_standing = True
    return evidence


def auction_likelihood(world: World, evidence: Sequence[Evidence], rules: Rules) -> float:
    """How well the world's dealt hands fit ``evidence``: 1 when every seat's count agrees with its bidding."""
    likelihood = 1.0
    for e in evidence:
        hand = world.dealt[e.seat]
        if e.shown is not None:
            have = quick_tricks(hand, e.trump, rules) if e.trump is not None else best_tricks(hand, rules)
            miss = e.shown - have
        else:
            assert e.short_of is not None
            miss = best_tricks(hand, rules) - e.short_of
        if miss > 0:
            likelihood *= math.exp(-miss * miss / 2)
    return likelihood


def view_likelihood(view: SeatView) -> Callable[[World], float] | None:
    """How well a sampled world fits the auction ``view`` has seen (None: nothing to go on).

    For ``sdk.worlds.Determinizer.sample_fitting`` and ``sample_game``.
    """
    contract = view.contract
    evidence = auction_evidence(
        view.rules,
        view.seat,
        view.bids,
        contract.trump if contract is not None else None,
        contract.declarer if contract is not None else None,
    )
    return partial(auction_likelihood, evidence=evidence, rules=view.rules) if evidence else None
