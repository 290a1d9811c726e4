"""The match driver's own rules: seating, default actions, one game at a time per player."""

from __future__ import annotations

import pytest

from referee.engine.bids import PASS, Bid, BidKind
from referee.engine.game import Decision, DecisionKind
from referee.engine.presets import rules_for
from referee.match import SeatBot, default_action, play_game, seat_bots
from referee.server import Player
from tests.support.aio import run_async


def test_bots_fill_the_teams_in_order() -> None:
    a, b, c = SeatBot("a"), SeatBot("b"), SeatBot("c")
    assert [s.name for s in seat_bots(rules_for("bloomington"), [a, b])] == ["a", "b"] * 3
    assert [s.name for s in seat_bots(rules_for("double-deck-3p"), [a, b, c])] == ["a", "b", "c"]
    assert [s.name for s in seat_bots(rules_for("neuralplay"), [a])] == ["a"] * 4
    with pytest.raises(ValueError, match="2 bots for 3 teams"):
        seat_bots(rules_for("double-deck-3p"), [a, b])


def test_default_actions_are_legal_and_plain() -> None:
    assert default_action(Decision(DecisionKind.BID, 0, (PASS, Bid(BidKind.LEVEL, 3)))) == PASS
    assert default_action(Decision(DecisionKind.BID, 0, (Bid(BidKind.LEVEL, 6), Bid(BidKind.LEVEL, 7)))) == Bid(
        BidKind.LEVEL, 6
    )
    assert default_action(Decision(DecisionKind.PLAY, 0, (5, 9))) == 5
    assert default_action(Decision(DecisionKind.DISCARD, 0, (1, 1, 4, 7), count=2)) == [1, 1]
    assert default_action(Decision(DecisionKind.GIVE, 0, (2, 3, 4), count=1, to=2)) == [2]


def test_a_player_sits_in_one_game_at_a_time() -> None:
    rules = rules_for("neuralplay")
    players = [Player(f"p{k}", "x") for k in range(4)]

    def play(seated: list[Player]) -> None:
        run_async(play_game(seated, rules=rules, preset="neuralplay", game=1, game_id="g", seed=1))

    with pytest.raises(ValueError, match="twice here"):
        play([players[0], players[1], players[0], players[3]])
    players[2].on_violation = lambda kind, detail: None  # seated at another table
    with pytest.raises(ValueError, match=r"already seated: \['p2'\]"):
        play(players)
    with pytest.raises(ValueError, match="3 players for a 4-player game"):
        play(players[:3])
