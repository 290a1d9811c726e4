"""The rating step: a set whose last game is in updates the ratings of its versions (openskill's model,
``referee.ladder.ratings``), in the transaction that records that game.

The set's result is each version's points over its games and its forfeits (``set_result``); the versions
are ranked by them and rated in one update, its rows kept in order in the ratings table, so that
``arena ladder check`` gets the stored ratings back from the games alone.
"""

from __future__ import annotations

import time

from referee.ladder.database import RATED, LadderDatabase, LadderSet
from referee.ladder.ratings import ranks, rate, set_result


def rate_set(db: LadderDatabase, ladder_set: LadderSet) -> None:
    """Rate the complete set ``ladder_set`` (within the caller's transaction): its versions' new ratings, the
    update's rows, the set marked rated."""
    versions = ladder_set.versions
    before = [db.version(v).rating for v in versions]
    points, forfeits = set_result(versions, db.set_games(ladder_set.id))
    after = rate(before, ranks(versions, points, forfeits))
    now = time.time()
    for vid, rating in zip(versions, after, strict=True):
        db.set_rating(ladder_set.id, vid, rating, now)
    db.set_state(ladder_set.id, RATED)
