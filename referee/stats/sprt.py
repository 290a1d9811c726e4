"""The statistics of a sequential test between two bots: pentanomial outcomes, Elo, LLR, bounds.

Pure arithmetic, no I/O: the SPRT's run (``referee.sprt``) feeds it counts.

Outcomes
    Every duplicate pair (one deal, played once from each side of the
    table) is one outcome: the new bot's score over the two games, each game
    1 for a win, 1/2 for a draw (no winner), 0 for a loss, so 0, 1/2, 1,
    3/2 or 2. ``Pentanomial`` counts the five; scaled to 0..1 they are
    ``PAIR_SCORES``. The games of a pair are not independent (both are
    dealt the same cards), so the pair, not the game, is the sample: the
    luck of the deal is inside each outcome and cancels out of its mean.

Elo
    ``logistic``: a score ``s`` is ``400 * log10(s / (1 - s))`` Elo.
    ``normalized``: the score's distance from 1/2 in standard deviations of
    a pair's score (fishtest's nElo), scaled so a pair's 1 standard
    deviation is ``800 / ln 10 / sqrt 2``.

LLR
    The generalized log-likelihood ratio of H1 (Elo = elo1) against
    H0 (Elo = elo0) for the multinomial of observed counts: under each
    hypothesis the distribution closest to the observed one (maximum
    likelihood) with the hypothesis' expected score (logistic) or
    normalized Elo (normalized), as in M. Van den Bergh's notes used by
    fishtest and fastchess (app/src/matchmaking/sprt/sprt.cpp). Empty cells
    count 1e-3, as there.

Bounds
    Wald's: accept H0 at ``log(beta / (1 - alpha))``, H1 at
    ``log((1 - beta) / alpha)``.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from enum import StrEnum

from referee.errors import InputError

PAIR_SCORES = (0.0, 0.25, 0.5, 0.75, 1.0)  # a pair's score (0..2 points) over 2
GAME_SCORES = (0.0, 0.5, 1.0)  # loss, draw, win
Z95 = 1.959963984540054
NELO_SCALE = 800 / math.log(10)  # nElo per standard deviation of a game's score, times 2
_EMPTY_CELL = 1e-3


class SprtError(InputError):
    """SPRT parameters that make no test; the message says which."""


class Model(StrEnum):
    LOGISTIC = "logistic"
    NORMALIZED = "normalized"


class Verdict(StrEnum):
    H0 = "H0"  # not better by elo1: the change is rejected
    H1 = "H1"  # better by at least elo0: the change is accepted
    CONTINUE = "continue"


# --------------------------------------------------------------- outcomes


@dataclass(frozen=True)
class Pentanomial:
    """Counts of pairs by the new bot's pair score: [0, 1/2, 1, 3/2, 2] points."""

    counts: tuple[int, int, int, int, int] = (0, 0, 0, 0, 0)

    @property
    def pairs(self) -> int:
        return sum(self.counts)

    def add(self, points: float) -> Pentanomial:
        """One more pair of ``points`` (0, 0.5, 1, 1.5 or 2)."""
        index = round(points * 2)
        if not 0 <= index <= 4 or abs(index - points * 2) > 1e-9:
            raise ValueError(f"a pair scores 0, 0.5, 1, 1.5 or 2 points, got {points!r}")
        c0, c1, c2, c3, c4 = (n + 1 if k == index else n for k, n in enumerate(self.counts))
        return Pentanomial((c0, c1, c2, c3, c4))

    @property
    def points(self) -> float:
        """The new bot's points over all pairs (2 per pair at most)."""
        return sum(k * 0.5 * c for k, c in enumerate(self.counts))


def score_to_elo(score: float) -> float:
    """Logistic Elo difference of a score fraction (infinite at 0 and 1)."""
    if score <= 0:
        return -math.inf
    if score >= 1:
        return math.inf
    return -400 * math.log10(1 / score - 1)


def elo_to_score(elo: float) -> float:
    return 1 / (1 + 10 ** (-elo / 400))


@dataclass(frozen=True)
class EloEstimate:
    """The score, the Elo difference and its 95% interval from a sample of outcomes."""

    samples: float
    score: float  # mean outcome, 0..1
    variance: float  # of one outcome
    elo: float
    elo_low: float
    elo_high: float
    nelo: float  # normalized Elo (nan when the variance is 0)
    los: float  # likelihood of superiority: P(true score > 1/2)

    @property
    def error(self) -> float:
        """Half the width of the 95% interval."""
        return (self.elo_high - self.elo_low) / 2


def estimate(values: Sequence[float], counts: Sequence[float], *, per_game: int = 1) -> EloEstimate:
    """Elo from ``counts[i]`` outcomes of value ``values[i]`` (0..1); ``per_game``: games per outcome (2 for pairs).

    As fastchess's EloWDL / EloPentanomial: the interval maps the score's
    normal 95% interval through the Elo curve.
    """
    n = sum(counts)
    if n == 0:
        return EloEstimate(0, 0.5, 0.0, 0.0, -math.inf, math.inf, 0.0, 0.5)
    score = sum(v * c for v, c in zip(values, counts, strict=True)) / n
    variance = sum(c * (v - score) ** 2 for v, c in zip(values, counts, strict=True)) / n
    sd = math.sqrt(variance / n)
    low, high = score - Z95 * sd, score + Z95 * sd
    nelo = (score - 0.5) / math.sqrt(per_game * variance) * NELO_SCALE if variance > 0 else math.nan
    los = 0.5 * (1 - math.erf(-(score - 0.5) / math.sqrt(2 * variance / n))) if variance > 0 else float(score > 0.5)
    return EloEstimate(n, score, variance, score_to_elo(score), score_to_elo(low), score_to_elo(high), nelo, los)


