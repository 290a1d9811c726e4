"""Tournament speed: games per minute at concurrency 1 and 2, and who uses the CPU.

Runs ``arena tournament``'s own runner (``referee.tournament.playing``) in this
process on a round-robin of 4 random bots (example_bots.random_bot, real
processes), in a temporary folder, once per concurrency. For each run it
prints games per minute, decisions per second, and the CPU time of the
referee (this process: getrusage SELF) against that of the bots (its
children, reaped when the tournament ends: getrusage CHILDREN), with the
machine. The aim is that the bots, not the referee, use most of the CPU.

    python bench/tournament.py [--games N] [--preset P] [--concurrency 1 2]
"""

from __future__ import annotations

import argparse
import asyncio
import resource
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from machine import cpu_seconds, describe  # bench/machine.py

from referee.logging import configure
from referee.runfolder import RunFolder
from referee.tournament.playing import Tournament
from referee.tournament.settings import TournamentChoices, parse_bots, resolve

BOTS = 4


def run(preset: str, games: int, concurrency: int, seed: int) -> dict[str, float]:
    bots = parse_bots([f"random{k}={sys.executable} -m example_bots.random_bot" for k in range(1, BOTS + 1)])
    settings = resolve(
        TournamentChoices(bots=bots, preset=preset, games=games, seed=seed, move_time=1000, name="bench")
    )
    with tempfile.TemporaryDirectory() as tmp:
        folder = RunFolder(Path(tmp) / "bench")
        folder.create(settings.record())
        tournament = Tournament(settings, folder, concurrency=concurrency)
        start, own, children = (
            time.perf_counter(),
            cpu_seconds(resource.RUSAGE_SELF),
            cpu_seconds(resource.RUSAGE_CHILDREN),
        )
        asyncio.run(tournament.run())
        elapsed = time.perf_counter() - start
        own = cpu_seconds(resource.RUSAGE_SELF) - own
        children = cpu_seconds(resource.RUSAGE_CHILDREN) - children
        decisions = sum(r.decisions for r in tournament.done.values())
        hands = sum(r.hands for r in tournament.done.values())
    return {
        "games": len(tournament.done),
        "hands": hands,
        "seconds": elapsed,
        "games_per_minute": 60 * len(tournament.done) / elapsed,
        "decisions_per_second": decisions / elapsed,
        "referee_cpu": own,
        "bots_cpu": children,
        "referee_us_per_decision": 1e6 * own / decisions,
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--games", type=int, default=8, help="games per pairing (6 pairings of 4 bots)")
    parser.add_argument("--preset", default="double-deck", help="rule preset (random bots finish its games)")
    parser.add_argument("--concurrency", type=int, nargs="+", default=[1, 2])
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    configure("warning")
    print(f"machine: {describe(grpc=True)}")
    print(f"{BOTS} random bots, {args.preset}, {args.games} games per pairing, duplicate deals")
    for concurrency in args.concurrency:
        r = run(args.preset, args.games, concurrency, args.seed)
        share = r["referee_cpu"] / (r["referee_cpu"] + r["bots_cpu"])
        print(
            f"concurrency {concurrency}: {r['games']:.0f} games ({r['hands']:.0f} hands) in {r['seconds']:.1f} s: "
            f"{r['games_per_minute']:.0f} games/min, {r['decisions_per_second']:.0f} decisions/s; "
            f"CPU: referee {r['referee_cpu']:.1f} s ({r['referee_us_per_decision']:.0f} us/decision), "
            f"bots {r['bots_cpu']:.1f} s: referee share {100 * share:.0f}%"
        )


if __name__ == "__main__":
    main()
