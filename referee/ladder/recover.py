"""``arena ladder recover``: a ladder's database rebuilt from ladder.json and the games' logs.

For a ladder.db that is cut short or damaged (a disk that filled up, a copy cut off). The damaged files
are kept beside, renamed ``ladder.db.damaged-TIME`` (and its -wal); the new database gets:

- the settings and every version, with its status and reason, from ladder.json (rewritten at every
  change of a version, so it is at most one change behind the lost database);
- every game whose log is complete (it has its ``game_end``) from games/: its seating, seed, scores,
  winner, reason, violations and hands (the answers' count and think times are not in a log: 0 and none);
- its set: a set's seed is derived from the ladder's seed and the set's number (``derive_seed(seed, "set",
  N)``, a validation game's from the version's), so each game finds its set again; a set's games are
  numbered from its first, in the order of its seatings;
- the ratings, recomputed from the complete sets in the order their last games ended (the logs' times):
  the order the lost database applied them in, unless two sets ended within the same instant. A set
  with games still to play (a run stopped in it, or its last games were in play when the database was
  lost) is left open, as a stopped run leaves it: the next ``run`` plays the rest; unless one of its
  versions no longer plays (the next run would drop it, as the lost database's did), or a whole set
  before it was lost too, so its games' seatings are not known: then it is dropped, never rated.

After it, ``arena ladder check`` passes on the new database, and ``run`` goes on from it.
"""

from __future__ import annotations

import json
import re
import time
from dataclasses import replace
from pathlib import Path
from typing import Any

from referee.faults import Penalty
from referee.gamelog import LogError, read_json_lines
from referee.games.results import GameRecord, ViolationRecord
from referee.games.scheduled import seatings
from referee.ladder.backup import read_backup, write_backup
from referee.ladder.database import (
    ACTIVE,
    DROPPED,
    INSERT_SET,
    LADDER,
    OPEN,
    RATED,
    VALIDATED,
    VALIDATION,
    Code,
    LadderDatabase,
    LadderError,
    LadderSet,
    first_row,
    ladder_set_of,
)
from referee.ladder.policy import validation_seed
from referee.ladder.rate import rate_set
from referee.ladder.ratings import NEW
from referee.ladder.settings import LadderSettings
from referee.runfolder import LADDER_DB, RunFolder, log_name
from referee.seeding import derive_seed
from referee.setting import SettingsError

_GAME = re.compile(r"^g(\d+)\.jsonl$")


def recover(folder: RunFolder) -> list[str]:
    """Rebuild the database; what was done, as lines to print. LadderError when there is nothing to rebuild from."""
    saved = read_backup(folder)
    try:
        settings = LadderSettings.from_record(saved["settings"], str(folder.ladder_json))
    except (SettingsError, KeyError) as exc:
        raise LadderError(f"{folder.ladder_json}: cannot read the settings ({exc})") from None
    kept = _set_aside(folder)
    db = LadderDatabase.build(folder, settings, dict(saved.get("options", {})))
    try:
        lines = [f"kept the damaged database as {', '.join(kept)}"] if kept else []
        return lines + _rebuild(db, settings, saved["versions"])
    finally:
        db.close()


def _set_aside(folder: RunFolder) -> list[str]:
    stamp = time.strftime("%Y%m%d-%H%M%S")
    kept = []
    for suffix in ("", "-wal", "-shm"):
        path = folder.path / (LADDER_DB + suffix)
        if path.exists():
            target = folder.path / f"{LADDER_DB}.damaged-{stamp}{suffix}"
            path.rename(target)
            kept.append(target.name)
    return kept


