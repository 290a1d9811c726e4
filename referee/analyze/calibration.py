"""Checking the analysis against the truth: what a choice was worth on the true deal.

``arena analyze`` judges a decision from the deciding seat's view, over deals
of the hidden cards it cannot see. Here the true deal is used instead, to
measure how well those judgements hold: ``true_loss`` plays the choice taken
and the best choice the analysis found out from the true position (every
card where it really was), each with the same reference policy the analysis
plays its worlds out with, and returns the difference. The reference policy
is deterministic (the model of the seats, then the fast playout), so one
playout of each choice gives its worth on that deal exactly; playing it
"many times" would repeat the same number.

``calibrate`` does it for the decisions of a log and pairs each predicted
loss with the true one; ``bench/analyze_calibration.py`` prints their
correlation and mean error.

This module looks at every hand, hidden cards included: it is a measuring
instrument, and nothing in ``arena analyze`` uses it.
"""

from __future__ import annotations

import math
from collections.abc import Iterator, Sequence
from dataclasses import dataclass

from referee.analyze.evaluate import CARD_SET_KINDS, Budget, engine_action, judge
from referee.analyze.spread import decision_rng
from referee.engine.events import HandEndEvent
from referee.engine.game import DecisionKind, Game, Phase
from referee.engine.playout import finish_game_hand
from referee.engine.view import seat_view
from referee.replay.logfile import MatchLog
from referee.replay.steps import Claim, DecisionPoint, GameReplay
from sdk.worldmodel import WorldModel, finish_hand, margin


def true_worth(game: Game, choice: object) -> float:
    """What ``choice`` is worth to the deciding seat's team on ``game``'s true deal, the hand then played out by
    the reference policy (the hand margin). ``game`` is left as it was."""
    decision = game.decision()
    assert decision is not None
    team = game.rules.team_of(decision.seat)
    trial = game.copy()
    events = trial.apply(engine_action(decision.kind, choice))
    ended = next((ev for ev in events if isinstance(ev, HandEndEvent)), None)
    if ended is not None:  # the choice ended the hand (its last card, or the last pass of a hand thrown in)
        return margin(ended.points, team)
    if trial.phase is Phase.PLAY:
        return margin(finish_game_hand(trial), team)
    return finish_hand(trial, WorldModel(game.rules), team)


@dataclass(frozen=True)
class Calibrated:
    """One decision: the loss the analysis predicted for the choice taken, and its loss on the true deal."""

    kind: DecisionKind
    predicted: float
    true: float


def calibrate(
    match: MatchLog, budget: Budget, seed: int, limit: int | None = None, kinds: Sequence[DecisionKind] = ()
) -> Iterator[Calibrated]:
    """Predicted and true losses for the decisions of ``match`` that have a choice (up to ``limit``; only
    ``kinds`` when given), in log order."""
    done = 0
    for logged in match.games:
        replay = GameReplay(match, logged)
        for item in replay:
            if not isinstance(item, DecisionPoint) or item.violations or isinstance(item.action, Claim):
                continue
            decision = item.decision
            if kinds and decision.kind not in kinds:
                continue
            if decision.kind not in CARD_SET_KINDS and len(decision.options) < 2:
                continue
            game = replay.game
            view = seat_view(game, decision.seat)
            judgement = judge(view, item.action, budget, decision_rng(seed, logged.game_id, item.number))
            if judgement is None:
                continue
            true = true_worth(game, judgement.best) - true_worth(game, judgement.taken)
            yield Calibrated(decision.kind, judgement.loss, true)
            done += 1
            if limit is not None and done >= limit:
                return


def correlation(xs: Sequence[float], ys: Sequence[float]) -> float:
    """Pearson's correlation of two equally long samples (nan when either does not vary)."""
    n = len(xs)
    mx, my = sum(xs) / n, sum(ys) / n
    sxy = sum((x - mx) * (y - my) for x, y in zip(xs, ys, strict=True))
    sxx = sum((x - mx) ** 2 for x in xs)
    syy = sum((y - my) ** 2 for y in ys)
    return sxy / math.sqrt(sxx * syy) if sxx > 0 and syy > 0 else math.nan
