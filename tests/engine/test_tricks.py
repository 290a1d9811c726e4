"""Playing the tricks in a game: following suit, the left bower, who leads, illegal plays."""

from __future__ import annotations

from dataclasses import replace

import pytest

from referee.engine.cards import card_str
from referee.engine.errors import IllegalActionError, InvalidActionError
from referee.engine.events import PlayEvent, TrickEvent
from referee.engine.game import Game
from referee.engine.presets import preset
from referee.engine.rules import InitialLeader, SpecialFamily
from tests.support.engine import (
    FOUR_TWO_HANDS,
    FOUR_TWO_TRICKS,
    ONE_SUIT_EACH,
    SMALL,
    act,
    bids,
    new_game,
    of_type,
    play_tricks,
    trick_winners,
)


def legal_texts(game: Game) -> list[str]:
    return [card_str(c) for c in game.legal_plays()]


def hearts_contract(hands: dict[int, str]) -> Game:
    """Seat 1 declares 1 H in SMALL and leads."""
    game = new_game(SMALL, hands)
    bids(game, "1 H, pass, pass, pass")
    return game


def test_the_left_bower_does_not_follow_its_printed_suit() -> None:
    game = hearts_contract({1: "AD 9S TS JS QS KS", 2: "JD 9D AS 9C TC JC"})
    act(game, "AD")
    assert legal_texts(game) == ["9D"]  # JD is a heart now; 9D is the only diamond
    with pytest.raises(IllegalActionError) as err:
        act(game, "JD")
    assert err.value.rule == "follow-suit"


def test_a_hand_whose_only_printed_diamond_is_the_left_bower_is_void_in_diamonds() -> None:
    game = hearts_contract({1: "AD 9S TS JS QS KS", 2: "JD AS 9C TC JC QC"})
    act(game, "AD")
    assert sorted(legal_texts(game)) == sorted(["JD", "AS", "9C", "TC", "JC", "QC"])


def test_the_left_bower_must_follow_a_trump_lead() -> None:
    game = hearts_contract({1: "AH 9S TS JS QS KS", 2: "JD AD 9C TC JC QC"})
    act(game, "AH")
    assert legal_texts(game) == ["JD"]


def test_a_led_left_bower_asks_for_trump() -> None:
    game = hearts_contract({1: "JD 9S TS JS QS KS", 2: "9H AD 9C TC JC QC"})
    act(game, "JD")
    assert legal_texts(game) == ["9H"]


def test_no_bowers_in_no_trump_the_jack_follows_its_own_suit() -> None:
    game = new_game(SMALL, {1: "AD 9S TS JS QS KS", 2: "JD AH 9C TC JC QC"})
    bids(game, "1 high, pass, pass, pass")
    act(game, "AD")
    assert legal_texts(game) == ["JD"]


def test_any_card_when_void_in_the_suit_led() -> None:
    game = new_game(SMALL, ONE_SUIT_EACH)
    bids(game, "1 high, pass, pass, pass")
    act(game, "9S")
    assert legal_texts(game) == ["9H", "TH", "JH", "QH", "KH", "AH"]


def test_identical_cards_are_offered_once() -> None:
    game = new_game(preset("neuralplay"), {1: "AS AS KH KH QD QD JC QC"})
    bids(game, "1 S, pass, pass, pass")
    assert legal_texts(game) == ["AS", "KH", "QD", "JC", "QC"]


def test_tricks_of_a_scripted_hand_and_the_winner_leads_next() -> None:
    game = new_game(SMALL, FOUR_TWO_HANDS)
    bids(game, "3 high, pass, pass, pass")
    events = play_tricks(game, FOUR_TWO_TRICKS)
    assert trick_winners(events) == [1, 1, 1, 1, 2, 2]
    plays = of_type(events, PlayEvent)
    assert [(p.trick, p.seat) for p in plays[16:20]] == [(5, 1), (5, 2), (5, 3), (5, 0)]
    assert [(p.trick, p.seat) for p in plays[20:]] == [(6, 2), (6, 3), (6, 0), (6, 1)]
    assert [t.trick for t in of_type(events, TrickEvent)] == [1, 2, 3, 4, 5, 6]


def test_the_declarer_leads_first() -> None:
    game = new_game(SMALL, dealer=2)
    bids(game, "pass, 2 S, pass, pass")
    assert game.to_act == 0


def test_left_of_dealer_leads_first_when_the_option_says_so() -> None:
    game = new_game(replace(SMALL, initial_leader=InitialLeader.LEFT_OF_DEALER), dealer=2)
    bids(game, "pass, 2 S, pass, pass")
    assert game.to_act == 3


def test_left_of_dealer_skips_a_partner_sitting_out() -> None:
    rules = replace(SMALL, initial_leader=InitialLeader.LEFT_OF_DEALER, special_bids=(SpecialFamily.MOON,))
    game = new_game(rules, dealer=0)
    bids(game, "pass, pass, moon S")  # seat 3 declares; its partner, seat 1, sits out
    assert game.active == (0, 2, 3) and game.to_act == 2


def test_playing_a_card_not_held_is_illegal_and_changes_nothing() -> None:
    game = new_game(SMALL, ONE_SUIT_EACH)
    bids(game, "1 high, pass, pass, pass")
    before = (list(game.hands[1]), len(game.events), game.to_act)
    with pytest.raises(IllegalActionError) as err:
        act(game, "AH")
    assert err.value.rule == "card-not-in-hand" and "AH" in str(err.value)
    assert (list(game.hands[1]), len(game.events), game.to_act) == before


@pytest.mark.parametrize("action", ["AS", None, True, 32, -1, 3.0, "bid"], ids=repr)
def test_a_play_that_is_not_a_card_code_is_an_invalid_action(action: object) -> None:
    game = new_game(SMALL, ONE_SUIT_EACH)
    bids(game, "1 high, pass, pass, pass")
    before = (list(game.hands[1]), len(game.events))
    with pytest.raises(InvalidActionError):
        game.apply(action)
    assert (list(game.hands[1]), len(game.events)) == before
