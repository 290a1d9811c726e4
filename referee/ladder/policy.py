"""What the ladder decides by its rules: a new version and the one it follows, retiring, what a finished game
decides (its validation game makes a version play or puts it in error, and supersedes the older version of
its bot; faults in too many ladder games suspend a version), each committed with the game that decides it.

The rules are the ladder's; the rows are the database's (``referee.ladder.database``), the ratings the
rating step's (``referee.ladder.rate``), and every change of a version is written to ladder.json too
(``referee.ladder.backup``).
"""

from __future__ import annotations

import time
from collections.abc import Sequence

from referee.games.results import GameRecord
from referee.ladder.backup import write_backup
from referee.ladder.database import (
    ACTIVE,
    BUILDING,
    ERROR,
    NOT_FROZEN,
    PENDING,
    RETIRED,
    SUPERSEDED,
    SUSPENDED,
    VALIDATED,
    VALIDATION,
    Code,
    LadderDatabase,
    LadderError,
    LadderSet,
    Version,
)
from referee.ladder.rate import rate_set
from referee.seeding import derive_seed

SUSPEND_AFTER = 8  # ladder games a version plays before it can be suspended for faults
SUSPEND_SHARE = 0.25  # it is suspended when more than this share of its ladder games had a fault of its
MOST_TEAMS = 8  # copies of a version its validation game may seat (one per team)


def add_version(
    db: LadderDatabase, bot: str, argv: Sequence[str], code: Code = NOT_FROZEN
) -> tuple[Version, Version | None]:
    """A new version of ``bot`` (its first, or the next), pending its validation game; and the version it
    follows. LadderError, and nothing written, when the newest version has this command and these files
    already (a frozen copy's path names its files' hash: the same files give the same command)."""
    with db.write():
        previous = db.newest(bot)
        if previous is not None and previous.argv == tuple(argv) and previous.status != RETIRED:
            hashed = code.frozen and " " not in code.frozen  # not the arena's own
            files = f", its files frozen as {code.shown}," if hashed else ""
            raise LadderError(
                f"{bot}: this command{files} is version {previous.version} already ({previous.status}); nothing "
                "changed (a new version needs changed files, or a new command)"
            )
        added = db.insert_version(bot, 1 if previous is None else previous.version + 1, argv, code)
    write_backup(db)
    return added, previous


def add_building(db: LadderDatabase, bot: str, code: Code) -> Version:
    """A club's new version of ``bot``, its number taken now, while it is built (not yet paired or validated)."""
    with db.write():
        previous = db.newest(bot)
        added = db.insert_version(bot, 1 if previous is None else previous.version + 1, (), code, BUILDING)
    write_backup(db)
    return added


def built(db: LadderDatabase, vid: int, argv: Sequence[str], code: Code) -> Version:
    """A version's build is done: it runs ``argv`` from its build, and waits for its validation game."""
    with db.write():
        db.set_command(vid, argv, code)
        if db.version(vid).status == BUILDING:
            db.set_status(vid, PENDING, "")
    write_backup(db)
    return db.version(vid)


def build_failed(db: LadderDatabase, vid: int, reason: str) -> None:
    """A version whose build failed: in error, never paired."""
    with db.write():
        if db.version(vid).status == BUILDING:
            db.set_status(vid, ERROR, reason)
    write_backup(db)


def rebuild(db: LadderDatabase, vid: int) -> None:
    """A version in error built again (a club's retry), its content unchanged."""
    with db.write():
        db.set_status(vid, BUILDING, "")
    write_backup(db)


def retry(db: LadderDatabase, bot: str, number: int) -> Version:
    """Validate a version in error again, its files unchanged: it waits for a new validation game (on another
    deal). LadderError for a version that is not in error, or has no command yet (its build failed)."""
    with db.write():
        found = [v for v in db.versions_of(bot) if v.version == number]
        if not found:
            known = ", ".join(str(v.version) for v in db.versions_of(bot)) or "none"
            raise LadderError(f"{bot} has no version {number} (its versions: {known})")
        version = found[0]
        if version.status != ERROR:
            raise LadderError(f"{version.label} is {version.status}: only a version in error is validated again")
        if not version.argv:
            raise LadderError(f"{version.label} was never built: build it again instead")
        db.count_try(version.id)
        db.set_status(version.id, PENDING, "")
    write_backup(db)
    return db.version(version.id)


def validation_seed(seed: int, vid: int, attempt: int) -> int:
    """The deal of a version's validation game: its first, then each game ``arena ladder retry`` asks for (a
    new deal each time, so that ``recover`` tells them apart)."""
    return derive_seed(seed, "validation", vid) if attempt == 0 else derive_seed(seed, "validation", vid, attempt)


