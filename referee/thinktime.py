"""Think time: how long bots took to answer, as the referee charged it (after what it gave back).

The match driver adds each answer of a seat to its ``ThinkTime`` for the
game; the tournament's results file keeps them per team, and the standings
show each bot's mean and longest answer, as ``arena match`` shows each
team's (``shown``, under ``HEADER``).
"""

from __future__ import annotations

from dataclasses import dataclass

HEADER = "ms mean/max"  # the column of a table that shows think times


@dataclass(frozen=True)
class ThinkTime:
    """One seat's answers in a game: how many, their charged time in all, the longest (ms)."""

    answers: int = 0
    total_ms: int = 0
    max_ms: int = 0

    def add(self, ms: int) -> ThinkTime:
        return ThinkTime(self.answers + 1, self.total_ms + ms, max(self.max_ms, ms))

    def merge(self, other: ThinkTime) -> ThinkTime:
        return ThinkTime(self.answers + other.answers, self.total_ms + other.total_ms, max(self.max_ms, other.max_ms))

    @property
    def mean_ms(self) -> float:
        return self.total_ms / self.answers if self.answers else 0.0

    def shown(self) -> str:
        """The mean and the longest, as a table shows them (``HEADER``): ``12/96``."""
        return f"{self.mean_ms:.0f}/{self.max_ms}"
