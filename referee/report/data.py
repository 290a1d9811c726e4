"""The report's data, from a tournament (or SPRT) folder's files, built game by game.

``read_folder(path)`` reads ``settings.json`` (without it the folder is not a tournament: ``ReportError``),
``sprt.json`` when there is one, ``results.jsonl`` (a line cut off mid-write, or one that is not a result of
this tournament, is left out and named in ``problems``), each game's log (a missing or unreadable one is named
too: its game keeps its result, without think times or a replay link) and ``analysis.json`` when
``arena analyze`` left one. ``Report.add`` takes one more finished game: the live view calls it as games end.

The numbers come from the arena's own code, so they are those of the terminal and the files: standings and
Elo from ``referee.games.standings``, each pair's Elo difference as a gauntlet's head-to-head
(``referee.tournament.gauntlet``), the SPRT's LLR and Elo from ``referee.stats.sprt`` counting pairs as the
run does (``referee.sprt.playing.PairTally``); an SPRT's games are its pairs (``referee.sprt.playing.pairs``).

``document()`` is what the page draws: JSON made of lists and numbers, games as compact rows (30 bots and
10,000 games stay under a couple of megabytes).
"""

from __future__ import annotations

import json
import math
import time
from collections import Counter, defaultdict
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from itertools import combinations
from pathlib import Path
from typing import Any

from referee.errors import InputError
from referee.faults import Penalty
from referee.gamelog import LogError
from referee.games.results import GameRecord
from referee.games.scheduled import ScheduledGame
from referee.games.standings import RANKING, Outcome, standings
from referee.report.gamestats import KINDS, GameStats, read_game
from referee.runfolder import SETTINGS, FolderError, RunFolder
from referee.sprt.config import SprtPlan, SprtSettings
from referee.sprt.playing import PairTally, pairs
from referee.stats.sprt import Pentanomial, pentanomial_estimate
from referee.tournament.gauntlet import head_to_head
from referee.tournament.schedule import FixedSchedule, Format, Meeting, Plan
from referee.tournament.settings import SettingsError, TournamentSettings

# Think-time histogram bins (ms): each bin holds the times from its edge up to the next one.
THINK_EDGES = (0, 1, 2, 5, 10, 20, 50, 100, 200, 500, 1000, 2000, 5000, 10_000, 30_000)
SPRT_POINTS = 600  # the SPRT charts get at most about this many points (every pair, or every k-th)
_PROBLEMS_SHOWN = 5  # of one kind, the first few are named


class ReportError(InputError):
    """The folder gives no report at all; the message is one line."""


def _finite(x: float, digits: int = 1) -> float | None:
    return None if math.isinf(x) or math.isnan(x) else round(x, digits)


def _quantile(counts: Counter[int], q: float) -> int:
    """The smallest value with at least ``q`` of the counted values at or below it."""
    total = sum(counts.values())
    need = max(1, math.ceil(q * total))
    seen = 0
    for value in sorted(counts):
        seen += counts[value]
        if seen >= need:
            return value
    return 0


def think_bin(ms: int) -> int:
    """The histogram bin of a think time."""
    for k in range(len(THINK_EDGES) - 1, -1, -1):
        if ms >= THINK_EDGES[k]:
            return k
    return 0


@dataclass
class _Game:
    """One finished game, as the report keeps it."""

    record: GameRecord
    outcome: Outcome
    violation_lines: list[int] | None  # None: no log to point into
    log_problem: str | None


