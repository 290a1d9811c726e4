"""Formats played out without bots: each game's outcome drawn from the bots' strengths, so that pairing and
bracket properties can be checked over many fields in a moment (``play_out``)."""

from __future__ import annotations

import random
from collections.abc import Mapping

from referee.games.scheduled import ScheduledGame
from referee.games.standings import Outcome
from referee.tournament.schedule import Format, Plan


def outcome(game: ScheduledGame, strength: Mapping[str, float], rng: random.Random, draws: float = 0.1) -> Outcome:
    """A game's outcome: no winner with probability ``draws``, else a team by the strengths of its bots."""
    teams = game.teams
    weights = [2.0 ** strength[b] for b in teams]
    winner = None if rng.random() < draws else rng.choices(range(len(teams)), weights)[0]
    hands = rng.randint(3, 9)
    scores = tuple(rng.randint(-10, 40) + (12 if t == winner else 0) for t in range(len(teams)))
    return Outcome(game.number, teams, scores, winner, None, hands, (0,) * len(teams))


def play_out(
    format: Format, strength: Mapping[str, float], seed: int = 1, draws: float = 0.1
) -> tuple[Plan, dict[int, Outcome]]:
    """Plan, play every game fixed so far, plan again, until the format is final and played; the last plan and
    the outcomes. Each plan must keep the games of the one before it."""
    rng = random.Random(seed)
    outcomes: dict[int, Outcome] = {}
    plan = format.plan(outcomes)
    while True:
        for game in plan.games:
            if game.number not in outcomes:
                outcomes[game.number] = outcome(game, strength, rng, draws)
        again = format.plan(outcomes)
        assert again.games[: len(plan.games)] == plan.games, "a later plan changed the games of an earlier one"
        if again.final and len(again.games) == len(plan.games):
            return again, outcomes
        assert len(again.games) > len(plan.games), "every game was played and no game was added, yet not final"
        plan = again
