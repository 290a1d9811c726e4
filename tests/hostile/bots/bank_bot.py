"""A bot that is slow once: ``python bank_bot.py AT SLEEP_MS LOGFILE``.

It plays the SDK defaults, sleeping SLEEP_MS (wall clock, no CPU) before its
AT-th answer of each game, and appends ``time_limit_ms time_bank_ms`` of
every request it gets to LOGFILE: what the referee told it of its time.
"""

from __future__ import annotations

import sys
import time

import sdk.runner
from sdk import Bot, SeatView

AT, SLEEP_MS, LOGFILE = int(sys.argv[1]), int(sys.argv[2]), sys.argv[3]


class Banker(Bot):
    name = "banker"

    def game_start(self, view: SeatView) -> None:
        self.answers = 0

    def decide(self, view: SeatView) -> object:
        self.answers += 1
        with open(LOGFILE, "a", encoding="ascii") as f:
            f.write(f"{self.time_limit_ms} {self.time_bank_ms}\n")
        if self.answers == AT:
            time.sleep(SLEEP_MS / 1000)
        return super().decide(view)


if __name__ == "__main__":
    sdk.runner.run(Banker(), [])
