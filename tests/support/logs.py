"""Reading what a run wrote: game logs (``referee.gamelog``) and a tournament's folder.

``records`` reads a log as written, line by line (each hand's hidden cards come in its ``reveal``);
``revealed`` reads it with the hidden cards in place, as a version-1 log has them
(``referee.replay.logfile.revealed_records``).
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterable
from pathlib import Path
from typing import Any

from referee.gamelog import read_json_lines, without_think_times
from referee.replay.logfile import revealed_records

Record = dict[str, Any]


def records(path: Path) -> list[Record]:
    """The log's records as written, one per line."""
    return [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines() if line.strip()]


def revealed(path: Path) -> list[Record]:
    """The log's records with the hidden cards in place (no reveal lines)."""
    return revealed_records(path)


def write_records(path: Path, recs: Iterable[Record]) -> None:
    """Write ``recs`` as a log, one JSON line each (a test's edited log)."""
    path.write_text("".join(json.dumps(r) + "\n" for r in recs), encoding="utf-8")


def of_kind(recs: Iterable[Record], event: str) -> list[Record]:
    return [r for r in recs if r["event"] == event]


def violations(recs: Iterable[Record]) -> list[Record]:
    return of_kind(recs, "violation")


def seat_kind_penalty(recs: Iterable[Record]) -> list[tuple[int, str, str]]:
    """(seat, kind, penalty) of each violation."""
    return [(r["seat"], r["kind"], r["penalty"]) for r in violations(recs)]


def find(recs: list[Record], predicate: Callable[[Record], bool], nth: int = 0) -> int:
    """Index (0-based; the line number is this + 1) of the nth record that matches."""
    hits = [k for k, r in enumerate(recs) if predicate(r)]
    assert len(hits) > nth, "the log holds no such record"
    return hits[nth]


def match_folder(log_dir: Path) -> Path:
    """The one match folder (``match-DATE-TIME``) that ``arena match``, ``play`` or ``serve`` made in ``log_dir``."""
    folders = sorted(p for p in log_dir.glob("match-*") if p.is_dir())
    assert len(folders) == 1, f"expected one match folder in {log_dir}, found {folders}"
    return folders[0]


def only_log(folder: Path) -> Path:
    """The one game log (``*.jsonl``) in ``folder``, or in the one match folder in it (``--log-dir folder``)."""
    logs = sorted(folder.glob("*.jsonl")) or sorted(folder.glob("match-*/*.jsonl"))
    assert len(logs) == 1, f"expected one log in {folder}, found {logs}"
    return logs[0]


def bot_outputs(log_dir: Path, pattern: str = "*") -> list[Path]:
    """The bots' output files (``PATTERN.stderr``) of the match folders in ``log_dir``."""
    return sorted(log_dir.glob(f"match-*/{pattern}.stderr"))


# ------------------------------------------------------------ a tournament's folder


def results(folder: Path) -> list[Record]:
    """The result records of a tournament folder, by game number."""
    return sorted((r for _, r in read_json_lines(folder / "results.jsonl")), key=lambda r: r["game"])


def result_lines(folder: Path) -> int:
    """Lines of the tournament's results file so far (0 before it exists)."""
    try:
        return (folder / "results.jsonl").read_bytes().count(b"\n")
    except FileNotFoundError:
        return 0


def standings(folder: Path) -> list[Record]:
    rows: list[Record] = json.loads((folder / "standings.json").read_text())["standings"]
    return rows


def without_think(rows: list[Record]) -> list[Record]:
    """Result or standings rows without the think times (the clock differs from run to run)."""
    return [{k: v for k, v in row.items() if not k.startswith("think")} for row in rows]


def same_games(folder: Path, plain: Path) -> None:
    """The folder holds the games of the plain run: results, standings and every log record for record,
    all but how long the bots took (the think times)."""
    assert without_think(results(folder)) == without_think(results(plain))
    assert without_think(standings(folder)) == without_think(standings(plain))
    for r in results(plain):
        assert without_think_times(revealed(folder / r["log"])) == without_think_times(revealed(plain / r["log"]))
    assert not list((folder / "games").glob("*.part"))
