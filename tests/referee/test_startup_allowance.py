"""The start-up allowance (docs/protocol.md, "Time limits"): a bot process's first decisions may take longer than
the move time, as a JVM's first one does, drawing on an allowance before the time bank (issue 38, item 1).

A real bot slow only at its start (``bots/slow_start_bot.py``, 800 ms once) plays at 200 ms a decision: within
the allowance it passes, and each request tells it what is left; without the allowance it forfeits; a restarted
process has the allowance again (check-bot kills it and starts it afresh); ``replay --ask`` serves a request with
the allowance it told; a tournament folder written before the allowance existed resumes without it, as it was
played, and the tournament's output says why each fault happened. Serial: it measures time.
"""

from __future__ import annotations

import json
import re
import shutil
from pathlib import Path

import pytest

from referee.deadline import STARTUP_ALLOWANCE_MS, STARTUP_DECISIONS
from tests.support.arena import RANDOM, arena, script_bot
from tests.support.logs import match_folder, of_kind, records, results, violations
from tests.support.referee import BOTS
from tests.support.tournament import tournament

SLEEP_MS = 800
SLOW = script_bot("slow", BOTS / "slow_start_bot.py", str(SLEEP_MS))
# 200 ms a decision, the bot's first answer at 800 ms: over the limit and its grace, and over a second limit that a
# busy machine may give back; two hands, so that each seat asks more than STARTUP_DECISIONS times
SHORT = ["--preset", "single-deck", "--rule", "hand_limit=2", "--move-time", "200"]


def told(output: Path) -> list[tuple[int, int, int]]:
    """What each request told the slow bot of its time: (time limit, time bank, start-up allowance), in ms."""
    lines = [line.split()[1:] for line in output.read_text(errors="replace").splitlines() if line.startswith("told:")]
    return [(int(a), int(b), int(c)) for a, b, c in lines]


