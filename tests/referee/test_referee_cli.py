"""``arena match`` and ``arena serve`` as a user runs them, and no bot process outliving the referee."""

from __future__ import annotations

import asyncio
import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import grpc
import pytest
from typer.testing import CliRunner

from referee.cli.app import app
from referee.protocol.bideuchre.v1 import arena_pb2 as pb
from referee.replay.logfile import load_log
from referee.replay.verify import verify_log
from tests.support.arena import ARENA, RANDOM, arena, start_serve
from tests.support.logs import of_kind, revealed
from tests.support.processes import alive, all_gone, children_of
from tests.support.referee import BOTS

SLEEPER = f"sleeper={sys.executable} {BOTS / 'faulty_bot.py'} sleep 1"


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--bot", "nonsense"], "bad bot 'nonsense': expected NAME=COMMAND"),
        (["--bot", "x=no-such-program-here"], "program 'no-such-program-here' not found"),
        (["--bot", "a=python", "--bot", "b=python", "--bot", "c=python"], "3 bots for 2 teams"),
        (["--preset", "nope"], "unknown preset 'nope'"),
        (["--rule", "min_bid=lots"], "bad value 'lots' for rule option min_bid"),
        (["--rule", "nonsense=1"], "unknown rule option 'nonsense'"),
        (["--bot", "a=python 'unclosed"], "bad command for bot 'a'"),
    ],
)
def test_bad_arguments_are_one_line_errors(args: list[str], message: str, tmp_path: Path) -> None:
    result = CliRunner().invoke(app, ["match", "--log-dir", str(tmp_path), *args])
    assert result.exit_code == 2  # bad input (docs/cli.md)
    lines = result.output.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("error:") and message in lines[0], result.output
    assert not list(tmp_path.iterdir())  # nothing started, nothing written


@pytest.mark.parametrize("args", [["--games", "0"], ["--move-time", "0"], ["--on-fault", "explode"]])
def test_out_of_range_options_are_refused(args: list[str]) -> None:
    result = CliRunner().invoke(app, ["match", *args])
    assert result.exit_code == 2 and "Invalid value" in result.output


def test_match_plays_and_prints_the_result_and_the_log(tmp_path: Path) -> None:
    run = arena(
        "match",
        "--log-dir",
        str(tmp_path),
        "-n",
        "2",
        "--seed",
        "3",
        "-r",
        "hand_limit=2",
        "--bot",
        RANDOM,
        timeout=120,
    )
    assert run.returncode == 0, run.stderr
    (log,) = tmp_path.glob("match-*/*.jsonl")
    assert f"log: {log}" in run.stdout.replace("\n", "")
    assert "game 1:" in run.stdout and "game 2:" in run.stdout
    recs = revealed(log)
    assert recs[0]["event"] == "match_start" and recs[-1]["event"] == "match_end"
    assert recs[0]["seed"] == 3 and recs[0]["rules"]["hand_limit"] == 2
    assert [s["bot"] for s in recs[0]["seats"]] == ["random"] * 4
    assert verify_log(load_log(log)).games == 2
    assert len(list(log.parent.glob("*.stderr"))) == 4  # one process per seat, its output beside the log


@pytest.mark.parametrize(
    ("preset", "teams"), [("neuralplay", ["rules", "random"]), ("double-deck-3p", ["rules", "random", "random"])]
)
def test_match_without_bots_plays_the_example_bots(preset: str, teams: list[str], tmp_path: Path) -> None:
    run = arena("match", "--preset", preset, "--log-dir", str(tmp_path), "-r", "hand_limit=1", timeout=120)
    assert run.returncode == 0, run.stderr
    (log,) = tmp_path.glob("match-*/*.jsonl")
    names = [s["bot"] for s in revealed(log)[0]["seats"]]
    assert names[: len(teams)] == teams


