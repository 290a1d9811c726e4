"""Hostile bots against the referee, under both fault policies, in a match and in a tournament.

Seat 0 misbehaves once (at its second answer); the other seats play
cleanly. The behaviours: the faults ``tests/referee/bots/faulty_bot.py``
makes (a timeout, a crash, an illegal and a malformed answer) and the
protocol attacks of ``bots/hostile_bot.py`` (a flood of answers to requests
never sent, a 10 MB message, garbage bytes, a second Hello, 200 extra
streams, a stranger presenting the seat's token). For each:

- the referee stays up and the match ends (its log closes with match_end);
- the game ends by the policy, every violation is charged to seat 0 and a
  fault that costs something is charged once;
- the log is valid JSONL that ``arena replay --verify`` accepts;
- no bot process is left behind.

In a tournament, the tables where no hostile bot sits are charged nothing;
against ``arena serve``, a hostile bot started by hand is handled the same.
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from referee.bots import BotCommand
from referee.gamelog import read_json_lines
from referee.match import FaultPolicy, SeatBot
from referee.replay.logfile import load_log
from referee.replay.verify import verify_log
from tests.support.arena import FIRST, RANDOM, start_serve
from tests.support.logs import results, revealed
from tests.support.processes import alive, children_of, with_marker_in_cmdline
from tests.support.referee import faulty, in_process, run_match
from tests.support.sandbox import BOTS
from tests.support.tournament import tournament

AT = 2  # the answer (of the session) that misbehaves

# behaviour -> the violation that costs the game (forfeit) or a default action; None: nothing does
PENALISED = {
    "sleep": "timeout",
    "crash": "crash",
    "illegal": "illegal",
    "malformed": "malformed",
    "flood": "crash",  # disconnected for flooding: its answer never comes
    "big": "crash",  # gRPC cuts a stream that sends more than 1 MB at once
    "garbage": "timeout",  # the garbage is 'malformed' (no penalty), then no answer comes
    "double-hello": None,
    "streams": None,
    "intruder": None,
}
FAULTY = {"sleep", "crash", "illegal", "malformed"}
# what else may be logged against seat 0, costing nothing
FREE = {"flood": {"protocol"}, "garbage": {"malformed"}, "double-hello": {"protocol"}, "sleep": {"late"}}


def hostile(mode: str, tag: Path | None = None, at: int = AT) -> BotCommand:
    """The bot for ``mode``, misbehaving at its ``at``-th answer; ``tag`` marks its command line (see
    ``with_marker_in_cmdline``)."""
    if mode in FAULTY:
        return faulty(mode, at)
    extra = (str(tag),) if tag is not None else ()
    return BotCommand(mode, (sys.executable, str(BOTS / "hostile_bot.py"), mode, str(at), *extra))


def live_children() -> set[int]:
    return {p for p in children_of(os.getpid()) if alive(p)}


@pytest.mark.parametrize("policy", list(FaultPolicy))
@pytest.mark.parametrize("mode", list(PENALISED))
def test_a_hostile_bot_in_a_match(mode: str, policy: FaultPolicy, tmp_path: Path, monkeypatch) -> None:
    monkeypatch.setenv("FAULTY_SLEEP", "1.0")
    before = live_children()
    seats = [SeatBot(mode, hostile(mode)), *[in_process() for _ in range(3)]]
    result = run_match(tmp_path, "neuralplay", seats, rules=["hand_limit=1"], policy=policy, move_time_ms=300)
    (game,) = result.games
    faults = [(v.seat, v.kind, v.penalty) for v in game.violations]
    assert {seat for seat, _, _ in faults} <= {0}, faults  # only the hostile seat is charged
    costly = [(kind, penalty) for _, kind, penalty in faults if penalty != "none"]
    free = {kind for _, kind, penalty in faults if penalty == "none"}
    kind = PENALISED[mode]
    if kind is None:
        assert costly == [] and game.reason == "hand-limit"
    elif policy is FaultPolicy.FORFEIT:
        assert costly == [(kind, "forfeit")] and game.reason == "forfeit" and game.winner == 1
    else:
        # (a bot still asleep may miss the next request too)
        assert set(costly) == {(kind, "default-action")} and game.reason == "hand-limit"
    assert free <= FREE.get(mode, set()), free
    if mode in ("streams", "intruder"):
        assert faults == []  # strangers on the wire are nobody's fault
    # the log: every line JSON, closed by match_end, and the engine agrees with it
    lines = [rec for _, rec in read_json_lines(result.log_path)]
    assert len(lines) == len(result.log_path.read_text().splitlines()) and lines[-1]["event"] == "match_end"
    assert verify_log(load_log(result.log_path)).games == 1
    assert live_children() <= before  # no bot process left


@pytest.mark.slow
@pytest.mark.parametrize("policy", list(FaultPolicy))
def test_hostile_bots_in_a_tournament_charge_only_themselves(policy: FaultPolicy, tmp_path: Path) -> None:
    tag = tmp_path / "hostile-tag"
    bad = ("flood", "garbage", "big")
    bots = [
        RANDOM,
        FIRST,
        *(f"{m}={' '.join(hostile(m, tag).argv)}" for m in bad),
    ]
    folder = tmp_path / "t"
    args = ("--preset", "single-deck", "--rule", "hand_limit=1", "--move-time", "300", "-n", "2", "-j", "2")
    run = tournament(folder, *args, "--on-fault", policy.value, bots=bots, quick=False, timeout=400)
    assert run.returncode == 0, run.stderr
    recs = results(folder)
    assert len(recs) == 20  # every pairing of 5 bots, twice
    for r in recs:
        charged = {v["bot"] for v in r["violations"]}
        assert charged <= set(bad) & set(r["teams"]), r  # a fault is charged to its own bot only
        if not set(bad) & set(r["teams"]):
            assert r["violations"] == []  # the clean tables are charged nothing
        verify_log(load_log(folder / r["log"]))
    assert with_marker_in_cmdline(str(tag)) == []  # no hostile bot outlived the tournament


def test_a_late_answer_is_charged_to_the_game_it_answers(tmp_path: Path, monkeypatch) -> None:
    """Item 8: seat 0 times out in game 1 (forfeit) and answers while game 2 is under way.

    The answer is logged as late, against game 1; game 2 is charged nothing.
    """
    monkeypatch.setenv("FAULTY_SLEEP", "0.6")
    seats = [SeatBot("sleepy", faulty("sleep", 1, tmp_path / "slept")), *[in_process() for _ in range(3)]]
    result = run_match(tmp_path, "neuralplay", seats, games=2, rules=["hand_limit=1"], move_time_ms=300)
    first, second = result.games
    assert [(v.seat, v.kind, v.penalty) for v in first.violations if v.kind == "timeout"] == [(0, "timeout", "forfeit")]
    assert second.violations == () and second.reason == "hand-limit"
    late = [r for r in revealed(result.log_path) if r["event"] == "violation" and r["kind"] == "late"]
    assert [(r["game"], r["seat"], r["penalty"]) for r in late] == [(1, 0, "none")]
    assert verify_log(load_log(result.log_path)).games == 2


@pytest.mark.parametrize("mode", ["flood", "garbage", "streams", "intruder"])
def test_a_hostile_bot_started_by_hand_against_arena_serve(mode: str, tmp_path: Path) -> None:
    serve, tokens, _ = start_serve(tmp_path, "-r", "hand_limit=1", "--move-time", "300", "--on-fault", "default")
    env = {k: v for k, v in os.environ.items() if not k.startswith("ARENA_")}
    tag = tmp_path / "hostile-tag"
    bots: list[subprocess.Popen[bytes]] = []
    try:
        for seat, (address, token) in enumerate(tokens):
            # at its first answer: the deal is not seeded here, and a one-hand game may give a seat one decision
            command = hostile(mode, tag, at=1).argv if seat == 0 else (sys.executable, "-m", "example_bots.random_bot")
            seat_env = {**env, "ARENA_ADDRESS": address, "ARENA_TOKEN": token}
            bots.append(subprocess.Popen(command, env=seat_env, stderr=subprocess.DEVNULL))
        _, err = serve.communicate(timeout=120)
        assert serve.returncode == 0, err  # the referee stayed up and finished the match
        for b in bots:
            b.wait(timeout=30)
    finally:
        procs: list[subprocess.Popen[str] | subprocess.Popen[bytes]] = [serve, *bots]
        for p in procs:
            if p.poll() is None:
                p.kill()
    (log,) = tmp_path.glob("match-*/*.jsonl")
    faults = [r for r in revealed(log) if r["event"] == "violation"]
    assert {r["seat"] for r in faults} <= {0}
    assert bool(faults) == (PENALISED[mode] is not None)
    assert verify_log(load_log(log)).games == 1
    assert with_marker_in_cmdline(str(tag)) == []
