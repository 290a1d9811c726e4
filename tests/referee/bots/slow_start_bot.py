"""A bot slow only at its start, as a JVM is: ``python slow_start_bot.py SLEEP_MS``.

It sleeps SLEEP_MS (wall clock, no CPU) before the first answer of its process, then plays the SDK's defaults at
once. Before each answer it prints to stderr (its output file, which the referee keeps) what the request told it
of its time: ``told: LIMIT BANK ALLOWANCE`` (time_limit_ms, time_bank_ms, startup_allowance_ms).
"""

from __future__ import annotations

import sys
import time

from sdk import Bot, SeatView, run

SLEEP_MS = int(sys.argv[1])


class SlowStart(Bot):
    name = "slowstart"
    version = "1"

    def __init__(self) -> None:
        super().__init__()
        self.answers = 0

    def decide(self, view: SeatView) -> object:
        allowance = getattr(self, "startup_allowance_ms", "-")  # "-": an SDK that does not say
        print(f"told: {self.time_limit_ms} {self.time_bank_ms} {allowance}", file=sys.stderr, flush=True)
        self.answers += 1
        if self.answers == 1:
            time.sleep(SLEEP_MS / 1000)
        return super().decide(view)


if __name__ == "__main__":
    run(SlowStart(), [])
