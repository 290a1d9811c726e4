"""The analysis of a log or a folder of logs: every decision and hand, and what they add up to per game and per bot.

``Analysis`` collects the results of ``referee.analyze.spread`` as plain
records (``DecisionRecord``, ``LuckRecord``) and sums them up by any grouping
(``Stats``): per seat of a game, or per bot over every game it played.

Means over decisions
    The mean loss per decision counts only decisions with a choice: a forced
    one (one legal choice), one the referee played for a bot after a fault, a
    claim the engine accepted (it gave the team every trick left: no choice
    does better, so there is nothing to judge), or one where no world could be
    dealt is counted apart and not in the mean.
    Losses within a hand are not independent (one misread of the cards costs
    several tricks), so the 95% interval of a mean treats each hand of a seat
    as one sample: the ratio of the summed losses to the summed decisions,
    with its variance from the spread of the hands' sums (the usual cluster
    estimate of a ratio).

Luck
    A hand's luck for a seat is what its dealt cards were worth (its team's
    hand margin, the hand played by the reference policy) less what an
    average hand dealt to the same place round the table is worth. Positive:
    good cards. Summed over a game it says how much of the result the cards
    gave; read beside the losses, whether a bad result was the cards or the
    play.
"""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Callable, Iterable, Sequence
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

from referee.analyze.evaluate import Z95, Budget, ChoiceValue, Judgement, Worth
from referee.analyze.grades import FLAGGED, THRESHOLDS, Grade, grade
from referee.analyze.plan import DecisionItem, GamePlan, HandPlan
from referee.analyze.spread import HandResult
from referee.engine.game import DecisionKind
from referee.replay.ask import action_text

ANALYSIS_VERSION = 1
PHASES = ("bid", "trump", "exchange", "play")
_PHASE_OF = {
    DecisionKind.BID: "bid",
    DecisionKind.TRUMP: "trump",
    DecisionKind.GIVE: "exchange",
    DecisionKind.DISCARD: "exchange",
    DecisionKind.PLAY: "play",
}


@dataclass(frozen=True)
class DecisionRecord:
    """One analysed decision, in the log's notation."""

    log: str
    game: int
    number: int  # the game's N-th decision (--at #N)
    address: str  # --at ADDRESS
    line: int
    hand: int
    trick: int
    seat: int
    bot: str
    kind: str
    phase: str
    status: str  # analysed, forced, referee (played for the bot after a fault), claim (accepted), unjudged (no world)
    taken: str
    best: str | None
    loss: float | None  # points of hand margin given up (None unless analysed)
    low: float | None  # its 95% interval
    high: float | None
    grade: str
    worlds: int
    legal: int  # legal choices (gives and discards: distinct sets of cards)
    choices: tuple[dict[str, Any], ...]  # every choice tried: choice, value, half_width, worlds, final
    refused_claims: int = 0  # claims the engine refused before the seat played

    @property
    def analysed(self) -> bool:
        return self.status == "analysed"


@dataclass(frozen=True)
class LuckRecord:
    """What one seat's dealt cards were worth in one hand, against an average hand at the same place."""

    log: str
    game: int
    hand: int
    seat: int
    bot: str
    worth: float
    worth_half: float
    average: float
    luck: float  # worth - average
    half_width: float  # 95% interval of the luck


@dataclass
class GameAnalysis:
    """One game: its seating, the seats analysed, and where its log stops if it was cut off."""

    log: str
    number: int
    game_id: str
    preset: str
    seat_names: tuple[str, ...]
    seats: tuple[int, ...]
    hands: int = 0  # complete hands analysed
    cut_off: str | None = None
    decisions: list[DecisionRecord] = field(default_factory=list)
    luck: list[LuckRecord] = field(default_factory=list)


@dataclass(frozen=True)
class Mean:
    """A mean with its 95% interval (``half_width`` nan when there is too little to tell)."""

    mean: float
    half_width: float
    count: int

    def record(self) -> dict[str, Any]:
        return {"mean": _num(self.mean), "half_width": _num(self.half_width), "count": self.count}


@dataclass(frozen=True)
class Stats:
    """What a group of decisions and hands adds up to (a seat in a game, or a bot over games)."""

    decisions: int  # with a choice, analysed
    forced: int
    by_referee: int
    claims: int  # accepted claims
    unjudged: int
    loss: Mean  # per decision, clustered by hand
    total_loss: float
    phases: dict[str, Mean]
    grades: dict[str, int]
    worst: tuple[DecisionRecord, ...]  # the largest losses first
    luck: Mean  # per hand
    total_luck: float
    hands: int

    def record(self, worst_fields: Callable[[DecisionRecord], dict[str, Any]]) -> dict[str, Any]:
        return {
            "decisions": self.decisions,
            "forced": self.forced,
            "by_referee": self.by_referee,
            "claims": self.claims,
            "unjudged": self.unjudged,
            "loss_per_decision": self.loss.record(),
            "total_loss": _num(self.total_loss),
            "phases": {name: m.record() for name, m in self.phases.items()},
            "grades": self.grades,
            "worst": [worst_fields(d) for d in self.worst],
            "hands": self.hands,
            "luck_per_hand": self.luck.record(),
            "total_luck": _num(self.total_luck),
        }


