"""Hostile bot (issue 10, item 3): SIGKILLs what it can reach. ``python sbx_killer.py MARKER``

At its first decision (every bot of its game is up by then) it sends SIGKILL
to every process it can see that is another bot of the same referee
(ARENA_ADDRESS in its environment) or whose command line holds MARKER (the
referee that started it, and the other bots' launchers). It prints
``sbx_killer: killed N`` and plays random legal actions. Only ever run it with
``--sandbox required``: bare, it would kill its opponents and the referee.
"""

from __future__ import annotations

import os
import signal
import sys

MARKER = sys.argv[1].encode()
del sys.argv[1:]  # the SDK reads its own options from the command line

from example_bots.random_bot import RandomBot
from sdk import run


def targets() -> list[int]:
    me = os.getpid()
    address = f"ARENA_ADDRESS={os.environ['ARENA_ADDRESS']}".encode()
    out = []
    for entry in os.listdir("/proc"):
        if not entry.isdigit() or int(entry) in (me, 1):
            continue
        try:
            with open(f"/proc/{entry}/environ", "rb") as f:
                environ = f.read().split(b"\0")
            with open(f"/proc/{entry}/cmdline", "rb") as f:
                cmdline = f.read()
        except OSError:
            continue
        if address in environ or MARKER in cmdline:
            out.append(int(entry))
    return out


def kill_all() -> int:
    killed = 0
    for pid in targets():
        try:
            os.kill(pid, signal.SIGKILL)
            killed += 1
        except OSError:
            pass
    return killed


class Killer(RandomBot):
    done = False

    def decide(self, view):
        if not self.done:
            self.done = True
            print(f"sbx_killer: killed {kill_all()}", file=sys.stderr, flush=True)
        return super().decide(view)


run(Killer())
