"""Invariants checked while a game is played by any chooser (random play, hypothesis).

``play_checked`` deals from an RNG, asks a chooser for every action and, after
each step, checks the game against a model kept from the events alone:

- cards are conserved: each seat's hand is what it was dealt, plus what it
  received, minus what it gave, discarded or played; every deal is the deck;
- follow suit: every play is a card held, and off the suit led only when
  the hand held none of that suit; the options offered obey the same rule;
- each trick has one card from each active seat, clockwise from its leader;
  the first leader is the declarer (or the first active seat left of the
  dealer), later leaders are the previous winners, and the winner holds the
  card ``winning_index`` picks;
- each hand's tricks add up to the cards each; points agree with the contract
  being made or set; running scores are the sum of the hands' points;
- the game ends by its rule: the reason's condition holds, and no earlier
  hand met a condition that should have ended it;
- (optionally) seat views hold no other seat's hidden cards.

It returns the decks and actions so the game can be replayed.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field

from referee.engine.cards import Card, deck_cards, effective_suit, sort_hand, winning_index
from referee.engine.events import (
    BidEvent,
    ContractEvent,
    DealEvent,
    Event,
    ExchangeEvent,
    GameEndEvent,
    HandEndEvent,
    PlayEvent,
    TrickEvent,
)
from referee.engine.game import Decision, DecisionKind, Game
from referee.engine.rules import Rules
from referee.engine.simulate import shuffled_deck
from referee.engine.view import seat_view

Chooser = Callable[[Game, Decision], object]


@dataclass
class Record:
    """What it takes to replay a game: the first dealer, the decks dealt and every action."""

    first_dealer: int
    decks: list[list[Card]] = field(default_factory=list)
    actions: list[object] = field(default_factory=list)


class _Model:
    """The state of one hand as the events describe it."""

    def __init__(self, game: Game, deal: DealEvent) -> None:
        rules = game.rules
        self.rules = rules
        self.game = game
        assert all(h is not None and len(h) == rules.cards_each for h in deal.hands)
        self.dealt = [list(h or ()) for h in deal.hands]
        self.hands = [Counter(h) for h in self.dealt]
        self.out: Counter[Card] = Counter()  # discarded and played
        self.deck = Counter(deck_cards(rules.deck))
        assert sum(self.hands, Counter()) == self.deck, "the deal is not the deck"
        self.contract: ContractEvent | None = None
        self.trick: list[PlayEvent] = []
        self.leader: int | None = None
        self.tricks = [0] * rules.teams
        self.trick_count = 0

    def conserved(self, *seats: int | None) -> None:
        """The hands of ``seats`` are as the events say; with no seats given, every hand, and the deck is whole."""
        game = self.game
        for seat in seats or range(game.n):
            if seat is not None:
                assert Counter(game.hands[seat]) == self.hands[seat], f"seat {seat}'s hand drifted from the events"
        if not seats:
            assert sum(self.hands, self.out.copy()) == self.deck, "cards were lost or made"

    def first_leader(self) -> int:
        assert self.contract is not None
        if self.rules.initial_leader == "declarer":
            return self.contract.declarer
        seat = (self.game.dealer + 1) % self.game.n
        while seat not in self.contract.active:
            seat = (seat + 1) % self.game.n
        return seat

    def check_play_decision(self, decision: Decision) -> None:
        assert self.contract is not None
        hand = self.hands[decision.seat]
        options = decision.cards
        assert options and len(set(options)) == len(options) and all(hand[c] > 0 for c in options)
        if self.trick:
            trump = self.contract.trump
            led = effective_suit(self.trick[0].card, trump)
            followers = {c for c in hand if effective_suit(c, trump) == led}
            assert set(options) == (followers or set(hand.elements())), "options break follow suit"
        else:
            assert set(options) == set(hand.elements()), "a leader may lead any card held"

    def on_event(self, ev: Event) -> None:
        if isinstance(ev, ContractEvent):
            self.contract = ev
            partners = self.rules.partners(ev.declarer)
            assert ev.alone == ev.bid.is_lone
            assert ev.active == tuple(s for s in range(self.game.n) if not (ev.alone and s in partners))
        elif isinstance(ev, ExchangeEvent):
            assert ev.cards is not None and len(ev.cards) == ev.count
            taken = Counter(ev.cards)
            assert not taken - self.hands[ev.from_seat], "gave or discarded a card not held"
            self.hands[ev.from_seat] -= taken
            if ev.to_seat is None:
                self.out += taken
            else:
                self.hands[ev.to_seat] += taken
        elif isinstance(ev, PlayEvent):
            assert self.contract is not None
            hand = self.hands[ev.seat]
            assert hand[ev.card] > 0, "played a card not held"
            if not self.trick:
                self.leader = self.first_leader() if self.trick_count == 0 else self.leader
                assert ev.seat == self.leader, "the wrong seat led"
            else:
                trump = self.contract.trump
                led = effective_suit(self.trick[0].card, trump)
                if effective_suit(ev.card, trump) != led:
                    assert not any(effective_suit(c, trump) == led for c in hand), "did not follow suit"
                previous = self.trick[-1].seat
                expected = (previous + 1) % self.game.n
                while expected not in self.contract.active:
                    expected = (expected + 1) % self.game.n
                assert ev.seat == expected, "play out of clockwise order"
            assert ev.trick == self.trick_count + 1
            hand -= Counter((ev.card,))
            self.out[ev.card] += 1
            self.trick.append(ev)
        elif isinstance(ev, TrickEvent):
            assert self.contract is not None
            seats = [p.seat for p in self.trick]
            assert sorted(seats) == sorted(self.contract.active), "a trick needs one card from each active seat"
            best = winning_index([p.card for p in self.trick], self.contract.trump)
            assert ev.winner == seats[best], "the wrong seat won the trick"
            self.tricks[self.rules.team_of(ev.winner)] += 1
            self.trick_count += 1
            self.leader = ev.winner
            self.trick = []


def _check_hand_end(game: Game, model: _Model, ev: HandEndEvent, previous_scores: list[int]) -> None:
    rules = game.rules
    if ev.passed_out:
        assert model.contract is None and model.trick_count == 0
        assert ev.points == (0,) * rules.teams and ev.declarer is None and ev.made is None
    else:
        contract = model.contract
        assert contract is not None and ev.declarer == contract.declarer
        assert model.trick_count == rules.cards_each and sum(ev.tricks) == rules.cards_each
        assert list(ev.tricks) == model.tricks
        team = rules.team_of(contract.declarer)
        needed = contract.bid.level if contract.bid.kind == "level" else rules.cards_each
        assert ev.made == (ev.tricks[team] >= needed)
        if ev.made:
            assert ev.points[team] > 0
        else:
            assert ev.points[team] < 0 or rules.set_penalty == 0
        for t in range(rules.teams):
            if t != team:
                assert ev.points[t] == (ev.tricks[t] if rules.defenders_score else 0)
    assert list(ev.scores) == [s + p for s, p in zip(previous_scores, ev.points, strict=True)]


def _end_condition(game: Game, hand_number: int, scores: tuple[int, ...], passed_out: bool) -> set[str]:
    """The end reasons whose condition holds after a hand (must-bid rules may still play on at a target)."""
    rules = game.rules
    reasons = set()
    if (rules.mercy_loss is not None and min(scores) <= rules.mercy_loss) or (
        rules.mercy_all_below is not None and max(scores) < rules.mercy_all_below
    ):
        reasons.add("mercy")
    if rules.game_over == "hands" and hand_number >= rules.game_hands:
        reasons.add("hands")
    if rules.game_over == "points" and not passed_out and max(scores) >= rules.game_points:
        reasons.add("target")
    if hand_number >= rules.hand_limit:
        reasons.add("hand-limit")
    return reasons


def _check_game_end(game: Game) -> None:
    rules = game.rules
    hand_ends = [ev for ev in game.events if isinstance(ev, HandEndEvent)]
    (end,) = [ev for ev in game.events if isinstance(ev, GameEndEvent)]
    assert game.events[-1] is end and game.is_over
    assert end.scores == hand_ends[-1].scores == tuple(game.scores)
    assert (game.winner, game.end_reason) == (end.winner, end.reason)
    for ev in hand_ends[:-1]:
        met = _end_condition(game, ev.hand, ev.scores, ev.passed_out)
        assert not met - {"target"}, f"hand {ev.hand} should have ended the game ({met})"
        if "target" in met:
            assert rules.tie_rule in ("must-bid", "must-bid-or-set"), f"hand {ev.hand} reached the target"
    last = hand_ends[-1]
    met = _end_condition(game, last.hand, last.scores, last.passed_out)
    assert end.reason in met, f"game ended by {end.reason} but only {met} hold"
    if end.winner is not None:
        assert 0 <= end.winner < rules.teams
        if end.reason == "mercy" and rules.mercy_loss is not None:
            assert end.scores[end.winner] > rules.mercy_loss
        if end.reason in ("hands", "hand-limit") or (end.reason == "target" and rules.tie_rule == "draw"):
            assert end.scores[end.winner] == max(end.scores)


def _check_views(game: Game, model: _Model) -> None:
    for seat in range(game.n):
        view = seat_view(game, seat)
        assert view.hand == tuple(sort_hand(model.hands[seat].elements()))
        decision = game.decision()
        assert (view.decision is not None) == (decision is not None and decision.seat == seat)
        for ev in view.events:
            if isinstance(ev, DealEvent):
                assert all((h is None) == (s != seat) for s, h in enumerate(ev.hands)), "another seat's deal shows"
                assert list(ev.hands[seat] or ()) == model.dealt[seat]
            elif isinstance(ev, ExchangeEvent):
                assert (ev.cards is None) == (seat not in (ev.from_seat, ev.to_seat)), "another seat's exchange shows"


def play_checked(
    rules: Rules, rng: random.Random, choose: Chooser, *, check_views: bool = False, first_dealer: int | None = None
) -> tuple[Game, Record]:
    """Play one whole game with ``choose``, checking every invariant above as it goes."""
    dealer = rng.randrange(rules.players) if first_dealer is None else first_dealer
    game = Game(rules, dealer)
    record = Record(dealer)
    while not game.is_over:
        scores = list(game.scores)
        deck = shuffled_deck(rules, rng)
        record.decks.append(deck)
        (deal,) = game.deal(deck)
        assert isinstance(deal, DealEvent) and deal.dealer == game.dealer and deal.hand == game.hand_number
        model = _Model(game, deal)
        model.conserved()
        while (decision := game.decision()) is not None:
            assert decision.seat == game.to_act
            if decision.kind is DecisionKind.PLAY:
                model.check_play_decision(decision)
            if check_views:
                _check_views(game, model)
            action = choose(game, decision)
            record.actions.append(action)
            for ev in game.apply(action):
                if isinstance(ev, BidEvent):
                    assert ev.seat == decision.seat
                model.on_event(ev)
                if isinstance(ev, HandEndEvent):
                    _check_hand_end(game, model, ev, scores)
            model.conserved(decision.seat, decision.to)
        model.conserved()
        if check_views:
            _check_views(game, model)
    _check_game_end(game)
    return game, record


def replay(rules: Rules, record: Record) -> Game:
    """The game the record describes, played again from its decks and actions."""
    game = Game(rules, record.first_dealer)
    actions = iter(record.actions)
    for deck in record.decks:
        game.deal(deck)
        while game.decision() is not None:
            game.apply(next(actions))
    assert next(actions, None) is None
    return game
