"""Hostile bot (memory limit): tries to take 3 GiB. ``python sbx_hog.py``

It prints ``sbx_hog: got 3 GiB`` or ``sbx_hog: refused`` (MemoryError), then
plays random legal actions.
"""

from __future__ import annotations

import sys

try:
    block = bytearray(3 * 1024**3)
    print("sbx_hog: got 3 GiB", file=sys.stderr, flush=True)
    del block
except MemoryError:
    print("sbx_hog: refused", file=sys.stderr, flush=True)

del sys.argv[1:]  # the SDK reads its own options from the command line
from example_bots.random_bot import RandomBot
from sdk import run

run(RandomBot())
