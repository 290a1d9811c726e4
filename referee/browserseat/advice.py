"""The learning features' answers, each a pure function of the seat's view and the budget.

One seam answers the hint and the estimates, so that they cannot disagree: ``weigh(view, budget)`` tries every
legal choice of the decision in the same worlds (deals of the cards the seat cannot see that fit what it knows
and the auction) and returns a ``Weighing``: per choice, its team's mean tricks and mean points (the hand
margin ``arena analyze`` values a choice by), and its paired difference from the best choice, world by world,
with the standard error of that difference. From it alone come

- the estimates: its table, best first, each choice marked when it cannot be told apart from the best;
- the hint: its best choice, with a reason in one line made of the table's own numbers (``reason``);
- in ``--hints differs`` mode, the person's choice against the AI's and what it cost (``versus``).

The worlds come from an *evaluator*: a function ``(view, choices, rng)`` giving worlds one after another, each as
the ``Outcome`` of every choice there. ``EVALUATOR`` solves each world double-dummy
(``referee.analyze.evaluate.solved_outcomes``: what best play of every seat makes of each choice there, exactly,
a world too dear to solve played out); ``world_outcomes`` plays each world out by the analysis's reference
policy (the evaluator without the compiled solver, or handed to ``weigh``). ``weigh`` draws worlds until the best
choice stands apart from the next one (the paired difference's 95% interval leaves 0), or the budget's most.

``chance`` (a typed bid's chance to make) is the analysis's ``evaluate.bid_chance``.

Each is given the ``SeatView`` alone, so it cannot use a card the seat has not seen, and draws its worlds from a
generator seeded by the view itself (``view_seed``): two deals that differ only in cards the seat cannot see
give the same answers. ``bench/advice.py`` measures how long they take; they run off the page server's loop.
"""

from __future__ import annotations

import hashlib
import itertools
import math
import random
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from typing import Any

from referee.analyze.evaluate import (
    CARD_SET_KINDS,
    Z95,
    Budget,
    Outcome,
    action_key,
    bid_chance,
    choices_of,
    solved_outcomes,
)
from referee.browserseat.state import action_json, choice_text
from referee.engine.bids import Bid
from referee.engine.game import DecisionKind
from referee.engine.view import SeatView

Evaluator = Callable[[SeatView, Sequence[object], random.Random], Iterator[tuple[Outcome, ...]]]
EVALUATOR: Evaluator = solved_outcomes  # the one evaluator behind every hint and estimate

# Rows of a give or discard the page is shown (the sets weighed may be many).
SHOWN_SETS = 8


@dataclass(frozen=True, slots=True)
class AdviceBudget:
    """Worlds per weighing: at a card, and at a bid, trump or exchange (where each world plays the rest of the
    auction for every choice). Every choice is tried in ``*_first`` worlds, then the choices still in contention
    in twice as many, and so on up to ``*_most``, until the best stands apart (``weigh``). ``chance``: worlds for
    a bid's chance; ``max_sets``: the sets of cards a give or discard weighs at most. Chosen so that an answer
    comes within a second on a free CPU (``bench/advice.py``, docs/play.md)."""

    play_first: int = 32
    play_most: int = 512
    decide_first: int = 16
    decide_most: int = 128
    chance: int = 64
    max_sets: int = 60

    def record(self) -> dict[str, int]:
        return {
            "play_first": self.play_first,
            "play_most": self.play_most,
            "decide_first": self.decide_first,
            "decide_most": self.decide_most,
            "chance": self.chance,
            "max_sets": self.max_sets,
        }

    def worlds(self, kind: DecisionKind) -> tuple[int, int]:
        """The first and the most worlds for a decision of ``kind``."""
        if kind is DecisionKind.PLAY:
            return self.play_first, self.play_most
        return self.decide_first, self.decide_most


def view_seed(view: SeatView, what: str) -> str:
    """A seed made of the view alone (and what it is for): the same view, the same worlds."""
    digest = hashlib.sha256(repr(view).encode()).hexdigest()[:24]
    return f"table:{what}:{digest}"


# ------------------------------------------------------------------ the seam


@dataclass(frozen=True, slots=True)
class Weight:
    """One choice weighed: its team's mean tricks and points, and how far behind the best it is (paired)."""

    choice: object  # the engine action (a card, Bid, Trump, or a sorted tuple of cards)
    worlds: int  # the worlds it was tried in: the first ``worlds`` of the weighing's
    tricks: float
    points: float
    behind: float  # the best's points less this one's, world by world over its worlds, averaged (0 for the best)
    behind_se: float  # the standard error of that mean
    tricks_behind: float  # the best's tricks less this one's, the same way

    @property
    def half_width(self) -> float:
        """The 95% interval's half-width of ``behind``."""
        return Z95 * self.behind_se

    @property
    def apart(self) -> bool:
        """Measurably behind the best: the 95% interval of the paired difference leaves 0."""
        return self.behind > self.half_width


