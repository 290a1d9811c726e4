"""Positions for the claim tests, and the plain search the engine's claim search is checked against.

- ``take_contract``: the first seat to bid takes the contract (the lowest
  level bid, or a named special bid) in the trump asked for; every other seat
  passes; the exchanges are given card by card.
- ``follow_plan``: play on, each seat playing the first card of its list that
  is legal, to reach an ending from a full deal (``filler`` tricks).
- ``top_trumps`` and ``held_over``: a deal for any rules where the declarer's
  claim at the first lead clearly holds (it holds the highest trumps), or looks
  right but fails (the top trumps and one low card of a suit whose high card an
  opponent keeps, with no partner able to win that trick).
- ``plain_holds``: the claim decided by trying every legal card through
  ``Game`` itself, without any of the search's shortcuts (small endings only).
- ``every_line``: every line of play of the other side, the claiming team
  playing ``claim_card``; each line must take every trick for the team.
- ``random_ending``: a random deal played at random down to a few tricks.
"""

from __future__ import annotations

import random
from collections.abc import Iterator, Mapping, Sequence

from engine_helpers import arranged_deck, cards

from referee.engine.bids import PASS
from referee.engine.cards import CARD_POWER, EFFECTIVE_SUIT, Card, Trump, deck_cards
from referee.engine.claim import claim_card
from referee.engine.events import Event, HandEndEvent, TrickEvent
from referee.engine.game import DecisionKind, Game, Phase
from referee.engine.rules import Rules
from referee.engine.simulate import random_action, shuffled_deck


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


def _deal(
    rules: Rules, declarer: int, own: list[Card], to_others: list[Card], for_partners: list[Card] | None
) -> list[list[Card]]:
    """Every hand: the declarer's ``own``; ``to_others`` spread over the opponents; the partners filled
    from ``for_partners`` (None: from anything left); the rest of the deck wherever there is room."""
    n, each = rules.players, rules.cards_each
    team = rules.team_of(declarer)
    opponents = [s for s in range(n) if rules.team_of(s) != team]
    partners = [s for s in range(n) if s != declarer and rules.team_of(s) == team]
    hands: list[list[Card]] = [[] for _ in range(n)]
    hands[declarer] = list(own)
    rest = list(deck_cards(rules.deck))
    for c in own:
        rest.remove(c)
    for k, c in enumerate(to_others):
        hands[opponents[k % len(opponents)]].append(c)
        rest.remove(c)
    for seat in partners:
        while len(hands[seat]) < each:
            c = rest[0] if for_partners is None else next(c for c in for_partners if c in rest)
            hands[seat].append(c)
            rest.remove(c)
    for seat in opponents:
        while len(hands[seat]) < each:
            hands[seat].append(rest.pop(0))
    assert not rest and all(len(h) == each for h in hands), "the deal does not add up"
    return hands


def top_trumps(rules: Rules, declarer: int, trump: int) -> list[list[Card]]:
    """The declarer holds the highest trumps (and, when there are too few, the highest cards of the other
    suits): a claim at the first lead holds whatever the others hold."""
    each = rules.cards_each
    own = _ranked(rules, trump, trump)[:each]
    for suit in (s for s in range(4) if s != trump):
        own += _ranked(rules, trump, suit)[: each - len(own)]
    return _deal(rules, declarer, own, [], None)


def held_over(rules: Rules, declarer: int, trump: int) -> list[list[Card]]:
    """The declarer holds the highest trumps but one card less, and the lowest card of a plain suit whose
    highest card the next seat (an opponent) holds; the other trumps and that suit go to the opponents, so no
    partner can take the trick of that low card: the claim looks right and fails."""
    each = rules.cards_each
    plain = [s for s in range(4) if s != trump]
    low_suit, other = plain[0], plain[1:]
    own = _ranked(rules, trump, trump)[: each - 1]
    for suit in other:
        own += _ranked(rules, trump, suit)[: each - 1 - len(own)]
    low = _ranked(rules, trump, low_suit)
    own.append(low[-1])
    to_others = [c for c in _ranked(rules, trump, trump) if c not in own] + low[:-1]
    for_partners = [c for suit in other for c in _ranked(rules, trump, suit)]
    return _deal(rules, declarer, own, to_others, for_partners)


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
