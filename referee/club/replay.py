"""Replayed requests: what a request that changes something carries, so that sending it twice changes nothing.

The club's requests travel over TLS with a bearer token: TLS keeps anyone on the way from reading, changing
or replaying them. What is left is the same request arriving twice: a member's command sent again after a
lost answer, or a request copied from wherever it was kept (a proxy's log, a shell's history) and sent
again. So every request that changes something (``submit``, ``retry``) carries:

- ``X-Arena-Nonce``: 32 hex digits, random, new for each command;
- ``X-Arena-Time``: when it was made (seconds since the epoch).

The server refuses a request whose time is more than ``WINDOW_S`` away from its own clock, and remembers
every nonce it took for at least as long, with the answer it gave. A nonce seen before is a replay: nothing
is done again, and the first answer is given back, marked ``replayed`` (a command whose answer was lost
gets it; a copied request gets nothing new). A replay that arrives while the first is still being handled
is refused. A nonce is the member's own: the same nonce with another member's token is refused.
"""

from __future__ import annotations

import json
import re
import sqlite3
import time
from typing import Any

from referee.club.db import ClubError, rows
from referee.club.members import Member
from referee.sqlitefile import transaction

WINDOW_S = 300.0
NONCE_HEADER, TIME_HEADER = "X-Arena-Nonce", "X-Arena-Time"
_NONCE = re.compile(r"^[0-9a-f]{32}$")
_PENDING = ""


class ReplayError(ClubError):
    """A request that cannot be taken as new: no nonce, a stale time, a nonce of another member, one in flight."""


def claim(db: sqlite3.Connection, member: Member, nonce: str | None, sent: str | None) -> dict[str, Any] | None:
    """Take the request's nonce: None when it is new (the caller then does the work and ``answer``s it), or the
    first answer when it was seen before. ReplayError when it cannot be taken."""
    if nonce is None or not _NONCE.fullmatch(nonce):
        raise ReplayError(f"a request that changes something needs an {NONCE_HEADER} of 32 hex digits")
    try:
        made = float(sent or "")
    except ValueError:
        raise ReplayError(f"a request that changes something needs an {TIME_HEADER} (seconds since 1970)") from None
    now = time.time()
    if abs(now - made) > WINDOW_S:
        raise ReplayError(
            f"the request was made {abs(now - made):.0f} s away from the server's clock (at most {WINDOW_S:.0f} s): "
            "check this machine's clock, and send it again"
        )
    with transaction(db):
        db.execute("DELETE FROM nonces WHERE seen_at < ?", (now - 2 * WINDOW_S,))
        seen = rows(db, "SELECT member, answer FROM nonces WHERE nonce = ?", (nonce,))
        if not seen:
            db.execute(
                "INSERT INTO nonces (nonce, member, seen_at, answer) VALUES (?, ?, ?, ?)",
                (nonce, member.id, now, _PENDING),
            )
            return None
    if int(seen[0]["member"]) != member.id:
        raise ReplayError("this request's nonce was used by another member: a request is sent once, by its maker")
    if seen[0]["answer"] == _PENDING:
        raise ReplayError("this request is being handled already: wait for its answer")
    answer: dict[str, Any] = json.loads(seen[0]["answer"])
    return answer


def answer(db: sqlite3.Connection, nonce: str, given: dict[str, Any]) -> None:
    """Keep the answer given to the request of ``nonce``, for a replay of it."""
    with transaction(db):
        db.execute("UPDATE nonces SET answer = ? WHERE nonce = ?", (json.dumps(given), nonce))


def drop(db: sqlite3.Connection, nonce: str) -> None:
    """Forget a nonce whose request was refused (nothing was done: the member may send it again)."""
    with transaction(db):
        db.execute("DELETE FROM nonces WHERE nonce = ?", (nonce,))
