"""What the ladder shows, from its database: the leaderboard, each bot's versions, ratings over time,
head-to-head results and recent games. ``standings --json``, the terminal table and the page all come
from ``board(db)``, so they show the same numbers: in full precision, rounded only where they are drawn (the
terminal's table, the page). ``rating_history`` (``ladder history``) is every rated set's change of each
version's rating, and ``games_csv`` (``ladder games``) the games as one CSV row each.

The leaderboard ranks the versions that play (status ``active``) by the conservative rating
``mu - 3 sigma``; the other versions (superseded, retired, suspended, in error, waiting for their
validation game) follow, unranked, with their status and its reason. Games, wins, draws, losses, points
per hand and faults count the ladder's games (not validation games), as ``arena tournament`` counts them
(``referee.games.standings``). Head-to-head results count duplicate sets: a bot wins a set against
another when it ranked above it (fewer forfeits, else more points over the set).
"""

from __future__ import annotations

import csv
import time
from collections import defaultdict
from typing import Any, TextIO

from referee.games.standings import standings
from referee.ladder.database import ACTIVE, LADDER, RATED, GameRow, LadderDatabase
from referee.ladder.ratings import MODEL, NEW, PLACED_SIGMA, Rating, ranks, set_result
from referee.runfolder import replay_name

RECENT = 30  # recent games on a bot's page
MODEL_TEXT = (
    f"openskill Weng-Lin Plackett-Luce (mu {MODEL.mu:g}, sigma {MODEL.sigma:.3g}, beta {MODEL.beta:.3g}, "
    f"tau {MODEL.tau:.3g}); one update per duplicate set, by points over the set"
)


def _when(t: float | None) -> str | None:
    return None if t is None else time.strftime("%Y-%m-%d %H:%M:%S", time.localtime(t))


def board(db: LadderDatabase) -> dict[str, Any]:
    """The ladder as plain data (JSON): ``meta``, ``standings`` (one row per version), ``bots``."""
    settings = db.settings()
    versions = db.versions()
    label = {v.id: v.label for v in versions}
    games = db.games()
    ladder_games = [g for g in games if g.kind == LADDER]
    stats = {s.bot: s for s in standings([v.label for v in versions], [g.record.outcome() for g in ladder_games])}
    last: dict[int, GameRow] = {}
    for g in ladder_games:
        for vid in g.teams:
            last[vid] = g
    rated = db.rated_sets()
    rows = []
    for v in versions:
        s = stats[v.label]
        lg = last.get(v.id)
        rows.append(
            {
                "rank": None,
                "bot": v.bot,
                "version": v.version,
                "label": v.label,
                "status": v.status,
                "reason": v.reason,
                "output": v.output,
                "ordinal": v.rating.ordinal,
                "mu": v.rating.mu,
                "sigma": v.rating.sigma,
                "placed": v.rating.placed,
                "sets": rated.get(v.id, 0),
                "games": s.games,
                "wins": s.wins,
                "draws": s.draws,
                "losses": s.losses,
                "points_per_hand": s.points_per_hand,
                "faults": s.violations,
                "last_game": None if lg is None else lg.record.game_id,
                "last_game_at": None if lg is None else _when(lg.finished_at),
                "added_at": _when(v.added_at),
                "command": list(v.argv),
            }
        )

    def order(r: dict[str, Any]) -> tuple[float, str]:
        return -float(r["ordinal"]), str(r["label"])

    playing = sorted((r for r in rows if r["status"] == ACTIVE), key=order)
    others = sorted((r for r in rows if r["status"] != ACTIVE), key=order)
    for k, r in enumerate(playing, start=1):
        r["rank"] = k
    return {
        "meta": {
            "name": settings.name,
            "preset": settings.preset,
            "teams": settings.rules.teams,
            "set_size": settings.set_size,
            "seed": settings.seed,
            "games": len(games),
            "ladder_games": len(ladder_games),
            "rated_sets": len(db.sets(state=RATED)),
            "placed_sigma": PLACED_SIGMA,
            "model": MODEL_TEXT,
            "ordinal": "mu - 3 sigma",
            "updated": _when(time.time()),
        },
        "standings": playing + others,
        "bots": _bots(db, versions, label, games),
    }


