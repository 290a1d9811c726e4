"""The learning features' answers, each a pure function of the seat's view, the budget and a seed.

- ``hint``: the Monte Carlo bot's choice (``example_bots.montecarlo_bot``) from the seat's view, its search
  bounded by a number of worlds, not by the clock, so that the same view and seed give the same hint;
- ``estimates``: every legal choice's expected tricks and points, with their spread, from ``arena analyze``'s
  evaluator (``referee.analyze.evaluate.estimate``), so that the page and the analysis agree;
- ``chance``: how often a bid typed at the auction makes (``evaluate.bid_chance``).

Each is given the ``SeatView`` alone, so it cannot use a card the seat has not seen, and draws its worlds from
a generator seeded by the view itself (``view_seed``): two deals that differ only in cards the seat cannot see
give the same answers. They take up to a second (``bench/advice.py`` measures them per preset) and run off
the page server's event loop.
"""

from __future__ import annotations

import hashlib
import random
from dataclasses import dataclass
from typing import Any

from example_bots.montecarlo_bot import MonteCarloBot
from referee.analyze.evaluate import bid_chance, estimate
from referee.browserseat.state import action_json
from referee.engine.bids import Bid
from referee.engine.game import DecisionKind
from referee.engine.view import SeatView

# The hint's search has no clock: it stops at its worlds (the bot's own time share, of a limit this long,
# never binds).
_NO_CLOCK_MS = 3_600_000


@dataclass(frozen=True, slots=True)
class AdviceBudget:
    """Worlds per answer: the hint's and the estimates' (at a card; at a bid, trump or exchange, where each
    world plays the rest of the auction and every choice is many more), a bid's chance. Chosen so that each
    answer comes within a second on a two-CPU machine (``bench/advice.py``, docs/play.md)."""

    hint_play: int = 60
    hint_decide: int = 24
    estimate: int = 32
    estimate_decide: int = 16
    chance: int = 64

    def record(self) -> dict[str, int]:
        return {
            "hint_play": self.hint_play,
            "hint_decide": self.hint_decide,
            "estimate": self.estimate,
            "estimate_decide": self.estimate_decide,
            "chance": self.chance,
        }

    def estimate_worlds(self, kind: DecisionKind) -> int:
        return self.estimate if kind is DecisionKind.PLAY else self.estimate_decide


def view_seed(view: SeatView, what: str) -> str:
    """A seed made of the view alone (and what it is for): the same view, the same worlds."""
    digest = hashlib.sha256(repr(view).encode()).hexdigest()[:24]
    return f"table:{what}:{digest}"


def hint_bot(budget: AdviceBudget, seed: str) -> MonteCarloBot:
    """The Monte Carlo bot that gives the hint: its worlds bound by ``budget``, its generator seeded with
    ``seed``."""
    bot = MonteCarloBot(max_worlds=budget.hint_play, decide_worlds=budget.hint_decide, time_share=1.0)
    bot.rng.seed(seed)
    bot.time_limit_ms = _NO_CLOCK_MS
    return bot


def hint(view: SeatView, budget: AdviceBudget) -> object:
    """The Monte Carlo bot's choice for the decision in ``view`` (an engine action)."""
    return hint_bot(budget, view_seed(view, "hint")).decide(view)


def hint_json(view: SeatView, budget: AdviceBudget) -> dict[str, Any]:
    return {"choice": action_json(hint(view, budget))}


def estimates_json(view: SeatView, budget: AdviceBudget) -> dict[str, Any]:
    """Every legal choice's estimate, best first; a give or discard, its likeliest sets of cards."""
    decision = view.decision
    assert decision is not None
    rng = random.Random(view_seed(view, "estimate"))
    found = estimate(view, budget.estimate_worlds(decision.kind), rng)
    rows = [
        {
            "choice": action_json(e.action),
            "tricks": round(e.tricks, 2),
            "tricksSd": round(e.tricks_sd, 2),
            "points": round(e.points, 2),
            "pointsSd": round(e.points_sd, 2),
        }
        for e in found
    ]
    if decision.kind in (DecisionKind.GIVE, DecisionKind.DISCARD):
        rows = rows[:8]
    return {"worlds": found[0].worlds if found else 0, "rows": rows}


def chance_json(view: SeatView, text: str, budget: AdviceBudget) -> dict[str, Any]:
    """The chance that the bid ``text`` makes; ValueError (its message for the page) when it is no legal bid."""
    bid = Bid.parse(text)
    result = bid_chance(view, bid, budget.chance, random.Random(view_seed(view, f"chance:{bid.text()}")))
    if result is None:
        raise ValueError("no deal fits what your seat knows")
    return {
        "bid": bid.text(),
        "chance": round(result.chance, 3),
        "halfWidth": round(result.half_width, 3),
        "worlds": result.worlds,
    }
