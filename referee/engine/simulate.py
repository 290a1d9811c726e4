"""Driving a game with a chooser: random play, and shuffling with a given RNG.

The engine never owns randomness; these helpers take a ``random.Random`` from
the caller (tests, benchmarks, the demo, Monte Carlo bots).
"""

from __future__ import annotations

import random
from collections.abc import Callable

from referee.engine.cards import Card, deck_cards
from referee.engine.game import Decision, DecisionKind, Game, Phase
from referee.engine.rules import Rules

Chooser = Callable[[Game, Decision], object]


def shuffled_deck(rules: Rules, rng: random.Random) -> list[Card]:
    deck = list(deck_cards(rules.deck))
    rng.shuffle(deck)
    return deck


def random_action(decision: Decision, rng: random.Random) -> object:
    """A uniformly random legal action for ``decision``."""
    if decision.kind is DecisionKind.GIVE or decision.kind is DecisionKind.DISCARD:
        return rng.sample(decision.options, decision.count)
    return rng.choice(decision.options)


def play_hand(game: Game, choose: Chooser, rng: random.Random) -> None:
    """Deal from ``rng`` and play one hand to its end (or to the game's end)."""
    game.deal(shuffled_deck(game.rules, rng))
    while game.phase is not Phase.DEAL and game.phase is not Phase.OVER:
        decision = game.decision()
        assert decision is not None
        game.apply(choose(game, decision))


def play_game(game: Game, choose: Chooser, rng: random.Random) -> Game:
    """Play ``game`` to its end, dealing each hand from ``rng``."""
    while not game.is_over:
        play_hand(game, choose, rng)
    return game


def random_chooser(rng: random.Random) -> Chooser:
    return lambda _game, decision: random_action(decision, rng)