def _num(x: float) -> float | None:
    """A float for JSON: nan as null, rounded to what the estimate can tell."""
    return None if math.isnan(x) else round(x, 4)


def clustered_mean(clusters: Iterable[tuple[float, int]]) -> Mean:
    """The ratio mean of (sum, count) clusters with its 95% interval (see the module docstring)."""
    kept = [(s, n) for s, n in clusters if n > 0]
    total = sum(n for _, n in kept)
    if total == 0:
        return Mean(math.nan, math.nan, 0)
    mean = sum(s for s, _ in kept) / total
    k = len(kept)
    if k < 2:
        return Mean(mean, math.nan, total)
    variance = k / (k - 1) * sum((s - mean * n) ** 2 for s, n in kept) / total**2
    return Mean(mean, Z95 * math.sqrt(variance), total)


def summarise(decisions: Sequence[DecisionRecord], luck: Sequence[LuckRecord], worst: int) -> Stats:
    """The stats of one group of decisions and hands; ``worst``: how many of the largest losses to keep."""
    analysed = [d for d in decisions if d.analysed]

    def clusters(of: Iterable[DecisionRecord]) -> list[tuple[float, int]]:
        sums: dict[tuple[str, int, int, int], list[float]] = {}
        for d in of:
            sums.setdefault((d.log, d.game, d.hand, d.seat), []).append(d.loss or 0.0)
        return [(sum(v), len(v)) for v in sums.values()]

    grades = Counter(d.grade for d in analysed)
    ranked = sorted(analysed, key=lambda d: (-(d.loss or 0.0), d.log, d.game, d.number))
    luck_values = [r.luck for r in luck]
    return Stats(
        decisions=len(analysed),
        forced=sum(1 for d in decisions if d.status == "forced"),
        by_referee=sum(1 for d in decisions if d.status == "referee"),
        claims=sum(1 for d in decisions if d.status == "claim"),
        unjudged=sum(1 for d in decisions if d.status == "unjudged"),
        loss=clustered_mean(clusters(analysed)),
        total_loss=sum(d.loss or 0.0 for d in analysed),
        phases={p: clustered_mean(clusters(d for d in analysed if d.phase == p)) for p in PHASES},
        grades={g.value: grades.get(g.value, 0) for g in FLAGGED},
        worst=tuple(d for d in ranked[:worst] if (d.loss or 0.0) > 0),
        luck=clustered_mean((v, 1) for v in luck_values),
        total_luck=sum(luck_values),
        hands=len(luck_values),
    )


# ------------------------------------------------------------------ building the records


def decision_record(game: GamePlan, item: DecisionItem, judgement: Judgement | None, log: str) -> DecisionRecord:
    kind = item.kind
    status = item.status
    if status == "rate":
        status = "analysed" if judgement else "unjudged"
    j = judgement
    return DecisionRecord(
        log=log,
        game=game.number,
        number=item.number,
        address=item.address,
        line=item.line,
        hand=item.hand,
        trick=item.trick,
        seat=item.seat,
        bot=game.seat_names[item.seat],
        kind=kind.value,
        phase=_PHASE_OF[kind],
        status=status,
        taken=action_text(kind, item.taken),
        best=None if j is None else action_text(kind, j.best),
        loss=None if j is None else j.loss,
        low=None if j is None else j.low,
        high=None if j is None else j.high,
        grade=Grade.NONE.value if j is None else grade(j.low).value,
        worlds=0 if j is None else j.worlds,
        legal=0 if j is None else j.legal,
        choices=() if j is None else tuple(_choice(kind, c) for c in j.choices),
        refused_claims=item.refused_claims,
    )


def _choice(kind: DecisionKind, value: ChoiceValue) -> dict[str, Any]:
    return {
        "choice": action_text(kind, value.action),
        "value": round(value.mean, 4),
        "half_width": round(value.half_width, 4),
        "worlds": value.worlds,
        "final": value.finalist,
    }


def luck_record(game: GamePlan, hand: HandPlan, seat: int, worth: Worth, average: Worth, log: str) -> LuckRecord:
    return LuckRecord(
        log=log,
        game=game.number,
        hand=hand.hand,
        seat=seat,
        bot=game.seat_names[seat],
        worth=worth.mean,
        worth_half=worth.half_width,
        average=average.mean,
        luck=worth.mean - average.mean,
        half_width=math.hypot(worth.half_width, average.half_width),
    )


