"""Driving a game with a chooser: random play, and shuffling with a given RNG.

The engine never owns randomness; these helpers take a ``random.Random`` from
the caller (tests, benchmarks, simulators, Monte Carlo bots).
"""

from __future__ import annotations

import random
from collections.abc import Callable

from referee.engine.cards import Card, deck_cards
from referee.engine.game import Decision, DecisionKind, Game
from referee.engine.rules import Rules

Chooser = Callable[[Game, Decision], object]
_CARD_SET_KINDS = (DecisionKind.GIVE, DecisionKind.DISCARD)  # actions that are several cards


def shuffled_deck(rules: Rules, rng: random.Random) -> list[Card]:
    """Every card of the rules' deck, shuffled by ``rng``: what ``Game.deal`` takes."""
    deck = list(deck_cards(rules.deck))
    rng.shuffle(deck)
    return deck


def random_action(decision: Decision, rng: random.Random) -> object:
    """A uniformly random legal action for ``decision``."""
    options = decision.options
    if decision.kind in _CARD_SET_KINDS:
        return rng.sample(options, decision.count)
    # int(random() * n) is uniform over 0..n-1 (to float precision) and several
    # times cheaper than rng.choice; random play spends much of its time here.
    return options[int(rng.random() * len(options))]


def play_hand(game: Game, choose: Chooser, rng: random.Random) -> None:
    """Deal from ``rng`` and play one hand to its end (or to the game's end)."""
    game.deal(shuffled_deck(game.rules, rng))
    # decision() is None once the hand is over (waiting for a deal, or the game is over).
    while (decision := game.decision()) is not None:
        game.apply(choose(game, decision))


def play_game(game: Game, choose: Chooser, rng: random.Random) -> Game:
    """Play ``game`` to its end, dealing each hand from ``rng``."""
    while not game.is_over:
        play_hand(game, choose, rng)
    return game


def random_chooser(rng: random.Random) -> Chooser:
    """A chooser taking a uniformly random legal action (see ``random_action``)."""

    def choose(_game: Game, decision: Decision) -> object:
        return random_action(decision, rng)

    return choose
