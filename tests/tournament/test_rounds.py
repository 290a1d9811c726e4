"""A format played in rounds: the runner asks the format again when no game is left to start, plays the round
its results fix, and a resumed run plans the same rounds (the runner never learns which format it runs)."""

from __future__ import annotations

import asyncio
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path

from referee.games.scheduled import ScheduledGame
from referee.games.standings import Outcome
from referee.runfolder import RunFolder
from referee.sandbox import SandboxMode
from referee.seeding import derive_seed
from referee.tournament.playing import Tournament
from referee.tournament.schedule import Plan
from referee.tournament.settings import TournamentChoices, parse_bots, parse_rules, resolve
from tests.support.arena import FIRST, RANDOM, bot


@dataclass(frozen=True)
class WinnersMeet:
    """Round 1: a-b and c-d, one duplicate set each; round 2: the two bots with more points over their set
    meet, and so do the other two. A pure function of the results, as every format is."""

    bots: tuple[str, ...]

    def game(self, number: int, group: tuple[str, str], rotation: int, round: int) -> ScheduledGame:
        return ScheduledGame(
            number, group, deal=round - 1, rotation=rotation, seed=derive_seed(9, "deal", round), round=round
        )

    def plan(self, outcomes: Mapping[int, Outcome]) -> Plan:
        a, b, c, d = self.bots
        first = [
            self.game(1, (a, b), 0, 1),
            self.game(2, (a, b), 1, 1),
            self.game(3, (c, d), 0, 1),
            self.game(4, (c, d), 1, 1),
        ]
        if not all(n in outcomes for n in range(1, 5)):
            return Plan(tuple(first), final=False, expected=8)
        points = dict.fromkeys(self.bots, 0)
        for o in (outcomes[n] for n in range(1, 5)):
            for team, name in enumerate(o.teams):
                points[name] += o.scores[team]
        top = (max((a, b), key=lambda n: (points[n], n)), max((c, d), key=lambda n: (points[n], n)))
        rest = tuple(n for n in (a, b, c, d) if n not in top)
        assert len(rest) == 2
        second = [
            self.game(5, top, 0, 2),
            self.game(6, top, 1, 2),
            self.game(7, (rest[0], rest[1]), 0, 2),
            self.game(8, (rest[0], rest[1]), 1, 2),
        ]
        return Plan((*first, *second), final=True, expected=8)


def tournament(folder: Path, *, resume: bool = False) -> Tournament:
    given = TournamentChoices(
        bots=parse_bots([RANDOM, FIRST, bot("r2"), bot("f2", "first_bot")]),
        preset="double-deck",
        rules=parse_rules(["hand_limit=3"]),
        sandbox=SandboxMode.OFF,
    )
    settings = resolve(given)
    run = RunFolder(folder)
    if not resume:
        run.create(settings.record())
    return Tournament(settings, run, concurrency=2, sandbox=None, format=WinnersMeet(settings.bot_names))


def test_the_next_round_is_planned_from_the_results_of_the_last(tmp_path: Path) -> None:
    t = tournament(tmp_path / "t")
    assert [g.number for g in t.schedule] == [1, 2, 3, 4] and not t.plan.final and t.expected == 8
    asyncio.run(t.run())
    assert t.complete and sorted(t.done) == list(range(1, 9))
    assert [r.round for _, r in sorted(t.done.items())] == [1, 1, 1, 1, 2, 2, 2, 2]
    replanned = WinnersMeet(t.settings.bot_names).plan({n: r.outcome() for n, r in t.done.items()})
    assert [r.teams for _, r in sorted(t.done.items())] == [g.teams for g in replanned.games]


def test_a_run_stopped_between_rounds_resumes_to_the_same_games(tmp_path: Path) -> None:
    whole = tournament(tmp_path / "whole")
    asyncio.run(whole.run())
    stopped = tournament(tmp_path / "stopped")
    stopped.stop_when = lambda: len(stopped.done) >= 4  # the first round's results are in, the second not begun
    asyncio.run(stopped.run())
    assert sorted(stopped.done) == [1, 2, 3, 4] and not stopped.complete
    resumed = tournament(tmp_path / "stopped", resume=True)
    assert [g.round for g in resumed.pending] == [2, 2, 2, 2]  # planned from the results read back
    asyncio.run(resumed.run())
    assert resumed.complete
    assert [(r.teams, r.seed, r.round) for _, r in sorted(resumed.done.items())] == [
        (r.teams, r.seed, r.round) for _, r in sorted(whole.done.items())
    ]
