"""Exchanges with partners and discards: call bids, best, going alone; partners sitting out."""

from __future__ import annotations

from collections import Counter
from dataclasses import replace

import pytest

from referee.engine.cards import card_str
from referee.engine.errors import IllegalActionError, InvalidActionError, RulesError
from referee.engine.events import ContractEvent, ExchangeEvent, PlayEvent, TrickEvent, visible_to
from referee.engine.game import DecisionKind, Game, Phase
from referee.engine.presets import preset
from referee.engine.rules import Deck, Rules, SpecialFamily
from tests.support.engine import act, bids, cards, new_game, of_type, play_first_legal


def held(game: Game, seat: int) -> list[str]:
    return sorted(card_str(c) for c in game.hands[seat])


def due(game: Game) -> tuple[DecisionKind, int, int, int | None]:
    decision = game.decision()
    assert decision is not None
    return decision.kind, decision.seat, decision.count, decision.to


def check_tricks_after_exchange(game: Game, active: tuple[int, ...]) -> None:
    """Play the hand out: each trick has one card per active seat, the partners out play nothing."""
    events = play_first_legal(game)
    plays = of_type(events, PlayEvent)
    tricks = of_type(events, TrickEvent)
    assert len(tricks) == game.rules.cards_each
    assert len(plays) == len(active) * game.rules.cards_each
    per_trick = Counter(p.trick for p in plays)
    assert set(per_trick.values()) == {len(active)}
    assert {p.seat for p in plays} == set(active)


def test_call2_partner_gives_then_declarer_discards() -> None:
    game = new_game(preset("neuralplay"), {1: "JS JS AS KS QD QD QC QC", 3: "AS KS JC JC QH QH KH KH"})
    bids(game, "call2 S, pass, pass, pass")
    (contract,) = of_type(game.events, ContractEvent)
    assert contract.alone and contract.active == (0, 1, 2)
    assert due(game) == (DecisionKind.GIVE, 3, 2, 1)
    decision = game.decision()
    assert decision is not None and decision.cards == tuple(sorted(game.hands[3]))
    events = act(game, "JC JC")
    assert events == [ExchangeEvent(1, 3, 1, tuple(cards("JC JC")), 2)]
    assert len(game.hands[1]) == 10 and len(game.hands[3]) == 6
    assert due(game) == (DecisionKind.DISCARD, 1, 2, None)
    events = act(game, "QC QC")
    assert events == [ExchangeEvent(1, 1, None, tuple(cards("QC QC")), 2)]
    assert held(game, 1) == sorted(["JS", "JS", "AS", "KS", "QD", "QD", "JC", "JC"])
    assert game.phase is Phase.PLAY and game.to_act == 1
    check_tricks_after_exchange(game, (0, 1, 2))


def test_call1_discard_first_in_pagat() -> None:
    game = new_game(preset("pagat"), {0: "JD JD AD AD KD KD QD QD", 2: "JH AH AH KH KH QH QH JS"})
    bids(game, "pass, pass, pass, call1 D")
    assert due(game) == (DecisionKind.DISCARD, 0, 1, None)
    act(game, "QD")
    assert len(game.hands[0]) == 7
    assert due(game) == (DecisionKind.GIVE, 2, 1, 0)
    act(game, "JH")
    assert held(game, 0) == sorted(["JD", "JD", "AD", "AD", "KD", "KD", "QD", "JH"])
    assert game.to_act == 0
    check_tricks_after_exchange(game, (0, 1, 3))


def test_call3_exchanges_three_in_triple_deck() -> None:
    game = new_game(preset("triple-deck"))
    bids(game, "call3 H, pass, pass, pass")
    assert due(game) == (DecisionKind.GIVE, 3, 3, 1)
    decision = game.decision()
    assert decision is not None
    given = decision.cards[:3]
    act(game, " ".join(card_str(c) for c in given))
    assert due(game) == (DecisionKind.DISCARD, 1, 3, None)
    assert len(game.hands[1]) == 18
    act(game, " ".join(card_str(c) for c in game.hands[1][:3]))
    check_tricks_after_exchange(game, (0, 1, 2))


def test_best_with_two_partners_in_bloomington() -> None:
    game = new_game(preset("bloomington"), {0: "JS JS JC AS AS KS KS QS", 2: "JC 9H", 4: "QS 9D"}, dealer=5)
    bids(game, "best S")
    (contract,) = of_type(game.events, ContractEvent)
    assert contract.declarer == 0 and contract.alone and contract.active == (0, 1, 3, 5)
    # each partner, clockwise from the declarer, gives one card; then the declarer discards two
    assert due(game) == (DecisionKind.GIVE, 2, 1, 0)
    act(game, "JC")
    assert due(game) == (DecisionKind.GIVE, 4, 1, 0)
    act(game, "QS")
    assert due(game) == (DecisionKind.DISCARD, 0, 2, None)
    assert len(game.hands[0]) == 10
    act(game, "KS QS")
    assert held(game, 0) == sorted(["JS", "JS", "JC", "JC", "AS", "AS", "KS", "QS"])
    assert [(e.from_seat, e.to_seat, e.count) for e in of_type(game.events, ExchangeEvent)] == [
        (2, 0, 1),
        (4, 0, 1),
        (0, None, 2),
    ]
    check_tricks_after_exchange(game, (0, 1, 3, 5))


