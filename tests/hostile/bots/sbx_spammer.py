"""Hostile bot (issue 10, item 6): floods its output file. ``python sbx_spammer.py MIB``

Before it connects it writes MIB mebibytes to stderr in 1 MiB lines, carrying
on past write errors (a capped file refuses the rest), then plays random legal
actions.
"""

from __future__ import annotations

import sys

LINE = b"x" * (1024 * 1024 - 1) + b"\n"
for _ in range(int(sys.argv[1])):
    try:
        sys.stderr.buffer.write(LINE)
        sys.stderr.buffer.flush()
    except OSError:
        pass

del sys.argv[1:]  # the SDK reads its own options from the command line
from example_bots.random_bot import RandomBot
from sdk import run

run(RandomBot())