def test_the_default_bots_fill_every_preset() -> None:
    from referee.engine.presets import PRESETS
    from referee.games.matches import default_bots
    from referee.match import SeatBot, seat_bots

    for name, rules in PRESETS.items():
        seats = seat_bots(rules, [SeatBot(c.name, c) for c in default_bots(rules.teams)])
        assert len(seats) == rules.players, name
        assert {s.name for s in seats} <= {"rules", "random"}, name


def test_serve_waits_for_bots_started_by_hand(tmp_path: Path) -> None:
    serve, tokens, _ = start_serve(tmp_path, "-r", "hand_limit=1", "--preset", "double-deck-3p")
    bots: list[subprocess.Popen[bytes]] = []
    try:
        assert len(tokens) == 3
        env = {k: v for k, v in os.environ.items() if not k.startswith("ARENA_")}
        for address, token in tokens:  # the way a developer would, with flags
            bots.append(
                subprocess.Popen(
                    [sys.executable, "-m", "example_bots.random_bot", "--address", address, "--token", token], env=env
                )
            )
        _, err = serve.communicate(timeout=120)
        assert serve.returncode == 0, err
        assert [b.wait(timeout=30) for b in bots] == [0, 0, 0]  # Shutdown: a clean exit
        (log,) = tmp_path.glob("match-*/*.jsonl")
        assert [s["bot"] for s in revealed(log)[0]["seats"]] == ["random"] * 3  # named by their Hello
        assert of_kind(revealed(log), "game_end")
    finally:
        procs: list[subprocess.Popen[str] | subprocess.Popen[bytes]] = [serve, *bots]
        for p in procs:
            if p.poll() is None:
                p.kill()


def first_legal(request: pb.DecisionRequest) -> pb.BotMessage:
    """The first legal answer to ``request``, as a bot written from the .proto alone gives it."""
    action = pb.Action(request_id=request.request_id)
    if request.kind == pb.DECISION_KIND_BID:
        action.bid.CopyFrom(request.legal_bids[0])
    elif request.kind == pb.DECISION_KIND_TRUMP:
        action.trump = request.legal_trumps[0]
    elif request.kind in (pb.DECISION_KIND_GIVE, pb.DECISION_KIND_DISCARD):
        action.cards.cards.extend(request.hand[: request.count])
    else:
        action.card = request.legal_cards[0]
    return pb.BotMessage(action=action)


async def session_by_hand(address: str, token: str, linger_s: float) -> tuple[str, str, str]:
    """One bot by hand on a raw gRPC stream: plays until Shutdown, waits ``linger_s``, half-closes, then reads
    the stream's end. Returns (Welcome's player, the stream's status code, its details)."""
    async with grpc.aio.insecure_channel(address) as channel:
        play = channel.stream_stream(
            "/bideuchre.v1.Arena/Play",
            request_serializer=pb.BotMessage.SerializeToString,
            response_deserializer=pb.RefereeMessage.FromString,
        )
        call = play()
        await call.write(pb.BotMessage(hello=pb.Hello(token=token, bot_name="raw", protocol_version=1)))
        player = ""
        async for msg in call:
            kind = msg.WhichOneof("message")
            if kind == "welcome":
                player = msg.welcome.player
            elif kind == "decision":
                await call.write(first_legal(msg.decision))
            elif kind == "shutdown":
                await asyncio.sleep(linger_s)  # a bot busy for a moment (saving, logging) before it half-closes
                await call.done_writing()
                break
        return player, (await call.code()).name, await call.details()