def pentanomial_estimate(penta: Pentanomial) -> EloEstimate:
    return estimate(PAIR_SCORES, penta.counts, per_game=2)


# --------------------------------------------------------------- the test


@dataclass(frozen=True)
class Sprt:
    """A sequential probability ratio test of H0: Elo = elo0 against H1: Elo = elo1."""

    elo0: float = 0.0
    elo1: float = 10.0
    alpha: float = 0.05
    beta: float = 0.05
    model: Model = Model.LOGISTIC

    def __post_init__(self) -> None:
        if not self.elo0 < self.elo1:
            raise SprtError(f"elo0 ({self.elo0:g}) must be below elo1 ({self.elo1:g})")
        for name in ("alpha", "beta"):
            value = getattr(self, name)
            if not 0 < value < 1:
                raise SprtError(f"{name} must be between 0 and 1 (exclusive), got {value:g}")
        if self.alpha + self.beta >= 1:
            raise SprtError(f"alpha + beta must be below 1, got {self.alpha + self.beta:g}")
        Model(self.model)

    @property
    def lower(self) -> float:
        """Accept H0 at or below this LLR."""
        return math.log(self.beta / (1 - self.alpha))

    @property
    def upper(self) -> float:
        """Accept H1 at or above this LLR."""
        return math.log((1 - self.beta) / self.alpha)

    def llr(self, penta: Pentanomial) -> float:
        """The log-likelihood ratio of H1 against H0 for these pairs (0 with no pairs)."""
        return llr(PAIR_SCORES, penta.counts, self.elo0, self.elo1, self.model, per_outcome=2)

    def verdict(self, llr_value: float) -> Verdict:
        if llr_value >= self.upper:
            return Verdict.H1
        if llr_value <= self.lower:
            return Verdict.H0
        return Verdict.CONTINUE

    def record(self) -> dict[str, object]:
        return {"elo0": self.elo0, "elo1": self.elo1, "alpha": self.alpha, "beta": self.beta, "model": str(self.model)}


def llr(
    values: Sequence[float],
    counts: Sequence[int],
    elo0: float,
    elo1: float,
    model: Model | str = Model.LOGISTIC,
    *,
    per_outcome: int = 1,
) -> float:
    """Generalized LLR of Elo = elo1 against Elo = elo0 for outcomes ``values`` (0..1) seen ``counts`` times.

    ``per_outcome`` is the games in one outcome (1 for single games, 2 for
    pairs): the normalized model scales by its square root.
    """
    if sum(counts) == 0:
        return 0.0
    cells = [c if c > 0 else _EMPTY_CELL for c in counts]
    total = sum(cells)
    probs = [c / total for c in cells]
    if Model(model) is Model.LOGISTIC:
        p0 = _mle_mean(values, probs, elo_to_score(elo0))
        p1 = _mle_mean(values, probs, elo_to_score(elo1))
    else:
        scale = math.sqrt(per_outcome) / NELO_SCALE
        p0 = _mle_normalized(values, probs, elo0 * scale)
        p1 = _mle_normalized(values, probs, elo1 * scale)
    return total * sum(p * (math.log(a) - math.log(b)) for p, a, b in zip(probs, p1, p0, strict=True))


def _mle_mean(values: Sequence[float], probs: Sequence[float], s: float) -> list[float]:
    """The distribution on ``values`` with mean ``s`` most likely to give ``probs`` (Van den Bergh, prop. 1.1)."""
    shifted = [v - s for v in values]
    theta = _root(probs, shifted)
    return [p / (1 + theta * a) for p, a in zip(probs, shifted, strict=True)]


def _mle_normalized(values: Sequence[float], probs: Sequence[float], t: float) -> list[float]:
    """The distribution most likely to give ``probs`` with (mean - 1/2) / sd = ``t`` (Van den Bergh, sec. 4.1)."""
    n = len(values)
    p = [1 / n] * n
    for _ in range(10):
        mu = sum(a * q for a, q in zip(values, p, strict=True))
        sigma = math.sqrt(sum(q * (a - mu) ** 2 for a, q in zip(values, p, strict=True)))
        phi = [a - 0.5 - 0.5 * t * sigma * (1 + ((a - mu) / sigma) ** 2) for a in values]
        theta = _root(probs, phi)
        new = [q / (1 + theta * x) for q, x in zip(probs, phi, strict=True)]
        change = max(abs(a - b) for a, b in zip(new, p, strict=True))
        p = new
        if change < 1e-9:
            break
    return p


def _root(probs: Sequence[float], a: Sequence[float]) -> float:
    """The theta with sum(p_i a_i / (1 + theta a_i)) = 0, where every 1 + theta a_i > 0.

    The sum falls from +inf to -inf across that interval, (-1/max a, -1/min a),
    so it has one root: Newton's method from 0, kept inside a shrinking bracket
    (a bisection step whenever Newton would leave it).
    """
    low, high = -1 / max(a), -1 / min(a)
    x = 0.0
    for _ in range(100):
        f = fp = 0.0
        for p, ai in zip(probs, a, strict=True):
            d = ai / (1 + x * ai)
            f += p * d
            fp -= p * d * d
        if f > 0:
            low = x
        elif f < 0:
            high = x
        else:
            return x
        step = x - f / fp if fp else (low + high) / 2
        if not low < step < high:
            step = (low + high) / 2
        if abs(step - x) <= 1e-13 * max(1.0, abs(x)):
            return step
        x = step
    return x
