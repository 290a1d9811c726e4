"""Submissions: which member owns which bot, every version a member sent, and where each stands.

A submission is a version of a bot: its frozen tree (``referee.frozen``), its language, and its state::

    received -> building -> built -> (the ladder: validation, then play)
                         -> failed          (its build failed: never plays; ``retry`` builds it again)

A bot's name is its first sender's: another member cannot send versions of it (the admin can). The same
content sent again for the same bot is the same version (``UNIQUE (bot, hash)``), and costs no quota. A
member may send ``submissions_per_day`` new versions in any 24 hours (an admin, any number).

Every function here takes the club's connection (``referee.club.db``) and does its work in one transaction.
"""

from __future__ import annotations

import sqlite3
import time
from collections.abc import Callable
from dataclasses import dataclass

from referee.club.db import ClubError, rows
from referee.club.members import Member
from referee.sqlitefile import transaction

RECEIVED, BUILDING, BUILT, FAILED = "received", "building", "built", "failed"
DAY_S = 24 * 3600.0


class QuotaError(ClubError):
    """A member over a quota; the message says when the next submission is possible."""


class NotYours(ClubError):
    """A bot or version of another member."""


@dataclass(frozen=True)
class Submission:
    id: int
    member: str
    bot: str
    version: int
    hash: str
    language: str
    size: int
    files: int
    sent_at: float
    state: str
    reason: str
    build_seconds: float | None
    build: str | None  # what its build made (a frozen tree's hash)

    @property
    def label(self) -> str:
        return f"{self.bot}@{self.version}"

    def record(self) -> dict[str, object]:
        return {
            "bot": self.bot,
            "version": self.version,
            "member": self.member,
            "hash": self.hash,
            "language": self.language,
            "size": self.size,
            "files": self.files,
            "sent_at": self.sent_at,
            "state": self.state,
            "reason": self.reason,
            "build_seconds": self.build_seconds,
        }


_SELECT = (
    "SELECT s.id, m.name AS member, s.bot, s.version, s.hash, s.language, s.size, s.files, s.sent_at, s.state, "
    "s.reason, s.build_seconds, s.build FROM submissions s JOIN members m ON m.id = s.member"
)


def _submission(row: sqlite3.Row) -> Submission:
    return Submission(
        row["id"],
        row["member"],
        row["bot"],
        row["version"],
        row["hash"],
        row["language"],
        row["size"],
        row["files"],
        row["sent_at"],
        row["state"],
        row["reason"],
        row["build_seconds"],
        row["build"],
    )


def owner(db: sqlite3.Connection, bot: str) -> str | None:
    found = rows(db, "SELECT m.name FROM bots b JOIN members m ON m.id = b.member WHERE b.name = ?", (bot,))
    return None if not found else str(found[0][0])


def check_may_send(db: sqlite3.Connection, member: Member, bot: str) -> None:
    """NotYours when ``bot`` is another member's (an admin may send to any)."""
    held_by = owner(db, bot)
    if held_by is not None and held_by != member.name and not member.admin:
        raise NotYours(f"the bot {bot} is another member's: choose another name for yours")


def quota_left(db: sqlite3.Connection, member: Member, per_day: int, now: float | None = None) -> tuple[int, float]:
    """New versions ``member`` may still send now, and when the oldest of the last 24 hours ages out."""
    now = time.time() if now is None else now
    sent = rows(
        db,
        "SELECT sent_at FROM submissions WHERE member = ? AND sent_at > ? ORDER BY sent_at",
        (member.id, now - DAY_S),
    )
    next_at = float(sent[0][0]) + DAY_S if sent else now
    return max(0, per_day - len(sent)), next_at


