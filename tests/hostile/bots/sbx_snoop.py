"""Hostile bot (issue 10, item 2): looks for game logs. ``python sbx_snoop.py [FOLDER ...]``

At its first decision (the game's log exists by then) it walks down from the
folder of its own output file (``/proc/self/fd/2``), that folder's parent,
./logs and each FOLDER given, and reads every ``.jsonl`` or ``.jsonl.part``
file it can open. It prints one line, ``sbx_snoop: read N log file(s)`` and
their paths, to its output, and plays random legal actions.
"""

from __future__ import annotations

import os
import sys

PLACES = sys.argv[1:]
del sys.argv[1:]  # the SDK reads its own options from the command line

from example_bots.random_bot import RandomBot
from sdk import run


def snoop() -> list[str]:
    places = list(PLACES)
    try:
        own = os.readlink("/proc/self/fd/2")
        places += [os.path.dirname(own), os.path.dirname(os.path.dirname(own))]
    except OSError:
        pass
    places.append(os.path.join(os.getcwd(), "logs"))
    read = set()
    for place in places:
        for folder, _, files in os.walk(place):
            for name in files:
                if name.endswith((".jsonl", ".jsonl.part")):
                    path = os.path.join(folder, name)
                    try:
                        with open(path, "rb") as f:
                            if f.read(1 << 20):
                                read.add(path)
                    except OSError:
                        pass
    return sorted(read)


class Snoop(RandomBot):
    snooped = False

    def decide(self, view):
        if not self.snooped:
            self.snooped = True
            found = snoop()
            print(f"sbx_snoop: read {len(found)} log file(s) {found}", file=sys.stderr, flush=True)
        return super().decide(view)


run(Snoop())
