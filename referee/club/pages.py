"""The club's pages: the public one (the ladder's page, and finished games' replays), and what a member's own
page shows.

A member's page (``member.html``, at ``/me`` for the member whose session it is) shows that member's versions
(an admin's: everyone's): each one's tree, state and why, its build output, its validation and what it
printed in its recent games, its rating over time and its head-to-head results, by version. The data is made
here; the page draws it with ``textContent`` only, so a name, a build's output or a bot's stderr holding
markup shows as text.
"""

from __future__ import annotations

import json
import tempfile
import time
from collections import defaultdict
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

from referee.club.members import Member
from referee.club.submissions import Submission
from referee.ladder.page import ladder_page
from referee.replay.html import viewer_page
from referee.replay.logfile import load_log
from referee.report.page import filled_page
from referee.runfolder import write_atomically

_DATA_MARK = "/*CLUB-DATA*/null"


def _when(t: float) -> str:
    return time.strftime("%Y-%m-%d %H:%M", time.localtime(t))


def member_document(
    member: Member,
    versions: Sequence[Submission],
    build_log: Callable[[Submission], str],
    ladder: Callable[[Submission], dict[str, Any]] | None = None,
    bots: Callable[[str], dict[str, Any]] | None = None,
) -> dict[str, Any]:
    """The page's data. ``ladder``: what the ladder says of a version (status, why, validation, stderr);
    ``bots``: a bot's ratings over time and head-to-head results by version."""
    rows = []
    by_bot: dict[str, list[dict[str, Any]]] = defaultdict(list)
    for v in versions:
        said = ladder(v) if ladder is not None else {}
        row = {
            "bot": v.bot,
            "version": v.version,
            "label": v.label,
            "member": v.member,
            "language": v.language,
            "hash": v.hash,
            "size": v.size,
            "sent": _when(v.sent_at),
            "status": said.get("status", v.state),
            "why": said.get("why", v.reason),
        }
        rows.append(row)
        by_bot[v.bot].append(
            {
                **row,
                "build_log": build_log(v),
                "validation": said.get("validation", ""),
                "stderr": said.get("stderr", []),
            }
        )
    return {
        "member": {"name": member.name, "admin": member.admin},
        "updated": _when(time.time()),
        "versions": rows,
        "bots": [
            {"name": name, "versions": entries, **(bots(name) if bots is not None else {})}
            for name, entries in sorted(by_bot.items())
        ],
    }


def public_replay(log: Path, page: Path) -> str:
    """A finished game's public replay page: every seat's cards, as any replay shows, but no fault's detail (a
    crash's words are its bot's own output, its member's alone). Made once, kept at ``page``."""
    if page.exists() and page.stat().st_mtime_ns >= log.stat().st_mtime_ns:
        return page.read_text(encoding="utf-8")
    lines = []
    for raw in log.read_text(encoding="utf-8").splitlines():
        record = json.loads(raw)
        if isinstance(record, dict) and record.get("event") == "violation" and record.get("detail"):
            record["detail"] = f"({record.get('kind', 'fault')}: its details are its member's)"
        if isinstance(record, dict) and record.get("event") == "game_end" and record.get("detail"):
            record["detail"] = ""
        lines.append(json.dumps(record, separators=(",", ":")))
    with tempfile.TemporaryDirectory(prefix="arena-replay-") as scratch:
        redacted = Path(scratch) / log.name
        redacted.write_text("\n".join(lines) + "\n", encoding="utf-8")
        html = viewer_page(load_log(redacted))
    page.parent.mkdir(parents=True, exist_ok=True)
    write_atomically(page, html)
    return html


def public_page(board: dict[str, Any]) -> str:
    """The club's public page: the ladder's page of ``board`` (``entries.public_board``), refreshed by the
    server's events."""
    return ladder_page({**board, "live": {"events": "events", "tables": []}})


def member_page(document: dict[str, Any]) -> str:
    return filled_page("referee.club", "member.html", _DATA_MARK, document)
