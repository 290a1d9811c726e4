"""A bot that keeps its own child processes busy: ``python hog_bot.py CHILDREN SHARE TAG [sleep]``.

At start it launches CHILDREN processes that spin for ever (they die with
it: PR_SET_PDEATHSIG; TAG, unread, marks their command lines so that a test
can look for any left behind), then answers each
decision with the SDK's default action after using SHARE of the time limit
in CPU time of its own. On a machine with fewer CPUs than its busy
processes, its children slow its answers down: issue 10, item 4 (such a bot
answered at 1.6 times the move time and was never called for time).

With ``sleep`` it answers after SHARE of the time limit on the clock,
sleeping meanwhile: its children's waits for a CPU, when other load keeps
them waiting, are all that could buy it the time (issue 19, item 5).
"""

from __future__ import annotations

import ctypes
import signal
import subprocess
import sys
import time

import sdk.runner
from sdk import Bot, SeatView

CHILDREN, SHARE, TAG = int(sys.argv[1]), float(sys.argv[2]), sys.argv[3]
SLEEP = sys.argv[4:] == ["sleep"]
PR_SET_PDEATHSIG = 1


def _die_with_parent() -> None:
    ctypes.CDLL(None, use_errno=True).prctl(PR_SET_PDEATHSIG, signal.SIGKILL)


class Hog(Bot):
    name = "hog"

    def decide(self, view: SeatView) -> object:
        if SLEEP:
            time.sleep(SHARE * self.time_limit_ms / 1000)
            return super().decide(view)
        until = time.process_time() + SHARE * self.time_limit_ms / 1000
        while time.process_time() < until:
            pass
        return super().decide(view)


if __name__ == "__main__":
    spin = [sys.executable, "-c", "while True: pass", TAG]
    kids = [subprocess.Popen(spin, preexec_fn=_die_with_parent) for _ in range(CHILDREN)]
    sdk.runner.run(Hog(), [])
