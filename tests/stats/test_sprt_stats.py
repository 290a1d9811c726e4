"""The SPRT statistics alone: LLR and Elo on published figures, bounds, and simulated error rates.

The figures come from fastchess's own tests (github.com/Disservin/fastchess,
app/tests/sprt_test.cpp and app/tests/elo_test.cpp, commit 74deac23), which
check them against fishtest's results; fastchess compares to two decimals
(doctest Approx epsilon 0.01), and so do these. fastchess's Stats takes the
pentanomial counts as (LL, LD, WL, DD, WD, WW) and the trinomial as (W, L, D);
here a pentanomial is by pair score (LL, LD, WL+DD, WD, WW) and a trinomial
(L, D, W).
"""

from __future__ import annotations

import math
import random

import pytest

from referee.stats.sprt import (
    GAME_SCORES,
    PAIR_SCORES,
    Model,
    Pentanomial,
    Sprt,
    SprtError,
    Verdict,
    elo_to_score,
    estimate,
    llr,
    pentanomial_estimate,
    score_to_elo,
)


def fastchess_penta(ll: int, ld: int, wl: int, dd: int, wd: int, ww: int) -> Pentanomial:
    return Pentanomial((ll, ld, wl + dd, wd, ww))


# (fastchess Stats(ll, ld, wl, dd, wd, ww), elo0, elo1, model, expected LLR): sprt_test.cpp "... pentanomial N"
PENTANOMIAL_LLR = [
    ((365, 16618, 36029, 200, 16974, 390), 0, 2, "normalized", 2.25),
    ((127, 4883, 10311, 401, 5150, 104), -1.75, 0.25, "normalized", 3.01),
    ((0, 0, 0, 0, 0, 5550), 0, 5, "normalized", 111.82),
    ((223, 9863, 20279, 1000, 10037, 246), 0.5, 2.5, "logistic", -3.07),
    ((871, 26175, 55003, 980, 26678, 821), 0, 2, "logistic", -4.98),
]

# (wins, losses, draws), elo0, elo1, model, expected: sprt_test.cpp "... trinomial N"
TRINOMIAL_LLR = [
    ((36433, 36027, 68692), 0, 2, "normalized", 0.92),
    ((10871, 10650, 20431), -1.75, 0.25, "normalized", 2.30),
    ((4250, 0, 0), 0, 10, "normalized", 120.56),
    ((21404, 21184, 40708), 0.5, 2.5, "logistic", -1.57),
    ((57433, 57030, 106593), 0, 2, "logistic", -2.59),
]


@pytest.mark.parametrize(("stats", "elo0", "elo1", "model", "expected"), PENTANOMIAL_LLR)
def test_pentanomial_llr_matches_fastchess(stats, elo0, elo1, model, expected):
    test = Sprt(elo0=elo0, elo1=elo1, model=Model(model))
    assert test.llr(fastchess_penta(*stats)) == pytest.approx(expected, rel=0.01)


@pytest.mark.parametrize(("stats", "elo0", "elo1", "model", "expected"), TRINOMIAL_LLR)
def test_trinomial_llr_matches_fastchess(stats, elo0, elo1, model, expected):
    wins, losses, draws = stats
    assert llr(GAME_SCORES, (losses, draws, wins), elo0, elo1, model) == pytest.approx(expected, rel=0.01)


# elo_test.cpp "EloPentanomial N": (stats, Elo, error, nElo, nElo error, LOS %, score)
PENTANOMIAL_ELO = [
    ((34, 54, 31, 32, 64, 75), 55.58, 27.65, 57.94, 28.28, 100.00, 0.579),
    ((332, 433, 457, 41, 333, 334), -8.64, 10.33, -9.17, 10.96, 5.05, 0.488),
    ((7895, 8757, 5485, 200, 568, 9999), -21.04, 2.95, -19.01, 2.65, 0.00, 0.470),
]


@pytest.mark.parametrize(("stats", "elo", "error", "nelo", "_nerr", "los", "score"), PENTANOMIAL_ELO)
def test_pentanomial_elo_matches_fastchess(stats, elo, error, nelo, _nerr, los, score):
    e = pentanomial_estimate(fastchess_penta(*stats))
    assert e.elo == pytest.approx(elo, rel=0.01)
    assert e.error == pytest.approx(error, rel=0.01)
    assert e.nelo == pytest.approx(nelo, rel=0.01)
    assert e.score == pytest.approx(score, rel=0.01)
    assert round(e.los * 100, 2) == pytest.approx(los, abs=0.01)


def test_wdl_elo_matches_fastchess():
    # elo_test.cpp "EloWDL 2": Stats(136 wins, 96 losses, 111 draws)
    e = estimate(GAME_SCORES, (96, 111, 136))
    assert e.elo == pytest.approx(40.70, rel=0.01)
    assert e.error == pytest.approx(30.43, rel=0.01)
    assert e.nelo == pytest.approx(49.77, rel=0.01)