def test_serve_welcomes_each_seat_by_its_number_and_ends_each_stream_ok(tmp_path: Path) -> None:
    """Issue 30, items 3 and 4: under ``arena serve`` Welcome's player is "seat<S>" (it was "seat2-seat2"), and
    each stream ends with status OK once the bot half-closes after Shutdown (the referee cut one stream in
    four with "UNAVAILABLE: Cancelling all calls"; a bot that took a moment to half-close, every stream)."""
    serve, tokens, _ = start_serve(tmp_path, "-r", "hand_limit=1", "--preset", "neuralplay")
    try:

        async def all_seats() -> list[tuple[str, str, str]]:
            lingers = (0.0, 0.3, 0.0, 0.3)
            return await asyncio.gather(*(session_by_hand(a, t, s) for (a, t), s in zip(tokens, lingers, strict=True)))

        ends = asyncio.run(all_seats())
        assert ends == [(f"seat{s}", "OK", "") for s in range(4)]
        _, err = serve.communicate(timeout=60)
        assert serve.returncode == 0, err
    finally:
        if serve.poll() is None:
            serve.kill()
            serve.wait()


def start_stuck_match(tmp_path: Path) -> tuple[subprocess.Popen[str], list[int]]:
    """``arena match`` whose bots are all asleep in their first decision; returns it and its bot pids."""
    env = {**os.environ, "FAULTY_SLEEP": "120"}
    proc = subprocess.Popen(
        [ARENA, "match", "--log-dir", str(tmp_path), "--move-time", "600000", "--bot", SLEEPER],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env=env,
    )
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        logs = list(tmp_path.glob("match-*/*.jsonl"))
        if logs and '"event":"deal"' in logs[0].read_text():
            kids = children_of(proc.pid)
            if len(kids) == 4:
                return proc, kids
        time.sleep(0.05)
    proc.kill()
    raise AssertionError(f"the match did not start: {proc.stderr.read() if proc.stderr else ''}")


@pytest.mark.parametrize("sig", [signal.SIGINT, signal.SIGTERM])
def test_interrupting_the_referee_stops_every_bot(sig: signal.Signals, tmp_path: Path) -> None:
    proc, bots = start_stuck_match(tmp_path)
    proc.send_signal(sig)
    _, err = proc.communicate(timeout=30)
    assert proc.returncode == 130, err
    assert "interrupted" in err
    assert all_gone(bots)
    (log,) = tmp_path.glob("match-*/*.jsonl")
    revealed(log)  # complete lines only, still readable


def test_kill_9_of_the_referee_takes_the_bots_down(tmp_path: Path) -> None:
    proc, bots = start_stuck_match(tmp_path)
    proc.kill()
    proc.wait(timeout=10)
    try:
        assert all_gone(bots), [p for p in bots if alive(p)]
    finally:
        for p in bots:
            if alive(p):
                os.kill(p, signal.SIGKILL)


def test_log_lines_are_json_objects_with_an_event(tmp_path: Path) -> None:
    run = arena(
        "match", "--log-dir", str(tmp_path), "-r", "hand_limit=1", "--preset", "pepper", "--bot", RANDOM, timeout=120
    )
    assert run.returncode == 0, run.stderr
    (log,) = tmp_path.glob("match-*/*.jsonl")
    lines = log.read_text().splitlines()
    assert all(isinstance(json.loads(line)["event"], str) for line in lines)
    assert {"match_start", "game_start", "deal", "bid", "play", "trick", "hand_end", "game_end", "match_end"} <= {
        json.loads(line)["event"] for line in lines
    }


@pytest.mark.slow
def test_a_game_running_long_is_shown_live_and_its_end_at_the_hand_limit_said(tmp_path: Path) -> None:
    # random bots on neuralplay bid themselves into the ground: the game goes on to the hand limit
    run = arena("match", "--bot", RANDOM, "-r", "hand_limit=201", "--log-dir", str(tmp_path), timeout=240)
    assert run.returncode == 0, run.stderr
    lines = run.stdout.splitlines()
    long = [line for line in lines if "runs long" in line]
    assert len(long) == 1 and long[0].startswith("game 1 runs long: hand 200, scores "), run.stdout
    assert "the safety stop at hand 201 (rule hand_limit)" in long[0]
    end = next(line for line in lines if line.startswith("game 1: "))
    assert "(hand-limit, 201 hands); stopped by the hand limit, no team reached the target" in end
