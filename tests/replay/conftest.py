"""Logs for the replay tests, and the browser.

``make_log`` plays random in-process games with the engine and writes every
record with the ``referee.gamelog`` builders, the way the referee writes them:
match_start, game_start, each engine event tagged with its game, violations,
game_end and match_end. It can force lone bids and inject faults under either
fault policy. It is quick, so most tests use it.

``real_logs`` runs real ``arena match`` processes (the referee, a process per
seat) once per test session, for the tests that must hold on what the referee
itself writes. ``browser`` is Debian's Chromium driven by Playwright.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

import pytest

from referee.engine.bids import PASS, Bid
from referee.engine.game import DecisionKind, Game, Phase
from referee.engine.presets import rules_for
from referee.engine.simulate import random_action, shuffled_deck
from referee.gamelog import (
    HandSecrets,
    LogWriter,
    game_start_record,
    match_end_record,
    match_start_record,
    violation_record,
)
from tests.support.arena import bot, run_matches, script_bot
from tests.support.browser import browser as browser
from tests.support.replay import DIGEST_BOT

MakeLog = Callable[..., Path]


def _bid(legal: tuple[Bid, ...], rng: random.Random, lone: float, passing: bool) -> Bid:
    """A random bid that keeps games short: mostly passes and low levels, lone bids at the rate asked."""
    lone_bids = [b for b in legal if b.is_lone]
    if lone_bids and rng.random() < lone:
        return rng.choice(lone_bids)
    if PASS in legal and (passing or rng.random() < 0.6):
        return PASS
    return rng.choice([b for b in legal if not b.is_pass and not b.is_lone][:2] or list(legal))


def write_log(
    path: Path,
    preset: str,
    *,
    seed: int = 1,
    games: int = 1,
    lone: float = 0.0,
    fault_at: int | None = None,
    on_fault: str = "default-action",
    overrides: tuple[str, ...] = (),
    pass_hands: frozenset[int] = frozenset(),
) -> Path:
    """Play ``games`` random games of ``preset`` and log them to ``path``.

    ``lone``: the chance that a seat takes a lone bid (call, moon, best,
    alone) whenever one is legal. ``fault_at``: the decision number (1-based,
    in game 1) at which the bot times out; ``on_fault`` is the policy applied.
    ``pass_hands``: hand numbers in which every seat passes when it may.
    """
    rules = rules_for(preset, overrides)
    rng = random.Random(seed)
    names = [f"bot{s}" for s in range(rules.players)]
    results = []
    with LogWriter(path) as log:
        log.write(
            match_start_record(
                preset=preset,
                rules=rules,
                bot_names=names,
                seed=seed,
                games=games,
                move_time_ms=1000,
                on_fault="forfeit" if on_fault == "forfeit" else "default",
            )
        )
        for number in range(1, games + 1):
            game = Game(rules, rng.randrange(rules.players))
            log.write(
                game_start_record(
                    game=number,
                    game_id=f"g{number:04d}",
                    seed=seed * 1000 + number,
                    first_dealer=game.first_dealer,
                    rules=rules,
                    bot_names=names,
                )
            )
            decisions = 0
            secrets = HandSecrets(number)  # hidden cards reach the log at hand end, as the referee writes them
            while not game.is_over:
                if game.phase is Phase.DEAL:
                    events = game.deal(shuffled_deck(rules, rng))
                else:
                    decision = game.decision()
                    assert decision is not None
                    decisions += 1
                    if number == 1 and decisions == fault_at:
                        penalty = "forfeit" if on_fault == "forfeit" else "default-action"
                        log.write(
                            violation_record(
                                game=number,
                                hand=game.hand_number,
                                seat=decision.seat,
                                kind="timeout",
                                detail="no answer within 1000 ms",
                                penalty=penalty,
                            )
                        )
                        if penalty == "forfeit":
                            events = [game.forfeit(rules.team_of(decision.seat), f"seat {decision.seat} timed out")]
                            log.write_many(secrets.records(events))
                            break
                    action = random_action(decision, rng)
                    if decision.kind is DecisionKind.BID:
                        action = _bid(decision.options, rng, lone, passing=game.hand_number in pass_hands)
                    events = game.apply(action)
                log.write_many(secrets.records(events))
            results.append(
                {"game": number, "winner": game.winner, "scores": list(game.scores), "reason": game.end_reason}
            )
        log.write(match_end_record(games=games, results=results))
    return path


@pytest.fixture
def make_log(tmp_path: Path) -> MakeLog:
    """``make_log(preset, **options)``: a fresh log file in the test's tmp dir."""
    counter = iter(range(1_000_000))

    def make(preset: str, **options: object) -> Path:
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
    # timeouts under the default-action policy (each digest process stalls at its 5th decision)
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
        ),
        (("REPLAY_TEST_STALL", "5"),),
    ),
    # a timeout under the forfeit policy
    "single-deck-forfeit": RealMatch(
        "single-deck",
        ("-b", DIGEST, "-b", R, "--seed", "16", "--on-fault", "forfeit", "--move-time", "200"),
        (("REPLAY_TEST_STALL", "3"),),
    ),
}


@pytest.fixture(scope="session")
def real_logs(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    """Run every match of ``REAL_MATCHES`` (two at a time) and return each log's path."""
    matches = {name: ("--preset", m.preset, *m.args) for name, m in REAL_MATCHES.items()}
    env = {name: dict(m.env) for name, m in REAL_MATCHES.items()}
    return run_matches(tmp_path_factory.mktemp("real-logs"), matches, env, timeout=120)
