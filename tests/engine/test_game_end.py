"""The end of a game: target score and every tie rule, a number of hands, mercy rules, the hand limit, forfeit.

The hands are the scripted ones of tests.support.engine: with FOUR_TWO, seat 1
declares and its team (1) takes 4 tricks to team 0's 2; with ONE_SUIT_EACH
the declarer takes all 6. The rule options then place those results around a
small target.
"""

from __future__ import annotations

from dataclasses import replace

import pytest

from referee.engine.bids import PASS
from referee.engine.errors import IllegalActionError
from referee.engine.events import GameEndEvent, HandEndEvent
from referee.engine.game import Game, Phase
from referee.engine.rules import TIE_RULES, Deck, GameOver, Rules, TieRule
from tests.support.engine import (
    FOUR_TWO_HANDS,
    FOUR_TWO_TRICKS,
    ONE_SUIT_EACH,
    SMALL,
    bids,
    deal_next,
    new_game,
    of_type,
    play_first_legal,
    play_tricks,
    rotated,
    rotated_tricks,
)


def four_two(rules: Rules, level: int) -> Game:
    """One hand: seat 1 bids ``level`` high; team 1 takes 4 tricks, team 0 takes 2."""
    game = new_game(rules, FOUR_TWO_HANDS)
    bids(game, f"{level} high, pass, pass, pass")
    play_tricks(game, FOUR_TWO_TRICKS)
    return game


def end_of(game: Game) -> GameEndEvent | None:
    ends = of_type(game.events, GameEndEvent)
    return ends[0] if ends else None


# The tie rules at a target of ``game_points``. Each scenario is one hand (see four_two):
# (scenario id, the rules (the tie rule aside), level bid, scores after the hand, {tie rule: winner, or "on" if the game
# goes on})
TARGET_SCENARIOS: list[tuple[str, Rules, int, tuple[int, int], dict[str, int | str | None]]] = [
    (
        "both reach, tied, the contract made",
        replace(SMALL, overtricks=False, game_points=2),
        2,
        (2, 2),
        {
            "draw": None,
            "last-contract": 1,
            "last-made": 1,
            "declarers": 1,
            "bidders": 1,
            "must-bid": 1,
            "must-bid-or-set": 1,
        },
    ),
    (
        "both reach, the defenders higher, the contract made",
        replace(SMALL, overtricks=False, game_points=1),
        1,
        (2, 1),
        {
            "draw": 0,
            "last-contract": 0,
            "last-made": 0,
            "declarers": 0,
            "bidders": 1,
            "must-bid": 1,
            "must-bid-or-set": 1,
        },
    ),
    (
        "only the defenders reach, the contract set",
        replace(SMALL, game_points=2),
        5,
        (2, -5),
        {
            "draw": 0,
            "last-contract": 0,
            "last-made": 0,
            "declarers": 0,
            "bidders": 0,
            "must-bid": "on",
            "must-bid-or-set": 0,
        },
    ),
    (
        "only the defenders reach, the contract made",
        replace(SMALL, overtricks=False, game_points=2),
        1,
        (2, 1),
        {
            "draw": 0,
            "last-contract": 0,
            "last-made": 0,
            "declarers": 0,
            "bidders": 0,
            "must-bid": "on",
            "must-bid-or-set": "on",
        },
    ),
    (
        "nobody reaches",
        replace(SMALL, game_points=5),
        3,
        (2, 4),
        {rule: "on" for rule in TIE_RULES},
    ),
]


@pytest.mark.parametrize(
    ("rules", "level", "scores", "tie_rule", "winner"),
    [(s[1], s[2], s[3], rule, s[4][rule]) for s in TARGET_SCENARIOS for rule in TIE_RULES],
    ids=[f"{s[0]}: {rule}" for s in TARGET_SCENARIOS for rule in TIE_RULES],
)
def test_target_score_and_tie_rules(
    rules: Rules, level: int, scores: tuple[int, int], tie_rule: TieRule, winner: int | str | None
) -> None:
    game = four_two(replace(rules, tie_rule=tie_rule), level)
    assert tuple(game.scores) == scores
    end = end_of(game)
    if winner == "on":
        assert end is None and game.phase is Phase.DEAL
        return
    assert end is not None and game.is_over
    assert (end.winner, end.reason, end.scores) == (winner, "target", scores)
    assert (game.winner, game.end_reason) == (winner, "target")


