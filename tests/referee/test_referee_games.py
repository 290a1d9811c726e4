"""Whole games over a real server with real bot processes, for every preset.

Each seat is its own process of ``bots/recording_bot.py`` (the random example
bot writing down every message it receives). Checked per game:

- the game ends, without violations, and the log replays exactly through the
  engine (the checker behind ``arena replay --verify``);
- one process plays every game of the match at its seat (reuse);
- hidden information: every card text anywhere in any message sent to a seat
  is a card that seat has seen by then (per the engine), and the view the SDK
  rebuilds from the requests equals the engine's ``seat_view``.
"""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from referee.engine.cards import card_str
from referee.engine.events import visible_to
from referee.engine.game import Game
from referee.engine.presets import PRESETS, rules_for
from referee.engine.simulate import shuffled_deck
from referee.gamelog import without_think_times
from referee.protocol.bideuchre.v1 import arena_pb2 as pb
from referee.protocol.messages import decision_to_pb
from referee.replay.logfile import load_log
from referee.replay.verify import verify_log
from tests.support.logs import of_kind, revealed
from tests.support.referee import RANDOM_BOT, RECORDING, check_wire, recorded_messages, run_match, unseen_cards

# presets whose contracts move cards between partners (call, best, alone)
EXCHANGE_PRESETS = ("neuralplay", "pagat", "bloomington", "hammerwalt")


def test_the_wire_check_catches_a_leak() -> None:
    """The checker above flags a request that carries another seat's card; the encoder refuses unfiltered deals."""
    rules = rules_for("neuralplay")
    rng = random.Random(4)
    game = Game(rules, 0)
    game.deal(shuffled_deck(rules, rng))
    decision = game.decision()
    assert decision is not None
    seat = decision.seat
    fair = decision_to_pb(
        game, decision, request_id=1, game_id="g", events=[visible_to(e, seat) for e in game.events], time_limit_ms=1
    )
    assert not unseen_cards(fair, game, seat)
    others = {card_str(c) for s in range(rules.players) if s != seat for c in game.hands[s]}
    stranger = min(others - {card_str(c) for c in game.hands[seat]})
    leaky = pb.RefereeMessage()
    leaky.CopyFrom(fair)
    leaky.decision.current_trick.add(trick=1, seat=(seat + 1) % 4, card=stranger)
    assert unseen_cards(leaky, game, seat) == {stranger}
    with pytest.raises(ValueError, match="must show exactly one hand"):
        decision_to_pb(game, decision, request_id=1, game_id="g", events=game.events, time_limit_ms=1)


@pytest.mark.parametrize("preset", list(PRESETS))
def test_every_preset_plays_through_the_referee(preset: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    record_dir = tmp_path / "wire"
    record_dir.mkdir()
    monkeypatch.setenv("RECORD_DIR", str(record_dir))
    result = run_match(tmp_path, preset, teams=[RECORDING], games=2, seed=11, rules=["hand_limit=3"])
    recs = revealed(result.log_path)
    assert [r["game"] for r in of_kind(recs, "game_end")] == [1, 2]
    assert not of_kind(recs, "violation")
    assert all(g.decisions > 0 and not g.violations for g in result.games)
    assert verify_log(load_log(result.log_path)).games == 2
    # one process per seat, each reused for both games
    assert len(recorded_messages(record_dir)) == PRESETS[preset].players
    for msgs in recorded_messages(record_dir).values():
        kinds = [m.WhichOneof("message") for m in msgs]
        assert kinds[0] == "welcome" and kinds[-1] == "shutdown"
        assert kinds.count("game_start") == 2 and kinds.count("game_over") == 2
    stats = check_wire(result.log_path, record_dir)
    assert stats["games"] == 2 and stats["play"] > 0


@pytest.mark.parametrize("preset", EXCHANGE_PRESETS)
def test_no_hidden_card_reaches_a_seat_over_many_games(
    preset: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    record_dir = tmp_path / "wire"
    record_dir.mkdir()
    monkeypatch.setenv("RECORD_DIR", str(record_dir))
    result = run_match(tmp_path, preset, teams=[RECORDING], games=6, seed=5, rules=["hand_limit=4"])
    stats = check_wire(result.log_path, record_dir)
    assert stats["games"] == 6
    # the exchanges happened, and seats outside them were sent no card of them
    assert stats["give"] + stats["discard"] >= 3, stats
    assert stats["exchanges hidden from a seat"] >= 3, stats


def test_a_game_ends_by_its_own_rules(tmp_path: Path) -> None:
    """No safety stop: triple-deck ends after its 8 hands, double-deck by score or mercy."""
    for preset, reasons in (("triple-deck", {"hands"}), ("double-deck", {"target", "mercy"})):
        result = run_match(tmp_path / preset, preset, teams=[RANDOM_BOT], seed=2)
        assert result.games[0].reason in reasons


def test_same_seed_same_bots_same_log(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("RECORD_DIR", str(tmp_path))
    logs = [
        run_match(tmp_path / f"run{k}", "bloomington", teams=[RECORDING], games=2, seed=9, rules=["hand_limit=4"])
        for k in range(2)
    ]
    first, second = (without_think_times(revealed(r.log_path)) for r in logs)
    assert first == second  # only the think times differ
    assert all(isinstance(r["ms"], int) for r in of_kind(revealed(logs[0].log_path), "play"))
    other = run_match(tmp_path / "other", "bloomington", teams=[RECORDING], games=2, seed=10, rules=["hand_limit=4"])
    assert without_think_times(revealed(other.log_path)) != first
