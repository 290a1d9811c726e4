"""The Go and Java kits (example_bots/go, example_bots/java) as the arena sees any bot: built by the
Makefile, put through ``arena check-bot`` (every decision kind on every preset, the protocol's cases), then a
short game of every preset through the sandbox against the Python rule-based bot, with no violation.

Each kit is built once (``make go-bot`` / ``make java-bot``: make rebuilds only what changed), then its own
``make test`` runs (its first test, which runs ``arena check-bot``; the Go kit's unit tests). The Java kit
runs with ``--tcp``: Debian's grpc-java cannot dial the seat's Unix socket (docs/protocol.md says why).
"""

from __future__ import annotations

import json
import os
import shlex
import shutil
import subprocess
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

from referee.engine.presets import PRESETS
from referee.gamelog import read_records
from tests.support.arena import ARENA, RANDOM, REPO, RULES
from tests.support.arena import arena_in_repo as arena


@dataclass(frozen=True)
class Kit:
    name: str  # the bot's NAME in NAME=COMMAND, and what it calls itself
    target: str  # the Makefile's target that builds it
    tcp: bool  # run with --tcp NAME (its gRPC library cannot dial a Unix socket)

    @property
    def program(self) -> Path:
        return REPO / "example_bots" / self.name / "build" / "bot"

    @property
    def bot(self) -> str:
        return f"{self.name}=example_bots/{self.name}/build/bot"

    def options(self) -> list[str]:
        return ["--tcp", self.name] if self.tcp else []


KITS = {"go": Kit("go", "go-bot", tcp=False), "java": Kit("java", "java-bot", tcp=True)}

_built: set[str] = set()


def built(kit: Kit) -> Kit:
    """Build the kit as `make test` does, once per session; fail (not skip) when it cannot be built."""
    if kit.name not in _built:
        if shutil.which("make") is None:
            pytest.fail("make is not on PATH: the kits are built by the Makefile")
        build = subprocess.run(
            ["make", "--no-print-directory", kit.target], cwd=REPO, capture_output=True, text=True, timeout=900
        )
        assert build.returncode == 0, build.stdout + build.stderr
        assert kit.program.is_file()
        _built.add(kit.name)
    return kit


def records(log: Path) -> list[dict[str, Any]]:
    return [rec for _, rec in read_records(log)]


@pytest.mark.parametrize("name", list(KITS))
def test_kit_passes_its_own_tests_and_check_bot(name: str) -> None:
    """`make test` in the kit: its first test runs `arena check-bot` (every decision kind on every preset, the
    protocol's cases), and the Go kit's unit tests of its card sense."""
    kit = built(KITS[name])
    folder = kit.program.parent.parent
    run = subprocess.run(
        ["make", "--no-print-directory", "-C", str(folder), "test", f"ARENA={ARENA}"],
        capture_output=True,
        text=True,
        timeout=600,
    )
    assert run.returncode == 0, run.stdout + run.stderr
    reports = sorted((folder / "build" / "check-bot").glob(f"check-{kit.name}-*.json"))
    report = json.loads(reports[-1].read_text())
    assert report["hello"]["bot_name"] == kit.name
    assert report["kinds"] == ["bid", "trump", "give", "discard", "play"]
    assert sorted(report["presets"]) == sorted(PRESETS)
    assert [c for c in report["checks"] if not c["passed"]] == []


@pytest.mark.parametrize("name", list(KITS))
@pytest.mark.parametrize("preset", list(PRESETS))
def test_kit_plays_a_short_game_of_every_preset(name: str, preset: str, tmp_path: Path) -> None:
    kit = built(KITS[name])
    teams = PRESETS[preset].teams
    bots = [kit.bot, RULES, RANDOM][:teams]
    team = list(PRESETS).index(preset) % teams  # the kit on the first team of some presets, another of others
    bots[0], bots[team] = bots[team], bots[0]
    options = ["--preset", preset, "-r", "hand_limit=2", "--seed", "7", "--log-dir", str(tmp_path)]
    run = arena("match", *kit.options(), *[a for b in bots for a in ("--bot", b)], *options)
    assert run.returncode == 0, run.stdout + run.stderr
    [log] = tmp_path.glob("match-*/*.jsonl")
    recs = records(log)
    assert [r for r in recs if r["event"] == "violation"] == []
    [end] = [r for r in recs if r["event"] == "game_end"]
    assert end["reason"] in ("target", "hands", "mercy", "hand-limit"), end  # played out, never forfeited
    seats = {s["seat"] for s in recs[0]["seats"] if s["bot"] == kit.name}
    assert seats and all(seat % teams == team for seat in seats)
    assert any(r["event"] == "bid" and r["seat"] in seats for r in recs)
    assert any(r["event"] == "play" and r["seat"] in seats for r in recs)
    # each seat's one process was welcomed, left on the Shutdown, and its stream ended OK after the half-close
    outputs = sorted(log.parent.glob(f"*-{kit.name}.stderr"))
    assert len(outputs) == len(seats)
    for output in outputs:
        text = output.read_text()
        assert text.count("(in a ") == 1 and "sandbox)" in text.splitlines()[0], text
        assert "playing as seat" in text and "shutdown (match finished)" in text, text
        assert "referee error" not in text and "did not end OK" not in text, text


@pytest.mark.parametrize("name", list(KITS))
def test_kit_without_an_address_says_what_is_missing(name: str) -> None:
    kit = built(KITS[name])
    env = {k: v for k, v in os.environ.items() if not k.startswith("ARENA_")}
    run = subprocess.run([str(kit.program)], capture_output=True, text=True, timeout=60, env=env)
    assert run.returncode == 2
    assert run.stderr.strip() == (
        f"{kit.name}: set ARENA_ADDRESS (the referee's gRPC target: "
        + ("host:port" if kit.tcp else "unix:/PATH or host:port")
        + ") and ARENA_TOKEN (the seat token); `arena serve` prints both"
    )


def test_the_java_kit_asks_for_tcp_with_a_command_that_works() -> None:
    """Given a Unix socket, the Java bot says to use --tcp NAME and prints the check-bot command to run, with its
    own name (its folder's) and command; that command, run as printed, passes (on one preset, to be quick)."""
    kit = built(KITS["java"])
    env = {**os.environ, "ARENA_ADDRESS": "unix:/tmp/no-such.sock", "ARENA_TOKEN": "t"}
    run = subprocess.run(
        ["example_bots/java/build/bot"], cwd=REPO, capture_output=True, text=True, timeout=60, env=env
    )  # as a person starts it from the repository's root
    assert run.returncode == 2
    [line] = run.stderr.strip().splitlines()
    assert line.startswith("java: Debian's grpc-java cannot dial a Unix socket (unix:/tmp/no-such.sock): "), line
    command = line.split(", as in: ", 1)[1].split(" (arena match, tournament, sprt and play take --tcp java")[0]
    assert command == "arena check-bot --tcp java java=example_bots/java/build/bot", line
    checked = arena(*shlex.split(command)[1:], "--preset", "pagat", "--log-dir", str(kit.program.parent / "hint"))
    assert checked.returncode == 0, checked.stdout + checked.stderr
    assert "every check passed" in checked.stdout
