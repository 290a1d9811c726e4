"""The C++ example bot (example_bots/cpp) in real matches: built by the Makefile, a compiled process per seat.

The bot is built with `make cpp-bot` when it is missing or older than its
source (make decides), then plays a game against the Python random bot
through `arena match` on a 4-seat and a 6-seat preset. The referee's log must
show no violation, every decision of the C++ seats must be there, and
`arena replay --verify` must accept the log.
"""

from __future__ import annotations

import re
import shutil
import subprocess
from pathlib import Path

import pytest

from referee.gamelog import read_records
from tests.support.arena import RANDOM, REPO
from tests.support.arena import arena_in_repo as arena

CPP_BIN = REPO / "example_bots" / "cpp" / "build" / "bot"
CPP = "cpp=example_bots/cpp/build/bot"


@pytest.fixture(scope="module")
def cpp_bot() -> Path:
    """Build the bot as `make test` does; fail (not skip) when it cannot be built."""
    if shutil.which("make") is None:
        pytest.fail("make is not on PATH: the C++ bot is built by the Makefile")
    build = subprocess.run(
        ["make", "--no-print-directory", "cpp-bot"], cwd=REPO, capture_output=True, text=True, timeout=600
    )
    assert build.returncode == 0, build.stdout + build.stderr
    assert CPP_BIN.is_file()
    return CPP_BIN


@pytest.mark.parametrize(("preset", "players"), [("double-deck", 4), ("bloomington", 6)])
def test_cpp_bot_plays_a_game_against_random(cpp_bot: Path, tmp_path: Path, preset: str, players: int) -> None:
    run = arena("match", "--preset", preset, "--bot", CPP, "--bot", RANDOM, "--seed", "3", "--log-dir", str(tmp_path))
    assert run.returncode == 0, run.stdout + run.stderr
    [log] = sorted(tmp_path.glob("match-*/*.jsonl"))
    recs = [rec for _, rec in read_records(log)]
    start = next(r for r in recs if r["event"] == "game_start")
    cpp_seats = {s["seat"] for s in start["seats"] if s["bot"] == "cpp"}
    assert len(start["seats"]) == players and len(cpp_seats) == players // 2
    assert [r for r in recs if r["event"] == "violation"] == []
    cpp_plays = [r for r in recs if r["event"] == "play" and r["seat"] in cpp_seats]
    cpp_bids = [r for r in recs if r["event"] == "bid" and r["seat"] in cpp_seats]
    assert cpp_plays and cpp_bids
    assert any(r["event"] == "game_end" for r in recs)
    verify = arena("replay", str(log), "--verify")
    assert verify.returncode == 0, verify.stdout + verify.stderr
    # the bot's own account, beside the log: welcomed, then a clean Shutdown
    outputs = sorted(tmp_path.glob("match-*/*cpp*.stderr"))
    assert len(outputs) == players // 2
    for output in outputs:
        text = output.read_text()
        assert "cpp: playing as seat" in text and "shutdown (match finished)" in text, text


def test_cpp_bot_without_address_says_what_is_missing(cpp_bot: Path) -> None:
    run = subprocess.run([str(cpp_bot)], capture_output=True, text=True, timeout=30, env={"PATH": "/usr/bin:/bin"})
    assert run.returncode == 2
    assert run.stderr.strip() == (
        "cpp: set ARENA_ADDRESS (the referee's gRPC target: unix:/PATH or host:port) and ARENA_TOKEN (the seat "
        "token); `arena serve` prints both"
    )  # named after its folder, example_bots/cpp, as the other kits' bots are


def test_a_cpp_bot_built_under_tmp_runs_in_the_sandbox(cpp_bot: Path, tmp_path: Path) -> None:
    """Issue 19, item 4: the sandbox's private /tmp hid a program built there ("prlimit: failed to execute
    ...: No such file or directory"); the files a bot's command line names are visible wherever they lie."""
    assert str(tmp_path).startswith("/tmp/")
    program = tmp_path / "build" / "bot"
    program.parent.mkdir()
    shutil.copy(cpp_bot, program)
    logs = tmp_path / "logs"
    run = arena("match", "--preset", "double-deck", "--rule", "hand_limit=2", "--sandbox", "required",
                "--bot", f"cpp={program}", "--bot", RANDOM, "--log-dir", str(logs))  # fmt: skip
    assert run.returncode == 0, run.stdout + run.stderr
    [log] = sorted(logs.glob("match-*/*.jsonl"))
    recs = [rec for _, rec in read_records(log)]
    assert not [r for r in recs if r["event"] == "violation"]
    assert any(r["event"] == "play" and r["seat"] in (0, 2) for r in recs)
    assert all(p.read_text().splitlines()[0].endswith("sandbox)") for p in logs.glob("match-*/*cpp.stderr"))


def test_the_cpp_makefile_compiles_a_file_per_core_at_once() -> None:
    """Its first build is mostly the protocol's generated code: make runs a compile per core (make's database,
    as it reads the Makefile, has -jN in MAKEFLAGS for N cores), unless told -j1."""
    cores = subprocess.run(["nproc"], capture_output=True, text=True, check=True).stdout.strip()
    db = subprocess.run(
        ["make", "-pn", "-C", str(CPP_BIN.parent.parent), "build/bot"], capture_output=True, text=True, timeout=60
    ).stdout
    assert re.search(rf"^MAKEFLAGS = \S* -j{cores}\b", db, re.MULTILINE), [
        line for line in db.splitlines() if line.startswith("MAKEFLAGS")
    ]
