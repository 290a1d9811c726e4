"""A bot that crashes once: ``python crash_once_bot.py MARKER N``.

It plays the SDK's defaults; at its N-th decision, if its output file
(stderr, which the referee keeps across restarts) does not hold the line
``crashed once: MARKER`` yet, it writes it and exits with status 3 without
answering. The process started after it finds the line and plays cleanly.
(A bot in the sandbox cannot keep a file of its own across restarts.) In a
tournament only its first role crashes (output file ``*.0.stderr``), so the
bot crashes once in all.
"""

from __future__ import annotations

import os
import sys
from pathlib import Path

import sdk.runner
from sdk import Bot, SeatView

MARKER = sys.argv[1]
LINE = f"crashed once: {MARKER}"
OUTPUT = Path("/proc/self/fd/2")
ARMED = not os.readlink(OUTPUT).endswith(".stderr") or os.readlink(OUTPUT).endswith(".0.stderr")
AT = int(sys.argv[2])


class CrashOnce(Bot):
    name = "crash-once"

    def __init__(self) -> None:
        super().__init__()
        self.decisions = 0

    def decide(self, view: SeatView) -> object:
        self.decisions += 1
        if self.decisions == AT and ARMED and LINE not in OUTPUT.read_text(errors="replace"):
            print(LINE, file=sys.stderr, flush=True)
            os._exit(3)
        return super().decide(view)


if __name__ == "__main__":
    sdk.runner.run(CrashOnce(), [])