class Report:
    """The report of one folder, game by game. ``add`` one finished game; ``document()`` for the page."""

    def __init__(self, folder: Path, settings: TournamentSettings | SprtSettings, plan: SprtPlan | None = None) -> None:
        """A tournament's folder (``settings``), or an SPRT's (its ``settings`` and ``plan``, its test)."""
        self.folder = folder
        self.settings = settings
        self.plan = plan
        self.bots = list(settings.bot_names)
        self.index = {name: k for k, name in enumerate(self.bots)}
        self.format: Format
        if isinstance(settings, TournamentSettings):
            self.format = settings.format()
        else:
            assert plan is not None, "an SPRT's report needs its test"
            self.format = FixedSchedule(pairs(settings, plan))
        self._plan: Plan | None = None  # of the games added so far (made again when one is added)
        self.games: dict[int, _Game] = {}
        self.order: list[int] = []  # game numbers in the order they were added (the live page appends)
        self.problems: list[str] = []
        self.analysis: dict[str, Any] | None = None
        self.sprt_result: dict[str, Any] | None = None
        # per bot: think times by kind (ms -> answers), points of its team per hand, violations by kind
        self.think: dict[str, dict[str, Counter[int]]] = {b: {k: Counter() for k in KINDS} for b in self.bots}
        self.hand_points: dict[str, Counter[int]] = {b: Counter() for b in self.bots}
        self.violations: dict[str, Counter[str]] = {b: Counter() for b in self.bots}
        # per pair of bots (by index): the first's points and the hands dealt, over the games both played
        self.pair_points: dict[tuple[int, int], list[int]] = defaultdict(lambda: [0, 0])
        self.missing_logs: list[str] = []
        self.bad_logs: list[str] = []

    # ------------------------------------------------------------------ input

    def add(self, record: GameRecord, stats: GameStats | None, log_problem: str | None = None) -> None:
        """One finished game: its results.jsonl record and its log's stats (None: the log could not be read,
        ``log_problem`` says why)."""
        number = record.game
        if number in self.games:
            return
        self._plan = None
        result = record.outcome()
        self.games[number] = _Game(record, result, None if stats is None else stats.violation_lines, log_problem)
        self.order.append(number)
        teams = result.teams
        for i, j in combinations(range(len(teams)), 2):
            for a, b, me in ((teams[i], teams[j], i), (teams[j], teams[i], j)):
                pair = self.pair_points[(self.index[a], self.index[b])]
                pair[0] += result.scores[me]
                pair[1] += result.hands
        for v in record.violations:
            if v.bot in self.violations:
                self.violations[v.bot][v.kind.value] += 1
        if stats is None:
            return
        for seat, kind, ms in stats.think:
            if 0 <= seat < len(stats.seat_bots) and stats.seat_bots[seat] in self.think:
                self.think[stats.seat_bots[seat]][kind][ms] += 1
        for points in stats.hand_points:
            for team, bot in enumerate(teams):
                if team < len(points):
                    self.hand_points[bot][points[team]] += 1

    def add_from_folder(self, record: GameRecord) -> None:
        """One finished game, its log read from the folder (a missing or bad log is noted, not fatal)."""
        log = self.folder / record.log
        try:
            stats: GameStats | None = read_game(log)
            problem = None
        except FileNotFoundError:
            stats, problem = None, "its log is missing"
            self.missing_logs.append(record.log)
        except (OSError, LogError) as exc:
            stats, problem = None, str(exc)
            self.bad_logs.append(str(exc))
        self.add(record, stats, problem)

    # ----------------------------------------------------------------- output

    @property
    def kind(self) -> str:
        if isinstance(self.settings, TournamentSettings):
            return str(self.settings.format_name)
        return "sprt"

    def _schedule_meta(self) -> dict[str, Any]:
        """How the games are dealt and how many a group plays: a tournament's settings say it, an SPRT plays
        duplicate pairs, up to its most pairs."""
        settings = self.settings
        if isinstance(settings, TournamentSettings):
            return {"duplicate": settings.duplicate, "games_per_pairing": settings.games, "gauntlet": settings.gauntlet}
        assert self.plan is not None
        return {"duplicate": True, "games_per_pairing": 2 * self.plan.max_pairs, "gauntlet": None}

    def outcomes(self) -> list[Outcome]:
        return [g.outcome for g in self.games.values()]

    @property
    def schedule_plan(self) -> Plan:
        """The format's plan from the games added so far (the rounds they fix)."""
        if self._plan is None:
            self._plan = plan_of(self.format, (g.record for g in self.games.values()))
        return self._plan

    @property
    def schedule(self) -> tuple[ScheduledGame, ...]:
        """The games fixed by the games added so far."""
        return self.schedule_plan.games

    def all_problems(self) -> list[str]:
        out = list(self.problems)
        for what, names in (("missing", self.missing_logs), ("unreadable", self.bad_logs)):
            if names:
                shown = "; ".join(names[:_PROBLEMS_SHOWN]) + (" ..." if len(names) > _PROBLEMS_SHOWN else "")
                out.append(f"{len(names)} game log(s) {what}, shown without think times or a replay: {shown}")
        return out

    def summary(self) -> dict[str, Any]:
        """Everything but the games: the standings, the tables, per-bot figures, the SPRT, the analysis."""
        settings = self.settings
        outcomes = self.outcomes()
        plan = self.schedule_plan
        rows = standings(self.bots, outcomes, order=plan.order, columns=plan.columns)
        return {
            "meta": {
                "name": settings.name,
                "kind": self.kind,
                "round": plan.round,
                "rounds": plan.rounds,
                "bracket": plan.bracket,
                "columns": list(plan.columns),
                "preset": settings.preset,
                "teams": settings.rules.teams,
                "players": settings.rules.players,
                "seed": settings.seed,
                **self._schedule_meta(),
                "move_time_ms": settings.move_time_ms,
                "on_fault": settings.on_fault.value,
                "games_played": len(self.games),
                "games_scheduled": plan.expected,
                "written": time.strftime("%Y-%m-%d %H:%M:%S"),
                "ranking": plan.ranking or RANKING,
            },
            "bots": self.bots,
            "problems": self.all_problems(),
            "standings": [{"rank": k, **r.as_dict()} for k, r in enumerate(rows, start=1)],
            "pairs": self._pairs(outcomes),
            "groups": self._groups() if settings.rules.teams > 2 and not plan.meetings else None,
            "rounds": self._rounds(plan),
            "perBot": self._per_bot(),
            "thinkEdges": list(THINK_EDGES),
            "kinds": list(KINDS),
            "sprt": self._sprt() if self.plan is not None else None,
            "analysis": self._analysis(),
        }

    def game_rows(self, start: int = 0) -> list[list[Any]]:
        """The games from the ``start``-th added on, one compact row each (the page's ``GAME_FIELDS``)."""
        return [self._row(self.games[n]) for n in self.order[start:]]

    def document(self) -> dict[str, Any]:
        """The whole report's data, games in schedule order."""
        self.order.sort()
        return {**self.summary(), "games": self.game_rows()}

    # ------------------------------------------------------------- the parts

    def _pairs(self, outcomes: Sequence[Outcome]) -> list[list[Any]]:
        """Per ordered pair that met:
        [a, b, games, wins, draws, losses, score, pts/hand, elo, low, high, significant]."""
        out: list[list[Any]] = []
        for a, name in enumerate(self.bots):
            for m in head_to_head(name, self.bots, outcomes):
                if not m.games:
                    continue
                b = self.index[m.opponent]
                points, hands = self.pair_points[(a, b)]
                e = m.elo
                significant = e.elo_low > 0 or e.elo_high < 0
                out.append(
                    [
                        a,
                        b,
                        m.games,
                        m.wins,
                        m.draws,
                        m.losses,
                        round(e.score, 4),
                        round(points / hands, 3) if hands else None,
                        _finite(e.elo),
                        _finite(e.elo_low),
                        _finite(e.elo_high),
                        significant,
                    ]
                )
        return out

    def _rounds(self, plan: Plan) -> list[dict[str, Any]]:
        """A format played in rounds: its meetings, round by round, each with its result in words; a meeting's
        games as [number, id, played]."""
        rounds: list[dict[str, Any]] = []
        for m in plan.meetings:
            if not rounds or rounds[-1]["round"] != m.round:
                rounds.append({"round": m.round, "matches": []})
            rounds[-1]["matches"].append(
                {
                    "bots": [self.index[b] for b in m.bots],
                    "points": list(m.points),
                    "winner": None if m.winner is None else self.index[m.winner],
                    "bye": m.bye,
                    "decidedBy": m.decided_by,
                    "result": meeting_result(m, finished=all(n in self.games for n in m.games)),
                    "games": [[n, f"g{n:04d}", self._replayable(n)] for n in m.games],
                }
            )
        return rounds

    def _replayable(self, number: int) -> bool:
        """The game is finished and its log could be read (its replay page is made)."""
        game = self.games.get(number)
        return game is not None and game.log_problem is None

    def _groups(self) -> list[dict[str, Any]]:
        """Three-team presets: each group of bots that met, as it was played (its games, each member's wins
        and points per hand)."""
        groups: dict[tuple[str, ...], dict[str, Any]] = {}
        for g in self.games.values():
            o = g.outcome
            key = self.schedule[o.number - 1].group  # the bots in the order they were given
            entry = groups.setdefault(
                key,
                {
                    "bots": [self.index[b] for b in key],
                    "games": 0,
                    "draws": 0,
                    "wins": [0] * len(key),
                    "points": [0] * len(key),
                    "hands": 0,
                },
            )
            entry["games"] += 1
            entry["hands"] += o.hands
            if o.winner is None:
                entry["draws"] += 1
            for team, bot in enumerate(o.teams):
                k = key.index(bot)
                entry["points"][k] += o.scores[team]
                if o.winner == team:
                    entry["wins"][k] += 1
        return list(groups.values())

    def _per_bot(self) -> list[dict[str, Any]]:
        out = []
        for bot in self.bots:
            kinds = {}
            for kind, counts in self.think[bot].items():
                answers = sum(counts.values())
                if not answers:
                    continue
                bins = [0] * len(THINK_EDGES)
                for ms, n in counts.items():
                    bins[think_bin(ms)] += n
                kinds[kind] = {
                    "answers": answers,
                    "median": _quantile(counts, 0.5),
                    "p99": _quantile(counts, 0.99),
                    "max": max(counts),
                    "mean": round(sum(ms * n for ms, n in counts.items()) / answers, 1),
                    "bins": bins,
                }
            points = self.hand_points[bot]
            out.append(
                {
                    "think": kinds,
                    "handPoints": sorted([p, n] for p, n in points.items()),
                    "violations": dict(sorted(self.violations[bot].items())),
                }
            )
        return out

    def _analysis(self) -> dict[str, Any] | None:
        """``analysis.json`` as the page draws it: per bot, per phase, the mean loss per decision (and the
        decisions it is the mean of). The file is what ``arena analyze --json`` prints, which ``arena analyze``
        saves in a tournament's folder (docs/analyze.md); the report reads of it::

            {"bots": {"NAME": {"phases": {"bid": {"mean": 0.031, "half_width": 0.012, "count": 812}, ...}}}}
        """
        if self.analysis is None:
            return None
        bots = self.analysis.get("bots")
        phases: list[str] = []
        rows: list[dict[str, Any]] = []
        if isinstance(bots, dict):
            for name, entry in bots.items():
                by_phase = entry.get("phases") if isinstance(entry, dict) else None
                if not isinstance(by_phase, dict):
                    continue
                row: dict[str, Any] = {"bot": str(name), "loss": {}, "decisions": {}}
                for phase, figures in by_phase.items():
                    loss = figures.get("mean") if isinstance(figures, dict) else None
                    if not isinstance(loss, int | float) or isinstance(loss, bool) or not math.isfinite(loss):
                        continue
                    if phase not in phases:
                        phases.append(str(phase))
                    row["loss"][phase] = loss
                    row["decisions"][phase] = figures.get("count")
                rows.append(row)
        return {"phases": phases, "bots": rows} if rows else None

    def _row(self, g: _Game) -> list[Any]:
        """[number, id, teams (bot indexes), scores, winner, reason, forfeit, hands, violations, log, detail];
        a violation is [seat, bot, kind, penalty, detail, log line or null]."""
        r = g.record
        lines = g.violation_lines or []
        violations = []
        for k, v in enumerate(r.violations):
            written = v.to_json()  # as the file has it (the detail of a bot that never started says so)
            violations.append(
                [
                    v.seat,
                    self.index.get(v.bot, -1),
                    written["kind"],
                    written["penalty"],
                    written["detail"],
                    lines[k] if k < len(lines) else None,
                ]
            )
        detail = ""
        if r.forfeit is not None:
            detail = next((v.to_json()["detail"] for v in r.violations if v.penalty is Penalty.FORFEIT), "")
        return [
            r.game,
            r.game_id or f"g{r.game:04d}",
            [self.index[t] for t in r.teams],
            list(r.scores),
            r.winner,
            r.reason,
            r.forfeit,
            r.hands,
            violations,
            None if g.log_problem else r.log,
            detail or g.log_problem or "",
        ]

    def _sprt(self) -> dict[str, Any]:
        """The LLR and the Elo estimate after each pair (every k-th for long runs), counted as the run counts."""
        assert self.plan is not None
        test = self.plan.test
        new = self.bots[0]
        tally = PairTally(new)
        records = sorted((g.record for g in self.games.values()), key=lambda r: (r.deal, r.game))
        penta_at: list[Pentanomial] = []
        for record in records:
            before = tally.penta.pairs
            tally.add(record)
            while before < tally.penta.pairs:  # pairs counted by this game (a late pair lets others in)
                before += 1
                penta_at.append(tally.penta)  # the counts after the last of them: close enough for a chart
        total = len(penta_at)
        stride = max(1, math.ceil(total / SPRT_POINTS))
        points = []
        for k in range(stride - 1, total, stride):
            penta = penta_at[k]
            e = pentanomial_estimate(penta)
            points.append([k + 1, round(test.llr(penta), 4), _finite(e.elo), _finite(e.elo_low), _finite(e.elo_high)])
        if total and (not points or points[-1][0] != total):
            penta = penta_at[-1]
            e = pentanomial_estimate(penta)
            points.append([total, round(test.llr(penta), 4), _finite(e.elo), _finite(e.elo_low), _finite(e.elo_high)])
        last = tally.penta
        return {
            "new": new,
            "base": self.bots[1],
            "test": {**test.record(), "lower": round(test.lower, 4), "upper": round(test.upper, 4)},
            "maxPairs": self.plan.max_pairs,
            "pentanomial": list(last.counts),
            "points": points,
            "result": self.sprt_result,
            "verdict": str(test.verdict(test.llr(last))),
        }


