"""Claims in the tests: positions, the plain search the engine's claim search is checked against, and logs.

- ``take_contract``: the first seat to bid takes the contract (the lowest
  level bid, or a named special bid) in the trump asked for; every other seat
  passes; the exchanges are given card by card.
- ``follow_plan``: play on, each seat playing the first card of its list that
  is legal, to reach an ending from a full deal (``filler`` tricks).
- ``top_trumps``, ``draw_first`` and ``held_over``: a deal for any rules where
  the declarer's claim at the first lead clearly holds (it holds the highest
  trumps), holds only if trumps are drawn before a plain winner is cashed (an
  opponent could ruff it), or looks right but fails (the top trumps and one
  low card of a suit whose high card an opponent keeps, with no partner able
  to win that trick). ``bench/claim.py`` measures the search on them too.
- ``plain_holds``: the claim decided by trying every legal card through
  ``Game`` itself, without any of the search's shortcuts (small endings only);
  ``plain_values`` and ``plain_tricks``: the tricks a team takes with best
  play after each legal card, and from here, found the same way (the
  reference of the double-dummy solver, ``tests/engine/test_doubledummy.py``).
- ``every_line``: every line of play of the other side, the claiming team
  playing ``claim_card``; each line must take every trick for the team.
- ``random_ending``: a random deal played at random down to a few tricks.
- ``write_claim_log``: a game played at random in which the seats claim in
  the last tricks of each hand, played and logged by the referee's match
  driver (``ClaimingSeats`` answers its seats in this process).
"""

from __future__ import annotations

import asyncio
import random
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import cast

from referee.engine.bids import PASS
from referee.engine.cards import CARD_POWER, EFFECTIVE_SUIT, Card, Trump, deck_cards
from referee.engine.claim import claim_card
from referee.engine.events import ClaimEvent, Event, HandEndEvent, TrickEvent
from referee.engine.game import CLAIM, Action, Decision, DecisionKind, Game, Phase
from referee.engine.presets import rules_for
from referee.engine.rules import Rules
from referee.engine.simulate import random_action, shuffled_deck
from referee.gamelog import LogWriter
from referee.match import FaultPolicy, MatchConfig, SeatBot, play_games
from referee.seat import Outcome
from referee.server import Player
from tests.support.aio import run_async
from tests.support.engine import arranged_deck, cards, short_bid


def take_contract(game: Game, trump: Trump, kind: str = "level", exchanges: Sequence[str] = ()) -> None:
    """The seat to bid first takes a ``kind`` contract in ``trump`` (the lowest such bid); everyone else passes.

    ``exchanges``: the cards of each exchange step in turn (a give or a discard), as text.
    """
    decision = game.decision()
    assert decision is not None and decision.kind is DecisionKind.BID
    bid = next(b for b in decision.bids if b.kind == kind and b.trump in (None, trump))
    game.apply(bid)
    while game.phase is Phase.BID:
        game.apply(PASS)
    if game.phase is Phase.TRUMP:
        game.apply(trump)
    for step in exchanges:
        game.apply(cards(step))
    assert game.phase is Phase.PLAY, f"the contract is not reached: {game.phase}"


def deal_and_contract(
    rules: Rules, declarer: int, hands: Mapping[int, str | Sequence[Card]], trump: Trump, kind: str = "level"
) -> Game:
    """A game whose first hand gives ``hands`` and whose ``declarer`` takes a contract in ``trump``."""
    dealer = (declarer - 1) % rules.players
    game = Game(rules, dealer)
    game.deal(arranged_deck(rules, dealer, hands))
    take_contract(game, trump, kind)
    assert game.to_act == declarer
    return game


def follow_plan(game: Game, plan: Mapping[int, str], tricks: int) -> None:
    """Play ``tricks`` whole tricks, each seat playing the first card of its plan that is legal now."""
    left = {seat: cards(text) for seat, text in plan.items()}
    target = game.trick_number + tricks
    while game.phase is Phase.PLAY and game.trick_number < target:
        seat = game.to_act
        assert seat is not None
        card = next(c for c in left[seat] if c in game.legal_plays())
        left[seat].remove(card)
        game.apply(card)


# ------------------------------------------------------------------ deals for every preset


def _ranked(rules: Rules, trump: int, suit: int) -> list[Card]:
    """The deck's cards of effective suit ``suit`` under ``trump``, highest first (copies included)."""
    power = CARD_POWER[trump]
    return sorted((c for c in deck_cards(rules.deck) if EFFECTIVE_SUIT[trump][c] == suit), key=lambda c: -power[c])


