"""A bot whose gRPC library could not dial a Unix socket (as .NET's cannot): ``python tcp_only_bot.py``.

It prints its ARENA_ADDRESS to its output, then exits with status 3 when
that is a ``unix:`` target, and plays random legal actions otherwise.
"""

from __future__ import annotations

import os
import sys

from example_bots.random_bot import RandomBot
from sdk import run

address = os.environ.get("ARENA_ADDRESS", "")
print(f"tcp_only_bot: ARENA_ADDRESS={address}", file=sys.stderr, flush=True)
if address.startswith("unix:"):
    print("tcp_only_bot: error: this gRPC library cannot dial a unix: target", file=sys.stderr, flush=True)
    raise SystemExit(3)
run(RandomBot())
