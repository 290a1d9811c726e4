"""A bot that crashes once: ``python crash_once_bot.py MARKER N``.

It plays the SDK's defaults; at its N-th decision, if the file MARKER does
not exist yet, it creates it and exits with status 3 without answering. The
process started after it finds the marker and plays cleanly.
"""

from __future__ import annotations

import os
import sys
from pathlib import Path

import sdk.runner
from sdk import Bot, SeatView

MARKER = Path(sys.argv[1])
AT = int(sys.argv[2])


class CrashOnce(Bot):
    name = "crash-once"

    def __init__(self) -> None:
        super().__init__()
        self.decisions = 0

    def decide(self, view: SeatView) -> object:
        self.decisions += 1
        if self.decisions == AT and not MARKER.exists():
            MARKER.write_text("crashed once\n")
            os._exit(3)
        return super().decide(view)


if __name__ == "__main__":
    sdk.runner.run(CrashOnce(), [])