def _deal(rules: Rules, given: Mapping[int, Sequence[Card]], only: Mapping[int, Sequence[Card]]) -> list[list[Card]]:
    """Every hand: each seat's ``given`` cards, then filled up from the rest of the deck, the seats of ``only``
    first and only from their cards there."""
    n, each = rules.players, rules.cards_each
    hands: list[list[Card]] = [list(given.get(s, ())) for s in range(n)]
    rest = list(deck_cards(rules.deck))
    for c in (c for hand in hands for c in hand):
        rest.remove(c)
    for seat in [*only, *(s for s in range(n) if s not in only)]:
        allowed = only.get(seat)
        while len(hands[seat]) < each:
            c = rest[0] if allowed is None else next(c for c in allowed if c in rest)
            hands[seat].append(c)
            rest.remove(c)
    assert not rest and all(len(h) == each for h in hands), "the deal does not add up"
    return hands


def _sides(rules: Rules, declarer: int) -> tuple[list[int], list[int]]:
    """The declarer's partners, and its opponents (nearest on its left first)."""
    n, team = rules.players, rules.team_of(declarer)
    seats = [(declarer + k) % n for k in range(1, n)]
    return [s for s in seats if rules.team_of(s) == team], [s for s in seats if rules.team_of(s) != team]


def _highest(rules: Rules, trump: int, count: int, suits: Sequence[int]) -> list[Card]:
    """The ``count`` highest cards of ``suits``, taken suit by suit in that order."""
    cards: list[Card] = []
    for suit in suits:
        cards += _ranked(rules, trump, suit)[: count - len(cards)]
    return cards


def top_trumps(rules: Rules, declarer: int, trump: int) -> list[list[Card]]:
    """The declarer holds the highest trumps (and, when there are too few, the highest cards of the other
    suits): a claim at the first lead holds whatever the others hold."""
    suits = [trump, *(s for s in range(4) if s != trump)]
    return _deal(rules, {declarer: _highest(rules, trump, rules.cards_each, suits)}, {})


def held_over(rules: Rules, declarer: int, trump: int) -> list[list[Card]]:
    """The declarer holds the highest trumps but one card less, and the lowest card of a plain suit whose
    highest card the next seat (an opponent) holds; the other trumps and that suit go to the opponents, so no
    partner can take the trick of that low card: the claim looks right and fails."""
    low_suit, *other = (s for s in range(4) if s != trump)
    low = _ranked(rules, trump, low_suit)
    own = [*_highest(rules, trump, rules.cards_each - 1, [trump, *other]), low[-1]]
    partners, opponents = _sides(rules, declarer)
    given: dict[int, list[Card]] = {declarer: own}
    theirs = [c for c in _ranked(rules, trump, trump) if c not in own] + low[:-1]
    for k, c in enumerate(theirs):
        given.setdefault(opponents[k % len(opponents)], []).append(c)
    plain = [c for suit in other for c in _ranked(rules, trump, suit)]
    return _deal(rules, given, {p: plain for p in partners})


def draw_first(rules: Rules, declarer: int, trump: int) -> list[list[Card]]:
    """The declarer holds the highest trumps but one and the highest card of a plain suit; the other trumps go
    to the opponent on its left, who holds none of that suit: the plain card led before the trumps are drawn
    is ruffed, and drawing them first takes every trick."""
    side, *other = (s for s in range(4) if s != trump)
    own = [*_highest(rules, trump, rules.cards_each - 1, [trump, *other]), _ranked(rules, trump, side)[0]]
    partners, opponents = _sides(rules, declarer)
    ruffer = opponents[0]
    given = {declarer: own, ruffer: [c for c in _ranked(rules, trump, trump) if c not in own]}
    plain = [c for suit in other for c in _ranked(rules, trump, suit)]
    return _deal(rules, given, {ruffer: plain, **{p: plain for p in partners}})


# ------------------------------------------------------------------ checking the search


def _trick_lost(events: Sequence[Event], game: Game, team: int) -> bool:
    return any(isinstance(e, TrickEvent) and game.rules.team_of(e.winner) != team for e in events)


def plain_holds(game: Game, team: int) -> bool:
    """Whether ``team`` takes every remaining trick against every play: each legal card tried through ``Game``."""
    seat = game.to_act
    assert seat is not None
    ours = game.rules.team_of(seat) == team
    for card in game.legal_plays():
        after = game.copy()
        events = after.apply(card)
        if _trick_lost(events, after, team):
            holds = False
        elif any(isinstance(e, HandEndEvent) for e in events):
            holds = True
        else:
            holds = plain_holds(after, team)
        if holds is ours:
            return ours
    return not ours


def plain_values(game: Game, team: int) -> dict[Card, int]:
    """Every legal card of the seat to act -> the tricks ``team`` takes from here (the trick in progress
    included) after it, with best play of every seat: each line tried through ``Game``, without any of a
    search's shortcuts (small endings only). The reference the double-dummy solver is checked against."""
    values: dict[Card, int] = {}
    for card in game.legal_plays():
        after = game.copy()
        events = after.apply(card)
        won = sum(1 for e in events if isinstance(e, TrickEvent) and game.rules.team_of(e.winner) == team)
        ended = any(isinstance(e, HandEndEvent) for e in events)
        values[card] = won if ended else won + plain_tricks(after, team)
    return values


