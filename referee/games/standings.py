"""Standings: per bot games, wins/draws/losses, points per hand, Elo with a 95% interval, violations,
and the mean and longest time it took to answer.

Everything here is computed from the set of finished games, never from the
order they finished in: tables run in parallel and a resumed tournament adds
its games later, and both must give the standings of a plain run.

Results between bots
    In every game each two teams meet once: the winning team beats every
    other team (1 - 0); a team that forfeited loses to every other team; any
    other two teams (a game with no winner, or the two losers of a
    three-team game) draw (1/2 each).

Elo
    A Bradley-Terry (logistic) model: bot i beats bot j with probability
    ``1 / (1 + 10 ** ((R_j - R_i) / 400))``. The ratings are the maximum of
    the likelihood of all results, draws counted as half a win and half a
    loss, plus one virtual draw between every two bots of the tournament (a
    weak prior that keeps a bot that won or lost every game at a finite
    rating). Ratings are anchored so their mean is 0. The interval is
    1.96 standard errors, taken from the curvature of the log-likelihood at
    its maximum (the inverse of the Fisher information, under the mean-0
    anchor): it says how far a bot's rating may be from the field's mean.
    With two bots this is the classic rating from the score fraction ``s``:
    the difference is ``400 * log10(s / (1 - s))``, each bot half of it.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from itertools import combinations

from referee.thinktime import ThinkTime

ELO_SCALE = 400 / math.log(10)  # rating points per unit of log-odds
Z95 = 1.959963984540054  # two-sided 95% quantile of the normal distribution
PRIOR_DRAWS = 1.0  # virtual draws between every two bots


@dataclass(frozen=True)
class Outcome:
    """What the standings need of one finished game."""

    number: int  # the game's number in the schedule (results are sorted by it)
    teams: tuple[str, ...]  # the bot playing each team
    scores: tuple[int, ...]  # final score per team
    winner: int | None  # winning team, or None (a draw, or no team won)
    forfeit: int | None  # the team that forfeited the game, if one did
    hands: int  # hands dealt
    violations: tuple[int, ...]  # per team, violations recorded against its seats
    think: tuple[ThinkTime, ...] = ()  # per team, its seats' answers (empty: not recorded)

    def pair_score(self, i: int, j: int) -> float:
        """Team i's result against team j: 1, 1/2 or 0."""
        if self.winner == i:
            return 1.0
        if self.winner == j:
            return 0.0
        if self.forfeit == j:
            return 1.0
        if self.forfeit == i:
            return 0.0
        return 0.5


@dataclass(frozen=True)
class Standing:
    bot: str
    games: int
    wins: int
    draws: int
    losses: int
    points: int  # its team's final scores, summed over its games
    hands: int
    score: float  # pairwise results: 1 per team beaten, 1/2 per draw
    encounters: int  # pairwise results counted
    elo: float
    elo_error: float  # half width of the 95% interval
    violations: int
    think: ThinkTime = field(default_factory=ThinkTime)  # its answers over all its games
    extra: tuple[tuple[str, float], ...] = ()  # the format's own figures (a Swiss's tiebreaks), by name

    @property
    def points_per_hand(self) -> float:
        return self.points / self.hands if self.hands else 0.0

    def as_dict(self) -> dict[str, object]:
        return {
            "bot": self.bot,
            "games": self.games,
            "wins": self.wins,
            "draws": self.draws,
            "losses": self.losses,
            "points": self.points,
            "hands": self.hands,
            "points_per_hand": round(self.points_per_hand, 4),
            "score": self.score,
            "encounters": self.encounters,
            "elo": round(self.elo, 1) + 0.0,  # no -0.0
            "elo_error_95": round(self.elo_error, 1),
            "violations": self.violations,
            "think_mean_ms": round(self.think.mean_ms, 1),
            "think_max_ms": self.think.max_ms,
            **{name: round(value, 4) + 0.0 for name, value in self.extra},
        }


def standings(
    bots: Sequence[str],
    outcomes: Iterable[Outcome],
    *,
    order: Sequence[str] = (),
    columns: Mapping[str, Mapping[str, float]] | None = None,
) -> list[Standing]:
    """One row per bot, in ``RANKING`` order: best Elo first, equal Elo by points per hand, then by name; or in
    ``order`` where a format ranks the bots itself (a Swiss, a knockout), with its ``columns`` in each row."""
    index = {name: i for i, name in enumerate(bots)}
    n = len(bots)
    games = [0] * n
    wins = [0] * n
    draws = [0] * n
    losses = [0] * n
    points = [0] * n
    hands = [0] * n
    faults = [0] * n
    think = [ThinkTime()] * n
    score = [0.0] * n
    met = [[0.0] * n for _ in range(n)]  # games between i and j
    beat = [[0.0] * n for _ in range(n)]  # i's points against j
    for game in sorted(outcomes, key=lambda o: o.number):
        who = [index[name] for name in game.teams]
        for team, b in enumerate(who):
            games[b] += 1
            points[b] += game.scores[team]
            hands[b] += game.hands
            faults[b] += game.violations[team]
            if game.think:
                think[b] = think[b].merge(game.think[team])
            if game.winner == team:
                wins[b] += 1
            elif game.winner is not None or game.forfeit == team:
                losses[b] += 1
            else:
                draws[b] += 1
        for i, j in combinations(range(len(who)), 2):
            a, b = who[i], who[j]
            s = game.pair_score(i, j)
            met[a][b] += 1
            met[b][a] += 1
            beat[a][b] += s
            beat[b][a] += 1 - s
            score[a] += s
            score[b] += 1 - s
    ratings, errors = elo_fit(met, beat)
    rows = [
        Standing(
            bot=name,
            games=games[i],
            wins=wins[i],
            draws=draws[i],
            losses=losses[i],
            points=points[i],
            hands=hands[i],
            score=score[i],
            encounters=int(sum(met[i])),
            elo=ratings[i],
            elo_error=errors[i],
            violations=faults[i],
            think=think[i],
            extra=tuple((column, values[name]) for column, values in (columns or {}).items()),
        )
        for i, name in enumerate(bots)
    ]
    if order:
        place = {name: k for k, name in enumerate(order)}
        rows.sort(key=lambda r: place[r.bot])
    else:
        rows.sort(key=lambda r: (-round(r.elo, 6), -r.points_per_hand, r.bot))
    return rows


