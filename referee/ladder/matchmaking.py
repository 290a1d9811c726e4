"""Matchmaking: which versions meet in the next duplicate set, a pure function of the ladder's state and a seed.

``pair(pool, teams, seed)`` takes the versions that may play (``Entry``: rating, sets played, sets in
play) and gives the set's versions, or None when fewer than ``teams`` may play. The same pool and seed
give the same set, so a ladder's run can be replayed from its database.

1. The focus: a version not yet placed (sigma above ``PLACED_SIGMA``) if there is one, since a new version
   should find its place before anything else (Halite's players waited too long); among those, or
   among all when every version is placed, the one with the fewest sets (played and in play): every
   active version gets a fair share. Ties are broken by the seed.
2. Its opponents: every group of ``teams - 1`` other versions is weighted by the match quality of the set
   (openskill's draw probability: close ratings, and uncertain ones, teach most), times a fair-share
   factor (a version with fewer sets than the others is wanted more, one with sets in play less), and
   one group is drawn with the seed. Drawing, not taking the best, keeps a pool of close versions from
   playing the same pairing over and over.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass
from itertools import combinations

from referee.ladder.ratings import Rating, quality

GROUPS_WEIGHED = 2000  # at most this many opponent groups are weighed (three teams and a large pool)


@dataclass(frozen=True)
class Entry:
    """A version that may play, as matchmaking sees it."""

    version: int  # its id
    rating: Rating
    sets: int  # rated sets played
    playing: int  # sets in play or waiting for a table


def _load(e: Entry) -> int:
    return e.sets + e.playing


def pair(pool: Sequence[Entry], teams: int, seed: int) -> tuple[int, ...] | None:
    """The versions of the next set (the focus first), or None when fewer than ``teams`` may play."""
    if len(pool) < teams:
        return None
    rng = random.Random(seed)
    entries = sorted(pool, key=lambda e: e.version)  # the pool's order does not matter, only its contents
    unplaced = [e for e in entries if not e.rating.placed]
    candidates = unplaced or entries
    least = min(_load(e) for e in candidates)
    focus = rng.choice([e for e in candidates if _load(e) == least])
    others = [e for e in entries if e.version != focus.version]
    groups = list(combinations(others, teams - 1))
    if len(groups) > GROUPS_WEIGHED:
        groups = rng.sample(groups, GROUPS_WEIGHED)
    mean = sum(_load(e) for e in others) / len(others)
    weights = []
    for group in groups:
        share = 1.0
        for e in group:
            share *= 2.0 ** max(-4.0, min(4.0, (mean - e.sets) / max(1.0, mean) * 2)) / (1 + e.playing)
        weights.append(quality([focus.rating, *(e.rating for e in group)]) * share)
    chosen = rng.choices(groups, weights=weights)[0] if sum(weights) > 0 else rng.choice(groups)
    return (focus.version, *(e.version for e in chosen))