def test_must_bid_defenders_past_the_target_win_by_making_a_contract() -> None:
    """Under must-bid a team past the target plays on until it makes a contract of its own."""
    rules = replace(SMALL, tie_rule=TieRule.MUST_BID, game_points=2)
    game = four_two(rules, 5)  # team 0 reaches 2 by setting team 1: the game goes on
    assert game.phase is Phase.DEAL
    deal_next(game, rotated(ONE_SUIT_EACH, 1))  # dealer 1; seat 2 (team 0) bids first and leads
    bids(game, "1 high, pass, pass, pass")
    play_first_legal(game)
    end = end_of(game)
    assert end is not None and (end.winner, end.reason, end.scores) == (0, "target", (8, -5))


def two_hands_tied_after_a_set(tie_rule: str) -> Game:
    """Hands mode, two hands: team 1 makes hand 1 (+7), then is set in hand 2: 2 all."""
    rules = replace(SMALL, game_over=GameOver.HANDS, game_hands=2, made_bonus=1, tie_rule=TieRule(tie_rule))
    game = new_game(rules, ONE_SUIT_EACH)
    bids(game, "1 high, pass, pass, pass")
    play_first_legal(game)
    assert game.scores == [0, 7]
    deal_next(game, FOUR_TWO_HANDS)  # dealer 1: seat 1 bids last
    bids(game, "pass, pass, pass, 5 high")
    play_tricks(game, FOUR_TWO_TRICKS)
    return game


HANDS_MODE_AFTER_A_SET = {
    "draw": None,
    "last-contract": 0,  # the team that set the last contract
    "last-made": 1,  # team 1 made hand 1
    "declarers": 1,
    "bidders": 1,
    "must-bid": None,  # the last contract was not made
    "must-bid-or-set": 0,
}


@pytest.mark.parametrize(("tie_rule", "winner"), HANDS_MODE_AFTER_A_SET.items())
def test_hands_mode_tie_after_a_set_contract(tie_rule: str, winner: int | None) -> None:
    game = two_hands_tied_after_a_set(tie_rule)
    assert game.scores == [2, 2]
    end = end_of(game)
    assert end is not None and (end.winner, end.reason) == (winner, "hands")


HANDS_MODE_AFTER_A_MADE = {rule: (None if rule == "draw" else 1) for rule in TIE_RULES}


@pytest.mark.parametrize(("tie_rule", "winner"), HANDS_MODE_AFTER_A_MADE.items())
def test_hands_mode_tie_after_a_made_contract(tie_rule: str, winner: int | None) -> None:
    rules = replace(SMALL, game_over=GameOver.HANDS, game_hands=1, overtricks=False, tie_rule=TieRule(tie_rule))
    game = four_two(rules, 2)
    assert game.scores == [2, 2]
    end = end_of(game)
    assert end is not None and (end.winner, end.reason) == (winner, "hands")


@pytest.mark.parametrize("tie_rule", TIE_RULES)
def test_hands_mode_highest_score_wins_whatever_the_tie_rule(tie_rule: TieRule) -> None:
    rules = replace(SMALL, game_over=GameOver.HANDS, game_hands=1, tie_rule=tie_rule, game_points=1)
    game = four_two(rules, 3)
    end = end_of(game)
    assert end is not None and (end.winner, end.reason, end.scores) == (1, "hands", (2, 4))


def test_hands_mode_ignores_the_target_and_counts_thrown_in_hands() -> None:
    rules = replace(SMALL, game_over=GameOver.HANDS, game_hands=3, game_points=1)
    game = four_two(rules, 3)
    assert game.phase is Phase.DEAL  # 4 points is past the target, but the game is played by hands
    deal_next(game)
    bids(game, "pass, pass, pass, pass")
    assert game.phase is Phase.DEAL
    deal_next(game)
    events = bids(game, "pass, pass, pass, pass")
    hand_end, game_end = events[-2:]
    assert isinstance(hand_end, HandEndEvent) and hand_end.passed_out and hand_end.hand == 3
    assert isinstance(game_end, GameEndEvent) and (game_end.winner, game_end.reason) == (1, "hands")