def submit(
    db: sqlite3.Connection,
    member: Member,
    bot: str,
    hash: str,
    language: str,
    size: int,
    files: int,
    per_day: int,
    number: Callable[[], int] | None = None,
) -> tuple[Submission, bool]:
    """Record a version of ``bot``: the submission, and whether it is new (False: this content was sent before,
    and that version is given back). ``number``: the version's number (the ladder's, taken once every check has
    passed), else the bot's next. NotYours, or QuotaError with when the next one is possible."""
    with transaction(db):
        check_may_send(db, member, bot)
        same = rows(db, f"{_SELECT} WHERE s.bot = ? AND s.hash = ?", (bot, hash))
        if same:
            return _submission(same[0]), False
        left, next_at = quota_left(db, member, per_day)
        if left <= 0 and not member.admin:
            raise QuotaError(
                f"{per_day} new versions in 24 hours is this club's quota: the next one can be sent after "
                f"{time.strftime('%Y-%m-%d %H:%M', time.localtime(next_at))}"
            )
        now = time.time()
        if owner(db, bot) is None:
            db.execute("INSERT INTO bots (name, member, made_at) VALUES (?, ?, ?)", (bot, member.id, now))
        if number is not None:
            version = number()
        else:
            last = rows(db, "SELECT MAX(version) FROM submissions WHERE bot = ?", (bot,))
            version = int(last[0][0] or 0) + 1
        cursor = db.execute(
            "INSERT INTO submissions (member, bot, version, hash, language, size, files, sent_at, state) "
            "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
            (member.id, bot, version, hash, language, size, files, now, RECEIVED),
        )
        made = rows(db, f"{_SELECT} WHERE s.id = ?", (cursor.lastrowid,))
    return _submission(made[0]), True


def get(db: sqlite3.Connection, member: Member, bot: str, version: int | None = None) -> Submission:
    """A version of ``bot`` (its newest when ``version`` is None) that ``member`` may read; NotYours or
    ClubError (no such bot or version) otherwise. Another member's bot reads as no bot at all to a member, so
    that names cannot be probed."""
    held_by = owner(db, bot)
    if held_by is None or (held_by != member.name and not member.admin):
        raise NotYours(f"you have no bot named {bot}")
    if version is None:
        found = rows(db, f"{_SELECT} WHERE s.bot = ? ORDER BY s.version DESC LIMIT 1", (bot,))
    else:
        found = rows(db, f"{_SELECT} WHERE s.bot = ? AND s.version = ?", (bot, version))
    if not found:
        raise ClubError(f"{bot} has no version {version}" if version is not None else f"{bot} has no version yet")
    return _submission(found[0])


def of_member(db: sqlite3.Connection, member: Member) -> list[Submission]:
    """Every version ``member`` may read (an admin: every one), newest first."""
    if member.admin:
        found = rows(db, f"{_SELECT} ORDER BY s.sent_at DESC")
    else:
        found = rows(db, f"{_SELECT} WHERE s.member = ? ORDER BY s.sent_at DESC", (member.id,))
    return [_submission(r) for r in found]


def everyone(db: sqlite3.Connection) -> list[Submission]:
    return [_submission(r) for r in rows(db, f"{_SELECT} ORDER BY s.id")]


def by_id(db: sqlite3.Connection, submission: int) -> Submission:
    return _submission(rows(db, f"{_SELECT} WHERE s.id = ?", (submission,))[0])


def waiting(db: sqlite3.Connection) -> list[Submission]:
    """The versions still to build, oldest first; one a stopped server was building is built again."""
    with transaction(db):
        db.execute("UPDATE submissions SET state = ? WHERE state = ?", (RECEIVED, BUILDING))
    return [_submission(r) for r in rows(db, f"{_SELECT} WHERE s.state = ? ORDER BY s.id", (RECEIVED,))]


def set_state(
    db: sqlite3.Connection,
    submission: int,
    state: str,
    reason: str = "",
    build_seconds: float | None = None,
    build: str | None = None,
) -> None:
    with transaction(db):
        db.execute(
            "UPDATE submissions SET state = ?, reason = ?, build_seconds = COALESCE(?, build_seconds), "
            "build = COALESCE(?, build) WHERE id = ?",
            (state, reason, build_seconds, build, submission),
        )


def built_before(db: sqlite3.Connection, submission: Submission) -> str | None:
    """What a build of the same files in the same language made, when one was made (its hash)."""
    found = rows(
        db,
        "SELECT build FROM submissions WHERE hash = ? AND language = ? AND build IS NOT NULL LIMIT 1",
        (submission.hash, submission.language),
    )
    return None if not found else str(found[0][0])
