"""``arena ladder check``: the stored ratings against those recomputed from the games table, in order.

Every rated set's update is done again (``referee.ladder.ratings.recompute``) from the games the games
table holds for it, in the order the updates were applied; each stored update and each version's
current rating must come out the same (to 1e-9: the same arithmetic gives the same floats). SQLite's
own integrity check of the file runs first. A game's result is kept twice, in its row's columns (which the
ratings are computed from) and in its whole ``record``: both copies must say the same.
"""

from __future__ import annotations

from typing import Any

from referee.games.results import GameRecord
from referee.ladder.database import LADDER, OPEN, LadderDatabase
from referee.ladder.ratings import NEW, recompute

TOLERANCE = 1e-9


def check(db: LadderDatabase) -> tuple[list[str], str]:
    """The problems found (none: the ratings are those of the games) and a summary line, of the database at one
    moment (a ladder that plays on while it is checked commits its new sets after that moment)."""
    with db.read():
        return _check(db)


def _check(db: LadderDatabase) -> tuple[list[str], str]:
    problems = [f"integrity: {line}" for line in db.integrity()]
    label = {v.id: v.label for v in db.versions()}
    for number, columns, record in db.result_copies():
        problems += [
            f"game {number}: its {name} is {shown!r} in its row but {kept!r} in its record"
            for name, shown, kept in _differences(columns, record, label)
        ]
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


def _differences(columns: dict[str, Any], record: GameRecord, label: dict[int, str]) -> list[tuple[str, Any, Any]]:
    """Where a game's row and its record disagree: (what, the row's, the record's)."""
    kept: dict[str, Any] = {
        "number": record.game,
        "rotation": record.rotation,
        "seed": record.seed,
        "teams": list(record.teams),
        "scores": list(record.scores),
        "winner": record.winner,
        "forfeit": record.forfeit,
        "reason": record.reason,
        "hands": record.hands,
        "violations": len(record.violations),
        "log": record.log,
    }
    teams = [label.get(v, f"version {v}") for v in columns["teams"]]
    if len(teams) == len(record.teams) and all(_same_bot(a, b) for a, b in zip(teams, record.teams, strict=True)):
        teams = list(record.teams)
    shown = {**columns, "teams": teams}
    return [(name, shown[name], value) for name, value in kept.items() if shown[name] != value]


def _same_bot(label: str, name: str) -> bool:
    """A record names a version by its label, or, where it plays against itself (its validation game), its
    copies by the label and ``.cN``."""
    return name == label or (name.startswith(label + ".c") and name[len(label) + 2 :].isdigit())
