"""Swiss pairing: the groups of the next round, from the standings so far, by maximum weight matchings.

Pure: a function of the field (each bot's score, whom it has met, whether it
has had a bye, its place in the seeding), so that a resumed run pairs the
same rounds. The search is networkx's ``max_weight_matching`` (Edmonds'
blossom algorithm, in integers when the weights are integers); nothing here
searches on its own. Bots are nodes numbered by their place in the
standings, so the result does not depend on Python's salted string hashes.

Two teams (``pairs``)
    One matching over every two bots. An edge's weight falls by ``REPEAT``
    for each time the two have met, and by the square of their score
    difference (in half points); the repeat penalty is larger than all score
    differences of a round together, so a pairing is repeated only when no
    matching without it exists. The matching takes every bot
    (``maxcardinality``). With an odd field a phantom bot is added at the
    lowest score in the field: whoever is matched with it has the bye (among
    equal costs, the lowest in the standing). Only
    bots without a bye are joined to it, so no bot has two (while one
    without is left, which the number of rounds allowed makes sure of).

Three teams (``triples``)
    Byes first, when the field is not a multiple of three: the lowest scores
    among the bots without a bye (the lowest seeds among equals). Then two
    matchings, composed: the bots in standing order are cut into threes, and
    the middle bot of each three is its anchor; the other bots are matched
    into pairs (weights as above), then the pairs are matched to the anchors
    (a bipartite matching whose weights fall by ``GROUP`` for a group that
    has played before, ``REPEAT`` for each earlier meeting of the anchor with
    either bot of the pair, and the squared score differences). A group is
    repeated only when the composed matchings find no other way, and two
    bots meet again only when that is cheaper than a score gap as large as
    the repeat penalty.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from itertools import combinations

import networkx as nx


@dataclass(frozen=True)
class Entrant:
    """A bot as the pairing sees it."""

    name: str
    score: float  # its points so far, byes included
    byes: int = 0  # byes it has had


@dataclass(frozen=True)
class History:
    """What the field has played: how often each two bots met, and the groups that met."""

    met: Mapping[frozenset[str], int] = field(default_factory=dict)
    groups: frozenset[frozenset[str]] = frozenset()

    def times(self, a: str, b: str) -> int:
        return self.met.get(frozenset((a, b)), 0)


@dataclass(frozen=True)
class Round:
    """A round's pairing: the groups (each in standing order) and the bots that sit it out."""

    groups: tuple[tuple[str, ...], ...]
    byes: tuple[str, ...]


def pair(standing: Sequence[Entrant], history: History, teams: int) -> Round:
    """The next round for ``standing`` (best first; equal scores in seeding order), in groups of ``teams``."""
    if teams == 2:
        return pairs(standing, history)
    if teams == 3:
        return triples(standing, history)
    raise ValueError(f"Swiss pairing is for two or three teams, not {teams}")


def _half_points(x: float) -> int:
    return round(2 * x)


@dataclass(frozen=True)
class _Weights:
    """Integer weights: a score gap costs its square (in half points); a repeat costs more than every gap of a
    round; a repeated group more than every repeat of a round."""

    gap: int  # the largest squared gap between two bots of the field
    size: int  # bots in the field

    @property
    def repeat(self) -> int:
        return self.size * self.gap * 2 + 1

    @property
    def group(self) -> int:
        return self.size * self.size * self.repeat + 1

    @property
    def base(self) -> int:
        """Above every cost, so that every edge has a positive weight."""
        return self.size * self.size * self.group + 1

    @classmethod
    def of(cls, standing: Sequence[Entrant]) -> _Weights:
        scores = [_half_points(e.score) for e in standing]
        return cls(gap=(max(scores) - min(scores)) ** 2 if scores else 0, size=len(standing))


def _cost(a: Entrant, b: Entrant, history: History, w: _Weights) -> int:
    return w.repeat * history.times(a.name, b.name) + (_half_points(a.score) - _half_points(b.score)) ** 2


def _matched(graph: nx.Graph[int]) -> list[tuple[int, int]]:
    """The maximum weight matching among those of most edges, each edge (low, high), sorted."""
    return sorted(tuple(sorted(edge)) for edge in nx.max_weight_matching(graph, maxcardinality=True))


def pairs(standing: Sequence[Entrant], history: History) -> Round:
    """Two teams: one matching; with an odd field, a phantom bot at the lowest score gives the bye."""
    w = _Weights.of(standing)
    n = len(standing)
    unit = n + 1  # one cost unit: more than the seed preference of any bye below
    graph: nx.Graph[int] = nx.Graph()
    graph.add_nodes_from(range(n + n % 2))
    for i, j in combinations(range(n), 2):
        graph.add_edge(i, j, weight=unit * (w.base - _cost(standing[i], standing[j], history, w)))
    if n % 2:
        phantom = Entrant("", min(e.score for e in standing))
        fresh = [i for i, e in enumerate(standing) if e.byes == 0] or range(n)
        for i in fresh:  # among equal costs, the bye goes to the lowest in the standing
            graph.add_edge(i, n, weight=unit * (w.base - _cost(standing[i], phantom, history, w)) - (n - 1 - i))
    groups, byes = [], []
    for i, j in _matched(graph):
        if j == n:
            byes.append(standing[i].name)
        else:
            groups.append((standing[i].name, standing[j].name))
    return Round(tuple(groups), tuple(byes))


def triples(standing: Sequence[Entrant], history: History) -> Round:
    """Three teams: byes to the lowest scores without one, then the others matched into pairs and the pairs
    matched to anchors (two matchings composed)."""
    spare = len(standing) % 3
    candidates = [e for e in standing if e.byes == 0] or list(standing)
    # lowest score first; among equals the lowest seed (the latest in standing order)
    by_need = sorted(candidates, key=lambda e: (e.score, -standing.index(e)))
    byes = {e.name for e in by_need[:spare]}
    playing = [e for e in standing if e.name not in byes]
    w = _Weights.of(playing)
    anchors = playing[1::3]
    others = [e for k, e in enumerate(playing) if k % 3 != 1]
    duos: nx.Graph[int] = nx.Graph()
    duos.add_nodes_from(range(len(others)))
    for i, j in combinations(range(len(others)), 2):
        duos.add_edge(i, j, weight=w.base - _cost(others[i], others[j], history, w))
    couples = [(others[i], others[j]) for i, j in _matched(duos)]
    seating: nx.Graph[int] = nx.Graph()
    k = len(anchors)
    seating.add_nodes_from(range(2 * k))
    for a, anchor in enumerate(anchors):
        for c, (x, y) in enumerate(couples):
            cost = _cost(anchor, x, history, w) + _cost(anchor, y, history, w)
            if frozenset((anchor.name, x.name, y.name)) in history.groups:
                cost += w.group
            seating.add_edge(a, k + c, weight=w.base - cost)
    order = {e.name: k for k, e in enumerate(standing)}
    groups = []
    for a, c in _matched(seating):
        x, y = couples[c - k]
        groups.append(tuple(sorted((anchors[a].name, x.name, y.name), key=order.__getitem__)))
    groups.sort(key=lambda g: order[g[0]])
    return Round(tuple(groups), tuple(sorted(byes, key=order.__getitem__)))