# How the rows are ordered, for the table's caption (docs/tournament.md says why).
RANKING = "ranked by Elo (wins, draws, losses); equal Elo by points per hand"


def elo_fit(
    met: Sequence[Sequence[float]], beat: Sequence[Sequence[float]], prior_draws: float = PRIOR_DRAWS
) -> tuple[list[float], list[float]]:
    """Ratings (mean 0) and 95% half widths from ``met[i][j]`` games and ``beat[i][j]`` points of i against j.

    Newton's method on the log-likelihood in log-odds units; every step keeps
    the sum of ratings at 0. The prior adds ``prior_draws`` games scored
    1/2 - 1/2 to every pair.
    """
    n = len(met)
    if n == 0:
        return [], []
    if n == 1:
        return [0.0], [0.0]
    games = [[met[i][j] + (prior_draws if i != j else 0.0) for j in range(n)] for i in range(n)]
    wins = [[beat[i][j] + (prior_draws / 2 if i != j else 0.0) for j in range(n)] for i in range(n)]
    theta = [0.0] * n  # log-odds units
    info = _information(games, theta)
    for _ in range(100):
        grad = [sum(wins[i][j] - games[i][j] * _logistic(theta[i] - theta[j]) for j in range(n)) for i in range(n)]
        step = _solve_centered(info, grad)
        current = _log_likelihood(wins, theta)
        scale = 1.0
        while True:  # Newton with step halving: the likelihood never goes down
            trial = [t + scale * s for t, s in zip(theta, step, strict=True)]
            if _log_likelihood(wins, trial) >= current - 1e-12 or scale < 1e-6:
                break
            scale /= 2
        theta = trial
        info = _information(games, theta)
        if max(abs(scale * s) for s in step) < 1e-10:
            break
    mean = sum(theta) / n
    covariance = _centered_inverse(info)
    ratings = [(t - mean) * ELO_SCALE for t in theta]
    errors = [Z95 * math.sqrt(max(covariance[i][i], 0.0)) * ELO_SCALE for i in range(n)]
    return ratings, errors


# ------------------------------------------------------------- the algebra


def _logistic(x: float) -> float:
    if x >= 0:
        return 1 / (1 + math.exp(-x))
    e = math.exp(x)
    return e / (1 + e)


def _log_likelihood(wins: list[list[float]], theta: list[float]) -> float:
    total = 0.0
    n = len(theta)
    for i in range(n):
        for j in range(n):
            if i != j and wins[i][j]:
                total += wins[i][j] * math.log(_logistic(theta[i] - theta[j]))
    return total


def _information(games: list[list[float]], theta: list[float]) -> list[list[float]]:
    """The Fisher information (minus the Hessian): a weighted graph Laplacian."""
    n = len(theta)
    info = [[0.0] * n for _ in range(n)]
    for i in range(n):
        for j in range(n):
            if i != j:
                p = _logistic(theta[i] - theta[j])
                w = games[i][j] * p * (1 - p)
                info[i][j] = -w
                info[i][i] += w
    return info


def _centered_inverse(info: list[list[float]]) -> list[list[float]]:
    """The pseudo-inverse of a connected Laplacian: (L + J/n)^-1 - J/n (J all ones)."""
    n = len(info)
    shifted = [[info[i][j] + 1 / n for j in range(n)] for i in range(n)]
    inverse = _invert(shifted)
    return [[inverse[i][j] - 1 / n for j in range(n)] for i in range(n)]


def _solve_centered(info: list[list[float]], rhs: list[float]) -> list[float]:
    pinv = _centered_inverse(info)
    n = len(rhs)
    return [sum(pinv[i][k] * rhs[k] for k in range(n)) for i in range(n)]


def _invert(matrix: list[list[float]]) -> list[list[float]]:
    """Gauss-Jordan elimination with partial pivoting (the matrices here are a few bots wide)."""
    n = len(matrix)
    a = [row[:] + [1.0 if i == j else 0.0 for j in range(n)] for i, row in enumerate(matrix)]
    for col in range(n):
        pivot = max(range(col, n), key=lambda r: abs(a[r][col]))
        if abs(a[pivot][col]) < 1e-300:
            raise ArithmeticError("singular matrix")
        a[col], a[pivot] = a[pivot], a[col]
        p = a[col][col]
        a[col] = [v / p for v in a[col]]
        for r in range(n):
            if r != col and a[r][col]:
                f = a[r][col]
                a[r] = [v - f * w for v, w in zip(a[r], a[col], strict=True)]
    return [row[n:] for row in a]
