"""How well each format ranks a field whose true order is known: round-robin, Swiss and knockout side by side.

The field is the shaky bot (``example_bots/shaky_bot.py``: the rules bot, playing a random legal card some of
the time) at 0 %, 3 %, 6 %, ... random cards: bot k plays a random card 3k % of the time, so the true order is
the order of k. Each format is played with the same seeds, by ``arena tournament``'s own runner in this process
(real bot processes, duplicate sets of two games, the preset's games cut to ``--hand-limit`` hands). For each
format it prints the games played, the rank correlation (Kendall's tau-b) of the final standings with the true
order, how often the true best bot finished first, and the wall time, with the machine and its load.

    python bench/formats.py [--bots 16] [--seeds 1 2 3] [--formats round-robin swiss knockout]
"""

from __future__ import annotations

import argparse
import asyncio
import os
import statistics
import sys
import tempfile
import time
from collections.abc import Sequence
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from machine import describe  # bench/machine.py

from referee.logging import configure
from referee.runfolder import RunFolder
from referee.sandbox import SandboxMode
from referee.tournament.playing import Tournament
from referee.tournament.schedule import FormatName
from referee.tournament.settings import TournamentChoices, parse_bots, parse_rules, resolve

STEP = 0.03  # the random share between two neighbours in the true order


def field(bots: int) -> list[str]:
    """NAME=COMMAND of each bot, best first: s00 (0 % random cards), s03 (3 %), ..."""
    return [
        f"s{round(100 * STEP * k):02d}={sys.executable} -m example_bots.shaky_bot --random-share {STEP * k:.2f}"
        for k in range(bots)
    ]


def kendall_tau(order: Sequence[str], truth: Sequence[str]) -> float:
    """Kendall's tau between two rankings of the same items (no ties: tau-a = tau-b)."""
    rank = {name: k for k, name in enumerate(truth)}
    placed = [rank[name] for name in order]
    n = len(placed)
    concordant = sum(1 for i in range(n) for j in range(i + 1, n) if placed[i] < placed[j])
    pairs = n * (n - 1) // 2
    return (2 * concordant - pairs) / pairs


def play(format: FormatName, bots: list[str], seed: int, preset: str, hand_limit: int, tables: int) -> dict[str, float]:
    given = TournamentChoices(
        bots=parse_bots(bots),
        preset=preset,
        rules=parse_rules([f"hand_limit={hand_limit}"]),
        seed=seed,
        format=format,
        move_time=5000,
        sandbox=SandboxMode.OFF,
        name="bench",
    )
    settings = resolve(given)
    truth = list(settings.bot_names)
    with tempfile.TemporaryDirectory() as tmp:
        folder = RunFolder(Path(tmp) / "bench")
        folder.create(settings.record())
        tournament = Tournament(settings, folder, concurrency=tables, sandbox=None)
        start = time.perf_counter()
        asyncio.run(tournament.run())
        elapsed = time.perf_counter() - start
        order = [row.bot for row in tournament.standings()]
    return {
        "games": len(tournament.done),
        "tau": kendall_tau(order, truth),
        "best_first": float(order[0] == truth[0]),
        "seconds": elapsed,
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--bots", type=int, default=16)
    parser.add_argument("--seeds", type=int, nargs="+", default=[1, 2, 3])
    parser.add_argument("--formats", nargs="+", default=["round-robin", "swiss", "knockout"], choices=list(FormatName))
    parser.add_argument("--preset", default="double-deck")
    parser.add_argument("--hand-limit", type=int, default=4, help="hands a game lasts at most (short games)")
    parser.add_argument("--tables", type=int, default=len(os.sched_getaffinity(0)))
    args = parser.parse_args()
    configure("warning")
    print(f"machine: {describe(grpc=True)}")
    bots = field(args.bots)
    print(
        f"{args.bots} shaky bots, 0 to {100 * STEP * (args.bots - 1):.0f} % random cards; {args.preset}, at most "
        f"{args.hand_limit} hands a game, duplicate sets of 2 games; seeds {' '.join(map(str, args.seeds))}; "
        f"{args.tables} tables"
    )
    print(f"{'format':12} {'games':>6} {'tau':>6} {'tau range':>13} {'best first':>10} {'wall s':>7}")
    for name in args.formats:
        runs = [play(FormatName(name), bots, seed, args.preset, args.hand_limit, args.tables) for seed in args.seeds]
        taus = [r["tau"] for r in runs]
        print(
            f"{name:12} {statistics.mean(r['games'] for r in runs):6.0f} {statistics.mean(taus):6.2f} "
            f"{min(taus):6.2f}..{max(taus):5.2f} {sum(r['best_first'] for r in runs):4.0f} of {len(runs):<3} "
            f"{statistics.mean(r['seconds'] for r in runs):7.0f}",
            flush=True,
        )
    print(f"load average after: {' '.join(f'{x:.1f}' for x in os.getloadavg())}")


if __name__ == "__main__":
    main()
