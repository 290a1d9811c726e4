"""Bot start-up with and without the sandbox: how long from launch until the bot is connected.

For each way to run a bot (bare, bubblewrap, unshare: those this machine
has), starts the random example bot N times through the referee's own
``BotPool`` against a real ``ArenaServer`` on 127.0.0.1, and prints the median
and the slowest time from launch to the bot's Hello, and the same for a bare
``true`` (the launcher alone, no Python, no gRPC).

    python bench/sandbox.py [--runs N]
"""

from __future__ import annotations

import argparse
import asyncio
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from machine import describe  # bench/machine.py

from referee.bots import BotCommand, BotPool
from referee.logging import configure
from referee.sandbox import Sandbox, candidates
from referee.server import ArenaServer

RANDOM = BotCommand("random", (sys.executable, "-m", "example_bots.random_bot"))


async def connect_times(sandbox: Sandbox | None, runs: int, folder: Path) -> list[float]:
    server = ArenaServer()
    await server.start()
    times = []
    try:
        for k in range(runs):
            pool = BotPool(server, output_dir=folder, output_stem=f"run{k}", seed=k, sandbox=sandbox)
            player = pool.add(f"p{k}", RANDOM)
            start = time.perf_counter()
            problems = await pool.ready([player])
            times.append(time.perf_counter() - start)
            if problems:
                raise SystemExit(f"the bot did not start: {problems[player]}")
            await pool.close()
    finally:
        await server.stop(0.5)
    return times


def launcher_times(sandbox: Sandbox | None, runs: int) -> list[float]:
    times = []
    for _ in range(runs):
        argv = ["true"] if sandbox is None else sandbox.wrap(["true"])
        start = time.perf_counter()
        subprocess.run(argv, check=True)
        times.append(time.perf_counter() - start)
    return times


def ms(values: list[float]) -> str:
    return f"median {statistics.median(values) * 1000:7.1f} ms, max {max(values) * 1000:7.1f} ms"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=10)
    args = parser.parse_args()
    configure("warning")
    print(describe())
    ways: list[tuple[str, Sandbox | None]] = [("bare", None)]
    for sandbox, problem in candidates():
        if sandbox is None:
            print(f"not measured: {problem}")
        else:
            ways.append((sandbox.kind, sandbox))
    with tempfile.TemporaryDirectory() as tmp:
        for name, sandbox in ways:
            if sandbox is not None:
                sandbox = sandbox.with_hidden(Path(tmp))
            bot = asyncio.run(connect_times(sandbox, args.runs, Path(tmp)))
            bare = launcher_times(sandbox, args.runs)
            print(f"{name:8} random bot to connected: {ms(bot)};  `true`: {ms(bare)}")


if __name__ == "__main__":
    main()
