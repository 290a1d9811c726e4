"""The small statistics of the analysis: grades by the interval, the cross-fitted loss, the clustered mean."""

from __future__ import annotations

import math
import random
import statistics

import pytest

from referee.analyze.evaluate import cross_fitted_loss
from referee.analyze.grades import Grade, grade
from referee.analyze.summary import clustered_mean


@pytest.mark.parametrize(
    ("low", "expected"),
    [
        (-2.0, Grade.NONE),
        (0.0, Grade.NONE),
        (0.49, Grade.NONE),
        (0.5, Grade.INACCURACY),
        (1.49, Grade.INACCURACY),
        (1.5, Grade.MISTAKE),
        (2.99, Grade.MISTAKE),
        (3.0, Grade.BLUNDER),
        (40.0, Grade.BLUNDER),
    ],
)
def test_a_grade_goes_by_the_low_end_of_the_interval(low: float, expected: Grade) -> None:
    assert grade(low) is expected


def test_equal_choices_lose_nothing_on_average_where_picking_in_the_same_worlds_would() -> None:
    rng = random.Random(7)
    crossed, naive = [], []
    for _ in range(400):
        # five choices worth the same, seen through noise in 48 worlds
        values: dict[object, list[float]] = {c: [rng.gauss(0, 3) for _ in range(48)] for c in range(5)}
        loss, _ = cross_fitted_loss(values, 0)
        crossed.append(loss)
        naive.append(max(statistics.fmean(v) for v in values.values()) - statistics.fmean(values[0]))
    assert abs(statistics.fmean(crossed)) < 0.1  # centred on the truth, 0
    assert statistics.fmean(naive) > 0.4  # the winner's curse: about half a standard error of a mean here


def test_a_clearly_worse_choice_loses_what_it_is_worse_by() -> None:
    rng = random.Random(8)
    base = [rng.gauss(0, 3) for _ in range(48)]
    values: dict[object, list[float]] = {"taken": base, "better": [v + 2.0 for v in base], "other": base[:]}
    loss, half = cross_fitted_loss(values, "taken")
    assert loss == pytest.approx(2.0) and half == pytest.approx(0.0)


def test_the_clustered_mean_of_equal_clusters_is_the_mean_of_cluster_means() -> None:
    clusters = [(3.0, 3), (0.0, 3), (6.0, 3), (3.0, 3)]
    m = clustered_mean(clusters)
    means = [s / n for s, n in clusters]
    assert m.mean == pytest.approx(statistics.fmean(means))
    assert m.half_width == pytest.approx(1.96 * statistics.stdev(means) / math.sqrt(len(means)))
    assert m.count == 12
    one = clustered_mean([(2.0, 4)])
    assert one.mean == 0.5 and math.isnan(one.half_width)
    assert clustered_mean([]).count == 0