def meeting_result(m: Meeting, *, finished: bool) -> str:
    """How a meeting came out, in words: who goes on (a knockout), else, once its games are played, the bot with
    the most points (a Swiss) or those tied on them; a bye; empty while it is played."""
    if m.bye:
        return "bye"
    if m.winner is not None:
        return f"{m.winner} goes on" + (f" ({m.decided_by})" if m.decided_by else "")
    if not finished or not m.games:
        return ""
    top = max(m.points)
    leaders = [bot for bot, points in zip(m.bots, m.points, strict=True) if points == top]
    return f"{leaders[0]} won" if len(leaders) == 1 else " and ".join(leaders) + " tied"


# ------------------------------------------------------------------ reading a folder


def read_settings(path: Path) -> tuple[TournamentSettings | SprtSettings, SprtPlan | None]:
    """The folder's settings, and an SPRT's plan (its test); ReportError, one line, when it is not the folder of
    a tournament or of an SPRT."""
    folder = RunFolder(path)
    if not path.is_dir():
        raise ReportError(f"{path}: no such folder")
    if not folder.holds_run():
        raise ReportError(
            f"{path} is not a tournament folder: it has no {SETTINGS} (arena tournament and arena sprt write one "
            "when they start)"
        )
    if not folder.sprt.exists():
        try:
            return TournamentSettings.load(folder), None
        except (SettingsError, FolderError) as exc:
            raise ReportError(str(exc)) from None
    try:
        plan = SprtPlan.from_record(json.loads(folder.sprt.read_text(encoding="utf-8")), str(folder.sprt))
    except (OSError, UnicodeDecodeError, json.JSONDecodeError, SettingsError) as exc:
        raise ReportError(f"{folder.sprt}: cannot read it ({exc})") from None
    try:
        return SprtSettings.load(folder), plan
    except (SettingsError, FolderError) as exc:
        raise ReportError(str(exc)) from None