def retire(db: LadderDatabase, bot: str) -> list[Version]:
    """Retire the bot's versions that play or wait to (their ratings are kept); the versions retired.
    LadderError when the ladder has no such bot, or none of its versions plays."""
    with db.write():
        versions = db.versions_of(bot)
        if not versions:
            known = ", ".join(sorted({v.bot for v in db.versions()})) or "none yet"
            raise LadderError(f"the ladder has no bot {bot!r} (its bots: {known})")
        playing = [v for v in versions if v.status in (PENDING, ACTIVE)]
        if not playing:
            raise LadderError(f"{bot}: no version of it plays (nothing to retire)")
        when = time.strftime("%Y-%m-%d %H:%M")
        for v in playing:
            db.set_status(v.id, RETIRED, f"retired on {when}")
    write_backup(db)
    return playing


def record_game(
    db: LadderDatabase, ladder_set: LadderSet, record: GameRecord, started: float, finished: float
) -> list[str]:
    """Commit a finished game with what it decides, in one transaction: the rating update of the set it
    completes; for a validation game, the version's status (active, or error); a suspension. What changed,
    as lines for the log."""
    labels = _labels(db, ladder_set)
    teams = [labels[name] for name in record.teams]
    changes: list[str] = []
    with db.write():
        db.insert_game(ladder_set.id, record, teams, started, finished)
        if ladder_set.kind == VALIDATION:
            changes += _validated(db, ladder_set, record)
        else:
            if len(db.recorded(ladder_set.id)) == ladder_set.size:
                rate_set(db, ladder_set)
            changes += _suspensions(db, set(teams))
    if changes:
        write_backup(db)
    return changes


def _labels(db: LadderDatabase, ladder_set: LadderSet) -> dict[str, int]:
    """The names the set's versions play under, to their ids (a validation game's copies included)."""
    versions = [db.version(v) for v in ladder_set.versions]
    if ladder_set.kind == VALIDATION:
        v = versions[0]
        return {v.copy_label(k): v.id for k in range(MOST_TEAMS)}
    return {v.label: v.id for v in versions}


def _validated(db: LadderDatabase, ladder_set: LadderSet, record: GameRecord) -> list[str]:
    """A validation game's outcome: the version plays (and supersedes the older one of its bot, unless every
    version plays), or it is in error, with the fault and the output of its bot."""
    version = db.version(ladder_set.versions[0])
    db.set_state(ladder_set.id, VALIDATED)
    if version.status != PENDING:
        return []  # retired meanwhile
    if record.violations:
        fault = record.violations[0]
        output = db.folder.last_output(fault.bot)
        reason = f"validation game {record.game_id}: {fault.kind.value}: {fault.detail}"
        db.set_status(version.id, ERROR, reason, "" if output is None else str(output.relative_to(db.folder.path)))
        return [f"{version.label} is in error: {reason}"]
    db.set_status(version.id, ACTIVE, "")
    changes = [f"{version.label} passed its validation game {record.game_id} and plays"]
    keep = bool(db.options().get("all_versions"))  # a ladder where every version plays supersedes none
    for older in [] if keep else db.versions():
        if older.bot == version.bot and older.id != version.id and older.status == ACTIVE:
            db.set_status(older.id, SUPERSEDED, f"superseded by v{version.version}")
            changes.append(f"{older.label} is superseded by v{version.version}")
    return changes


def _suspensions(db: LadderDatabase, versions: set[int]) -> list[str]:
    """The versions of a ladder game suspended by it: faults in more than ``SUSPEND_SHARE`` of their ladder
    games, once they played ``SUSPEND_AFTER``."""
    changes = []
    for vid in sorted(versions):
        version = db.version(vid)
        if version.status != ACTIVE:
            continue
        played, faulted, last = fault_count(db, vid)
        if played >= SUSPEND_AFTER and faulted > SUSPEND_SHARE * played:
            reason = (
                f"suspended: faults in {faulted} of its {played} ladder games (more than "
                f"{SUSPEND_SHARE:.0%}); the last: {last}"
            )
            db.set_status(vid, SUSPENDED, reason)
            changes.append(f"{version.label} is {reason}")
    return changes


def fault_count(db: LadderDatabase, vid: int) -> tuple[int, int, str]:
    """A version's ladder games, those with a fault of its own, and the last fault (kind: detail)."""
    games = db.ladder_games_of(vid)
    faulted, last = 0, ""
    for teams, record in games:
        mine = {t for t, v in enumerate(teams) if v == vid}
        faults = [v.to_json() for v in record.violations if v.team in mine]
        if faults:
            faulted += 1
            last = f"{faults[-1]['kind']}: {faults[-1]['detail']}"
    return len(games), faulted, last
