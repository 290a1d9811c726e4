"""The JavaScript bot (example_bots/js) in real matches: a real referee, a Node.js process per seat.

Every preset is played to a full game against the Python example bots through
`arena match`; the referee's log must show no violation and pass
`arena replay --verify`, and across the presets the JS bot must have answered
every decision kind. Then the bot by hand against `arena serve` (a bad token,
reuse across games, a clean exit on Shutdown) and the same seed twice.
"""

from __future__ import annotations

import os
import re
import subprocess
from collections import Counter
from dataclasses import dataclass
from pathlib import Path
from subprocess import PIPE

import pytest

from referee.engine.presets import PRESETS
from referee.gamelog import without_think_times
from tests.support.arena import ARENA, RANDOM, REPO, RULES, arena_in_repo
from tests.support.js import JS, decisions_of, require_js_bot, verify
from tests.support.logs import only_log, records, violations

JS_COMMAND = ["node", "example_bots/js/bot.js"]


def run_js(env: dict[str, str]) -> subprocess.CompletedProcess[str]:
    """The JS bot as a user starts it by hand, from the repository's root."""
    return subprocess.run(JS_COMMAND, check=False, cwd=REPO, capture_output=True, text=True, env=env, timeout=30)


@dataclass(frozen=True)
class Case:
    preset: str
    bots: tuple[str, ...]  # NAME=COMMAND per team, in team order
    games: int = 1


# One full game of every preset; the JS bot on the first team or on the
# second, against the random and the rule-based Python bots.
CASES = {
    "neuralplay": Case("neuralplay", (RULES, JS), games=2),
    "indiana": Case("indiana", (JS, RANDOM)),
    "bid-euchre-project": Case("bid-euchre-project", (JS, RULES)),
    "single-deck": Case("single-deck", (RANDOM, JS)),
    "single-deck-hilo": Case("single-deck-hilo", (JS, RULES)),
    "pepper": Case("pepper", (JS, RANDOM)),
    "triple-deck": Case("triple-deck", (RULES, JS)),
    "double-deck": Case("double-deck", (JS, RANDOM)),
    "double-deck-3p": Case("double-deck-3p", (JS, RANDOM, RULES), games=2),  # 3 players, 3 teams
    "bloomington": Case("bloomington", (JS, RULES)),  # 6 players; best: partners give, the bidder discards
    "hammerwalt": Case("hammerwalt", (JS, RANDOM)),  # alone: cards both ways; trump named after the auction
    "pagat": Case("pagat", (RANDOM, JS)),
}


@dataclass
class Played:
    run: subprocess.CompletedProcess[str]
    log: Path
    recs: list[dict]


@pytest.fixture(scope="module")
def play(tmp_path_factory: pytest.TempPathFactory):
    """Plays a case's match once per module (the kinds test reads them all)."""
    require_js_bot()
    done: dict[str, Played] = {}

    def get(preset: str) -> Played:
        if preset not in done:
            case = CASES[preset]
            log_dir = tmp_path_factory.mktemp(preset)
            bots = [arg for bot in case.bots for arg in ("--bot", bot)]
            options = ["--games", str(case.games), "--seed", "11", "--log-dir", str(log_dir)]
            run = arena_in_repo("match", "--preset", preset, *bots, *options)
            assert run.returncode == 0, run.stdout + run.stderr
            log = only_log(log_dir)
            done[preset] = Played(run, log, records(log))
        return done[preset]

    return get


def test_every_preset_has_a_case() -> None:
    assert set(CASES) == set(PRESETS)


@pytest.mark.slow
@pytest.mark.parametrize("preset", list(CASES))
def test_js_bot_plays_full_games_with_no_violation(preset: str, play) -> None:
    case = CASES[preset]
    played = play(preset)
    recs = played.recs
    assert violations(recs) == []
    ends = [r for r in recs if r["event"] == "game_end"]
    assert len(ends) == case.games
    assert all(e["reason"] in ("target", "hands", "mercy") for e in ends), ends  # played out, never forfeited
    js_seats = [s["seat"] for s in recs[0]["seats"] if s["bot"] == "js"]
    team = [bot.split("=")[0] for bot in case.bots].index("js")
    assert js_seats and all(seat % len(case.bots) == team for seat in js_seats)
    kinds = decisions_of(recs)
    assert kinds["bid"] > 0 and kinds["play"] > 0, kinds
    verify(played.log)
    # Each JS seat ran one process for the whole match (no crash, no restart) and left on Shutdown.
    outputs = sorted(played.log.parent.glob("*-js.stderr"))
    assert len(outputs) == len(js_seats)
    for output in outputs:
        text = output.read_text()
        assert text.count("--- node example_bots/js/bot.js") == 1, text
        assert "shutdown (match finished)" in text, text
        assert "referee error" not in text, text


