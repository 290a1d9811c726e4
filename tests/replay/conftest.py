"""Logs for the replay tests, and the browser.

``make_log`` plays random games with the referee's own match driver
(``referee.match.play_games``: the loop ``arena match`` logs its games with),
its seats answered in this process instead of over the wire: match_start,
game_start, each engine event with its think time (0 here), each hand's
reveal, violations, game_end and match_end, as the referee writes them. It can
force lone bids, make every seat pass in some hands, and time a seat out under
either fault policy. It is quick, so most tests use it.

``real_logs`` runs real ``arena match`` processes (the referee, a process per
seat) once per test session, for the tests that must hold on what the referee
itself writes over the wire. ``browser`` is Debian's Chromium driven by Playwright.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any, cast

import pytest

from referee.engine.bids import PASS, Bid
from referee.engine.game import Action, Decision, DecisionKind, Game
from referee.engine.presets import rules_for
from referee.engine.simulate import random_action
from referee.gamelog import LogWriter
from referee.match import Asker, FaultPolicy, MatchConfig, SeatBot, play_games
from referee.seat import Outcome, timed_out
from referee.server import Player
from tests.support.aio import run_async
from tests.support.arena import bot, run_matches, script_bot
from tests.support.browser import browser as browser  # the fixture: headless Chromium
from tests.support.replay import DIGEST_BOT

MakeLog = Callable[..., Path]


@dataclass
class RandomSeats:
    """Every seat of a match, answered in this process: random legal actions that keep games short (mostly
    passes and low bids), a lone bid (call, moon, best, alone) at the rate ``lone`` whenever one is legal,
    every seat passing when it may in the hands of ``pass_hands``; and no answer in time to the match's
    ``fault_at``-th decision (1-based)."""

    players: Sequence[Player]
    config: MatchConfig
    rng: random.Random
    lone: float = 0.0
    pass_hands: frozenset[int] = frozenset()
    fault_at: int | None = None
    asked: int = 0

    def askers(self) -> list[Asker]:
        return [self.ask] * len(self.players)

    async def ask(self, game: Game, decision: Decision) -> Outcome:
        self.asked += 1
        request_id = self.players[decision.seat].next_request_id()
        if self.asked == self.fault_at:
            return timed_out(request_id, self.config.clock, self.config.clock.time_bank_ms)
        action = self.choose(decision, passing=game.hand_number in self.pass_hands)
        game.apply(action)
        return Outcome(request_id, action, None, think_ms=0)

    def choose(self, decision: Decision, passing: bool) -> Action:
        if decision.kind is not DecisionKind.BID:
            return cast(Action, random_action(decision, self.rng))
        legal = [b for b in decision.options if isinstance(b, Bid)]
        lone_bids = [b for b in legal if b.is_lone]
        if lone_bids and self.rng.random() < self.lone:
            return self.rng.choice(lone_bids)
        if PASS in legal and (passing or self.rng.random() < 0.6):
            return PASS
        return self.rng.choice([b for b in legal if not b.is_pass and not b.is_lone][:2] or legal)


def write_log(
    path: Path,
    preset: str,
    *,
    seed: int = 1,
    games: int = 1,
    lone: float = 0.0,
    fault_at: int | None = None,
    on_fault: str = "default",
    overrides: tuple[str, ...] = (),
    pass_hands: frozenset[int] = frozenset(),
) -> Path:
    """Play ``games`` random games of ``preset`` (rule ``overrides``) between seats named bot0, bot1 ...
    (see ``RandomSeats``) and log them to ``path``. ``on_fault``: the policy (``forfeit`` or ``default``)."""
    rules = rules_for(preset, overrides)
    seats = tuple(SeatBot(f"bot{s}") for s in range(rules.players))
    config = MatchConfig(preset, rules, seats, games, seed, policy=FaultPolicy(on_fault), sandbox=None)
    players = [Player(f"seat{s}-{b.name}", b.name) for s, b in enumerate(seats)]
    answers = RandomSeats(players, config, random.Random(seed), lone, pass_hands, fault_at)
    with LogWriter(path) as writer:
        run_async(play_games(players, config, writer, askers=answers.askers()))
    return path


@pytest.fixture
def make_log(tmp_path: Path) -> MakeLog:
    """``make_log(preset, **options)``: a fresh log file in the test's tmp dir (options: ``write_log``'s)."""
    counter = iter(range(1_000_000))

    def make(preset: str, **options: Any) -> Path:
        return write_log(tmp_path / f"{preset}-{next(counter)}.jsonl", preset, **options)

    return make


# ---------------------------------------------------------------- real matches

DIGEST = script_bot("d", DIGEST_BOT)
R = bot("r")  # the random bot, named r


@dataclass(frozen=True)
class RealMatch:
    """An ``arena match`` to run: its preset and options; ``log`` is set once it has run."""

    preset: str
    args: tuple[str, ...]
    env: tuple[tuple[str, str], ...] = ()


REAL_MATCHES = {
    # lone bids with exchanges (call2 / call1: partner gives, declarer discards), two games
    "neuralplay": RealMatch("neuralplay", ("-b", DIGEST, "-b", R, "-r", "hand_limit=4", "-n", "2", "--seed", "11")),
    # two bidding rounds, trump named after the auction, going alone (3 cards each way)
    "hammerwalt": RealMatch("hammerwalt", ("-b", DIGEST, "-b", R, "-r", "hand_limit=3", "--seed", "12")),
    # six players in two teams of three, best bids (both partners give one card)
    "bloomington": RealMatch("bloomington", ("-b", DIGEST, "-b", R, "-r", "hand_limit=3", "--seed", "13")),
    # three players, each alone
    "double-deck-3p": RealMatch("double-deck-3p", ("-b", DIGEST, "-r", "hand_limit=3", "--seed", "14")),
    # timeouts under the default-action policy (each digest process stalls at its 5th decision: with no start-up
    # allowance, which would cover it)
    "pagat-default": RealMatch(
        "pagat",
        (
            "-b",
            DIGEST,
            "-b",
            R,
            "-r",
            "hand_limit=2",
            "--seed",
            "15",
            "--on-fault",
            "default",
            "--move-time",
            "200",
            "--startup-allowance",
            "0",
        ),
        (("REPLAY_TEST_STALL", "5"),),
    ),
    # claims over the wire (the digest seats claim in the last three tricks, now and then): held and refused
    "neuralplay-claims": RealMatch(
        "neuralplay", ("-b", DIGEST, "-b", R, "-r", "hand_limit=8", "--seed", "17"), (("REPLAY_TEST_CLAIM", "3"),)
    ),
    # a timeout under the forfeit policy (at the 3rd decision: no start-up allowance)
    "single-deck-forfeit": RealMatch(
        "single-deck",
        (
            "-b",
            DIGEST,
            "-b",
            R,
            "--seed",
            "16",
            "--on-fault",
            "forfeit",
            "--move-time",
            "200",
            "--startup-allowance",
            "0",
        ),
        (("REPLAY_TEST_STALL", "3"),),
    ),
}


@pytest.fixture(scope="session")
def real_logs(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    """Run every match of ``REAL_MATCHES`` (two at a time) and return each log's path."""
    matches = {name: ("--preset", m.preset, *m.args) for name, m in REAL_MATCHES.items()}
    env = {name: dict(m.env) for name, m in REAL_MATCHES.items()}
    return run_matches(tmp_path_factory.mktemp("real-logs"), matches, env, timeout=120)