@dataclass(frozen=True, slots=True)
class Weighing:
    """Every choice of one decision weighed in the same worlds, the best first: the choice with the highest mean
    points among those tried in every world, then the others by their mean."""

    kind: DecisionKind
    weights: tuple[Weight, ...]
    worlds: int  # the most worlds any choice was tried in (the best's)
    legal: int  # legal choices (for a give or discard, the distinct sets of cards)
    margins: tuple[tuple[float, ...], ...]  # per weight (in order), its points in each of its worlds

    @property
    def best(self) -> Weight:
        return self.weights[0]

    def weight(self, choice: object) -> Weight | None:
        key = action_key(self.kind, choice)
        return next((w for w in self.weights if w.choice == key), None)

    def paired(self, a: int, b: int) -> tuple[float, float]:
        """Weights ``a`` and ``b`` (indices): the mean of a's points less b's over the worlds both were tried in,
        and its standard error."""
        return _mean_se([x - y for x, y in zip(self.margins[a], self.margins[b], strict=False)])


def _mean_se(values: Sequence[float]) -> tuple[float, float]:
    n = len(values)
    mean = sum(values) / n
    if n < 2:
        return mean, 0.0
    return mean, math.sqrt(sum((v - mean) ** 2 for v in values) / (n - 1) / n)


def _default_taken(view: SeatView) -> object:
    """A choice to name as taken where ``choices_of`` asks for one: the first option, or the weakest cards."""
    decision = view.decision
    assert decision is not None
    if decision.kind in CARD_SET_KINDS:
        return tuple(sorted(view.hand)[: decision.count])
    return decision.options[0]


# A choice further behind the leader than this many standard errors of the paired difference is tried no more.
DROP_Z = 3.0


def weigh(view: SeatView, budget: AdviceBudget, evaluator: Evaluator | None = None) -> Weighing | None:
    """Every legal choice of the decision in ``view`` weighed in the same worlds (None: no world could be dealt).

    Every choice is tried in the budget's first worlds. Then, while the leader and the next cannot be told
    apart, twice as many worlds are drawn, up to the budget's most, for the choices still in contention (those
    less than ``DROP_Z`` standard errors behind the leader): the worlds go where the order is in doubt. Each
    choice is compared with the best over the worlds both were tried in, so every difference stays paired."""
    decision = view.decision
    if decision is None:
        raise ValueError("the view has no decision to weigh")
    choices, legal = choices_of(view, _default_taken(view), Budget(max_sets=budget.max_sets))
    rng = random.Random(view_seed(view, "weigh"))
    tried: list[list[Outcome]] = [[] for _ in choices]  # per choice, what it came to in each world it was tried in
    live = list(range(len(choices)))
    first, most = budget.worlds(decision.kind)
    want = first
    while True:
        have = len(tried[live[0]])
        stream = (evaluator or EVALUATOR)(view, [choices[c] for c in live], rng)  # the next worlds: rng goes on
        rows = list(itertools.islice(stream, want - have))
        for row in rows:
            for c, outcome in zip(live, row, strict=True):
                tried[c].append(outcome)
        if len(rows) < want - have or want >= most:
            break
        live = _contenders(tried, live)
        if _settled(tried, live):
            break
        want = min(most, want * 2)
    if not tried[0]:
        return None
    return _weighing(decision.kind, choices, tried, legal)


def _points(outcomes: Sequence[Outcome]) -> list[float]:
    return [o.margin for o in outcomes]


def _leader(tried: Sequence[Sequence[Outcome]], live: Sequence[int]) -> int:
    return max(live, key=lambda c: (sum(_points(tried[c])) / len(tried[c]), -c))


def _behind(tried: Sequence[Sequence[Outcome]], lead: int, c: int) -> tuple[float, float]:
    """The leader's points less ``c``'s over ``c``'s worlds: mean and standard error."""
    return _mean_se([a.margin - b.margin for a, b in zip(tried[lead], tried[c], strict=False)])


def _contenders(tried: Sequence[Sequence[Outcome]], live: Sequence[int]) -> list[int]:
    """The live choices that may still be the best (the leader first), and always the next one."""
    lead = _leader(tried, live)
    gaps = {c: _behind(tried, lead, c) for c in live if c != lead}
    close = [c for c, (diff, se) in gaps.items() if diff <= DROP_Z * se]
    if not close and gaps:
        close = [min(gaps, key=lambda c: gaps[c][0])]
    return [lead, *close]


def _settled(tried: Sequence[Sequence[Outcome]], live: Sequence[int]) -> bool:
    """The leader stands apart from every other live choice, or came to the same as them in every world."""
    lead = live[0]
    for c in live[1:]:
        diff, se = _behind(tried, lead, c)
        if se > 0.0 and diff <= Z95 * se:
            return False
    return True