def _rebuild(db: LadderDatabase, settings: LadderSettings, versions: list[dict[str, Any]]) -> list[str]:
    teams = settings.rules.teams
    labels: dict[str, int] = {}
    with db.write():
        for vid, v in enumerate(versions, start=1):
            code = Code(**v.get("code", {}))  # a ladder.json of schema 1 has none: its versions were not frozen
            db.sql.execute(
                "INSERT INTO versions (id, bot, version, argv, added_at, status, reason, output, mu, sigma, frozen, "
                "folder, size, language, tcp, tries) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                (vid, v["bot"], v["version"], json.dumps(v["argv"]), v["added_at"], v["status"], v["reason"],
                 v.get("output", ""), NEW.mu, NEW.sigma, code.frozen, code.folder, code.size, code.language,
                 int(code.tcp), int(v.get("tries", 0))),
            )  # fmt: skip
            label = f"{v['bot']}.v{v['version']}"
            for k in range(teams):
                labels[label if k == 0 else f"{label}.c{k + 1}"] = vid
    games = _logged_games(db.folder, settings, labels)
    validation = {
        validation_seed(settings.seed, vid, attempt): vid
        for vid, v in enumerate(versions, start=1)
        for attempt in range(int(v.get("tries", 0)) + 1)
    }
    most = max((g[0].game for g in games), default=0)
    by_seed = {derive_seed(settings.seed, "set", s): s for s in range(1, 2 * most + 2)}
    sets: dict[int, list[tuple[GameRecord, list[int], float]]] = {}
    kinds: dict[int, str] = {}
    checked: dict[int, int] = {}  # a validation set's version
    unplaced = 0
    for record, vids, ended in games:
        if record.seed in validation:
            set_id = -record.game  # a validation set is its one game (numbered after the ladder's sets, below)
            kinds[set_id] = VALIDATION
            checked[set_id] = validation[record.seed]
        elif record.seed in by_seed:
            set_id = by_seed[record.seed]
            kinds[set_id] = LADDER
        else:
            unplaced += 1
            continue
        sets.setdefault(set_id, []).append((record, vids, ended))
    size = settings.set_size
    orders = seatings(teams, every=True)
    done: list[tuple[float, LadderSet]] = []
    unfinished: list[str] = []
    end = 1  # where the set after the last one placed begins: sets number their games one after another
    last_ladder, validations = 0, 0  # a ladder set's number is in its seed; a validation set's is not
    with db.write():
        for set_id, members in sorted(sets.items(), key=lambda kv: min(r.game for r, _, _ in kv[1])):
            members.sort(key=lambda m: m[0].game)
            kind = kinds[set_id]
            count = 1 if kind == VALIDATION else size
            low = members[0][0].game
            complete = kind == VALIDATION or len(members) == size
            # no set between this one and the last placed was lost whole: this one begins where that one ended
            placed = kind == VALIDATION or set_id - last_ladder - 1 == validations
            first = end if placed and end <= low else low
            end = max(end, first + count)
            if kind == VALIDATION:
                group, state = [checked[set_id]], VALIDATED
                validations += 1
            else:  # the group from any seating: at seating r, team t is played by group[orders[r][t]]
                last_ladder, validations = set_id, 0
                order = orders[low - first]
                group = [0] * teams
                for t, vid in enumerate(members[0][1]):
                    group[order[t]] = vid
                playing = all(versions[vid - 1]["status"] == ACTIVE for vid in group)
                state = OPEN if complete or (placed and playing) else DROPPED
                if not complete:
                    then = (
                        "left open: `run` plays the rest"
                        if state == OPEN
                        else "a set before it was lost whole: dropped"
                        if playing
                        else "a version of it no longer plays: dropped"
                    )
                    unfinished.append(f"set {set_id}: {len(members)} of its {size} game(s) logged; {then}")
            cursor = db.sql.execute(
                INSERT_SET, (kind, json.dumps(group), members[0][0].seed, first, count, members[0][2], state)
            )
            assert cursor.lastrowid is not None
            for record, vids, ended in members:
                seated = replace(record, rotation=record.game - first)
                db.insert_game(cursor.lastrowid, seated, vids, ended, ended)
            if kind == LADDER and complete:
                row = first_row(db.sql.execute("SELECT * FROM sets WHERE id = ?", (cursor.lastrowid,)))
                done.append((max(m[2] for m in members), ladder_set_of(row)))
    for _, ladder_set in sorted(done, key=lambda d: d[0]):
        with db.write():
            rate_set(db, ladder_set)
    write_backup(db)
    rated = len(db.sets(state=RATED))
    lines = [
        f"rebuilt {db.folder.ladder_db}: {len(versions)} version(s), {len(games)} game(s) from their logs, "
        f"{rated} rated set(s)"
    ]
    lines += unfinished
    if unplaced:
        lines.append(f"{unplaced} log(s) fit no set of this ladder (another ladder's?) and were left out")
    return lines


def _logged_games(
    folder: RunFolder, settings: LadderSettings, labels: dict[str, int]
) -> list[tuple[GameRecord, list[int], float]]:
    """Each complete game log of the folder: its record, the version per team, when it ended."""
    out = []
    for path in sorted(folder.games.glob("g*.jsonl")):
        match = _GAME.match(path.name)
        if match is None:
            continue
        record = _record(path, int(match.group(1)), settings)
        if record is None or any(t not in labels for t in record.teams):
            continue
        out.append((record, [labels[t] for t in record.teams], path.stat().st_mtime))
    return out


def _record(path: Path, number: int, settings: LadderSettings) -> GameRecord | None:
    start: dict[str, Any] | None = None
    end: dict[str, Any] | None = None
    violations: list[dict[str, Any]] = []
    hands = 0
    try:
        for _, line in read_json_lines(path):
            event = line.get("event") if isinstance(line, dict) else None
            if event == "game_start":
                start = line
            elif event == "game_end":
                end = line
            elif event == "violation":
                violations.append(line)
            elif event == "hand_end":
                hands += 1
    except (OSError, LogError):
        return None
    if start is None or end is None:
        return None  # in play when it was lost
    seats = {s["seat"]: s for s in start["seats"]}
    teams = [""] * settings.rules.teams
    for s in start["seats"]:
        teams[s["team"]] = teams[s["team"]] or s["bot"]
    faults = tuple(
        ViolationRecord.from_json(
            {**v, "team": seats[v["seat"]]["team"], "bot": seats[v["seat"]]["bot"], "penalty": v.get("penalty", "none")}
        )
        for v in violations
    )
    forfeits = [v.team for v in faults if v.penalty is Penalty.FORFEIT]
    return GameRecord(
        game=number,
        game_id=f"g{number:04d}",
        group=tuple(teams),
        deal=0,
        rotation=0,  # not in a log: the set's games, in order of number, give each its seating
        seed=int(start["seed"]),
        teams=tuple(teams),
        scores=tuple(int(x) for x in end["scores"]),
        winner=end["winner"],
        reason=str(end["reason"]),
        forfeit=forfeits[0] if forfeits else None,
        hands=hands,
        decisions=0,
        violations=faults,
        think=(),
        log=log_name(f"g{number:04d}"),
    )
