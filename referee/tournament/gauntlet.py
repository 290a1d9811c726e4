"""A gauntlet's result: the candidate against each opponent, with the Elo difference and its 95% interval.

Each game counts once per opponent at the table: 1 if the candidate's team
beat the opponent's, 1/2 for a draw between them, 0 for a loss (the
pairwise result of ``Outcome.pair_score``, as in the standings). As the
standings do, one virtual draw is added against each opponent, so that a
clean sweep still has a finite Elo. The interval is the normal interval of
the mean score, through the Elo curve (``referee.stats.sprt.estimate``).
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from referee.games.standings import PRIOR_DRAWS, Outcome
from referee.stats.sprt import GAME_SCORES, EloEstimate, estimate


@dataclass(frozen=True)
class Matchup:
    opponent: str
    wins: int  # games the candidate's team beat the opponent's
    draws: int
    losses: int
    elo: EloEstimate  # the candidate's Elo over the opponent

    @property
    def games(self) -> int:
        return self.wins + self.draws + self.losses

    def as_dict(self) -> dict[str, object]:
        e = self.elo
        finite = [x if abs(x) != float("inf") else None for x in (e.elo, e.elo_low, e.elo_high)]
        return {
            "opponent": self.opponent,
            "games": self.games,
            "wins": self.wins,
            "draws": self.draws,
            "losses": self.losses,
            "score": round(e.score, 4),
            "elo": None if finite[0] is None else round(finite[0], 1),
            "elo_low_95": None if finite[1] is None else round(finite[1], 1),
            "elo_high_95": None if finite[2] is None else round(finite[2], 1),
        }


def head_to_head(candidate: str, opponents: Iterable[str], outcomes: Iterable[Outcome]) -> list[Matchup]:
    """One row per opponent, in the order given."""
    tally: dict[str, list[int]] = {name: [0, 0, 0] for name in opponents if name != candidate}  # losses, draws, wins
    for game in outcomes:
        if candidate not in game.teams:
            continue
        me = game.teams.index(candidate)
        for team, name in enumerate(game.teams):
            if team != me and name in tally:
                tally[name][round(2 * game.pair_score(me, team))] += 1
    return [
        Matchup(name, wins=w, draws=d, losses=lo, elo=estimate(GAME_SCORES, (lo, d + PRIOR_DRAWS, w)))
        for name, (lo, d, w) in tally.items()
    ]
