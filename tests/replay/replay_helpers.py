"""Reading and editing log files in the replay tests."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

from typer.testing import CliRunner

from referee.cli.app import app
from referee.replay.logfile import revealed_records

# a bot whose every choice hangs on a checksum of everything it was told (tests of replay --ask)
DIGEST_BOT = Path(__file__).parent / "bots" / "digest_bot.py"

Record = dict[str, Any]


def records(path: Path) -> list[Record]:
    """The log's records as written, one per line (hidden cards come in each hand's reveal)."""
    return [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines() if line.strip()]


def revealed(path: Path) -> list[Record]:
    """The log's records with the hidden cards in place, as a version-1 log has them (no reveal lines)."""
    return revealed_records(path)


def write_records(path: Path, recs: list[Record]) -> None:
    path.write_text("".join(json.dumps(r) + "\n" for r in recs), encoding="utf-8")


def find(recs: list[Record], predicate: Callable[[Record], bool], nth: int = 0) -> int:
    """Index (0-based; the line number is this + 1) of the nth record that matches."""
    hits = [k for k, r in enumerate(recs) if predicate(r)]
    assert len(hits) > nth, "the log holds no such record"
    return hits[nth]


def run(*args: str | Path) -> tuple[int, str, str]:
    """``arena ARGS`` in-process: (exit code, stdout, stderr)."""
    result = CliRunner().invoke(app, [str(a) for a in args])
    if result.exception is not None and not isinstance(result.exception, SystemExit):
        raise result.exception
    return result.exit_code, result.stdout, result.stderr


def one_line_error(code: int, out: str, err: str) -> str:
    """Assert a clean failure: exit status 1, one line on stderr, no traceback; return the line."""
    assert code == 1, (code, out, err)
    assert "Traceback" not in out + err
    lines = err.strip().splitlines()
    assert len(lines) == 1, err
    assert lines[0].startswith("error: ")
    return lines[0]


def text_of(text: str | None) -> str:
    """A page's text (Playwright gives None only for a node with no text content at all, such as a document)."""
    assert text is not None
    return text
