"""Bot names are text: never read as rich markup or terminal control codes, wherever they are printed.

Item 5 of issue 10: ``arena serve`` crashed on a Hello naming the bot
``[/oops]`` (rich MarkupError). Names come from a Hello (``arena serve``),
from ``NAME=`` (match, tournament: a strict pattern, refused with one line
otherwise) and from a log file (replay), which anyone can edit.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from tests.support.arena import arena, bot, start_serve
from tests.support.logs import revealed
from tests.support.sandbox import BOTS

HOSTILE = ["[/oops]", "[bold]x", "\x1b[2J\x1b]0;pwned\x07evil"]
SHOWN = ["[/oops]", "[bold]x", "?[2J?]0;pwned?evil"]  # control characters become '?'


def test_serve_prints_hostile_hello_names_as_text(tmp_path: Path) -> None:
    serve, tokens, head = start_serve(tmp_path, "-r", "hand_limit=1", "--preset", "double-deck-3p", "-v")
    bots: list[subprocess.Popen[bytes]] = []
    try:
        env = {k: v for k, v in os.environ.items() if not k.startswith("ARENA_")}
        for (address, token), name in zip(tokens, HOSTILE, strict=True):
            bots.append(
                subprocess.Popen(
                    [sys.executable, str(BOTS / "named_bot.py"), "--address", address, "--token", token],
                    env={**env, "BOT_NAME": name},
                    stderr=subprocess.DEVNULL,
                )
            )
        try:
            out, err = serve.communicate(timeout=120)
        except subprocess.TimeoutExpired:
            serve.kill()
            out, err = serve.communicate()
            pytest.fail(
                f"arena serve did not finish; bots' exit codes {[b.poll() for b in bots]}; stderr: {err[-3000:]}"
            )
        assert serve.returncode == 0, err
        out = head + out
        assert "\x1b" not in out + err and "\x07" not in out + err
        for name in SHOWN:  # the result table has one row per team (one seat each)
            assert name in out
        (log,) = tmp_path.glob("match-*/*.jsonl")
        assert [s["bot"] for s in revealed(log)[0]["seats"]] == SHOWN
    finally:
        procs: list[subprocess.Popen[str] | subprocess.Popen[bytes]] = [serve, *bots]
        for p in procs:
            if p.poll() is None:
                p.kill()


@pytest.mark.parametrize("command", ["match", "tournament"])
@pytest.mark.parametrize("name", HOSTILE)
def test_a_hostile_name_is_refused_in_one_line(command: str, name: str, tmp_path: Path) -> None:
    run = arena(
        command,
        "--bot",
        bot(name),
        "--bot",
        bot("r"),
        "--out" if command == "tournament" else "--log-dir",
        str(tmp_path / "out"),
        timeout=60,
    )
    assert run.returncode != 0
    lines = run.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("error: bad bot name"), run.stderr
    assert "\x1b" not in run.stderr and "Traceback" not in run.stderr


def test_replay_shows_names_from_an_edited_log_as_text(tmp_path: Path) -> None:
    run = arena(
        "match",
        "--log-dir",
        str(tmp_path),
        "-r",
        "hand_limit=1",
        "--preset",
        "double-deck-3p",
        "--bot",
        bot("r"),
        timeout=120,
    )
    assert run.returncode == 0, run.stderr
    (log,) = tmp_path.glob("match-*/*.jsonl")
    lines = log.read_text().splitlines()
    edited = []
    for line in lines:
        rec = json.loads(line)
        for seat in rec.get("seats", []):
            seat["bot"] = HOSTILE[seat["seat"]]
        edited.append(json.dumps(rec))
    log.write_text("\n".join(edited) + "\n")
    replay = arena("replay", str(log), timeout=60)
    assert replay.returncode == 0, replay.stderr
    assert "\x1b" not in replay.stdout and "\x07" not in replay.stdout
    for name in SHOWN:
        assert name in replay.stdout
