"""The double-dummy solver (referee.solver, through referee.engine.doubledummy) against plain play through ``Game``.

On random endings of every preset (lone contracts often, tricks in progress
of every length), for every position on the way to the hand's end: the value
of every legal card, the tricks of the team to act and of another team, and
the claim of the team to act are those of trying every line through ``Game``
(``tests/support/claims.py``: ``plain_values``, ``plain_tricks``). Any
disagreement fails with the position in a line, enough to build it again.
Deeper (three to six tricks left, where the transposition table and its
relevant cards serve many positions), each card's value against the
solver's own answer after that card, found in a call of its own. Then the
positions the solver must refuse, each with a one-line
``SolverInputError``, and a search cut short by its node limit.
"""

from __future__ import annotations

import random
from collections import Counter

import pytest

from referee.engine import doubledummy as dd
from referee.engine.cards import EFFECTIVE_SUIT, TRICK_KEY, Trump
from referee.engine.events import HandEndEvent, TrickEvent
from referee.engine.game import Game, Phase
from referee.engine.presets import PRESETS, preset
from referee.solver import Question, SearchLimitError, Solver, SolverInputError, available
from tests.support.claims import plain_tricks, plain_values, random_ending

pytestmark = pytest.mark.skipif(not available(), reason="the compiled solver is not built")

POSITIONS = 10_000  # per preset


def check(game: Game, other_team: bool) -> int:
    """The solver's answers at ``game``'s position against plain play; the tricks left."""
    position = dd.Position.of_game(game)
    rules = game.rules
    team = rules.team_of(position.to_act)
    expected = plain_values(game, team)
    values = dd.card_values(position)
    assert values == expected, f"card values {values}, plain play {expected}: {position}"
    best = max(expected.values())
    assert dd.tricks(position) == best, f"tricks {dd.tricks(position)}, plain play {best}: {position}"
    holds = game.claim_search(team).holds()
    assert holds is (best == position.tricks_left), f"claim {holds}, plain play {best} tricks: {position}"
    if holds:
        card = dd.claim_card(position)
        assert card is not None and expected[card] == best, f"claim card {card}: {position}"
    if other_team:
        other = (team + 1) % rules.teams
        got, want = dd.tricks(position, other), plain_tricks(game, other)
        assert got == want, f"team {other}'s tricks {got}, plain play {want}: {position}"
    return position.tricks_left


@pytest.mark.parametrize("name", list(PRESETS))
def test_the_solver_agrees_with_plain_play(name: str) -> None:
    rules = preset(name)
    rng = random.Random(f"doubledummy:{name}")
    seen: Counter[int] = Counter()  # positions by tricks left
    while seen.total() < POSITIONS:
        # three tricks left (two on six seats) at most: plain play tries every line
        deepest = 3 if len(range(rules.players)) <= 4 else 2
        game = random_ending(rules, rng, tricks_left=rng.choice([1, 2, 2, deepest]), lone=0.3)
        if game is None:
            continue
        while game.phase is Phase.PLAY:
            seen[check(game, other_team=rng.random() < 0.25)] += 1
            game.apply(rng.choice(game.legal_plays()))
    assert len(seen) >= 2, seen


DEEPER = 1_000  # per preset


@pytest.mark.parametrize("name", list(PRESETS))
def test_each_card_is_worth_what_the_solver_finds_after_it(name: str) -> None:
    """Deeper than plain play reaches (three to six tricks left), one card at a time through ``Game``: the value of
    each legal card is the tricks won in the trick it ends, if any, and the solver's tricks from the position after
    it, asked in a call of its own (a table of its own, searched in another order): an entry of the table that
    served positions it should not would show as a card worth one thing here and another there."""
    rules = preset(name)
    rng = random.Random(f"deeper:{name}")
    checked = 0
    while checked < DEEPER:
        deepest = 6 if rules.cards_each > 6 else 5
        game = random_ending(rules, rng, tricks_left=rng.randint(3, deepest), lone=0.3)
        if game is None:
            continue
        for _ in range(rng.randrange(4)):  # a trick in progress of any length
            game.apply(rng.choice(game.legal_plays()))
        position = dd.Position.of_game(game)
        team = rules.team_of(position.to_act)
        values = dd.card_values(position)
        for card in game.legal_plays():
            after = game.copy()
            events = after.apply(card)
            won = sum(1 for e in events if isinstance(e, TrickEvent) and rules.team_of(e.winner) == team)
            ended = any(isinstance(e, HandEndEvent) for e in events)
            rest = 0 if ended else dd.tricks(dd.Position.of_game(after), team)
            assert values[card] == won + rest, f"{card}: {values[card]}, then {won} + {rest}: {position}"
        checked += 1


