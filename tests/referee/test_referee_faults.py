"""Timeouts, crashes, illegal and malformed answers under each fault policy, with real bot processes.

Seat 0 is ``bots/faulty_bot.py`` (a real process misbehaving once); the other
seats are SDK clients inside the test process. The log must record the
violation, the policy must be applied, and the referee must go on.
"""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

import pytest

from referee.bots import BotCommand
from referee.match import FaultPolicy, Match, MatchResult, SeatBot
from referee.replay.logfile import load_log
from referee.replay.verify import verify_log
from tests.support.logs import of_kind, revealed
from tests.support.referee import faulty, in_process, run_match

FORFEIT, DEFAULT = FaultPolicy.FORFEIT, FaultPolicy.DEFAULT


def seats_with(seat0: BotCommand, players: int = 4) -> list[SeatBot]:
    return [SeatBot(seat0.name, seat0), *[in_process() for _ in range(players - 1)]]


def violations(path: Path) -> list[dict]:
    return of_kind(revealed(path), "violation")


def stderr_of(result_log: Path, seat: int = 0) -> str:
    (path,) = result_log.parent.glob(f"seat{seat}-*.stderr")  # beside the log, in the match's folder
    return path.read_text()


def test_timeout_forfeits_the_game(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("FAULTY_SLEEP", "1.0")
    result = run_match(tmp_path, "neuralplay", seats_with(faulty("sleep", 1)), move_time_ms=200, grace_ms=50)
    game = result.games[0]
    assert game.reason == "forfeit" and game.winner == 1
    (v,) = violations(result.log_path)
    assert (v["seat"], v["kind"], v["penalty"]) == (0, "timeout", "forfeit")
    assert v["detail"] == "no answer within 200 ms (+50 ms grace)"
    assert revealed(result.log_path)[-2]["detail"].startswith("seat 0 (faulty) timeout")
    assert "TIMEOUT" in stderr_of(result.log_path)  # the bot was told
    verify_log(load_log(result.log_path))


def test_timeout_under_default_policy_plays_for_the_bot(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("FAULTY_SLEEP", "0.6")
    result = run_match(
        tmp_path,
        "neuralplay",
        seats_with(faulty("sleep", 1)),
        move_time_ms=200,
        grace_ms=50,
        policy=DEFAULT,
        rules=["hand_limit=2"],
    )
    game = result.games[0]
    assert game.reason == "hand-limit"
    faults = violations(result.log_path)
    # the sleeping bot misses this request (and perhaps the next, while still asleep); its late
    # answers are logged as late, costing nothing
    timeouts = [v for v in faults if v["kind"] == "timeout"]
    assert timeouts and all(v["penalty"] == "default-action" and v["seat"] == 0 for v in timeouts)
    assert all((v["kind"], v["penalty"], v["seat"]) == ("late", "none", 0) for v in faults if v["kind"] != "timeout")
    # the default action (a pass, or the lowest bid) is logged as seat 0's bid, right after the violation
    recs = revealed(result.log_path)
    after = recs[recs.index(faults[0]) + 1]
    assert after["event"] == "bid" and after["seat"] == 0
    verify_log(load_log(result.log_path))


def test_crash_forfeits_and_the_bot_is_restarted_for_the_next_game(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    marker = tmp_path / "crashed-once"
    bot = faulty("crash", 2, marker)
    seats = seats_with(bot)
    starts: list[int] = []

    def count_starts(match: Match) -> None:
        starts.append(0)
        original = match.play

        async def play(*args: Any, **kwargs: Any) -> MatchResult:
            result = await original(*args, **kwargs)
            starts[0] = match.pool.starts(match.players[0])
            return result

        monkeypatch.setattr(match, "play", play)

    result = run_match(tmp_path, "neuralplay", seats, games=2, rules=["hand_limit=2"], during=count_starts)
    first, second = result.games
    assert f"misbehaved once: {marker}" in stderr_of(result.log_path)
    assert first.reason == "forfeit" and first.winner == 1
    assert [(v.kind, v.penalty) for v in first.violations] == [("crash", "forfeit")]
    assert second.reason == "hand-limit" and not second.violations  # a fresh process played game 2
    assert starts == [2]
    verify_log(load_log(result.log_path))


def test_crash_under_default_policy_plays_the_rest_for_the_bot(tmp_path: Path) -> None:
    result = run_match(tmp_path, "neuralplay", seats_with(faulty("crash", 3)), policy=DEFAULT, rules=["hand_limit=2"])
    game = result.games[0]
    assert game.reason == "hand-limit"
    assert [(v.seat, v.kind, v.penalty) for v in game.violations] == [(0, "crash", "default-action")]
    verify_log(load_log(result.log_path))


def test_illegal_answer_forfeits_and_the_bot_is_told(tmp_path: Path) -> None:
    result = run_match(tmp_path, "neuralplay", seats_with(faulty("illegal", 1)))
    (v,) = result.games[0].violations
    assert (v.kind, v.penalty) == ("illegal", "forfeit")
    assert "bid-too-high" in v.detail
    assert "ILLEGAL" in stderr_of(result.log_path)
    assert result.games[0].reason == "forfeit"


def test_malformed_answer_under_default_policy(tmp_path: Path) -> None:
    result = run_match(
        tmp_path, "neuralplay", seats_with(faulty("malformed", 1)), policy=DEFAULT, rules=["hand_limit=1"]
    )
    (v,) = result.games[0].violations
    assert (v.kind, v.penalty) == ("malformed", "default-action")
    assert v.detail == "a bid decision is answered with Action.bid, got Action.card"
    assert "MALFORMED" in stderr_of(result.log_path)
    assert result.games[0].reason == "hand-limit"


def test_a_bot_that_never_connects_costs_its_team_the_game(tmp_path: Path) -> None:
    silent = BotCommand("silent", (sys.executable, "-c", "import time; time.sleep(60)"))
    result = run_match(tmp_path, "neuralplay", seats_with(silent), connect_timeout_s=1.0)
    (v,) = result.games[0].violations
    assert (v.seat, v.kind, v.penalty) == (0, "crash", "forfeit")
    assert "did not connect within 1 s" in v.detail


def test_a_bot_that_exits_at_once_is_reported_quickly(tmp_path: Path) -> None:
    broken = BotCommand("broken", (sys.executable, "-c", "raise SystemExit(2)"))
    result = run_match(
        tmp_path, "neuralplay", seats_with(broken), connect_timeout_s=30.0, policy=DEFAULT, rules=["hand_limit=1"]
    )
    (v,) = result.games[0].violations
    assert "exited with code 2 before connecting" in v.detail
    # a bot that never started has no game to play: its team forfeits, even under the default-action policy
    assert (v.seat, v.kind, v.penalty) == (0, "crash", "forfeit")
    assert result.games[0].reason == "forfeit"
