"""A bot that takes a share of every decision's time limit: ``python busy_bot.py SHARE [spin|cpu|sleep]``.

It answers with the SDK's default action after

- ``spin`` (the default): keeping a CPU busy for SHARE (0..1) of the limit,
  timed by the wall clock from the moment the request reached it, as a Monte
  Carlo bot that watches the clock does;
- ``cpu``: doing SHARE of the limit's worth of work, timed by its own CPU
  time, as a bot that runs a fixed number of simulations does: on a machine
  with more busy threads than CPUs it needs longer than that on the clock;
- ``sleep``: waiting without using the CPU (with SHARE above 1: a bot that is
  simply late).
"""

from __future__ import annotations

import sys
import time

import sdk.runner
from sdk import Bot, SeatView

SHARE = float(sys.argv[1])
MODE = sys.argv[2] if len(sys.argv) > 2 else "spin"


class Busy(Bot):
    name = "busy"

    def decide(self, view: SeatView) -> object:
        clock = time.process_time if MODE == "cpu" else time.perf_counter
        until = clock() + SHARE * self.time_limit_ms / 1000
        if MODE == "sleep":
            time.sleep(max(0.0, until - clock()))
        while clock() < until:
            pass
        return super().decide(view)


if __name__ == "__main__":
    sdk.runner.run(Busy(), [])
