"""``arena analyze --solver``: a card's worth in each world is the double-dummy solver's, exactly.

The analysis deals the same worlds with or without the solver (the same generator); with it, each choice of
a card is worth the mean, over those worlds, of what best play of every seat makes of it
(``sdk.pimc.CardSolver``, itself checked against plain play through ``Game`` in tests/sdk/test_pimc.py).
"""

from __future__ import annotations

import random

import pytest

from referee.analyze.evaluate import MAX_REJECTIONS, Budget, judge
from referee.engine.game import DecisionKind, Game
from referee.engine.presets import rules_for
from referee.engine.simulate import random_action, shuffled_deck
from referee.engine.view import SeatView, seat_view
from sdk.inference import view_likelihood
from sdk.pimc import SOLVER_BUILT, CardSolver
from sdk.worlds import Determinizer

pytestmark = pytest.mark.skipif(not SOLVER_BUILT, reason="the compiled solver is not built")

BUDGET = Budget(samples=10, screen=4, finalists=8, luck_samples=4, solve=True)


def card_views(preset: str, seed: int, count: int) -> list[SeatView]:
    """Views at a card with two to ``finalists + 1`` choices (every choice goes straight to the final worlds), six
    tricks left at most (each world well inside the analysis's node limit)."""
    rules = rules_for(preset, [])
    rng = random.Random(seed)
    found: list[SeatView] = []
    while len(found) < count:
        game = Game(rules, rng.randrange(rules.players))
        game.deal(shuffled_deck(rules, rng))
        while (decision := game.decision()) is not None and len(found) < count:
            some = 1 < len(decision.options) <= BUDGET.finalists + 1
            late = len(game.hands[decision.seat]) <= 6
            if decision.kind is DecisionKind.PLAY and late and some and rng.random() < 0.5:
                found.append(seat_view(game, decision.seat))
            game.apply(random_action(decision, rng))
    return found


@pytest.mark.parametrize("preset", ["neuralplay", "double-deck-3p"])
def test_with_the_solver_a_card_is_worth_its_exact_value_in_each_world(preset: str) -> None:
    for view in card_views(preset, 7, 3):
        decision = view.decision
        assert decision is not None
        judgement = judge(view, decision.options[0], BUDGET, random.Random(9))
        assert judgement is not None and judgement.worlds == BUDGET.samples
        contract = view.contract
        assert contract is not None
        trick = tuple(c for _, c in view.current_trick)
        solver = CardSolver(view.rules, contract, view.seat, trick, view.tricks_won, len(view.hand))
        sampler, likelihood, rng = Determinizer(view), view_likelihood(view), random.Random(9)
        totals: dict[object, float] = dict.fromkeys(decision.options, 0.0)
        for _ in range(BUDGET.samples):
            world = sampler.sample_fitting(rng, MAX_REJECTIONS + 1, likelihood)
            assert world is not None
            exact = solver.outcomes(world.hands)
            assert exact is not None
            for card, (_, score) in exact.items():
                totals[card] += score
        for value in judgement.choices:
            assert value.mean == pytest.approx(totals[value.action] / BUDGET.samples), value