def read_results(report: Report) -> list[GameRecord]:
    """The result records of the folder, each checked against the games its format plans from them all (the
    records of a round fix the next one); a line that is not one is left out and named in ``report.problems``
    (as is a last line cut off mid-write)."""
    path = RunFolder(report.folder).results
    if not path.exists():
        return []  # no game has finished yet: the page says 0 games played
    records: dict[int, GameRecord] = {}
    lines: dict[int, int] = {}
    bad: list[str] = []
    try:
        with path.open("rb") as f:
            raw_lines = f.read().split(b"\n")
    except OSError as exc:
        report.problems.append(f"{path}: cannot read it ({exc.strerror or exc})")
        return []
    cut = raw_lines[-1] != b""  # the last line has no newline: cut off mid-write
    for number, raw in enumerate(raw_lines[:-1], start=1):
        if not raw.strip():
            continue
        problem = _parse_result(raw)
        if isinstance(problem, str):
            bad.append(f"line {number}: {problem}")
            continue
        if problem.game in records:
            bad.append(f"line {number}: game {problem.game} is recorded twice")
            continue
        records[problem.game] = problem
        lines[problem.game] = number
    schedule = plan_of(report.format, records.values()).games
    for game, record in list(records.items()):
        misfit = _misfit(record, schedule)
        if misfit is not None:
            bad.append(f"line {lines[game]}: {misfit}")
            del records[game]
    if cut:
        report.problems.append(
            f"{path}: the last line is cut off (a write stopped mid-line, as when the run was killed); the report "
            f"shows the {len(records)} complete result(s) before it"
        )
    if bad:
        bad.sort(key=lambda text: int(text.split(":")[0].split()[1]))
        shown = "; ".join(bad[:_PROBLEMS_SHOWN]) + (" ..." if len(bad) > _PROBLEMS_SHOWN else "")
        report.problems.append(f"{path}: {len(bad)} line(s) left out: {shown}")
    return [records[n] for n in sorted(records)]


