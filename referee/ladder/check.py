"""``arena ladder check``: the stored ratings against those recomputed from the games table, in order.

Every rated set's update is done again (``referee.ladder.ratings.recompute``) from the games the games
table holds for it, in the order the updates were applied; each stored update and each version's
current rating must come out the same (to 1e-9: the same arithmetic gives the same floats). SQLite's
own integrity check of the file runs first.
"""

from __future__ import annotations

from referee.ladder.database import LADDER, OPEN, LadderDatabase
from referee.ladder.ratings import NEW, recompute

TOLERANCE = 1e-9


def check(db: LadderDatabase) -> tuple[list[str], str]:
    """The problems found (none: the ratings are those of the games) and a summary line."""
    problems = [f"integrity: {line}" for line in db.integrity()]
    sets = db.rated_in_order()
    final, history = recompute(sets)
    stored: dict[int, dict[int, tuple[float, float]]] = {}
    for _, set_id, vid, rating, _ in db.history():
        stored.setdefault(set_id, {})[vid] = (rating.mu, rating.sigma)
    for set_id, after in history:
        for vid, rating in after.items():
            mu, sigma = stored.get(set_id, {}).get(vid, (float("nan"), float("nan")))
            if not (abs(mu - rating.mu) <= TOLERANCE and abs(sigma - rating.sigma) <= TOLERANCE):
                problems.append(
                    f"set {set_id}, version {vid}: stored {mu:.6f} ± {sigma:.6f}, "
                    f"recomputed {rating.mu:.6f} ± {rating.sigma:.6f}"
                )
    for v in db.versions():
        expected = final.get(v.id, NEW)
        if abs(v.rating.mu - expected.mu) > TOLERANCE or abs(v.rating.sigma - expected.sigma) > TOLERANCE:
            problems.append(
                f"{v.label}: rating {v.rating.mu:.6f} ± {v.rating.sigma:.6f}, its games give "
                f"{expected.mu:.6f} ± {expected.sigma:.6f}"
            )
    for s in db.sets():
        games = len(db.recorded(s.id))
        if s.kind == LADDER and s.state != OPEN and s.state != "dropped" and games != s.size:
            problems.append(f"set {s.id} is {s.state} with {games} of its {s.size} games")
        if s.kind == LADDER and s.state == OPEN and games >= s.size:
            problems.append(f"set {s.id} has all its games and no rating")
    games = db.game_count()
    summary = (
        f"ok: {len(sets)} rated set(s), {games} game(s), {len(db.versions())} version(s): every stored rating "
        "is the one its games give"
    )
    return problems, summary
