"""``ladder.json``: the ladder's settings and every version, beside its database, rewritten whole at every change
of a version (``referee.runfolder.write_json``): with the games' logs, what ``arena ladder recover`` rebuilds a
lost database from (``read_backup``).
"""

from __future__ import annotations

import dataclasses
import json
from typing import Any

from referee.ladder.database import SCHEMA, LadderDatabase, LadderError
from referee.runfolder import RunFolder, write_json


def write_backup(db: LadderDatabase) -> None:
    """ladder.json, whole: the settings, and every version's bot, number, command, code, when added, status,
    reason and validation games."""
    data = [
        {
            "bot": v.bot,
            "version": v.version,
            "argv": list(v.argv),
            "added_at": v.added_at,
            "status": v.status,
            "reason": v.reason,
            "output": v.output,
            "code": dataclasses.asdict(v.code),
            "tries": v.tries,
        }
        for v in db.versions()
    ]
    record = {"schema": SCHEMA, "settings": db.settings().record(), "options": db.options(), "versions": data}
    write_json(db.folder.ladder_json, record)


def read_backup(folder: RunFolder) -> dict[str, Any]:
    """What ladder.json holds; LadderError (one line) when there is none, or it is not a ladder's."""
    if not folder.ladder_json.exists():
        raise LadderError(f"{folder.path} has no ladder.json: nothing to rebuild a ladder from")
    try:
        data = json.loads(folder.ladder_json.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, json.JSONDecodeError) as exc:
        raise LadderError(f"{folder.ladder_json}: cannot read it ({exc})") from None
    if not isinstance(data, dict) or "versions" not in data or "settings" not in data:
        raise LadderError(f"{folder.ladder_json} is not a ladder's settings and versions")
    return data