# A trick in progress that one side takes whatever the other plays decides a search that needs one trick more, or
# every trick left (spades trump, two decks; card codes: suit * 8 + rank, 7 8 9 T J Q K A; seat 0 led 9H).
IN_TRICK = {"active": (0, 1, 2, 3), "to_act": 1, "trick": [10]}


@pytest.mark.parametrize(
    ("hands", "side", "tricks", "values"),
    [
        # seat 2 ruffs with the right bower after seat 1 must follow with AH, over seat 3's lower trump; seat 3
        # keeps its trump for the diamond seat 2 then leads
        ([[16], [15, 24], [4, 17], [2, 25]], (0, 2), 1, {15: 1}),
        ([[16], [15, 24], [4, 17], [2, 25]], (1, 3), 1, {15: 1}),
        # both seat 1 and seat 2 hold the right bower: seat 1's, played first, takes the trick
        ([[16], [4, 24], [4, 17], [2, 25]], (0, 2), 1, {4: 1, 24: 1}),
        ([[16], [4, 24], [4, 17], [2, 25]], (1, 3), 1, {4: 1, 24: 1}),
        # seat 1 void of hearts and trumps: seat 2's bower takes the trick, and its 8D the last against 7C
        ([[16], [24, 26], [4, 17], [25, 27]], (0, 2), 2, {24: 2, 26: 2}),
    ],
)
def test_a_trick_one_side_takes_whatever_the_other_plays_decides_the_search(
    hands: list[list[int]], side: tuple[int, ...], tricks: int, values: dict[int, int]
) -> None:
    [got] = solver().solve(Question.TRICKS, [hands], side=side, **IN_TRICK)  # type: ignore[arg-type]
    assert got == tricks
    [by_card] = solver().solve(Question.CARD_VALUES, [hands], side=side, **IN_TRICK)  # type: ignore[arg-type]
    assert by_card == values
    [holds] = solver().solve(Question.CLAIM_HOLDS, [hands], side=side, **IN_TRICK)  # type: ignore[arg-type]
    assert holds is (tricks == 2)


# ------------------------------------------------------------------ what the solver refuses


def solver(trump: int = Trump.S, copies: int = 2) -> Solver:
    return Solver(EFFECTIVE_SUIT[trump], TRICK_KEY[trump], copies)


FOUR = {"active": (0, 1, 2, 3), "side": (0, 2)}
# spades: seat 0 leads, four seats with two cards each
HANDS = [[0, 1], [8, 9], [16, 17], [24, 25]]


@pytest.mark.parametrize(
    ("change", "message"),
    [
        ({"worlds": [[[], [8], [16], [24]]]}, "seat 0, to act, holds no card: there is no legal card"),
        ({"worlds": [[[7, 7], [7, 9], [16, 17], [24, 25]]]}, "card 7 (AS) is there 3 times"),
        ({"worlds": [[[0, 1], [8], [16, 17], [24, 25]]]}, "seat 1 holds 1 card, not 2 (seat 0, to act, holds 2)"),
        ({"trick": [3], "to_act": 1}, "seat 0 holds 2 cards, not 1 (seat 1, to act, holds 2, and this seat has played"),
        ({"active": (0, 2), "to_act": 1}, "seat 1, to act, is not in play (it sits out)"),
        ({"active": (0, 1, 1, 2)}, "seat 1 is in active twice"),
        ({"active": (0,)}, "a trick needs at least two seats in play"),
        ({"trick": [3, 4, 5, 6]}, "the trick holds 4 cards, but a trick of 4 seats is complete at 4"),
        ({"worlds": [[[0, 40], [8, 9], [16, 17], [24, 25]]]}, "card of seat 0[1] is 40, not in 0..31"),
        ({"worlds": [[[0, "AS"], [8, 9], [16, 17], [24, 25]]]}, "card of seat 0[1] must be an int, got str"),
        ({"worlds": [[[0, 1], [8, 9], [16, 17]]]}, "active[3] is 3, not in 0..2"),
        ({"side": (5,)}, "side[0] is 5, not in 0..3"),
        ({"side": (1,), "active": (0, 2)}, "no seat of the side whose tricks are counted is in play"),
        ({"to_act": 9}, "to_act is 9, not in 0..3"),
    ],
)
def test_a_position_that_cannot_be_one_is_refused_in_a_line(change: dict[str, object], message: str) -> None:
    asked: dict[str, object] = {"worlds": [HANDS], "to_act": 0, "trick": [], **FOUR, **change}
    worlds = asked.pop("worlds")
    with pytest.raises(SolverInputError) as refused:
        solver().solve(Question.TRICKS, worlds, **asked)  # type: ignore[arg-type]
    assert message in str(refused.value) and "\n" not in str(refused.value)
    assert isinstance(refused.value, ValueError)


