"""What the report takes from one game's log: each answer's think time by decision kind, the points of every
hand, and the line of every violation (the replay opens there).

The log is read by ``referee.replay.logfile.load_log``, as ``arena replay`` reads it; the live view hands the
same records over as they happen (``from_records``). The record of a bot's answer carries ``ms``, the time
the referee charged for it (docs/logs.md); an action the referee played for a bot has none and is not
counted.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from referee.gamelog import THINK_FIELD, LogError
from referee.replay.logfile import load_log

# The decision kinds, in the order the report shows them.
KINDS = ("bid", "trump", "give", "discard", "play")


def decision_kind(record: dict[str, Any]) -> str | None:
    """The kind of decision whose answer made this record, or None when it is not a bot's answer."""
    if THINK_FIELD not in record:
        return None
    event = record.get("event")
    if event == "bid":
        return "bid"
    if event == "contract":
        return "trump"
    if event == "exchange":
        return "discard" if record.get("to") is None else "give"
    if event == "play":
        return "play"
    return None


@dataclass
class GameStats:
    """One game's answers, hands and violations, by seat."""

    seat_bots: list[str] = field(default_factory=list)  # the bot at each seat
    seat_teams: list[int] = field(default_factory=list)  # the team of each seat
    think: list[tuple[int, str, int]] = field(default_factory=list)  # (seat, kind, ms) per answer
    hand_points: list[list[int]] = field(default_factory=list)  # per hand dealt and scored, per team
    violation_lines: list[int] = field(default_factory=list)  # the log line of each violation, in order

    def add(self, line: int, record: dict[str, Any]) -> None:
        event = record.get("event")
        if event == "game_start":
            seats = record.get("seats") or []
            self.seat_bots = [str(s.get("bot")) for s in seats]
            self.seat_teams = [int(s.get("team", 0)) for s in seats]
        elif event == "hand_end":
            self.hand_points.append([int(p) for p in record.get("points", [])])
        elif event == "violation":
            self.violation_lines.append(line)
        else:
            kind = decision_kind(record)
            seat = record.get("declarer" if event == "contract" else "from" if event == "exchange" else "seat")
            if kind is not None and isinstance(seat, int):
                self.think.append((seat, kind, int(record[THINK_FIELD])))


def from_records(records: Iterable[tuple[int, dict[str, Any]]]) -> GameStats:
    """The stats of (line, record) pairs of one game."""
    stats = GameStats()
    for line, record in records:
        stats.add(line, record)
    return stats


def read_game(path: Path) -> GameStats:
    """The stats of a tournament game's log (one game); LogError, one line naming the file, when it cannot be
    read (OSError: it is missing)."""
    match = load_log(path)
    if not match.games:
        raise LogError(f"{path}: the log holds no game")
    logged = match.games[0]
    return from_records([(logged.start.line, logged.start.record), *((e.line, e.record) for e in logged.entries)])
