"""``sdk.run``: how a bot connects, what it is told, how it ends."""

from __future__ import annotations

import asyncio
import os
import random
import subprocess
import sys
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

from referee.deadline import TimeControl
from referee.engine.presets import rules_for
from referee.engine.view import SeatView
from referee.match import Match, MatchConfig, SeatBot
from sdk.bot import Bot
from sdk.runner import play_session

RANDOM_ARGV = [sys.executable, "-m", "example_bots.random_bot"]


def clean_env(**extra: str) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith("ARENA_")}
    env.update(extra)
    return env


def test_without_an_address_the_bot_says_what_is_missing() -> None:
    run = subprocess.run(RANDOM_ARGV, check=False, env=clean_env(), capture_output=True, text=True, timeout=60)
    assert run.returncode == 2
    assert "no referee address: set ARENA_ADDRESS or pass --address TARGET (unix:/PATH or HOST:PORT)" in run.stderr


def test_a_bad_seed_is_refused() -> None:
    env = clean_env(ARENA_ADDRESS="127.0.0.1:1", ARENA_TOKEN="t", ARENA_SEED="soon")
    run = subprocess.run(RANDOM_ARGV, check=False, env=env, capture_output=True, text=True, timeout=60)
    assert run.returncode == 2 and "ARENA_SEED='soon' is not an integer" in run.stderr


def test_no_referee_there_is_a_one_line_failure() -> None:
    env = clean_env(ARENA_ADDRESS="127.0.0.1:1", ARENA_TOKEN="t")
    run = subprocess.run(RANDOM_ARGV, check=False, env=env, capture_output=True, text=True, timeout=60)
    assert run.returncode == 1
    assert "UNAVAILABLE" in run.stderr and "Traceback" not in run.stderr


class Observer(Bot):
    """Writes down what the runner tells it."""

    name = "observer"

    def __init__(self) -> None:
        super().__init__()
        self.starts: list[SeatView] = []
        self.overs: list[tuple[int | None, str, int]] = []
        self.limits: set[int] = set()
        self.first_draws: list[float] = []
        self.decisions = 0

    def game_start(self, view: SeatView) -> None:
        self.starts.append(view)
        self.first_draws.append(self.rng.random())

    def decide(self, view: SeatView) -> object:
        self.limits.add(self.time_limit_ms)
        self.decisions += 1
        return super().decide(view)

    def game_over(self, view: SeatView, winner: int | None, reason: str) -> None:
        self.overs.append((winner, reason, len(view.events)))


def test_one_session_many_games_hooks_time_limits_and_seeds(tmp_path: Path) -> None:
    """A bot started by hand (--address/--token) plays every game of the match in one process;
    in-process observers see the hooks, the time limit and the per-game reseeding."""
    rules = rules_for("neuralplay", ["hand_limit=1"])
    config = MatchConfig(
        preset="neuralplay",
        rules=rules,
        seats=tuple(SeatBot(f"s{s}") for s in range(4)),
        games=3,
        seed=4,
        clock=TimeControl(move_time_ms=700),
        log_dir=tmp_path,
    )
    observers = [Observer() for _ in range(3)]

    async def go() -> tuple[int, list[int]]:
        async with Match(config) as match:
            address = match.server.address
            by_hand = await asyncio.create_subprocess_exec(
                *RANDOM_ARGV, "--address", address, "--token", match.players[0].token, env=clean_env()
            )
            sessions = [
                asyncio.create_task(play_session(bot, address, player.token, seed=77))
                for bot, player in zip(observers, match.players[1:], strict=True)
            ]
            result = await match.play()
        await asyncio.gather(*sessions)
        return await by_hand.wait(), [len(g.bot_names) for g in result.games]

    with ThreadPoolExecutor(1) as pool:  # a loop of its own, whatever the session holds (see tests/referee)
        code, games = pool.submit(asyncio.run, go()).result()
    assert code == 0  # Shutdown ends the process cleanly
    assert games == [4, 4, 4]
    for seat, bot in enumerate(observers, start=1):
        assert [v.seat for v in bot.starts] == [seat] * 3 and all(v.rules == rules for v in bot.starts)
        assert [reason for _, reason, _ in bot.overs] == ["hand-limit"] * 3
        assert all(n > 0 for _, _, n in bot.overs)  # the last hand's events, for a post-mortem
        assert bot.limits == {700} and bot.decisions > 0
        # reseeded at every GameStart from the seed and the game id, whatever came before
        assert bot.first_draws == [random.Random(f"77:g000{k}").random() for k in (1, 2, 3)]
