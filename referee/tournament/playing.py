"""Running a tournament: a series of games (``referee.games.series``) whose schedule is its format.

The games come from the settings' format (``referee.tournament.schedule``):
its plan is asked again whenever no game is left to start, so a format
played in rounds adds the next round once the last one's results are in,
and the series never learns which format it plays. Where the tables run is
a backend's business (``referee.games.backends``): in this process (the
default), in worker processes on this machine (``--workers``), or on a Ray
cluster (``--ray``).

The folder is a run folder (``referee.runfolder``): besides what every
series keeps there (settings.json, results.jsonl, games/, bots/), a
tournament writes standings.csv and standings.json at the end of a run.
"""

from __future__ import annotations

import csv
import io
from collections.abc import Mapping, Sequence
from typing import Any

from referee.games.scheduled import ScheduledGame
from referee.games.series import Series
from referee.games.standings import RANKING, Outcome, Standing, standings
from referee.runfolder import RunFolder, write_atomically, write_json
from referee.tournament.gauntlet import Matchup, head_to_head
from referee.tournament.schedule import Format, Plan
from referee.tournament.settings import TournamentSettings


class Tournament(Series):
    """``Tournament(settings, folder, concurrency=2)``, then ``await run()`` (see ``Series``).

    ``format`` says how the games follow from the results (default: the settings' format); ``plan`` is its
    plan from the games finished so far.
    """

    settings: TournamentSettings

    def __init__(
        self, settings: TournamentSettings, folder: RunFolder, *, format: Format | None = None, **options: Any
    ):
        """``options``: a ``Series``'s (``concurrency``, ``backend``, ``sandbox``, ``on_game`` ...)."""
        self.format: Format = settings.format() if format is None else format
        self.plan: Plan = self.format.plan({})
        super().__init__(settings, folder, self._fixed, **options)

    def _fixed(self, outcomes: Mapping[int, Outcome]) -> Sequence[ScheduledGame]:
        return self.format.plan(outcomes).games

    def replan(self) -> None:
        self.plan = self.format.plan(self.outcomes())
        self.schedule = self.plan.games

    @property
    def expected(self) -> int:
        """The games the tournament is expected to play in all."""
        return self.plan.expected

    @property
    def ranking(self) -> str:
        """How the standings are ordered, in words."""
        return self.plan.ranking or RANKING

    @property
    def complete(self) -> bool:
        return self.plan.final and len(self.done) == len(self.schedule)

    def standings(self) -> list[Standing]:
        """The rows, in the format's order where it ranks the bots itself (with its figures), else by Elo."""
        plan = self.plan
        return standings(
            self.settings.bot_names, [r.outcome() for r in self.done.values()], order=plan.order, columns=plan.columns
        )

    def head_to_head(self) -> list[Matchup]:
        """A gauntlet's candidate against each other bot (empty for a round-robin)."""
        candidate = self.settings.gauntlet
        if candidate is None:
            return []
        return head_to_head(candidate, self.settings.bot_names, [r.outcome() for r in self.done.values()])

    def summary(self) -> dict[str, Any]:
        """standings.json without its rows: what the tournament is and how far it got."""
        settings, plan = self.settings, self.plan
        return {
            "name": settings.name,
            "preset": settings.preset,
            "seed": settings.seed,
            **settings.describe(plan),
            "games_per_pairing": settings.games,
            "duplicate": settings.duplicate,
            "all_seatings": settings.all_seatings,
            "games_played": len(self.done),
            "games_scheduled": self.expected,
            "complete": self.complete,
            "ranking": self.ranking,
            "elo": "Bradley-Terry maximum likelihood, draws as half points, one virtual draw per pair, mean 0; "
            "elo_error_95 is 1.96 standard errors",
            **(
                {"gauntlet": settings.gauntlet, "head_to_head": [m.as_dict() for m in self.head_to_head()]}
                if settings.gauntlet is not None
                else {}
            ),
        }

    def write_standings(self) -> list[Standing]:
        """Write standings.csv and standings.json (each whole, then renamed into place); the rows."""
        rows = self.standings()
        out = io.StringIO()
        fields = list(rows[0].as_dict()) if rows else ["bot"]
        writer = csv.DictWriter(out, fieldnames=["rank", *fields], lineterminator="\n")
        writer.writeheader()
        for rank, row in enumerate(rows, start=1):
            writer.writerow({"rank": rank, **row.as_dict()})
        write_atomically(self.folder.standings_csv, out.getvalue())
        ranked = [{"rank": k, **r.as_dict()} for k, r in enumerate(rows, start=1)]
        write_json(self.folder.standings_json, {**self.summary(), "standings": ranked})
        return rows
