"""How bad a loss is: inaccuracy, mistake or blunder, and only when the evidence says so.

A grade is given by the *lower* end of the loss's 95% interval, not by its
estimate: a decision is called a blunder only when even the low end of its
interval is a blunder's loss, so that the noise of a Monte Carlo estimate is
never taken for a blunder (an estimate of 3.4 points with an interval of
[1.9, 4.9] is a mistake: the interval does not rule a mistake out).

The thresholds are in points of hand margin (the seat's team's points less
the other teams' average, under the preset's scoring). A trick taken from
the other side is worth about 2 of those (a point less for one side, a point
more for the other, on presets that score tricks), so: an inaccuracy gives
up a quarter of a trick or more, a mistake most of a trick, a blunder more
than a trick's swing.
"""

from __future__ import annotations

from enum import StrEnum


class Grade(StrEnum):
    NONE = "none"
    INACCURACY = "inaccuracy"
    MISTAKE = "mistake"
    BLUNDER = "blunder"


# The least loss (points of hand margin) of each grade, worst first.
THRESHOLDS: dict[Grade, float] = {Grade.BLUNDER: 3.0, Grade.MISTAKE: 1.5, Grade.INACCURACY: 0.5}
FLAGGED = (Grade.INACCURACY, Grade.MISTAKE, Grade.BLUNDER)


def grade(low: float) -> Grade:
    """The grade of a loss whose 95% interval starts at ``low``: the worst grade it cannot be below."""
    for name, least in THRESHOLDS.items():
        if low >= least:
            return name
    return Grade.NONE
