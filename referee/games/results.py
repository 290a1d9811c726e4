"""The results file of a run of games (a tournament, an SPRT): one JSON line per finished game, flushed and fsync'd.

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
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any, TextIO

from referee.engine.rules import Rules
from referee.faults import NOT_STARTED, Penalty, ViolationKind
from referee.gamelog import LogError, dumps, read_json_lines
from referee.games.scheduled import ScheduledGame
from referee.games.standings import Outcome
from referee.match import GameResult
from referee.thinktime import ThinkTime

# The games a run has fixed, given the outcomes of its finished games by number (a format played in rounds
# fixes a round once the last one's results are in).
Schedule = Callable[[Mapping[int, Outcome]], Sequence[ScheduledGame]]


@dataclass(frozen=True)
class ViolationRecord:
    """A violation in a game's result: by whom, what, what it cost."""

    seat: int
    team: int
    bot: str
    kind: ViolationKind
    penalty: Penalty
    detail: str  # the reason (for a bot that never started: without the NOT_STARTED words)
    not_started: bool = False  # the bot could not be started or connected for the game

    def to_json(self) -> dict[str, Any]:
        detail = f"{NOT_STARTED}{self.detail}" if self.not_started else self.detail
        return {
            "seat": self.seat,
            "team": self.team,
            "bot": self.bot,
            "kind": self.kind.value,
            "penalty": self.penalty.value,
            "detail": detail,
        }

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> ViolationRecord:
        kind = ViolationKind(data["kind"])
        detail = str(data["detail"])
        not_started = kind is ViolationKind.CRASH and detail.startswith(NOT_STARTED)
        return cls(
            seat=_whole(data["seat"]),
            team=_whole(data["team"]),
            bot=str(data["bot"]),
            kind=kind,
            penalty=Penalty(data["penalty"]),
            detail=detail.removeprefix(NOT_STARTED) if not_started else detail,
            not_started=not_started,
        )


