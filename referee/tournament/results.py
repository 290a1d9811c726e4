"""The results file of a tournament: one JSON line per finished game, flushed and fsync'd.

A line is appended only after the game's log is complete on disk, so a game
is either in the file (done: never played again) or not (played again on
``--resume``, its partial log replaced). A last line cut off by kill -9 is
ignored when reading and cut away before appending.

A record::

    {"game": 7, "game_id": "g0007", "group": ["rules", "random"], "deal": 1, "rotation": 0,
     "seed": 123..., "teams": ["rules", "random"], "scores": [52, -8], "winner": 0,
     "reason": "target", "forfeit": null, "hands": 9, "decisions": 301,
     "violations": [{"seat": 1, "team": 1, "bot": "random", "kind": "timeout", "penalty": "forfeit", "detail": "..."}],
     "think": [{"answers": 150, "total_ms": 2210, "max_ms": 96}, {"answers": 151, "total_ms": 45, "max_ms": 2}],
     "log": "games/g0007.jsonl"}

``think`` is per team: the answers its seats gave and the time charged for
them (absent in files written before it existed).
"""

from __future__ import annotations

import asyncio
import os
from collections.abc import Sequence
from pathlib import Path
from typing import Any, TextIO

from referee.engine.rules import Rules
from referee.gamelog import LogError, dumps, read_json_lines
from referee.match import GameResult
from referee.thinktime import ThinkTime
from referee.tournament.schedule import ScheduledGame
from referee.tournament.standings import Outcome


def result_record(game: ScheduledGame, result: GameResult, rules: Rules, log: str) -> dict[str, Any]:
    violations = [
        {
            "seat": v.seat,
            "team": rules.team_of(v.seat),
            "bot": result.bot_names[v.seat],
            "kind": v.kind,
            "penalty": v.penalty,
            "detail": v.detail,
        }
        for v in result.violations
    ]
    forfeits = [v["team"] for v in violations if v["penalty"] == "forfeit"]
    think = [ThinkTime()] * rules.teams
    for seat, seat_think in enumerate(result.think):
        team = rules.team_of(seat)
        think[team] = think[team].merge(seat_think)
    return {
        "game": game.number,
        "game_id": game.game_id,
        "group": list(game.group),
        "deal": game.deal,
        "rotation": game.rotation,
        "seed": game.seed,
        "teams": list(game.teams),
        "scores": list(result.scores),
        "winner": result.winner,
        "reason": result.reason,
        "forfeit": forfeits[0] if forfeits else None,
        "hands": result.hands,
        "decisions": result.decisions,
        "violations": violations,
        "think": [{"answers": t.answers, "total_ms": t.total_ms, "max_ms": t.max_ms} for t in think],
        "log": log,
    }


def outcome(record: dict[str, Any]) -> Outcome:
    """The standings' view of a result record (KeyError/TypeError/ValueError on a bad one)."""
    teams = tuple(record["teams"])
    if not teams or not all(isinstance(t, str) for t in teams):
        raise ValueError(f"teams must be a list of bot names, got {record['teams']!r}")
    if len(record["scores"]) != len(teams):
        raise ValueError(f"{len(record['scores'])} scores for {len(teams)} teams")
    for key in ("winner", "forfeit"):
        team = record[key]
        if team is not None and (not isinstance(team, int) or isinstance(team, bool) or not 0 <= team < len(teams)):
            raise ValueError(f"{key} {team!r} is not a team of the game")
    per_team = [0] * len(teams)
    for v in record["violations"]:
        per_team[v["team"]] += 1
    think = record.get("think") or [{"answers": 0, "total_ms": 0, "max_ms": 0}] * len(teams)
    if len(think) != len(teams):
        raise ValueError(f"think times for {len(think)} teams, the game has {len(teams)}")
    return Outcome(
        number=int(record["game"]),
        teams=teams,
        scores=tuple(int(s) for s in record["scores"]),
        winner=record["winner"],
        forfeit=record["forfeit"],
        hands=int(record["hands"]),
        violations=tuple(per_team),
        think=tuple(ThinkTime(int(t["answers"]), int(t["total_ms"]), int(t["max_ms"])) for t in think),
    )


def read_results(path: Path, schedule: Sequence[ScheduledGame]) -> dict[int, dict[str, Any]]:
    """The finished games by number; LogError names the line of a record that does not fit the schedule."""
    done: dict[int, dict[str, Any]] = {}
    if not path.exists():
        return done
    for line, record in _records(path):
        where = f"{path}:{line}"
        if not isinstance(record, dict):
            raise LogError(f"{where}: a result line must be a JSON object")
        try:
            number = record["game"]
            result = outcome(record)
        except (KeyError, TypeError, ValueError, IndexError) as exc:
            what = f"missing field {exc}" if isinstance(exc, KeyError) else str(exc)
            raise LogError(f"{where}: bad result record: {what}") from None
        if not isinstance(number, int) or not 1 <= number <= len(schedule):
            raise LogError(f"{where}: game {number!r} is not in this tournament's schedule of {len(schedule)} games")
        game = schedule[number - 1]
        if result.teams != game.teams or record.get("seed") != game.seed:
            raise LogError(
                f"{where}: game {number} was {' vs '.join(result.teams)} (seed {record.get('seed')}); the schedule "
                f"says {' vs '.join(game.teams)} (seed {game.seed}): the file belongs to other settings"
            )
        if number in done:
            raise LogError(f"{where}: game {number} is recorded twice")
        done[number] = record
    return done


def _records(path: Path) -> list[tuple[int, Any]]:
    try:
        return list(read_json_lines(path))
    except OSError as exc:
        raise LogError(f"{path}: cannot read it ({exc.strerror or exc})") from None


class ResultsWriter:
    """Appends result records; each one is on disk (fsync) before ``append`` returns."""

    def __init__(self, path: Path) -> None:
        self.path = path
        _cut_partial_line(path)
        self._file: TextIO = path.open("a", encoding="utf-8")

    async def append(self, record: dict[str, Any]) -> None:
        self._file.write(dumps(record) + "\n")
        self._file.flush()
        # fsync off the event loop: other tables' bots are on the clock meanwhile
        await asyncio.to_thread(os.fsync, self._file.fileno())

    def close(self) -> None:
        if not self._file.closed:
            self._file.close()


def _cut_partial_line(path: Path) -> None:
    """Drop a last line cut off mid-write (kill -9), so the next record starts on a line of its own."""
    if not path.exists():
        return
    data = path.read_bytes()
    if data and not data.endswith(b"\n"):
        keep = data.rfind(b"\n") + 1
        os.truncate(path, keep)