@pytest.mark.slow
def test_js_bot_answers_every_decision_kind(play) -> None:
    total: Counter[str] = Counter()
    for preset in CASES:
        total += decisions_of(play(preset).recs)
    assert set(total) == {"bid", "trump", "give", "discard", "play"}, total


def test_same_seed_same_log(tmp_path: Path) -> None:
    """The JS bot seeds its choices from ARENA_SEED and the game id: a match replays record for record."""
    require_js_bot()
    logs = []
    for attempt in ("a", "b"):
        options = ["--games", "2", "-r", "hand_limit=3", "--seed", "5", "--log-dir", str(tmp_path / attempt)]
        run = arena_in_repo("match", "--preset", "hammerwalt", "--bot", JS, "--bot", RANDOM, *options)
        assert run.returncode == 0, run.stdout + run.stderr
        logs.append(without_think_times(records(only_log(tmp_path / attempt))))
    assert logs[0] == logs[1]  # all but the think times


def test_js_bot_by_hand_against_arena_serve(tmp_path: Path) -> None:
    """A bad token is a fatal Error (exit 1); three bots play two games each in one process, exit 0 on Shutdown."""
    require_js_bot()
    options = ["--preset", "double-deck-3p", "--games", "2", "-r", "hand_limit=1", "--log-dir", str(tmp_path)]
    serve = subprocess.Popen([ARENA, "serve", *options], cwd=REPO, stdout=PIPE, stderr=PIPE, text=True)
    bots: list[subprocess.Popen[str]] = []
    try:
        assert serve.stdout is not None
        seats: list[tuple[str, str]] = []
        while len(seats) < 3:
            line = serve.stdout.readline()
            assert line, serve.stderr.read() if serve.stderr else "arena serve printed nothing"
            found = re.search(r"ARENA_ADDRESS=(\S+) ARENA_TOKEN=(\S+)", line)
            if found:
                seats.append((found[1], found[2]))
        env = {k: v for k, v in os.environ.items() if not k.startswith("ARENA_")}
        address = seats[0][0]
        wrong = run_js({**env, "ARENA_ADDRESS": address, "ARENA_TOKEN": "not-a-token"})
        assert wrong.returncode == 1
        assert "ERROR_CODE_BAD_TOKEN" in wrong.stderr, wrong.stderr
        for seat_address, token in seats:
            seat_env = {**env, "ARENA_ADDRESS": seat_address, "ARENA_TOKEN": token, "ARENA_SEED": "3"}
            bots.append(subprocess.Popen(JS_COMMAND, cwd=REPO, stdout=PIPE, stderr=PIPE, text=True, env=seat_env))
        out, err = serve.communicate(timeout=120)
        assert serve.returncode == 0, out + err
        for bot in bots:
            _, bot_err = bot.communicate(timeout=30)
            assert bot.returncode == 0, bot_err
            assert "shutdown (match finished)" in bot_err
        recs = records(only_log(tmp_path))
        starts = [r for r in recs if r["event"] == "game_start"]
        assert len(starts) == 2
        assert all([s["bot"] for s in start["seats"]] == ["js"] * 3 for start in starts)  # named by its Hello
        assert violations(recs) == []
        assert len([r for r in recs if r["event"] == "game_end"]) == 2
    finally:
        for p in [serve, *bots]:
            if p.poll() is None:
                p.kill()
                p.wait()


def test_js_bot_without_an_address_says_what_is_missing() -> None:
    require_js_bot()
    env = {k: v for k, v in os.environ.items() if not k.startswith("ARENA_")}
    run = run_js(env)
    assert run.returncode == 2
    assert "set ARENA_ADDRESS" in run.stderr and "ARENA_TOKEN" in run.stderr
