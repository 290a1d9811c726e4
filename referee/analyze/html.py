"""The analysis as the replay page shows it (``arena analyze LOG --html OUT.html``).

``page_analysis`` picks, per game, what the page's analysis panel and chart
need: each decision of the analysed seats (its log line, which is how the
page finds the step where it was taken, its address, the choice taken and
the best one, the loss with its interval and grade, and the best few choices
with their values) and each hand's luck. ``referee.replay.html.viewer_page``
embeds it with Chart.js; the page's own script draws it.
"""

from __future__ import annotations

from typing import Any

from referee.analyze.grades import THRESHOLDS
from referee.analyze.summary import Analysis, GameAnalysis

# Choices listed beside a decision on the page (all of them are in --json).
CHOICES_SHOWN = 6


def page_analysis(analysis: Analysis, games: dict[int, GameAnalysis]) -> dict[str, Any]:
    """The page's analysis data for ``games`` (by game number) of one log."""
    return {
        "thresholds": {g.value: t for g, t in THRESHOLDS.items()},
        "samples": analysis.budget.samples,
        "seed": analysis.seed,
        "games": {str(number): _game(g) for number, g in games.items()},
    }


def _game(game: GameAnalysis) -> dict[str, Any]:
    return {
        "seats": list(game.seats),
        "decisions": [
            {
                "line": d.line,
                "number": d.number,
                "address": d.address,
                "hand": d.hand,
                "seat": d.seat,
                "kind": d.kind,
                "status": d.status,
                "taken": d.taken,
                "best": d.best,
                "loss": None if d.loss is None else round(d.loss, 3),
                "low": None if d.low is None else round(d.low, 3),
                "high": None if d.high is None else round(d.high, 3),
                "grade": d.grade,
                "refusedClaims": d.refused_claims,
                "choices": [
                    {"choice": c["choice"], "value": round(c["value"], 2), "half": round(c["half_width"], 2)}
                    for c in d.choices[:CHOICES_SHOWN]
                ],
            }
            for d in game.decisions
        ],
        "luck": [
            {"hand": r.hand, "seat": r.seat, "luck": round(r.luck, 2), "half": round(r.half_width, 2)}
            for r in game.luck
        ],
    }