def test_going_alone_three_for_three_in_hammerwalt() -> None:
    game = new_game(preset("hammerwalt"), {2: "9S 9S TS", 0: "JH JH JD JD AH AH 9C 9C TC TC JC QC"}, dealer=3)
    bids(game, "alone")
    decision = game.decision()
    assert decision is not None and decision.kind is DecisionKind.TRUMP
    act(game, "H")
    (contract,) = of_type(game.events, ContractEvent)
    assert contract.declarer == 0 and contract.alone and contract.active == (0, 1, 3)
    assert due(game) == (DecisionKind.GIVE, 0, 3, 2)
    act(game, "9C 9C TC")
    assert len(game.hands[2]) == 15 and len(game.hands[0]) == 9
    assert due(game) == (DecisionKind.GIVE, 2, 3, 0)
    act(game, "9S 9C TS")  # the partner may give back a card it was just given
    assert Counter(card_str(c) for c in game.hands[0])["9C"] == 1
    assert len(game.hands[0]) == 12 and len(game.hands[2]) == 12
    assert game.to_act == 0
    check_tricks_after_exchange(game, (0, 1, 3))


def test_going_alone_with_no_exchange() -> None:
    game = new_game(replace(preset("hammerwalt"), alone_exchange_cards=0))
    bids(game, "alone")
    act(game, "S")
    assert game.phase is Phase.PLAY and game.active == (0, 1, 2)
    check_tricks_after_exchange(game, (0, 1, 2))


def test_moon_plays_alone_without_exchange() -> None:
    game = new_game(preset("neuralplay"))
    bids(game, "pass, moon high")
    (contract,) = of_type(game.events, ContractEvent)
    assert contract.declarer == 2 and contract.alone and contract.active == (1, 2, 3)
    assert game.phase is Phase.PLAY and game.to_act == 2
    check_tricks_after_exchange(game, (1, 2, 3))


def test_pepper_is_played_with_partners_and_no_exchange() -> None:
    game = new_game(preset("pepper"))
    bids(game, "little-pepper, pass, pass, pass")
    act(game, "H")
    (contract,) = of_type(game.events, ContractEvent)
    assert not contract.alone and contract.active == (0, 1, 2, 3)
    check_tricks_after_exchange(game, (0, 1, 2, 3))


def test_exchange_cards_are_hidden_from_the_seats_not_in_it() -> None:
    game = new_game(preset("neuralplay"))
    bids(game, "call1 C, pass, pass, pass")
    give = act(game, card_str(game.hands[3][0]))[0]
    discard = act(game, card_str(game.hands[1][0]))[0]
    assert isinstance(give, ExchangeEvent) and isinstance(discard, ExchangeEvent)
    for seat in range(4):
        seen_give, seen_discard = visible_to(give, seat), visible_to(discard, seat)
        assert isinstance(seen_give, ExchangeEvent) and isinstance(seen_discard, ExchangeEvent)
        assert seen_give.count == 1 and seen_discard.count == 1
        assert (seen_give.cards is not None) == (seat in (1, 3))
        assert (seen_discard.cards is not None) == (seat == 1)


NEURAL_CALL2 = preset("neuralplay")


def call2_game() -> Game:
    game = new_game(NEURAL_CALL2, {3: "AS KS JC JC QH QH KH KH"})
    bids(game, "call2 S, pass, pass, pass")
    return game


@pytest.mark.parametrize(
    ("action", "rule"),
    [("JC", "give-count"), ("JC JC KH", "give-count"), ("JC AD", "card-not-in-hand"), ("AS AS", "card-not-in-hand")],
)
def test_bad_exchange_is_illegal_and_changes_nothing(action: str, rule: str) -> None:
    game = call2_game()
    before = (list(game.hands[3]), list(game.hands[1]), len(game.events))
    with pytest.raises(IllegalActionError) as err:
        act(game, action)
    assert err.value.rule == rule
    assert (list(game.hands[3]), list(game.hands[1]), len(game.events)) == before
    act(game, "JC JC")  # a good exchange still goes through


@pytest.mark.parametrize("action", ["JC JC", [99, 3], [True, False], [1.5, 2.5], 7], ids=repr)
def test_malformed_exchange_is_an_invalid_action(action: object) -> None:
    game = call2_game()
    before = list(game.hands[3])
    with pytest.raises(InvalidActionError):
        game.apply(action)
    assert list(game.hands[3]) == before


def test_call_bids_need_teams_of_two() -> None:
    with pytest.raises(RulesError, match="teams of two"):
        Rules(players=6, deck=Deck.DOUBLE_48, deal_packets=(8,), special_bids=(SpecialFamily.CALL2,))