@dataclass(frozen=True)
class GameRecord:
    """One finished game: its line of results.jsonl, and what crosses from a table (a worker
    process, a Ray node) to the driver. ``from_json(to_json())`` is the same record."""

    game: int  # its number in the schedule
    game_id: str
    group: tuple[str, ...]  # the bots of its duplicate set
    deal: int
    rotation: int
    seed: int
    teams: tuple[str, ...]  # the bot playing each team
    scores: tuple[int, ...]  # per team
    winner: int | None
    reason: str
    forfeit: int | None  # the team that forfeited, if one did
    hands: int
    decisions: int
    violations: tuple[ViolationRecord, ...]
    think: tuple[ThinkTime, ...]  # per team (empty in files from before think times)
    log: str  # the game's log, relative to the run's folder
    round: int = 1  # the round of a format played in rounds

    @classmethod
    def of(cls, game: ScheduledGame, result: GameResult, rules: Rules, log: str) -> GameRecord:
        """The record of ``result``, the game ``game`` of the schedule, whose log is at ``log``."""
        violations = tuple(
            ViolationRecord(
                seat=v.seat,
                team=rules.team_of(v.seat),
                bot=result.bot_names[v.seat],
                kind=v.kind,
                penalty=v.penalty,
                detail=v.reason,
                not_started=v.not_started,
            )
            for v in result.violations
        )
        forfeits = [v.team for v in violations if v.penalty is Penalty.FORFEIT]
        think = [ThinkTime()] * rules.teams
        for seat, seat_think in enumerate(result.think):
            team = rules.team_of(seat)
            think[team] = think[team].merge(seat_think)
        return cls(
            game=game.number,
            game_id=game.game_id,
            group=tuple(game.group),
            deal=game.deal,
            rotation=game.rotation,
            seed=game.seed,
            teams=tuple(game.teams),
            scores=tuple(result.scores),
            winner=result.winner,
            reason=result.reason,
            forfeit=forfeits[0] if forfeits else None,
            hands=result.hands,
            decisions=result.decisions,
            violations=violations,
            think=tuple(think),
            log=log,
            round=game.round,
        )

    def to_json(self) -> dict[str, Any]:
        return {
            "game": self.game,
            "game_id": self.game_id,
            "group": list(self.group),
            "deal": self.deal,
            "rotation": self.rotation,
            "seed": self.seed,
            "teams": list(self.teams),
            "scores": list(self.scores),
            "winner": self.winner,
            "reason": self.reason,
            "forfeit": self.forfeit,
            "hands": self.hands,
            "decisions": self.decisions,
            "violations": [v.to_json() for v in self.violations],
            "think": [{"answers": t.answers, "total_ms": t.total_ms, "max_ms": t.max_ms} for t in self.think],
            "log": self.log,
            "round": self.round,
        }

    @classmethod
    def from_json(cls, data: Any) -> GameRecord:
        """A record read back; KeyError, TypeError or ValueError say what does not fit."""
        if not isinstance(data, dict):
            raise TypeError("a result must be a JSON object")
        teams = tuple(data["teams"])
        if not teams or not all(isinstance(t, str) for t in teams):
            raise ValueError(f"teams must be a list of bot names, got {data['teams']!r}")
        scores = tuple(_whole(s) for s in data["scores"])
        if len(scores) != len(teams):
            raise ValueError(f"{len(scores)} scores for {len(teams)} teams")
        for key in ("winner", "forfeit"):
            team = data[key]
            if team is not None and (not isinstance(team, int) or isinstance(team, bool) or not 0 <= team < len(teams)):
                raise ValueError(f"{key} {team!r} is not a team of the game")
        violations = tuple(ViolationRecord.from_json(v) for v in data["violations"])
        if any(not 0 <= v.team < len(teams) for v in violations):
            raise ValueError("a violation names a team the game does not have")
        think = data.get("think") or []
        if think and len(think) != len(teams):
            raise ValueError(f"think times for {len(think)} teams, the game has {len(teams)}")
        return cls(
            game=_whole(data["game"]),
            game_id=str(data.get("game_id", "")),
            group=tuple(data.get("group", teams)),
            deal=_whole(data.get("deal", 0)),
            rotation=_whole(data.get("rotation", 0)),
            seed=_whole(data["seed"]),
            teams=teams,
            scores=scores,
            winner=data["winner"],
            reason=str(data["reason"]),
            forfeit=data["forfeit"],
            hands=_whole(data["hands"]),
            decisions=_whole(data.get("decisions", 0)),
            violations=violations,
            think=tuple(ThinkTime(_whole(t["answers"]), _whole(t["total_ms"]), _whole(t["max_ms"])) for t in think),
            log=str(data.get("log", "")),
            round=_whole(data.get("round", 1)),  # absent: a format played in one round
        )

    def outcome(self) -> Outcome:
        """What the standings need of the game."""
        per_team = [0] * len(self.teams)
        for v in self.violations:
            per_team[v.team] += 1
        return Outcome(
            number=self.game,
            teams=self.teams,
            scores=self.scores,
            winner=self.winner,
            forfeit=self.forfeit,
            hands=self.hands,
            violations=tuple(per_team),
            think=self.think or tuple(ThinkTime() for _ in self.teams),
        )


def _whole(value: Any) -> int:
    if not isinstance(value, int) or isinstance(value, bool):
        raise TypeError(f"expected a whole number, got {value!r}")
    return value


def read_results(path: Path, schedule: Schedule) -> dict[int, GameRecord]:
    """The finished games by number; LogError names the line of a record that does not fit the games
    ``schedule`` fixes from them (the records of a round fix the next one, so all are read before any is
    checked)."""
    done: dict[int, GameRecord] = {}
    lines: dict[int, str] = {}
    if not path.exists():
        return done
    for line, data in _records(path):
        where = f"{path}:{line}"
        if not isinstance(data, dict):
            raise LogError(f"{where}: a result line must be a JSON object")
        try:
            record = GameRecord.from_json(data)
        except (KeyError, TypeError, ValueError, IndexError) as exc:
            what = f"missing field {exc}" if isinstance(exc, KeyError) else str(exc)
            raise LogError(f"{where}: bad result record: {what}") from None
        if record.game in done:
            raise LogError(f"{where}: game {record.game} is recorded twice")
        done[record.game] = record
        lines[record.game] = where
    fixed = schedule({n: r.outcome() for n, r in done.items()})
    for number, record in done.items():
        where = lines[number]
        if not 1 <= number <= len(fixed):
            raise LogError(f"{where}: game {number!r} is not in this run's schedule of {len(fixed)} games")
        game = fixed[number - 1]
        if record.teams != game.teams or record.seed != game.seed:
            raise LogError(
                f"{where}: game {number} was {' vs '.join(record.teams)} (seed {record.seed}); the schedule "
                f"says {' vs '.join(game.teams)} (seed {game.seed}): the file belongs to other settings"
            )
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

    async def append(self, record: GameRecord) -> None:
        self._file.write(dumps(record.to_json()) + "\n")
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
