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

``play_likelihood`` reads the cards followed so far the same way (the rules
bot's and the fast playout's convention, and most players'): a seat that
follows suit and does not take the trick plays its lowest card of the suit,
and one that takes it from the other side does so with its cheapest winner.
A world in which the seat held a cheaper card that did the same is kept with
probability ``PLAY_SLIP`` for each such card. ``world_likelihood`` is the
product of both: what the Monte Carlo bot weighs its worlds by.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from functools import lru_cache, partial

from referee.engine.bids import Bid
from referee.engine.cards import CARD_POWER, EFFECTIVE_SUIT, NUM_CODES, TRICK_KEY, Card, Trump
from referee.engine.events import PlayEvent, TrickEvent
from referee.engine.rules import Rules
from referee.engine.view import SeatView
from sdk.handvalue import BID_MARGIN, NO_TRUMP_FACTOR, TWIN_OUT, still_following
from sdk.knowledge import deck_counter
from sdk.worlds import World

# A bid shows this share of its level in tricks of the bidder's own.
BID_SHOWS = 0.6
# A first-turn pass shows a count below the cheapest bid plus BID_MARGIN plus this.
PASS_SLACK = 1.0
# A world in which a seat followed with a card while holding a cheaper one that did the same is kept with this
# chance (per such card): players mostly follow low, and win as cheaply as they can, but not always.
PLAY_SLIP = 0.35


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


@dataclass(frozen=True)
class Follow:
    """A card a seat followed suit with, or trumped with, and what the trick asked of it then."""

    seat: int
    card: Card
    later: tuple[Card, ...]  # the cards the seat played after it this hand (it still held them)
    led: int  # the effective suit led
    to_beat: int  # the trick key of the card winning the trick when it played
    for_the_other_side: bool  # that card was the other side's


def play_evidence(view: SeatView) -> list[Follow]:
    """Every card another seat followed with this hand (not its leads), for ``play_likelihood``."""
    contract = view.contract
    if contract is None:
        return []
    rules, trump = view.rules, contract.trump
    suit, keys_by_led = EFFECTIVE_SUIT[trump], TRICK_KEY[trump]
    plays: list[tuple[int, Card, int, int, bool]] = []  # seat, card, led suit, key to beat, the other side's
    trick: list[tuple[int, Card]] = []
    for ev in view.events:
        if isinstance(ev, TrickEvent):
            trick = []
        elif isinstance(ev, PlayEvent):
            if trick:
                led = suit[trick[0][1]]
                keys = keys_by_led[led]
                winner, best = max(trick, key=lambda sc: keys[sc[1]])  # ties: the first played (max keeps it)
                other = rules.team_of(winner) != rules.team_of(ev.seat)
                plays.append((ev.seat, ev.card, led, keys[best], other))
            else:
                plays.append((ev.seat, ev.card, -1, 0, False))
            trick.append((ev.seat, ev.card))
    evidence = []
    for i, (seat, card, led, to_beat, other) in enumerate(plays):
        if led < 0 or seat == view.seat:
            continue
        later = tuple(c for s, c, _, _, _ in plays[i + 1 :] if s == seat)
        evidence.append(Follow(seat, card, later, led, to_beat, other))
    return evidence


def play_likelihood(world: World, evidence: Sequence[Follow], trump: Trump) -> float:
    """How well the world's hands fit the cards followed (``evidence``): 1 when every seat followed as cheaply as
    it could, ``PLAY_SLIP`` for each card it held that would have done the same more cheaply."""
    suit, power, keys_by_led = EFFECTIVE_SUIT[trump], CARD_POWER[trump], TRICK_KEY[trump]
    likelihood = 1.0
    for f in evidence:
        keys = keys_by_led[f.led]
        played_suit = suit[f.card]
        if played_suit != f.led and keys[f.card] < 0:
            continue  # thrown off: no convention says which
        wins = keys[f.card] > f.to_beat
        if wins and not f.for_the_other_side:
            continue  # took a trick its own side held: no convention says how
        low = power[f.card]
        for c in (*world.hands[f.seat], *f.later):
            if suit[c] == played_suit and power[c] < low and (keys[c] > f.to_beat) == wins:
                likelihood *= PLAY_SLIP
    return likelihood


def world_likelihood(view: SeatView) -> Callable[[World], float] | None:
    """How well a sampled world fits the auction (``view_likelihood``) and the cards followed (``play_likelihood``)
    that ``view`` has seen (None: nothing to go on)."""
    auction = view_likelihood(view)
    evidence = play_evidence(view)
    trump = view.trump
    if not evidence or trump is None:
        return auction

    def both(world: World) -> float:
        fit = play_likelihood(world, evidence, trump)
        return fit if auction is None else fit * auction(world)

    return both
