"""Hand scoring: made and set contracts, overtricks, bonus, penalties, defenders, special values.

Every case plays a whole hand with cards chosen so the tricks fall a known way:
with FOUR_TWO the declaring team (seats 1 and 3) takes 4 tricks and seat 2
takes 2; with ONE_SUIT_EACH whoever leads takes all 6.
"""

from __future__ import annotations

from dataclasses import replace
from typing import NamedTuple

import pytest

from referee.engine.events import HandEndEvent
from referee.engine.presets import preset
from referee.engine.rules import Deck, Rules, SpecialFamily
from tests.support.engine import (
    FOUR_TWO_ALONE_TRICKS,
    FOUR_TWO_HANDS,
    FOUR_TWO_TRICKS,
    ONE_SUIT_EACH,
    SMALL,
    act,
    bids,
    deal_next,
    new_game,
    of_type,
    play_first_legal,
    play_tricks,
)

PEPPER = preset("pepper")
LONE = replace(
    SMALL, special_bids=(SpecialFamily.CALL2, SpecialFamily.MOON, SpecialFamily.ALONE), alone_exchange_cards=0
)


class Case(NamedTuple):
    rules: Rules
    hands: dict[int, str]
    bids: str
    actions: tuple[str, ...]  # trump named after the auction, exchanges
    tricks: list[str] | None  # None: each seat plays its first legal card
    tricks_taken: tuple[int, int]  # per team
    points: tuple[int, int]  # per team
    made: bool


CASES = {
    # trick bids
    "made: the tricks taken": Case(
        SMALL, FOUR_TWO_HANDS, "3 high, pass, pass, pass", (), FOUR_TWO_TRICKS, (2, 4), (2, 4), True
    ),
    "made exactly": Case(SMALL, FOUR_TWO_HANDS, "4 high, pass, pass, pass", (), FOUR_TWO_TRICKS, (2, 4), (2, 4), True),
    "no overtricks: the level only": Case(
        replace(SMALL, overtricks=False),
        FOUR_TWO_HANDS,
        "3 high, pass, pass, pass",
        (),
        FOUR_TWO_TRICKS,
        (2, 4),
        (2, 3),
        True,
    ),
    "made bonus on the tricks taken": Case(
        replace(SMALL, made_bonus=2),
        FOUR_TWO_HANDS,
        "3 high, pass, pass, pass",
        (),
        FOUR_TWO_TRICKS,
        (2, 4),
        (2, 6),
        True,
    ),
    "made bonus on the level": Case(
        replace(SMALL, made_bonus=2, overtricks=False),
        FOUR_TWO_HANDS,
        "3 high, pass, pass, pass",
        (),
        FOUR_TWO_TRICKS,
        (2, 4),
        (2, 5),
        True,
    ),
    "set: minus the level bid": Case(
        SMALL, FOUR_TWO_HANDS, "5 high, pass, pass, pass", (), FOUR_TWO_TRICKS, (2, 4), (2, -5), False
    ),
    "set with a fixed penalty": Case(
        replace(SMALL, set_penalty=6),
        FOUR_TWO_HANDS,
        "5 high, pass, pass, pass",
        (),
        FOUR_TWO_TRICKS,
        (2, 4),
        (2, -6),
        False,
    ),
    "set: no bonus lost": Case(
        replace(SMALL, made_bonus=2),
        FOUR_TWO_HANDS,
        "5 high, pass, pass, pass",
        (),
        FOUR_TWO_TRICKS,
        (2, 4),
        (2, -5),
        False,
    ),
    "defenders do not score (made)": Case(
        replace(SMALL, defenders_score=False),
        FOUR_TWO_HANDS,
        "3 high, pass, pass, pass",
        (),
        FOUR_TWO_TRICKS,
        (2, 4),
        (0, 4),
        True,
    ),
    "defenders do not score (set)": Case(
        replace(SMALL, defenders_score=False),
        FOUR_TWO_HANDS,
        "5 high, pass, pass, pass",
        (),
        FOUR_TWO_TRICKS,
        (2, 4),
        (0, -5),
        False,
    ),
    # special bids: all the tricks, alone
    "moon made": Case(LONE, ONE_SUIT_EACH, "moon high, pass, pass, pass", (), None, (0, 6), (0, 24), True),
    "moon made, another value": Case(
        replace(LONE, value_moon=30), ONE_SUIT_EACH, "moon high, pass, pass, pass", (), None, (0, 6), (0, 30), True
    ),
    "moon set": Case(
        LONE, FOUR_TWO_HANDS, "moon high, pass, pass, pass", (), FOUR_TWO_ALONE_TRICKS, (2, 4), (2, -24), False
    ),
    "moon set, defenders do not score": Case(
        replace(LONE, defenders_score=False),
        FOUR_TWO_HANDS,
        "moon high, pass, pass, pass",
        (),
        FOUR_TWO_ALONE_TRICKS,
        (2, 4),
        (0, -24),
        False,
    ),
    "call2 made after the exchange": Case(
        LONE, ONE_SUIT_EACH, "call2 high, pass, pass, pass", ("9D TD", "9D TD"), None, (0, 6), (0, 12), True
    ),
    "going alone made": Case(LONE, ONE_SUIT_EACH, "alone high", (), None, (0, 6), (0, 24), True),
    "going alone set, another value": Case(
        replace(LONE, value_alone=20), FOUR_TWO_HANDS, "alone high", (), FOUR_TWO_ALONE_TRICKS, (2, 4), (2, -20), False
    ),
    # pepper (trump named after the auction)
    "pepper: little pepper made": Case(
        PEPPER, ONE_SUIT_EACH, "little-pepper, pass, pass, pass", ("high",), None, (0, 6), (0, 6), True
    ),
    "pepper: big pepper made": Case(
        PEPPER, ONE_SUIT_EACH, "little-pepper, big-pepper", ("high",), None, (6, 0), (12, 0), True
    ),
    "pepper: little pepper set": Case(
        PEPPER, FOUR_TWO_HANDS, "little-pepper, pass, pass, pass", ("high",), FOUR_TWO_TRICKS, (2, 4), (2, -6), False
    ),
    "pepper: a set trick bid scores -6": Case(
        PEPPER, FOUR_TWO_HANDS, "5, pass, pass, pass", ("high",), FOUR_TWO_TRICKS, (2, 4), (2, -6), False
    ),
    "pepper: a made trick bid scores its tricks": Case(
        PEPPER, FOUR_TWO_HANDS, "3, pass, pass, pass", ("high",), FOUR_TWO_TRICKS, (2, 4), (2, 4), True
    ),
}