def test_every_hand_thrown_in_is_a_draw_in_hands_mode() -> None:
    game = new_game(replace(SMALL, game_over=GameOver.HANDS, game_hands=1, tie_rule=TieRule.LAST_MADE))
    bids(game, "pass, pass, pass, pass")
    end = end_of(game)
    assert end is not None and (end.winner, end.reason, end.scores) == (None, "hands", (0, 0))


@pytest.mark.parametrize(("mercy_loss", "over"), [(-5, True), (-6, False)])
def test_mercy_a_team_at_or_below_the_line_loses(mercy_loss: int, over: bool) -> None:
    game = four_two(replace(SMALL, mercy_loss=mercy_loss), 5)  # team 1 set: -5
    end = end_of(game)
    if not over:
        assert end is None and game.phase is Phase.DEAL
        return
    assert end is not None and (end.winner, end.reason, end.scores) == (0, "mercy", (2, -5))


def test_mercy_every_team_below_the_line_all_lose() -> None:
    rules = replace(SMALL, defenders_score=False, mercy_all_below=-1)
    game = four_two(rules, 5)
    assert game.scores == [0, -5] and game.phase is Phase.DEAL  # team 0 is not below -1
    deal_next(game, rotated(FOUR_TWO_HANDS, 1))  # now seat 2 (team 0) declares and is set
    bids(game, "5 high, pass, pass, pass")
    play_tricks(game, rotated_tricks(FOUR_TWO_TRICKS, 1))
    end = end_of(game)
    assert end is not None and (end.winner, end.reason, end.scores) == (None, "mercy", (-5, -5))


def test_mercy_loss_and_all_below_together() -> None:
    """With both mercy rules, all-below comes first: here it does not apply, so the loss line decides."""
    game = four_two(replace(SMALL, mercy_loss=-5, mercy_all_below=-1), 5)
    end = end_of(game)
    assert end is not None and (end.winner, end.reason) == (0, "mercy")


def test_hand_limit_stops_a_game_that_never_ends() -> None:
    game = new_game(replace(SMALL, hand_limit=2))
    bids(game, "pass, pass, pass, pass")
    assert game.phase is Phase.DEAL
    deal_next(game)
    bids(game, "pass, pass, pass, pass")
    end = end_of(game)
    assert end is not None and (end.winner, end.reason, end.scores) == (None, "hand-limit", (0, 0))


def test_hand_limit_winner_is_the_highest_score() -> None:
    game = four_two(replace(SMALL, hand_limit=1), 3)
    end = end_of(game)
    assert end is not None and (end.winner, end.reason) == (1, "hand-limit")


def test_forfeit_ends_the_game_for_the_other_team() -> None:
    game = new_game(SMALL)
    bids(game, "2 S")
    end = game.forfeit(1, "seat 1 timed out")
    assert end == GameEndEvent((0, 0), 0, "forfeit", "seat 1 timed out")
    assert game.events[-1] == end and game.is_over and game.decision() is None and game.legal_actions() == ()
    with pytest.raises(IllegalActionError) as err:
        game.apply(PASS)
    assert err.value.rule == "game-over"
    with pytest.raises(IllegalActionError):
        game.forfeit(0, "again")


def test_forfeit_with_three_teams_goes_to_the_best_of_the_others() -> None:
    rules = Rules(players=3, teams=3, deck=Deck.SINGLE_24, deal_packets=(8,), special_bids=())
    game = Game(rules)
    game.scores = [5, 3, 5]  # set up a standing score without playing hands
    assert game.forfeit(0, "crash").winner == 2
    game = Game(rules)
    game.scores = [0, 4, 4]
    assert game.forfeit(0, "crash").winner is None  # the others are tied: nobody wins


def test_forfeit_needs_a_real_team() -> None:
    with pytest.raises(ValueError, match="team 2"):
        Game(SMALL).forfeit(2, "x")


def test_no_deal_after_the_game_is_over() -> None:
    game = four_two(replace(SMALL, game_points=4), 3)
    assert game.is_over
    with pytest.raises(IllegalActionError) as err:
        deal_next(game)
    assert err.value.rule == "deal-out-of-turn"
