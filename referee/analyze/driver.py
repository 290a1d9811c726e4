"""``arena analyze``'s work from start to end: find the logs, choose the seats, plan, run, collect.

``find_logs(path)`` reads a log file, or every game log of a folder: a
tournament's or SPRT's folder (its ``games/``), a match's folder, or a
folder of match logs and match folders (``logs/``). ``choose_seats`` turns ``--seat`` / ``--bot`` into the seats
of each game, refusing a seat or a bot the logs do not have. ``analyse``
plans every game (``plan``), runs the hands (``spread``) and collects the
results (``summary.Analysis``).
"""

from __future__ import annotations

import time
from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path

from referee.analyze.evaluate import Budget, Worth, average_worth
from referee.analyze.plan import GamePlan, HandPlan, plan_game
from referee.analyze.spread import Runner
from referee.analyze.summary import Analysis, GameAnalysis, plan_game_analysis
from referee.engine.rules import Rules
from referee.errors import InputError, did_you_mean
from referee.replay.logfile import LoggedGame, MatchLog, load_log
from referee.runfolder import MATCH_LOG, RunFolder


class AnalyzeError(InputError):
    """Bad input for the analysis (a path, a seat, a bot): the message is one line."""


def find_logs(path: Path) -> list[MatchLog]:
    """The logs at ``path``: the file itself, or the game logs of a folder: a run's (``games/*.jsonl``), a
    match's (``match.jsonl``), or a folder of logs and of match folders (``*.jsonl``, ``*/match.jsonl``: what
    ``arena match`` leaves in ``logs/``).

    Raises ``AnalyzeError`` for a missing path or a folder without logs, ``LogError`` for a file that is not a log.
    """
    if not path.exists():
        raise AnalyzeError(f"{path}: no such file or folder")
    if path.is_file():
        return [load_log(path)]
    games = RunFolder(path).games
    if games.is_dir():
        files = sorted(games.glob("*.jsonl"))
    else:
        files = sorted([*path.glob("*.jsonl"), *path.glob(f"*/{MATCH_LOG}")])
    if not files:
        where = f"{games}" if games.is_dir() else f"{path} (nor a match folder's {MATCH_LOG} in it)"
        raise AnalyzeError(f"no game logs (*.jsonl) in {where}")
    return [load_log(f) for f in files]


@dataclass(frozen=True)
class SeatChoice:
    """``--seat S`` or ``--bot NAME`` (neither: every seat)."""

    seat: int | None = None
    bot: str | None = None

    def describe(self) -> str:
        if self.seat is not None:
            return f"seat {self.seat}"
        if self.bot is not None:
            return f"bot {self.bot}"
        return "every seat"


def choose_seats(logs: Sequence[MatchLog], choice: SeatChoice) -> dict[tuple[str, int], tuple[int, ...]]:
    """The seats to analyse in each game, keyed by (log path, game number); ``AnalyzeError`` for an unknown
    seat or bot."""
    chosen: dict[tuple[str, int], tuple[int, ...]] = {}
    for match in logs:
        players = match.rules.players
        if choice.seat is not None and not 0 <= choice.seat < players:
            raise AnalyzeError(f"{match.path}: there is no seat {choice.seat} (seats 0..{players - 1})")
        for logged in match.games:
            names = logged.seat_names
            if choice.seat is not None:
                seats: tuple[int, ...] = (choice.seat,)
            elif choice.bot is not None:
                seats = tuple(s for s, name in enumerate(names) if name == choice.bot)
            else:
                seats = tuple(range(players))
            if seats:
                chosen[(str(match.path), logged.number)] = seats
    if choice.bot is not None and not chosen:
        known = sorted({name for m in logs for g in m.games for name in g.seat_names})
        hint = did_you_mean(choice.bot, known)
        raise AnalyzeError(f"no bot {choice.bot!r} in the logs{hint} (they hold {', '.join(known) or 'no game'})")
    return chosen


@dataclass
class Planned:
    """Every game planned: the games and their hands, ready to run."""

    games: list[tuple[GamePlan, GameAnalysis, Rules]]
    hands: list[tuple[int, HandPlan]]  # index into ``games``, the hand
    cut_between: list[str] = field(default_factory=list)  # logs that stop between games, a line each

    @property
    def decisions(self) -> int:
        """Every decision of the chosen seats, the forced ones (one legal choice) included."""
        return sum(len(h.decisions) for _, h in self.hands)

    def statuses(self) -> Counter[str]:
        """The decisions by what the analysis does with each (``DecisionItem.status``): rate it, or not."""
        return Counter(d.status for _, h in self.hands for d in h.decisions)


def plan_logs(logs: Sequence[MatchLog], seats: dict[tuple[str, int], tuple[int, ...]], game: int | None) -> Planned:
    """Replay every chosen game and plan its hands (``LogError`` where a log disagrees with the engine)."""
    planned = Planned([], [])
    for match in logs:
        chosen = match.games if game is None else [match.game(game)]
        for logged in chosen:
            wanted = seats.get((str(match.path), logged.number))
            if not wanted:
                continue
            plan = plan_game(match, logged, wanted)
            analysed = plan_game_analysis(plan, match.preset, match.path)
            analysed.cut_off = plan.cut_off
            planned.hands.extend((len(planned.games), hand) for hand in plan.hands)
            planned.games.append((plan, analysed, match.rules))
        if match.cut_off and (not match.games or _ended(match.games[-1])):
            # no game of it stops inside a hand, yet the match's end is missing: say where the log stops
            where = f"after game {len(match.games)}" if match.games else "before its first game"
            planned.cut_between.append(f"{match.path}: the log is cut off {where}: analysed up to there")
    return planned


def _ended(logged: LoggedGame) -> bool:
    return any(entry.record.get("event") == "game_end" for entry in logged.entries)


def analyse(
    planned: Planned,
    *,
    source: str,
    budget: Budget,
    seed: int,
    choice: SeatChoice,
    runner: Runner,
    where: str = "in this process",
    on_hand: Callable[[int], None] | None = None,
) -> Analysis:
    """Run every planned hand and collect the analysis; ``on_hand(decisions)`` after each hand is done."""
    started = time.perf_counter()
    analysis = Analysis(source, budget, seed, choice.describe(), where=where, cut_between=list(planned.cut_between))
    averages: dict[Rules, tuple[Worth, ...]] = {}
    for _, game, rules in planned.games:
        if rules not in averages:
            averages[rules] = average_worth(rules, seed)
            analysis.averages[game.preset] = averages[rules]
        analysis.games.append(game)
    index_of = {id(hand): index for index, hand in planned.hands}
    for hand, result in runner((h for _, h in planned.hands), budget, seed):
        plan, game, rules = planned.games[index_of[id(hand)]]  # the runners hand back the plans given them
        analysis.add(game, plan, hand, result, averages[rules])
        if on_hand is not None:
            on_hand(len(hand.decisions))
    analysis.sort()
    analysis.seconds = time.perf_counter() - started
    return analysis
