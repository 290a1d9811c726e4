"""Ratings: openskill's Weng-Lin Plackett-Luce model, one update per duplicate set, and their recomputation.

A version's rating is a Gaussian belief about its skill: ``mu`` and ``sigma``. The ladder sorts by the
conservative rating ``mu - 3 sigma`` (openskill's ``ordinal()``, as Battlesnake and Kaggle show it): a
version is placed high only once the ladder is sure of it.

The unit of an update is a duplicate set (``set_result``): the games of one deal, one per seating, so
every version of the set held every hand once. Its result is each version's points over the set; the
luck of the cards cancels, and what is left is how each version played them. A version whose team
forfeited a game of the set ranks below those that did not (fewer forfeits first, then more points);
equal keys are a tie. Two teams and three teams are the same call (``rate`` takes any number of teams;
each team is one version, since every seat of a team is the same bot).

The model and its parameters are in ``MODEL`` (docs/ladder.md says why). Updates are applied in the
order the sets were rated, so ``recompute`` (``arena ladder check``) gets the stored ratings back from
the games alone.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass

from openskill.models import PlackettLuce

# openskill's defaults: mu 25, sigma 25/3 (so a new version's ordinal is 0), beta 25/6 (the spread of one
# set's performance), tau 25/300 (a little uncertainty added before each update, so sigma never freezes).
MODEL = PlackettLuce()
MU = MODEL.mu
SIGMA = MODEL.sigma
PLACED_SIGMA = 3.0  # a version is placed once its sigma is below this (from 8.33 at the start)


@dataclass(frozen=True)
class Rating:
    mu: float
    sigma: float

    @property
    def ordinal(self) -> float:
        """The conservative rating: mu - 3 sigma."""
        return self.mu - 3 * self.sigma

    @property
    def placed(self) -> bool:
        return self.sigma < PLACED_SIGMA


NEW = Rating(MU, SIGMA)


@dataclass(frozen=True)
class SetGame:
    """What a set's result needs of one of its games: the version playing each team, its points, who forfeited."""

    teams: tuple[int, ...]  # version id per team
    scores: tuple[int, ...]  # per team
    forfeit: int | None  # the team that forfeited, if one did


def set_result(versions: Sequence[int], games: Iterable[SetGame]) -> tuple[dict[int, int], dict[int, int]]:
    """Each version's points over the set and its forfeits."""
    points = dict.fromkeys(versions, 0)
    forfeits = dict.fromkeys(versions, 0)
    for game in games:
        for team, version in enumerate(game.teams):
            points[version] += game.scores[team]
            if game.forfeit == team:
                forfeits[version] += 1
    return points, forfeits


def ranks(versions: Sequence[int], points: Mapping[int, int], forfeits: Mapping[int, int]) -> list[int]:
    """openskill's ranks (1 is best, equal ranks a tie): fewer forfeits first, then more points."""
    key = {v: (forfeits[v], -points[v]) for v in versions}
    return [1 + sum(key[o] < key[v] for o in versions) for v in versions]


def rate(before: Sequence[Rating], order: Sequence[int]) -> list[Rating]:
    """The ratings after one set: ``before`` per version of the set, ``order`` their ranks."""
    teams = [[MODEL.rating(mu=r.mu, sigma=r.sigma)] for r in before]
    after = MODEL.rate(teams, ranks=[float(k) for k in order])
    return [Rating(team[0].mu, team[0].sigma) for team in after]


def quality(ratings: Sequence[Rating]) -> float:
    """How much a set between these versions would teach: openskill's draw probability (close ratings, high
    sigmas give more)."""
    return MODEL.predict_draw([[MODEL.rating(mu=r.mu, sigma=r.sigma)] for r in ratings])


@dataclass(frozen=True)
class RatedSet:
    """One rating update as the games table gives it: the set's versions and games, in the order it was rated."""

    set_id: int
    versions: tuple[int, ...]
    games: tuple[SetGame, ...]


def recompute(sets: Iterable[RatedSet]) -> tuple[dict[int, Rating], list[tuple[int, dict[int, Rating]]]]:
    """Every version's rating from the sets alone (each starts at ``NEW``), and each set's ratings after it."""
    current: dict[int, Rating] = {}
    history = []
    for s in sets:
        points, forfeits = set_result(s.versions, s.games)
        after = rate([current.get(v, NEW) for v in s.versions], ranks(s.versions, points, forfeits))
        current.update(zip(s.versions, after, strict=True))
        history.append((s.set_id, dict(zip(s.versions, after, strict=True))))
    return current, history