def plan_of(format: Format, records: Iterable[GameRecord]) -> Plan:
    """The format's plan from these finished games."""
    return format.plan({r.game: r.outcome() for r in records})


def _parse_result(raw: bytes) -> GameRecord | str:
    """The record on a line of results.jsonl, or what is wrong with it."""
    try:
        record = json.loads(raw)
    except (UnicodeDecodeError, json.JSONDecodeError) as exc:
        return f"not JSON ({exc})"
    if not isinstance(record, dict):
        return "not a JSON object"
    if "game" not in record:
        return "missing field 'game'"
    number = record["game"]
    if not isinstance(number, int) or isinstance(number, bool) or number < 1:
        return f"game {number!r} is not a game number"
    try:
        return GameRecord.from_json(record)
    except (KeyError, TypeError, ValueError, IndexError) as exc:
        return f"missing field {exc}" if isinstance(exc, KeyError) else f"bad result record: {exc}"


def _misfit(record: GameRecord, schedule: Sequence[ScheduledGame]) -> str | None:
    """What makes a record no game of the schedule, or None."""
    number = record.game
    if number > len(schedule):
        return f"game {number} is not in the schedule of {len(schedule)} games"
    game = schedule[number - 1]
    if record.teams != game.teams:
        return f"game {number} was {' vs '.join(record.teams)}; the schedule says {' vs '.join(game.teams)}"
    return None


def read_extras(report: Report) -> None:
    """``sprt-result.json`` and ``analysis.json``, when the folder has them."""
    folder = RunFolder(report.folder)
    for path, attribute in ((folder.sprt_result, "sprt_result"), (folder.analysis, "analysis")):
        if not path.exists() or (path == folder.sprt_result and report.plan is None):
            continue
        try:
            data = json.loads(path.read_text(encoding="utf-8"))
        except (OSError, UnicodeDecodeError, json.JSONDecodeError) as exc:
            report.problems.append(f"{path}: cannot read it ({exc}); left out")
            continue
        if not isinstance(data, dict):
            report.problems.append(f"{path}: not a JSON object; left out")
            continue
        setattr(report, attribute, data)
        if path == folder.analysis and report._analysis() is None:
            report.problems.append(f"{path}: no bot with a mean loss by phase in it (docs/report.md); left out")
            report.analysis = None


def read_folder(path: Path) -> Report:
    """The report of everything the folder holds; ReportError when it is not a tournament folder."""
    settings, plan = read_settings(path)
    report = Report(path, settings, plan)
    for record in read_results(report):
        report.add_from_folder(record)
    read_extras(report)
    return report