def plain_tricks(game: Game, team: int) -> int:
    """The tricks ``team`` takes from here with best play (``plain_values``): the most its seats can get, the
    others (every other team, together) playing to hold it down."""
    values = plain_values(game, team).values()
    return max(values) if game.rules.team_of(game.to_act or 0) == team else min(values)


def every_line(game: Game, team: int) -> Iterator[Game]:
    """Every end of the hand reached when the others play every legal card and ``team`` plays ``claim_card``.

    Fails (AssertionError) as soon as ``claim_card`` has no card or a trick goes to the others.
    """
    seat = game.to_act
    assert seat is not None
    if game.rules.team_of(seat) == team:
        card = claim_card(game)
        assert card is not None, f"claim_card found no card for seat {seat} in a position the search had proved"
        options: Sequence[Card] = [card]
    else:
        options = game.legal_plays()
    for card in options:
        after = game.copy()
        events = after.apply(card)
        assert not _trick_lost(events, after, team), f"a trick went to the others after {events}"
        if any(isinstance(e, HandEndEvent) for e in events):
            yield after
        else:
            yield from every_line(after, team)


def random_ending(rules: Rules, rng: random.Random, tricks_left: int, lone: float = 0.0) -> Game | None:
    """A hand dealt and bid at random (a lone bid taken with chance ``lone`` when legal), played at random
    until ``tricks_left`` tricks remain and a random number of cards of that trick are down; None if the
    hand was thrown in."""
    game = Game(rules, rng.randrange(rules.players))
    game.deal(shuffled_deck(rules, rng))
    while (decision := game.decision()) is not None and decision.kind is not DecisionKind.PLAY:
        action = random_action(decision, rng)
        if decision.kind is DecisionKind.BID:
            lone_bids = [b for b in decision.bids if b.is_lone]
            if lone_bids and rng.random() < lone:
                action = rng.choice(lone_bids)
        game.apply(action)
    if game.phase is not Phase.PLAY:
        return None
    plays = (rules.cards_each - tricks_left) * len(game.active) + rng.randrange(len(game.active))
    for _ in range(plays):
        decision = game.decision()
        assert decision is not None
        game.apply(random_action(decision, rng))
    return game


# ------------------------------------------------------------------ logs with claims


@dataclass
class ClaimingSeats:
    """Every seat of a match, answered in this process (``referee.match``'s askers): with ``claim_tricks``
    tricks left or fewer, a seat claims them all before it plays, once per play, through ``Game.claim`` as
    the referee puts a bot's claim (a refused claim is asked again, and the card follows); random legal
    actions otherwise, short bids (``short_bid``) or a lone bid at the rate ``lone`` when one is legal."""

    players: Sequence[Player]
    rng: random.Random
    claim_tricks: int
    lone: float
    claimed: set[tuple[int, int, int]] = field(default_factory=set)  # (hand, trick, seat) claimed at

    async def ask(self, game: Game, decision: Decision) -> Outcome:
        # the answer comes a loop turn later, as a bot's does: the driver logs the last answer's records meanwhile,
        # each with its think time (0 here)
        await asyncio.sleep(0)
        request_id = self.players[decision.seat].next_request_id()
        at = (game.hand_number, game.trick_number, decision.seat)
        tricks_left = game.rules.cards_each - game.trick_number + 1
        if decision.kind is DecisionKind.PLAY and tricks_left <= self.claim_tricks and at not in self.claimed:
            self.claimed.add(at)
            claim = game.claim(decision.seat)[0]
            assert isinstance(claim, ClaimEvent)
            return Outcome(request_id, CLAIM, None, 0, claim)
        action = cast(Action, random_action(decision, self.rng))
        if decision.kind is DecisionKind.BID:
            lone_bids = [b for b in decision.bids if b.is_lone]
            if lone_bids and self.rng.random() < self.lone:
                action = self.rng.choice(lone_bids)
            else:
                action = short_bid(decision.bids, self.rng)
        game.apply(action)
        return Outcome(request_id, action, None, 0)


def write_claim_log(
    path: Path,
    preset: str,
    *,
    seed: int = 1,
    claim_tricks: int = 3,
    lone: float = 0.0,
    overrides: tuple[str, ...] = (),
) -> Path:
    """One game of ``preset`` between seats named bot0, bot1 ... (see ``ClaimingSeats``), played by the
    referee's own match driver (``referee.match.play_games``, the loop ``arena match`` logs its games with)
    and logged to ``path``: a refused claim is logged and the claimer's card follows, an accepted one ends
    the hand."""
    rules = rules_for(preset, overrides)
    seats = tuple(SeatBot(f"bot{s}") for s in range(rules.players))
    config = MatchConfig(preset, rules, seats, 1, seed, policy=FaultPolicy.DEFAULT, sandbox=None)
    players = [Player(f"seat{s}-{b.name}", b.name) for s, b in enumerate(seats)]
    answers = ClaimingSeats(players, random.Random(seed), claim_tricks, lone)
    with LogWriter(path) as writer:
        run_async(play_games(players, config, writer, askers=[answers.ask] * rules.players))
    return path
