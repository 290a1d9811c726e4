"""``--verify``: re-run a whole log through the engine and check every record.

Each game is replayed with ``GameReplay`` (deal, legality of every action,
every event field: trick winners, points, running totals, the game's end);
then ``match_end``, when present, must repeat each game's result. The first
disagreement raises ``Mismatch``; otherwise ``VerifyResult.summary()`` is the
one line to print.
"""

from __future__ import annotations

from dataclasses import dataclass

from referee.engine.events import DealEvent
from referee.replay.logfile import MatchLog
from referee.replay.steps import DecisionPoint, GameReplay, Mismatch, Step, Violation


@dataclass(frozen=True, slots=True)
class VerifyResult:
    path: str
    preset: str
    games: int
    hands: int
    decisions: int
    records: int  # game records checked against the engine's events
    violations: int
    cut_off: str | None  # where the log stops, when it was cut off
    partial_tail: bool

    def summary(self) -> str:
        plural = "" if self.games == 1 else "s"
        text = (
            f"{self.path}: ok, {self.games} game{plural} of {self.preset}: {self.hands} hands, "
            f"{self.decisions} decisions; all {self.records} game records agree with the engine"
        )
        if self.violations:
            text += f" ({self.violations} violation record{'' if self.violations == 1 else 's'})"
        if self.cut_off is not None:
            text += f"; the log is cut off {self.cut_off}"
            if self.partial_tail:
                text += " (a partial last line was ignored)"
        return text


def verify_log(match: MatchLog, game: int | None = None) -> VerifyResult:
    """Check every game of ``match`` (or only game number ``game``); raises ``Mismatch`` at the first difference."""
    chosen = match.games if game is None else [match.game(game)]
    hands = decisions = records = faults = 0
    cut_off: str | None = None
    for logged in chosen:
        replay = GameReplay(match, logged)
        for item in replay:
            if isinstance(item, Step):
                hands += isinstance(item.event, DealEvent)
            elif isinstance(item, DecisionPoint):
                decisions += 1
            elif isinstance(item, Violation):
                faults += 1
        records += replay.checked
        if replay.cut_off is not None:
            cut_off = f"in game {logged.number}, {replay.cut_off}"
    if game is None and match.cut_off and cut_off is None:
        cut_off = f"after game {len(match.games)} (no match_end)" if match.games else "before the first game"
    if game is None and match.end is not None:
        _check_match_end(match)
    return VerifyResult(
        path=str(match.path),
        preset=match.preset,
        games=len(chosen),
        hands=hands,
        decisions=decisions,
        records=records,
        violations=faults,
        cut_off=cut_off,
        partial_tail=match.partial_tail,
    )


def _check_match_end(match: MatchLog) -> None:
    """match_end repeats each game's result: the winner, scores and reason of its game_end."""
    assert match.end is not None
    where = match.where(match.end.line)
    rec = match.end.record
    if rec.get("games") != len(match.games):
        raise Mismatch(f"{where}: match_end: expected games {len(match.games)}, recorded {rec.get('games')!r}")
    results = rec.get("results")
    if not isinstance(results, list) or len(results) != len(match.games):
        raise Mismatch(f"{where}: match_end needs 'results', one per game ({len(match.games)})")
    for logged, result in zip(match.games, results, strict=True):
        end = next(e.record for e in logged.entries if e.event == "game_end")
        if not isinstance(result, dict):
            raise Mismatch(f"{where}: match_end: the result of game {logged.number} is not an object")
        for key in ("winner", "scores", "reason"):
            if key in result and result[key] != end.get(key):
                raise Mismatch(
                    f"{where}: match_end: game {logged.number}: expected {key} {end.get(key)!r} "
                    f"(its game_end), recorded {result[key]!r}"
                )