@dataclass
class Analysis:
    """Everything found in a log or a folder of logs."""

    source: str
    budget: Budget
    seed: int
    seat_choice: str  # what was asked: every seat, --seat S or --bot NAME
    games: list[GameAnalysis] = field(default_factory=list)
    averages: dict[str, tuple[Worth, ...]] = field(default_factory=dict)  # per preset: average_worth
    seconds: float = 0.0
    where: str = "in this process"
    cut_between: list[str] = field(default_factory=list)  # a line per log that stops between its games

    def add(
        self, game: GameAnalysis, plan: GamePlan, hand: HandPlan, result: HandResult, average: tuple[Worth, ...]
    ) -> None:
        """Fold one analysed hand of ``game`` in."""
        for item, judgement in zip(hand.decisions, result.judgements, strict=True):
            game.decisions.append(decision_record(plan, item, judgement, game.log))
        for view, worth in zip(hand.deal_views, result.luck, strict=True):
            if worth is not None:
                at_table = average[(view.seat - hand.dealer) % len(average)]
                game.luck.append(luck_record(plan, hand, view.seat, worth, at_table, game.log))
        game.hands += 1

    def sort(self) -> None:
        """Hands finish in any order on several processes: put every record back in the game's order."""
        self.games.sort(key=lambda g: (g.log, g.number))
        for g in self.games:
            g.decisions.sort(key=lambda d: d.number)
            g.luck.sort(key=lambda r: (r.hand, r.seat))

    @property
    def decisions(self) -> list[DecisionRecord]:
        return [d for g in self.games for d in g.decisions]

    @property
    def bots(self) -> list[str]:
        """The bots analysed, in order of first appearance."""
        names: dict[str, None] = {}
        for g in self.games:
            for s in g.seats:
                names.setdefault(g.seat_names[s], None)
        return list(names)

    def bot_stats(self, worst: int) -> dict[str, Stats]:
        return {
            bot: summarise(
                [d for d in self.decisions if d.bot == bot],
                [r for g in self.games for r in g.luck if r.bot == bot],
                worst,
            )
            for bot in self.bots
        }

    def seat_stats(self, game: GameAnalysis, worst: int) -> dict[int, Stats]:
        return {
            s: summarise([d for d in game.decisions if d.seat == s], [r for r in game.luck if r.seat == s], worst)
            for s in game.seats
        }

    @property
    def cut_off(self) -> list[str]:
        """A line for each game whose log stops inside it, and for each log that stops between its games."""
        return self.cut_between + [
            f"{g.log}: game {g.number} is cut off {g.cut_off}: analysed up to "
            + (f"hand {g.hands}" if g.hands else "its start (no complete hand)")
            for g in self.games
            if g.cut_off is not None
        ]

    def record(self, worst: int) -> dict[str, Any]:
        """The whole analysis as JSON-ready data (``arena analyze --json``; docs/analyze.md describes it)."""

        def short(d: DecisionRecord) -> dict[str, Any]:
            return {k: v for k, v in decision_fields(d).items() if k != "choices"}

        return {
            "analysis_version": ANALYSIS_VERSION,
            "source": self.source,
            "seats": self.seat_choice,
            "budget": self.budget.record(),
            "seed": self.seed,
            "thresholds": {g.value: t for g, t in THRESHOLDS.items()},
            "seconds": round(self.seconds, 2),
            "where": self.where,
            "cut_off": self.cut_off,
            "average_worth": {
                preset: [{"offset": k, **asdict(w)} for k, w in enumerate(ws)] for preset, ws in self.averages.items()
            },
            "bots": {bot: stats.record(short) for bot, stats in self.bot_stats(worst).items()},
            "games": [
                {
                    "log": g.log,
                    "game": g.number,
                    "game_id": g.game_id,
                    "preset": g.preset,
                    "seats": [{"seat": s, "bot": g.seat_names[s]} for s in g.seats],
                    "hands": g.hands,
                    "cut_off": g.cut_off,
                    "by_seat": {str(s): st.record(short) for s, st in self.seat_stats(g, worst).items()},
                    "decisions": [decision_fields(d) for d in g.decisions],
                    "luck": [luck_fields(r) for r in g.luck],
                }
                for g in self.games
            ],
        }


def decision_fields(d: DecisionRecord) -> dict[str, Any]:
    out = asdict(d)
    for key in ("loss", "low", "high"):
        if out[key] is not None:
            out[key] = round(out[key], 4)
    out["choices"] = list(d.choices)
    return out


def luck_fields(r: LuckRecord) -> dict[str, Any]:
    return {k: (round(v, 4) if isinstance(v, float) else v) for k, v in asdict(r).items()}


def plan_game_analysis(plan: GamePlan, preset: str, log: Path) -> GameAnalysis:
    return GameAnalysis(str(log), plan.number, plan.game_id, preset, plan.seat_names, plan.seats)
