"""The match driver's own rules: seating, default actions, one game at a time per player, seats answered by
anything that can (askers)."""

from __future__ import annotations

from pathlib import Path

import pytest

from referee.engine.bids import PASS, Bid, BidKind
from referee.engine.game import Decision, DecisionKind, Game
from referee.engine.presets import rules_for
from referee.gamelog import LogWriter
from referee.match import MatchConfig, SeatBot, default_action, play_game, play_games, seat_bots
from referee.replay.logfile import load_log
from referee.replay.verify import verify_log
from referee.seat import Outcome
from referee.seeding import derive_seed
from referee.server import Player
from tests.support.aio import run_async
from tests.support.logs import revealed


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


def test_askers_answer_for_the_seats_and_the_log_is_the_drivers(tmp_path: Path) -> None:
    """``play_games`` with a seat's answers given in this process: one asker per seat, and the log written
    as a match's (match_start to match_end) replays through the engine."""
    rules = rules_for("neuralplay", ["hand_limit=2"])
    seats = tuple(SeatBot(f"s{k}") for k in range(4))
    config = MatchConfig("neuralplay", rules, seats, games=2, seed=9, sandbox=None)
    players = [Player(f"p{k}", f"s{k}") for k in range(4)]
    asked: list[int] = []

    async def first(game: Game, decision: Decision) -> Outcome:
        asked.append(decision.seat)
        action = default_action(decision)
        game.apply(action)
        return Outcome(players[decision.seat].next_request_id(), action, None, think_ms=3)

    with pytest.raises(ValueError, match="3 askers for a 4-player game"):
        run_async(play_games(players, config, LogWriter(tmp_path / "no.jsonl"), askers=[first] * 3))
    log = tmp_path / "m.jsonl"
    with LogWriter(log) as writer:
        results = run_async(play_games(players, config, writer, askers=[first] * 4))
    assert [r.game for r in results] == [1, 2] and sum(r.decisions for r in results) == len(asked) > 0
    recs = revealed(log)
    assert recs[0]["event"] == "match_start" and recs[-1]["event"] == "match_end"
    assert [r["seed"] for r in recs if r["event"] == "game_start"] == [derive_seed(9, "game", n) for n in (1, 2)]
    assert verify_log(load_log(log)).games == 2