@pytest.fixture(scope="module")
def allowed(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The folder of a match of the slow bot (both seats of team 0) against the random bot, with the default
    allowance."""
    log_dir = tmp_path_factory.mktemp("allowed")
    run = arena("match", "--bot", SLOW, "--bot", RANDOM, *SHORT, "--log-dir", log_dir)
    assert run.returncode == 0, run.stderr
    return match_folder(log_dir)


def test_a_bot_slow_at_its_start_plays_within_the_allowance(allowed: Path) -> None:
    recs = records(allowed / "match.jsonl")
    assert violations(recs) == []
    (start,) = of_kind(recs, "match_start")
    assert start["startup_allowance_ms"] == STARTUP_ALLOWANCE_MS == 2000
    for seat in (0, 2):  # a process each
        asked = told(allowed / f"seat{seat}-slow.stderr")
        assert len(asked) > STARTUP_DECISIONS
        assert asked[0] == (200, 0, STARTUP_ALLOWANCE_MS)
        # the slow answer drew its time over the limit (about 600 ms, less a wait for a CPU that the referee gave
        # back) from the allowance; quick ones draw nothing
        left = asked[1][2]
        assert STARTUP_ALLOWANCE_MS - 1000 <= left <= STARTUP_ALLOWANCE_MS - 500, asked
        assert [a[2] for a in asked[1:STARTUP_DECISIONS]] == [left] * (STARTUP_DECISIONS - 1)
        # after the process's first decisions what is left is gone; the time bank was never touched
        assert {a[2] for a in asked[STARTUP_DECISIONS:]} == {0} and {a[:2] for a in asked} == {(200, 0)}


def test_without_the_allowance_the_slow_start_forfeits(tmp_path: Path) -> None:
    run = arena("match", "--bot", SLOW, "--bot", RANDOM, *SHORT, "--startup-allowance", "0", "--log-dir", tmp_path)
    assert run.returncode == 0, run.stderr
    folder = match_folder(tmp_path)
    (fault,) = violations(records(folder / "match.jsonl"))
    assert (fault["kind"], fault["penalty"]) == ("timeout", "forfeit")
    assert fault["detail"] == "no answer within 200 ms (+100 ms grace)"
    assert told(folder / f"seat{fault['seat']}-slow.stderr")[0] == (200, 0, 0)
    assert f"seat {fault['seat']} (slow) timeout, forfeit: no answer within 200 ms (+100 ms grace)" in run.stdout


def test_replay_ask_serves_a_request_with_the_allowance_it_told(allowed: Path) -> None:
    """The asked bot is a new process: served its first request again (slow), then the second, each with the
    allowance the referee told it, and the time to match."""
    asked = told(allowed / "seat0-slow.stderr")
    seat0 = [r for r in records(allowed / "match.jsonl") if r.get("seat") == 0 and "ms" in r]
    second = [r for r in records(allowed / "match.jsonl") if "ms" in r].index(seat0[1]) + 1
    ask = arena("replay", allowed / "match.jsonl", "--ask", SLOW.partition("=")[2], "--at", f"#{second}")
    assert ask.returncode == 0, ask.stderr + ask.stdout
    assert f"time limit 200 ms, start-up allowance {asked[1][2]} ms" in ask.stdout, ask.stdout
    assert "asked: " in ask.stdout and "no answer" not in ask.stdout
    again = told(allowed / "match.ask.seat0-slow.stderr")
    assert again == asked[:2], (again, asked)


def test_a_restarted_bot_has_the_allowance_again(tmp_path: Path) -> None:
    """check-bot kills the bot after its first answer and starts it again: the new process is slow at its start
    too, and passes within its own allowance."""
    run = arena("check-bot", SLOW, "--preset", "single-deck", "--move-time", "200", "--log-dir", tmp_path)
    assert run.returncode == 0, run.stdout + run.stderr
    (output,) = tmp_path.glob("check-slow-*.checked.stderr")
    starts = [k for k, t in enumerate(told(output)) if t[2] == STARTUP_ALLOWANCE_MS]
    assert len(starts) >= 2  # the first process's first request, and the restarted one's


def test_a_folder_from_before_the_allowance_resumes_without_it_and_says_why_each_fault_happened(
    tmp_path: Path,
) -> None:
    folder = tmp_path / "t"
    bots = (SLOW, RANDOM)
    fresh = tournament(folder, "-n", "2", *SHORT, bots=bots, quick=False)
    assert fresh.returncode == 0, fresh.stderr
    assert [r["violations"] for r in results(folder)] == [[], []]
    assert "timeout" not in fresh.stdout  # no fault, none listed
    # the folder as an arena before the allowance wrote it: no key in settings.json, no game played yet
    settings = json.loads((folder / "settings.json").read_text())
    assert settings.pop("startup_allowance_ms") == STARTUP_ALLOWANCE_MS
    (folder / "settings.json").write_text(json.dumps(settings))
    (folder / "results.jsonl").unlink()
    shutil.rmtree(folder / "games")
    resumed = tournament(folder, "--resume", bots=(), quick=False)
    assert resumed.returncode == 0, resumed.stderr
    faults = [v for r in results(folder) for v in r["violations"]]
    assert faults and {(v["bot"], v["kind"], v["penalty"]) for v in faults} == {("slow", "timeout", "forfeit")}
    for r in results(folder):
        (start,) = of_kind(records(folder / r["log"]), "match_start")
        assert start["startup_allowance_ms"] == 0
    # each fault's reason, in the output after the standings
    games = ", ".join(r["game_id"] for r in results(folder) if r["violations"])
    line = f"slow: {len(faults)} timeout (forfeit) in {games}: no answer within 200 ms (+100 ms grace)"
    assert line in resumed.stdout, resumed.stdout
    # a resumed folder keeps its own clock: naming the allowance now describes other games
    again = tournament(folder, "--resume", "--startup-allowance", "2000", bots=(), quick=False)
    assert again.returncode == 2
    assert re.search(r"startup_allowance_ms 2000 / 0", again.stderr), again.stderr
