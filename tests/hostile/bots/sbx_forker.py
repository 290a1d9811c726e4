"""Hostile bot (issue 10, item 1): leaves processes behind. ``python sbx_forker.py MARKER``

Before it connects it starts three sleepers whose command lines end with
``MARKER:child``: a plain child, a child in a session of its own (setsid) and
a double-forked orphan in a new session. Then it plays random legal actions.
Forks happen before gRPC is imported (no threads yet).
"""

from __future__ import annotations

import os
import subprocess
import sys

MARKER = sys.argv[1]
SLEEPER = [sys.executable, "-c", "import time; time.sleep(600)", f"{MARKER}:child"]


def spawn() -> None:
    subprocess.Popen(SLEEPER, stdin=subprocess.DEVNULL)
    subprocess.Popen(SLEEPER, stdin=subprocess.DEVNULL, start_new_session=True)
    first = os.fork()
    if first == 0:
        if os.fork() == 0:
            os.setsid()
            os.execv(sys.executable, SLEEPER)
        os._exit(0)
    os.waitpid(first, 0)
    print("sbx_forker: started 3 sleepers", file=sys.stderr, flush=True)


spawn()

del sys.argv[1:]  # the SDK reads its own options from the command line
from example_bots.random_bot import RandomBot
from sdk import run

run(RandomBot())