def _bots(db: LadderDatabase, versions: list[Any], label: dict[int, str], games: list[GameRow]) -> dict[str, Any]:
    bot_of = {v.id: v.bot for v in versions}
    history: dict[int, list[list[Any]]] = defaultdict(list)
    for update, _set, vid, r, at in db.history():
        history[vid].append([update, r.mu, r.sigma, r.ordinal, _when(at)])
    h2h: dict[str, dict[str, list[int]]] = defaultdict(lambda: defaultdict(lambda: [0, 0, 0]))  # bot -> bot -> WDL
    for ladder_set in db.sets(state=RATED):
        vids = ladder_set.versions
        points, forfeits = set_result(vids, db.set_games(ladder_set.id))
        order = dict(zip(vids, ranks(vids, points, forfeits), strict=True))
        for a in vids:
            for b in vids:
                if bot_of[a] != bot_of[b]:
                    column = 0 if order[a] < order[b] else 1 if order[a] == order[b] else 2
                    h2h[bot_of[a]][bot_of[b]][column] += 1
    recent: dict[str, list[dict[str, Any]]] = defaultdict(list)
    for g in reversed(games):
        for bot in {bot_of[v] for v in g.teams}:
            if len(recent[bot]) < RECENT:
                rec = g.record
                recent[bot].append(
                    {
                        "game_id": rec.game_id,
                        "kind": g.kind,
                        "teams": [label[v] for v in g.teams],
                        "scores": list(rec.scores),
                        "winner": rec.winner,
                        "reason": rec.reason,
                        "violations": len(rec.violations),
                        "finished_at": _when(g.finished_at),
                        "replay": replay_name(rec.game_id),
                    }
                )
    out: dict[str, Any] = {}
    for v in versions:
        bot = out.setdefault(v.bot, {"versions": [], "head_to_head": [], "recent": recent.get(v.bot, [])})
        bot["versions"].append({"label": v.label, "version": v.version, "history": history.get(v.id, [])})
    for name, bot in out.items():
        bot["head_to_head"] = [
            {"opponent": other, "sets": sum(wdl), "wins": wdl[0], "draws": wdl[1], "losses": wdl[2]}
            for other, wdl in sorted(h2h[name].items())
        ]
    return out


def rating_history(db: LadderDatabase) -> list[dict[str, Any]]:
    """Every rating update, in the order they were applied: the set, the version, its rating before and after
    the set (full precision), and the change of its conservative rating (``mu - 3 sigma``)."""
    label = {v.id: v.label for v in db.versions()}
    kept: dict[int, Rating] = {}
    out = []
    for update, set_id, vid, after, at in db.history():
        before = kept.get(vid, NEW)
        kept[vid] = after
        out.append(
            {
                "update": update,
                "set": set_id,
                "version": label[vid],
                "before": {"mu": before.mu, "sigma": before.sigma, "ordinal": before.ordinal},
                "after": {"mu": after.mu, "sigma": after.sigma, "ordinal": after.ordinal},
                "change": after.ordinal - before.ordinal,
                "rated_at": _when(at),
            }
        )
    return out


GAME_COLUMNS = (
    "number", "game_id", "set", "kind", "rotation", "seed", "teams", "scores", "winner", "forfeit", "reason",
    "hands", "violations", "started_at", "finished_at", "log",
)  # fmt: skip


def games_csv(db: LadderDatabase, out: TextIO) -> int:
    """The recorded games as CSV on ``out``, a row each in order of number (``GAME_COLUMNS``; a team's versions
    and scores joined by spaces, the winner and a forfeiting team by their version); how many."""
    label = {v.id: v.label for v in db.versions()}
    writer = csv.writer(out, lineterminator="\n")
    writer.writerow(GAME_COLUMNS)
    games = db.games()
    for g in games:
        rec = g.record
        teams = [label[v] for v in g.teams]
        writer.writerow(
            [
                g.number, rec.game_id, g.set_id, g.kind, rec.rotation, rec.seed, " ".join(teams),
                " ".join(map(str, rec.scores)), "" if rec.winner is None else teams[rec.winner],
                "" if rec.forfeit is None else teams[rec.forfeit], rec.reason, rec.hands, len(rec.violations),
                _when(g.started_at), _when(g.finished_at), rec.log,
            ]
        )  # fmt: skip
    return len(games)
