"""A random bot that takes its time: ``python slow_bot.py MS``: it waits MS milliseconds before each answer,
so a game lasts long enough to be watched as it is played (the live view's tests)."""

from __future__ import annotations

import sys
import time
from collections.abc import Sequence

from example_bots.random_bot import RandomBot
from sdk import Bid, Card, SeatView, run

PAUSE_S = int(sys.argv.pop(1)) / 1000  # the SDK reads the rest of the command line


class SlowBot(RandomBot):
    name = "slow"

    def bid(self, view: SeatView, legal: Sequence[Bid]) -> Bid:
        time.sleep(PAUSE_S)
        return super().bid(view, legal)

    def play(self, view: SeatView, legal: Sequence[Card]) -> Card:
        time.sleep(PAUSE_S)
        return super().play(view, legal)


if __name__ == "__main__":
    run(SlowBot())
