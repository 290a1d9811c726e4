"""sdk.pimc: the score of each choice in a world, solved double-dummy, against plain play through ``Game``.

On random endings of every two-team preset (lone contracts often), the score
``CardSolver`` gives each legal card is the one that trying every line through
``Game`` gives, each hand ended by the engine's own scoring (its
``HandEndEvent`` points, as the seat's team's margin), with the seat's team
playing for the most and the other team for the least. The score is not the
tricks: a set contract and a lone hand are steps, and the test would fail if
the solver's tricks were averaged before the scoring. Then ``ContractSolver``
at a first lead, and the allowance that stops a search in time.
"""

from __future__ import annotations

import itertools
import random

import pytest

from referee.engine import doubledummy as dd
from referee.engine.cards import Card
from referee.engine.events import HandEndEvent
from referee.engine.game import Game, Phase
from referee.engine.presets import PRESETS, preset
from referee.engine.scoring import hand_points
from sdk.pimc import LARGEST_LIMIT, SOLVER_BUILT, Allowance, CardSolver, ContractSolver, Pace, margin_table
from sdk.worldmodel import margin
from tests.support.claims import random_ending

pytestmark = pytest.mark.skipif(not SOLVER_BUILT, reason="the compiled solver is not built")

TWO_TEAMS = [name for name, rules in PRESETS.items() if rules.teams == 2]
POSITIONS = 300  # per preset


def plain_scores(game: Game, team: int) -> dict[Card, float]:
    """Every legal card of the seat to act -> ``team``'s margin at the hand's end, with ``team`` playing for the
    most and the other team for the least, every line tried through ``Game`` (small endings only)."""
    scores: dict[Card, float] = {}
    for card in game.legal_plays():
        after = game.copy()
        ends = [e for e in after.apply(card) if isinstance(e, HandEndEvent)]
        scores[card] = margin(ends[0].points, team) if ends else plain_score(after, team)
    return scores


def plain_score(game: Game, team: int) -> float:
    scores = plain_scores(game, team).values()
    return max(scores) if game.rules.team_of(game.to_act or 0) == team else min(scores)


def solver_scores(game: Game) -> dict[Card, float]:
    contract, seat = game.contract, game.to_act
    assert contract is not None and seat is not None
    position = dd.Position.of_game(game)
    solver = CardSolver(game.rules, contract, seat, position.trick, game.tricks_won, position.tricks_left)
    scores = solver.margins(position.hands)
    assert scores is not None  # no limit: always solved
    return scores


@pytest.mark.parametrize("name", TWO_TEAMS)
def test_every_card_scores_what_plain_play_scores(name: str) -> None:
    rules = preset(name)
    rng = random.Random(f"pimc:{name}")
    checked = mattered = 0
    while checked < POSITIONS:
        deepest = 3 if rules.players <= 4 else 2
        game = random_ending(rules, rng, tricks_left=rng.choice([1, 2, deepest]), lone=0.4)
        if game is None:
            continue
        while game.phase is Phase.PLAY and checked < POSITIONS:
            seat = game.to_act
            assert seat is not None
            got, want = solver_scores(game), plain_scores(game, rules.team_of(seat))
            assert got == want, f"scores {got}, plain play {want}: {dd.Position.of_game(game)}"
            tricks = dd.card_values(dd.Position.of_game(game))
            mattered += len(set(tricks.values())) > 1
            checked += 1
            game.apply(rng.choice(game.legal_plays()))
    assert mattered > POSITIONS // 40  # enough positions where the card changed the tricks (few do, at random)


def test_the_score_is_a_step_in_the_tricks_for_a_contract_made_or_set() -> None:
    # Neuralplay, a bid of 4 spades by seat 0, nothing taken yet: the table is the engine's scoring per tricks.
    rules = preset("neuralplay")
    rng = random.Random(3)
    game = random_ending(rules, rng, tricks_left=rules.cards_each)
    while game is None or game.contract is None or game.contract.bid.kind != "level":
        game = random_ending(rules, rng, tricks_left=rules.cards_each)
    contract = game.contract
    team = rules.team_of(contract.declarer)
    table = margin_table(rules, contract, (0, 0), rules.cards_each, team)
    for taken, value in enumerate(table):
        tricks = [0, 0]
        tricks[team] = taken
        tricks[1 - team] = rules.cards_each - taken
        assert value == margin(hand_points(rules, contract.bid, contract.declarer, tricks)[1], team)
    assert list(table) == sorted(table)  # more tricks never cost the declarers
    steps = {b - a for a, b in itertools.pairwise(table)}
    assert len(steps) > 1  # not linear: the set contract is a step


def test_a_contract_solver_scores_hands_at_their_first_lead_and_solves_each_once() -> None:
    rules = preset("neuralplay")
    rng = random.Random(11)
    game = None
    while game is None:
        game = random_ending(rules, rng, tricks_left=rules.cards_each)
    assert game.trick_number == 1 and game.phase is Phase.PLAY
    game_copy = game.copy()
    contract = game.contract
    assert contract is not None
    team = rules.team_of(contract.declarer)
    solver = ContractSolver(rules, team)
    scores = solver.margins({0: game, 1: game_copy, 2: None})
    assert scores is not None
    position = dd.Position.of_game(game)
    tricks = dd.tricks(position, team)
    assert scores[0] == scores[1] == margin_table(rules, contract, (0, 0), rules.cards_each, team)[tricks]
    assert scores[2] == 0.0  # thrown in


def test_a_world_that_would_take_too_long_is_left_to_the_caller() -> None:
    rules = preset("triple-deck")
    game = None
    rng = random.Random(5)
    while game is None:
        game = random_ending(rules, rng, tricks_left=rules.cards_each)
    contract, seat = game.contract, game.to_act
    assert contract is not None and seat is not None
    position = dd.Position.of_game(game)
    now = [0.0]
    pace = Pace()
    # The deadline is past: no node may be searched, and the world is not solved.
    late = Allowance(lambda: now[0], -1.0, "cards", position.tricks_left, 12, pace)
    solver = CardSolver(rules, contract, seat, position.trick, game.tricks_won, position.tricks_left, late)
    assert solver.margins(position.hands) is None
    # A tiny limit the first world reaches: it is refused, counted as dear, and after two such worlds the
    # decision stops trying the solver.
    tiny = CardSolver(rules, contract, seat, position.trick, game.tricks_won, position.tricks_left, node_limit=50)
    assert tiny.margins(position.hands) is None
    pace = Pace(nodes=1e5, seconds=1.0)  # 100,000 nodes a second: 0.45 s allow 2,625 nodes to each of 12 worlds
    allowance = Allowance(lambda: now[0], 0.45, "cards", position.tricks_left, 12, pace)
    dear = CardSolver(rules, contract, seat, position.trick, game.tricks_won, position.tricks_left, allowance)
    assert dear.trying
    for _ in range(2):
        assert dear.margins(position.hands) is None
    assert allowance.dear == 2 and not dear.trying
    assert pace.expected("cards", position.tricks_left) is not None  # what a world costs was learned
    # Told it has an hour (a search with no clock), a world still may take no more than LARGEST_LIMIT nodes.
    unhurried = Allowance(lambda: now[0], 3600.0, "cards", position.tricks_left, 12, Pace())
    assert unhurried.world_limit() == LARGEST_LIMIT
