"""The first-legal bot, held at the start of chosen games until the test opens their gate.

    python gate_bot.py GATES N [N ...]

At the start of its N-th game it waits until the file GATES/N exists: the
referee cannot end that game before, so a test can read the referee's state
after N - 1 games knowing it is still there.
"""

from __future__ import annotations

import sys
import time
from pathlib import Path

from example_bots.first_bot import FirstBot
from sdk import SeatView, run

GATES = Path(sys.argv[1])
HELD = {int(n) for n in sys.argv[2:]}
del sys.argv[1:]  # the SDK reads its own options from the command line


class GateBot(FirstBot):
    name = "gated"

    def __init__(self) -> None:
        super().__init__()
        self.games = 0

    def game_start(self, view: SeatView) -> None:
        self.games += 1
        if self.games in HELD:
            while not (GATES / str(self.games)).exists():
                time.sleep(0.01)


if __name__ == "__main__":
    run(GateBot())
