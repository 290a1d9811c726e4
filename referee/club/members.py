"""Members and their tokens: ``invite`` makes a member and prints its token once, ``revoke`` ends it.

A token reads ``club_ID_SECRET``: ``ID`` (12 hex digits) is its public part, the key the server looks it up
by, so that checking a token costs one slow hash, not one per member; ``SECRET`` (32 random bytes, base64url)
is never stored. The database keeps only ``scrypt(SECRET, salt)`` (hashlib's, n=2**14, r=8, p=1: about
16 MiB and tens of milliseconds a check), so a copy of ``club.db`` gives no one a token. A token has the
scope of its member: ``member`` (submit, and read its own bots' versions, builds, logs) or ``admin``
(everything). ``revoke`` marks every token of a member revoked: the next request with one is refused,
whatever the server remembers (it reads the token's row on every request).

Checked tokens are remembered for a minute by their SHA-256 (a token is 256 random bits: a fast hash of it
gives nothing to guess from), so that a member's run of requests pays the slow hash once.
"""

from __future__ import annotations

import hashlib
import hmac
import re
import secrets
import sqlite3
import time
from dataclasses import dataclass

from referee.club.db import ClubError, rows
from referee.sqlitefile import transaction

MEMBER, ADMIN = "member", "admin"
SCOPES = (MEMBER, ADMIN)
_SCRYPT = {"n": 2**14, "r": 8, "p": 1, "maxmem": 64 * 1024 * 1024, "dklen": 32}
_TOKEN = re.compile(r"^club_([0-9a-f]{12})_([A-Za-z0-9_-]{43})$")
_NAME = re.compile(r"^[A-Za-z0-9][A-Za-z0-9_.-]{0,31}$")
REMEMBER_S = 60.0


@dataclass(frozen=True)
class Member:
    id: int
    name: str
    scope: str

    @property
    def admin(self) -> bool:
        return self.scope == ADMIN


def check_name(name: str) -> str:
    """A member's name: up to 32 letters, digits, '_', '-' or '.', starting with a letter or digit."""
    if not _NAME.fullmatch(name):
        raise ClubError(
            f"{name[:40]!r} cannot name a member: use up to 32 letters, digits, '_', '-' or '.', starting with a "
            "letter or digit"
        )
    return name


def _hash(secret: str, salt: bytes) -> bytes:
    return hashlib.scrypt(secret.encode(), salt=salt, **_SCRYPT)


def _new_token(db: sqlite3.Connection, member: int) -> str:
    token_id = secrets.token_hex(6)
    secret = secrets.token_urlsafe(32)
    salt = secrets.token_bytes(16)
    db.execute(
        "INSERT INTO tokens (id, member, salt, hash, made_at) VALUES (?, ?, ?, ?, ?)",
        (token_id, member, salt, _hash(secret, salt), time.time()),
    )
    return f"club_{token_id}_{secret}"


def invite(db: sqlite3.Connection, name: str, scope: str = MEMBER) -> tuple[Member, str]:
    """A new member and its token (the only time the token is seen); a member revoked before gets a new
    token and keeps its bots. ClubError when ``name`` is a member with a token in use."""
    check_name(name)
    if scope not in SCOPES:
        raise ClubError(f"scope {scope!r}: a scope is {' or '.join(SCOPES)}")
    with transaction(db):
        found = rows(db, "SELECT id, scope FROM members WHERE name = ?", (name,))
        if found:
            member_id = int(found[0]["id"])
            live = rows(db, "SELECT id FROM tokens WHERE member = ? AND revoked_at IS NULL", (member_id,))
            if live:
                raise ClubError(
                    f"{name} is a member already, with a token in use: `arena club revoke` it first to give a new one"
                )
            db.execute("UPDATE members SET scope = ? WHERE id = ?", (scope, member_id))
        else:
            cursor = db.execute(
                "INSERT INTO members (name, scope, invited_at) VALUES (?, ?, ?)", (name, scope, time.time())
            )
            member_id = int(cursor.lastrowid or 0)
        token = _new_token(db, member_id)
    return Member(member_id, name, scope), token


def revoke(db: sqlite3.Connection, name: str) -> int:
    """Revoke every token of member ``name``; how many were in use. ClubError when there is no such member."""
    with transaction(db):
        found = rows(db, "SELECT id FROM members WHERE name = ?", (name,))
        if not found:
            raise ClubError(f"no member named {name!r}")
        cursor = db.execute(
            "UPDATE tokens SET revoked_at = ? WHERE member = ? AND revoked_at IS NULL", (time.time(), found[0]["id"])
        )
    return cursor.rowcount


def members(db: sqlite3.Connection) -> list[tuple[Member, bool]]:
    """Every member, and whether it has a token in use."""
    out = []
    for row in rows(db, "SELECT id, name, scope FROM members ORDER BY name"):
        live = rows(db, "SELECT 1 FROM tokens WHERE member = ? AND revoked_at IS NULL", (row["id"],))
        out.append((Member(int(row["id"]), row["name"], row["scope"]), bool(live)))
    return out


class Tokens:
    """Checks tokens against the database, remembering the good ones for ``REMEMBER_S`` (by their SHA-256)."""

    def __init__(self, db: sqlite3.Connection) -> None:
        self.db = db
        self._known: dict[bytes, tuple[str, float]] = {}  # sha256(token) -> (token id, checked at)

    def check(self, token: str) -> Member | None:
        """The member whose token this is, or None: malformed, unknown, revoked or wrong."""
        match = _TOKEN.fullmatch(token)
        if match is None:
            return None
        token_id, secret = match.groups()
        found = rows(
            self.db,
            "SELECT t.salt, t.hash, t.revoked_at, m.id, m.name, m.scope FROM tokens t JOIN members m "
            "ON m.id = t.member WHERE t.id = ?",
            (token_id,),
        )
        if not found or found[0]["revoked_at"] is not None:
            return None
        row = found[0]
        member = Member(int(row["id"]), row["name"], row["scope"])
        fast = hashlib.sha256(token.encode()).digest()
        known = self._known.get(fast)
        if known is not None and known[0] == token_id and time.monotonic() - known[1] < REMEMBER_S:
            return member
        if not hmac.compare_digest(_hash(secret, bytes(row["salt"])), bytes(row["hash"])):
            return None
        self._known[fast] = (token_id, time.monotonic())
        return member