def _weighing(
    kind: DecisionKind, choices: Sequence[object], tried: Sequence[Sequence[Outcome]], legal: int
) -> Weighing:
    most = max(len(t) for t in tried)
    full = [c for c in range(len(choices)) if len(tried[c]) == most]
    top = _leader(tried, full)

    def mean(values: Sequence[float]) -> float:
        return sum(values) / len(values)

    points = [mean(_points(t)) for t in tried]
    order = [top, *sorted((c for c in full if c != top), key=lambda c: (-points[c], c))]
    order += sorted((c for c in range(len(choices)) if c not in full), key=lambda c: (-points[c], c))
    weights = []
    for c in order:
        behind, se = _behind(tried, top, c)
        tricks = [o.tricks for o in tried[c]]
        tricks_behind = mean([a.tricks - b.tricks for a, b in zip(tried[top], tried[c], strict=False)])
        weights.append(Weight(choices[c], len(tried[c]), mean(tricks), points[c], behind, se, tricks_behind))
    return Weighing(kind, tuple(weights), most, legal, tuple(tuple(_points(tried[c])) for c in order))


# ------------------------------------------------------------------ what the page is sent


def _num(x: float) -> str:
    """A figure as the page shows it (two decimals; never "-0.00")."""
    text = f"{x:.2f}"
    return "0.00" if text == "-0.00" else text


def _signed(x: float) -> str:
    text = _num(x)
    return text if text.startswith("-") else "+" + text


def reason(weighing: Weighing) -> str:
    """Why the best choice: one line, every figure in it one of the estimates'."""
    best = weighing.best
    name = choice_text(best.choice)
    if len(weighing.weights) == 1:
        return f"{name}: your only choice here."
    nxt = weighing.weights[1]
    other = choice_text(nxt.choice)
    takes = f"{name}: your team takes {_num(best.tricks)} tricks on average"
    if not nxt.apart:
        return (
            f"{takes}; {other} is as good as {weighing.worlds} deals can tell "
            f"({_signed(-nxt.behind)} ± {_num(nxt.half_width)} points)."
        )
    points = f"{_signed(nxt.behind)} points"
    if _num(nxt.tricks_behind) == "0.00":
        return f"{takes}, as many as with {other}, and scores {points} more."
    if nxt.tricks_behind > 0:
        return f"{takes}, {_num(nxt.tricks_behind)} more than with {other} ({points})."
    return f"{takes}, {_num(-nxt.tricks_behind)} fewer than with {other}, but scores {points} more."


def versus(weighing: Weighing, mine: object) -> str:
    """The person's choice against the best, for ``--hints differs``: both restated, and what it costs."""
    best = weighing.best
    ai = choice_text(best.choice)
    weight = weighing.weight(mine)
    shown = choice_text(action_key(weighing.kind, mine))
    if weight is None:
        return f"You chose {shown}, which was not among the choices weighed. The AI would choose {ai}."
    ai_line = f"The AI would choose {ai}: {_num(best.tricks)} tricks, {_signed(best.points)} points on average."
    mine_line = f"You chose {shown}: {_num(weight.tricks)} tricks, {_signed(weight.points)} points on average."
    cost = f"Yours costs {_num(weight.behind)} ± {_num(weight.half_width)} points"
    if weight.apart:
        return f"{mine_line} {ai_line} {cost}."
    return f"{mine_line} {ai_line} {cost}: within the noise, the two cannot be told apart."


def weighing_json(weighing: Weighing | None) -> dict[str, Any]:
    """The estimates as the page shows them: every choice (a give or discard, its best sets), best first."""
    if weighing is None:
        raise ValueError("no deal of the unseen cards fits what your seat knows")
    weights = weighing.weights
    if weighing.kind in CARD_SET_KINDS:
        weights = weights[:SHOWN_SETS]
    rows = []
    for k, w in enumerate(weights):
        row = {
            "choice": action_json(w.choice),
            "text": choice_text(w.choice),
            "worlds": w.worlds,
            "tricks": _num(w.tricks),
            "points": _signed(w.points),
            "behind": _num(w.behind),
            "tricksBehind": _num(w.tricks_behind),
            "half": _num(w.half_width),
            "apart": w.apart,
        }
        if k + 1 < len(weights):  # this one and the next: can they be told apart?
            diff, se = weighing.paired(k, k + 1)
            row["sameAsNext"] = not diff > Z95 * se
        rows.append(row)
    best = weighing.best
    return {
        "worlds": weighing.worlds,
        "legal": weighing.legal,
        "rows": rows,
        "choice": action_json(best.choice),
        "reason": reason(weighing),
    }


def versus_json(weighing: Weighing | None, mine: object) -> dict[str, Any]:
    if weighing is None:
        raise ValueError("no deal of the unseen cards fits what your seat knows")
    weight = weighing.weight(mine)
    return {
        "choice": action_json(weighing.best.choice),
        "mine": action_json(action_key(weighing.kind, mine)),
        "same": weight is not None and weight.choice == weighing.best.choice,
        "apart": weight is not None and weight.apart,
        "text": versus(weighing, mine),
    }


def chance_json(view: SeatView, bid: Bid, budget: AdviceBudget) -> dict[str, Any]:
    """The chance that ``bid`` (a legal bid now) makes; ValueError (its message for the page) when no world
    fits."""
    result = bid_chance(view, bid, budget.chance, random.Random(view_seed(view, f"chance:{bid.text()}")))
    if result is None:
        raise ValueError("no deal fits what your seat knows")
    return {
        "bid": bid.text(),
        "chance": round(result.chance, 3),
        "halfWidth": round(result.half_width, 3),
        "worlds": result.worlds,
    }