@pytest.mark.parametrize("case", CASES.values(), ids=CASES.keys())
def test_hand_score(case: Case) -> None:
    game = new_game(case.rules, case.hands)
    bids(game, case.bids)
    act(game, *case.actions)
    events = play_first_legal(game) if case.tricks is None else play_tricks(game, case.tricks)
    (end,) = of_type(events, HandEndEvent)
    assert end.tricks == case.tricks_taken
    assert end.points == case.points
    assert end.scores == case.points  # the first hand: running totals = this hand
    assert end.made is case.made and not end.passed_out
    assert game.scores == list(case.points)


def test_best_made_in_a_six_player_game() -> None:
    rules = Rules(players=6, deck=Deck.SINGLE_24, deal_packets=(4,), special_bids=(SpecialFamily.BEST,), value_best=16)
    hands = {1: "AS KS QS JS", 3: "9S 9H TH JH", 5: "TS QH KH AH"}
    game = new_game(rules, hands, dealer=0)
    bids(game, "best high")
    act(game, "9S", "TS", "9S TS")  # each partner gives its spade; the declarer discards them
    events = play_first_legal(game)
    (end,) = of_type(events, HandEndEvent)
    assert (end.tricks, end.points, end.made) == ((0, 4), (0, 16), True)


def test_scores_are_running_totals_over_hands() -> None:
    game = new_game(SMALL, FOUR_TWO_HANDS)
    bids(game, "3 high, pass, pass, pass")
    play_tricks(game, FOUR_TWO_TRICKS)
    # hand 2, dealt by seat 1: seat 2 bids first and takes every trick (one suit each)
    deal_next(game, {2: "9S TS JS QS KS AS", 3: "9H TH JH QH KH AH", 0: "9D TD JD QD KD AD", 1: "9C TC JC QC KC AC"})
    bids(game, "2 high, pass, pass, pass")
    events = play_first_legal(game)
    (end,) = of_type(events, HandEndEvent)
    assert end.hand == 2 and end.points == (6, 0) and end.scores == (8, 4)