def test_bounds_are_walds():
    test = Sprt(alpha=0.05, beta=0.05)
    assert test.lower == pytest.approx(-2.944, abs=1e-3)  # log(0.05 / 0.95), fishtest's default bounds
    assert test.upper == pytest.approx(2.944, abs=1e-3)
    assert test.verdict(3.0) is Verdict.H1
    assert test.verdict(-3.0) is Verdict.H0
    assert test.verdict(0.1) is Verdict.CONTINUE
    skewed = Sprt(alpha=0.01, beta=0.2)
    assert skewed.upper == pytest.approx(math.log(0.8 / 0.01))
    assert skewed.lower == pytest.approx(math.log(0.2 / 0.99))


def test_no_pairs_no_evidence_and_symmetry():
    test = Sprt(elo0=-10, elo1=10)
    assert test.llr(Pentanomial()) == 0.0
    penta = Pentanomial((3, 10, 20, 14, 6))
    mirrored = Pentanomial(penta.counts[::-1])
    # swapping the bots mirrors the pentanomial and, for hypotheses symmetric about 0, negates the LLR
    assert test.llr(mirrored) == pytest.approx(-test.llr(penta), rel=1e-6)


def test_pentanomial_counts_pairs():
    penta = Pentanomial().add(2).add(1.5).add(1).add(1).add(0)
    assert penta.counts == (1, 0, 2, 1, 1)
    assert penta.points == 5.5
    with pytest.raises(ValueError, match=r"0, 0\.5, 1, 1\.5 or 2"):
        penta.add(1.2)


def test_elo_score_round_trip():
    for elo in (-300, -10, 0, 35, 400):
        assert score_to_elo(elo_to_score(elo)) == pytest.approx(elo)
    assert score_to_elo(1.0) == math.inf


@pytest.mark.parametrize(
    ("kwargs", "message"),
    [
        ({"elo0": 5, "elo1": 5}, "elo0"),
        ({"alpha": 0}, "alpha"),
        ({"beta": 1.5}, "beta"),
        ({"alpha": 0.6, "beta": 0.5}, "alpha \\+ beta"),
    ],
)
def test_bad_parameters_are_refused(kwargs, message):
    with pytest.raises(SprtError, match=message):
        Sprt(**kwargs)


# ------------------------------------------------------------ simulation

# A pair's outcome in Bid Euchre between bots of equal strength: on duplicate
# deals a split pair (1 point) is the commonest, sweeps are rarer.
BASE = (0.12, 0.2, 0.36, 0.2, 0.12)


def pentanomial_at(elo: float) -> list[float]:
    """BASE tilted exponentially to the expected pair score of ``elo`` (logistic)."""
    target = elo_to_score(elo)

    def dist(lam: float) -> list[float]:
        w = [b * math.exp(lam * a) for b, a in zip(BASE, PAIR_SCORES, strict=True)]
        total = sum(w)
        return [x / total for x in w]

    lo, hi = -50.0, 50.0
    for _ in range(100):
        mid = (lo + hi) / 2
        mean = sum(p * a for p, a in zip(dist(mid), PAIR_SCORES, strict=True))
        lo, hi = (mid, hi) if mean < target else (lo, mid)
    return dist((lo + hi) / 2)


def run_sprt(test: Sprt, probs: list[float], rng: random.Random, max_pairs: int = 5000) -> Verdict:
    counts = [0] * 5
    for _ in range(max_pairs):
        counts[rng.choices(range(5), probs)[0]] += 1
        c0, c1, c2, c3, c4 = counts
        verdict = test.verdict(test.llr(Pentanomial((c0, c1, c2, c3, c4))))
        if verdict is not Verdict.CONTINUE:
            return verdict
    return Verdict.CONTINUE


@pytest.mark.parametrize("model", [Model.LOGISTIC])
def test_simulated_error_rates_stay_within_alpha_and_beta(model):
    """Many SPRTs on simulated pairs: at elo0 few accept H1 (<= alpha), at elo1 few accept H0 (<= beta).

    Wald's bounds keep each error rate near or below its nominal value (the
    LLR overshoots the bound; with few pairs the estimated variance is
    rough, so the hypotheses are set apart enough for runs of about a
    hundred pairs, as in real tests). The check allows three binomial
    standard errors of sampling noise on top of the nominal rate. (Seen
    while writing it: 4.4% and 4.4% over 500 runs each.)
    """
    test = Sprt(elo0=0, elo1=40, alpha=0.05, beta=0.05, model=model)
    rng = random.Random(20240611)
    runs = 400
    at0 = [run_sprt(test, pentanomial_at(test.elo0), rng) for _ in range(runs)]
    at1 = [run_sprt(test, pentanomial_at(test.elo1), rng) for _ in range(runs)]
    assert Verdict.CONTINUE not in at0 + at1  # every run ended
    slack = 3 * math.sqrt(test.alpha * (1 - test.alpha) / runs)
    false_h1 = at0.count(Verdict.H1) / runs
    false_h0 = at1.count(Verdict.H0) / runs
    assert false_h1 <= test.alpha + slack, f"accepted H1 at elo0 in {false_h1:.1%} of runs"
    assert false_h0 <= test.beta + slack, f"accepted H0 at elo1 in {false_h0:.1%} of runs"
    # and the test has power: where the truth is far from a hypothesis it is rejected nearly always
    far = [run_sprt(test, pentanomial_at(2 * test.elo1), rng) for _ in range(50)]
    assert far.count(Verdict.H1) >= 45