def test_a_seat_that_sits_out_keeps_cards_that_play_no_part() -> None:
    # a lone declarer: seat 2 sits out with its cards; the trick is of three seats
    [tricks] = solver().solve(Question.TRICKS, [HANDS], active=(0, 1, 3), to_act=0, side=(0, 2))
    assert tricks == 2  # seats 0 and 2 hold the only trumps (7S 8S of spades; seat 2 sits out): seat 0 ruffs
    with pytest.raises(SolverInputError, match="world 1: seat 1 holds 1 card, not 2"):
        worlds = [HANDS, [[0, 1], [8], [16, 17], [24, 25]]]
        solver().solve(Question.TRICKS, worlds, active=(0, 1, 2, 3), to_act=0, side=(0, 2))


@pytest.mark.parametrize(
    ("suits", "keys", "message"),
    [
        (EFFECTIVE_SUIT[0][:31], TRICK_KEY[0], "suits has 31 entries"),
        ([5] * 32, TRICK_KEY[0], "the suit of card code 0 is 5: suits are 0..3"),
        (EFFECTIVE_SUIT[4], TRICK_KEY[4][:3], "keys has 3 rows"),
        (EFFECTIVE_SUIT[4], [[-1] * 32] * 4, "card code 0 cannot take a trick led in its own suit"),
        (
            EFFECTIVE_SUIT[4],
            [list(range(32))] * 4,
            "card code 0 of the trump suit 0 does not beat every card of suit 1",
        ),
        (EFFECTIVE_SUIT[4], [[c % 4 if c < 8 else -1 for c in range(32)], *TRICK_KEY[4][1:]], "the same trick key"),
    ],
)
def test_tables_that_cannot_be_trick_rules_are_refused_in_a_line(
    suits: list[int], keys: list[list[int]], message: str
) -> None:
    with pytest.raises(SolverInputError, match=message):
        Solver(suits, keys, 2)


def test_copies_are_one_to_three_decks() -> None:
    with pytest.raises(SolverInputError, match="copies is 4: a game has 1 to 3 decks"):
        solver(copies=4)


def test_a_search_cut_short_by_its_node_limit_says_how_far_it_went() -> None:
    rules = preset("indiana")
    rng = random.Random("limit")
    game = None
    while game is None:
        game = random_ending(rules, rng, tricks_left=rules.cards_each)
    position = dd.Position.of_game(game)
    with pytest.raises(SearchLimitError) as cut:
        dd.card_values(position, node_limit=50)
    assert cut.value.nodes == 51 and str(cut.value) == "the search reached its limit of 50 nodes"
    assert dd.solver_for(position.trump, position.copies).nodes == 51
    # the same solver answers the next question whole
    assert 0 <= dd.tricks(position) <= rules.cards_each


def test_a_position_is_a_hand_in_play() -> None:
    game = Game(preset("neuralplay"))
    with pytest.raises(ValueError, match="a double-dummy position is a hand in play, not the deal phase"):
        dd.Position.of_game(game)


def test_anything_handed_in_gets_an_answer_or_a_one_line_refusal() -> None:
    """Random hands, seats, tricks and sides, most of them not positions at all: each call answers or raises
    ``SolverInputError`` in a line; nothing brings the process down."""
    rng = random.Random("fuzz")
    answered = refused = 0
    for _ in range(3000):
        trump = rng.randrange(6)
        seats = rng.randint(2, 6)
        size = rng.randint(0, 4)
        hands = [[rng.randrange(32) for _ in range(size + rng.choice([0, 0, 0, -1, 1]))] for _ in range(seats)]
        active = rng.sample(range(seats), rng.randint(1, seats))
        to_act = rng.choice([*active, rng.randrange(seats)])
        trick = [rng.randrange(32) for _ in range(rng.randint(0, 2))]
        side = rng.sample(range(seats), rng.randint(0, seats))
        question = rng.choice(list(Question))
        try:
            solver(trump, copies=rng.randint(1, 3)).solve(
                question, [hands], active=active, to_act=to_act, trick=trick, side=side, node_limit=100_000
            )
            answered += 1
        except SolverInputError as refusal:
            assert "\n" not in str(refusal) and str(refusal)
            refused += 1
        except SearchLimitError:
            answered += 1
    assert answered > 50 and refused > 1000, (answered, refused)
