"""Running an SPRT: duplicate pairs between two bots until the evidence decides, resumable game by game.

The games are a series (``referee.games.series``) in the SPRT's folder, with
its settings, results.jsonl and game logs: two bots, duplicate deals, one
deal per pair (the new bot once on each side of the table), up to
``max_pairs`` deals. Beside them, ``sprt.json`` holds the test (elo0, elo1,
alpha, beta, model, max_pairs). After every game the complete pairs are
counted in deal order (``PairTally``, ``referee.stats.sprt``); once the LLR
crosses a bound no new game starts (games already at a table finish and are
counted in the final state, not in the decision). The tables run where a
tournament's do (one process, ``--workers``, ``--ray``); the decision is the
same on any number of them. ``--resume`` reads both files and goes on where
the run stopped.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from referee.games.backends import Backend
from referee.games.results import GameRecord
from referee.games.scheduled import ScheduledGame, group_games
from referee.games.series import Series
from referee.games.standings import Outcome
from referee.runfolder import RunFolder, write_json
from referee.sandbox import Sandbox, SandboxMode
from referee.sprt.config import SprtPlan, SprtSettings, check_bot_count, check_teams
from referee.stats.sprt import EloEstimate, Pentanomial, Verdict, pentanomial_estimate


class PairTally:
    """The new bot's pairs, counted game by game, in the order of their deals: deal n's pair counts once both
    games of it and of every deal before it are in.

    So the test sees the same pairs in the same order however many tables play them and whichever game
    ends first: it decides at the same pair as on one table (and a pair that takes long, as a pair of long
    games does, cannot be left out of the count while quicker ones after it are in).
    """

    def __init__(self, new: str, records: Iterable[GameRecord] = ()) -> None:
        self.new = new
        self.games = 0
        self.penta = Pentanomial()
        self._open: dict[int, float] = {}  # deal -> the new bot's points in the one game of it played so far
        self._waiting: dict[int, float] = {}  # deal -> its pair's score, complete but after a deal still open
        self._next = 0  # the first deal not counted yet
        for record in records:
            self.add(record)

    def add(self, record: GameRecord) -> None:
        """One finished game (a results.jsonl record)."""
        game = record.outcome()
        me = game.teams.index(self.new)
        points = game.pair_score(me, 1 - me)
        deal = record.deal
        self.games += 1
        if deal not in self._open:
            self._open[deal] = points
            return
        self._waiting[deal] = self._open.pop(deal) + points
        while self._next in self._waiting:
            self.penta = self.penta.add(self._waiting.pop(self._next))
            self._next += 1


@dataclass(frozen=True)
class Status:
    """Where the test stands."""

    games: int
    pairs: int
    penta: Pentanomial
    llr: float
    elo: EloEstimate
    verdict: Verdict

    def record(self, plan: SprtPlan) -> dict[str, Any]:
        e = self.elo
        return {
            **plan.record(),
            "games": self.games,
            "pairs": self.pairs,
            "pentanomial": list(self.penta.counts),
            "points": self.penta.points,
            "score": round(e.score, 4),
            "elo": _finite(e.elo),
            "elo_low_95": _finite(e.elo_low),
            "elo_high_95": _finite(e.elo_high),
            "llr": round(self.llr, 4),
            "lower_bound": round(plan.test.lower, 4),
            "upper_bound": round(plan.test.upper, 4),
            "verdict": str(self.verdict),
        }


def _finite(x: float) -> float | None:
    return None if abs(x) == float("inf") else round(x, 2)


def pairs(settings: SprtSettings, plan: SprtPlan) -> tuple[ScheduledGame, ...]:
    """The SPRT's games: deal n is pair n, the new bot once on each side of the table."""
    return tuple(
        group_games(
            (settings.new, settings.base),
            settings.rules,
            first=1,
            games=2 * plan.max_pairs,
            seed=settings.seed,
            duplicate=True,
        )
    )


class SprtRun:
    """``SprtRun(settings, plan, folder, concurrency=2)``, then ``await run()``; ``status()`` at any time."""

    def __init__(
        self,
        settings: SprtSettings,
        plan: SprtPlan,
        folder: RunFolder,
        *,
        concurrency: int,
        sandbox: Sandbox | SandboxMode | None = SandboxMode.AUTO,
        backend: Backend | None = None,
        on_game: Callable[[Status], None] | None = None,
    ) -> None:
        """``concurrency`` tables, run by ``backend`` (None: in this process, bots in ``sandbox``), as a
        tournament's."""
        check_bot_count(len(settings.bots))
        check_teams(settings.preset, settings.rules.teams)
        self.settings = settings
        self.plan = plan
        self.folder = folder
        self.new, self.base = settings.new, settings.base
        self.on_game = on_game
        games = pairs(settings, plan)

        def schedule(outcomes: Mapping[int, Outcome]) -> Sequence[ScheduledGame]:
            return games

        self.series = Series(
            settings, folder, schedule, concurrency=concurrency, sandbox=sandbox, backend=backend, on_game=self._game
        )
        self.tally = PairTally(self.new, (self.series.done[n] for n in sorted(self.series.done)))
        self.decided: Status | None = None  # the status when the LLR first crossed a bound
        first = self.status()
        if first.verdict is not Verdict.CONTINUE:
            self.decided = first

    def status(self) -> Status:
        penta, test = self.tally.penta, self.plan.test
        llr = test.llr(penta)
        return Status(self.tally.games, penta.pairs, penta, llr, pentanomial_estimate(penta), test.verdict(llr))

    def _game(self, record: GameRecord) -> None:
        self.tally.add(record)
        status = self.status()
        if self.decided is None and status.verdict is not Verdict.CONTINUE:
            self.decided = status
        if self.on_game is not None:
            self.on_game(status)

    async def run(self) -> Status:
        """Play until a bound is crossed or every pair is played; the summary is written to the folder."""
        if self.decided is None:
            self.series.stop_when = lambda: self.decided is not None
            await self.series.run()
        final = self.status()
        write_json(
            self.folder.sprt_result,
            {
                "new": self.new,
                "base": self.base,
                "decided_at": None if self.decided is None else self.decided.record(self.plan),
                "final": final.record(self.plan),
            },
        )
        return final
