"""The game log writer (referee/gamelog.py LogWriter): whole flushed lines, and nothing after the last."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from referee.gamelog import LogWriter


def test_no_record_follows_the_last_one(tmp_path: Path) -> None:
    """A bot's late answer that comes while a finished game's log is synced is not written after its
    match_end (it was, and the log reader refused that log)."""
    path = tmp_path / "g.jsonl"
    writer = LogWriter(path)
    writer.write({"event": "match_start"})
    writer.write_last({"event": "match_end"})
    assert writer.closed  # what the match checks before it logs a late answer
    with pytest.raises(ValueError, match="nothing may follow"):
        writer.write({"event": "violation"})
    writer.sync()
    writer.close()
    assert [json.loads(line)["event"] for line in path.read_text().splitlines()] == ["match_start", "match_end"]
