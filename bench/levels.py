"""How strong each ``arena play --level`` is: each level against the level below it, over duplicate deals.

The levels (``referee.play.levels``) are example bots with their arguments; here the same bots play in
this process through the SDK's simulator (``sdk.simulator.simulate``: the engine, each seat's view, the
bot's own code), each deal once per seating (the teams swapped), so that the cards cancel out. Printed per
pair: deals, the higher level's win rate and its margin in points per hand over the lower one, with the
95% interval, the time taken and the load average after. The games are cut short with a hand limit
(``--hands``): the margin is per hand, so short games measure it as well as whole ones, only with fewer hands
per deal. The bots are told ``--time-limit`` ms a decision; a level that searches stops at its world count
or at its share of that time, whichever comes first (on a busy machine, the time).

    python bench/levels.py                         # neuralplay, 24 deals a pair
    python bench/levels.py --pairs 1-2:200,2-3:200,3-4:200,4-5:32,5-6:96   # the figures of docs/play.md
    python bench/levels.py --preset bloomington --deals 16 --hands 4
"""

from __future__ import annotations

import argparse
import os
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from machine import describe  # bench/machine.py

from referee.engine.presets import PRESETS, rules_for
from referee.play.levels import LEVELS, level_factory
from sdk.simulator import simulate


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--preset", default="neuralplay", choices=list(PRESETS))
    parser.add_argument("--deals", type=int, default=24, help="duplicate deals per pair")
    parser.add_argument("--hands", type=int, default=4, help="hands per game at most (the rules' hand_limit)")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument(
        "--pairs",
        default="1-2,2-3,3-4,4-5,5-6",
        help="pairs of levels, LOW-HIGH or LOW-HIGH:DEALS (deals for that pair), comma-separated",
    )
    parser.add_argument("--time-limit", type=int, default=1000, help="ms per decision the bots are told")
    args = parser.parse_args(argv)
    rules = rules_for(args.preset, [f"hand_limit={args.hands}"])
    if rules.teams != 2:
        parser.error("a pair of levels needs a preset of two teams")
    try:
        pairs = [_pair(p, args.deals) for p in args.pairs.split(",")]
    except ValueError as e:
        parser.error(f"--pairs: {e}")
    print(f"Levels, each against another: {args.preset}, duplicate deals (default {args.deals} a pair), ", end="")
    print(f"at most {args.hands} hands")
    print(f"Machine: {describe()}")
    head = f"{'pair':<26} {'deals':>5} {'win rate':>8} {'points/hand, higher - lower':>29} {'time':>7} {'load':>5}"
    print(head)
    print("-" * len(head))
    for low, high, deals in pairs:
        started = time.perf_counter()
        result = simulate(
            [level_factory(high), level_factory(low)],
            rules,
            deals=deals,
            seed=args.seed,
            duplicate=True,
            time_limit_ms=args.time_limit,
        )
        margin = result.margin(0, 1)
        name = f"{high} {LEVELS[high].name} - {low} {LEVELS[low].name}"
        print(
            f"{name:<26} {margin.deals:>5} {result.totals[0].win_rate:>8.1%} "
            f"{margin.mean:>+20.2f} ± {margin.half_width:<6.2f} {time.perf_counter() - started:>6.0f}s "
            f"{os.getloadavg()[0]:>5.1f}",
            flush=True,
        )


def _pair(text: str, deals: int) -> tuple[int, int, int]:
    """LOW-HIGH or LOW-HIGH:DEALS as (low, high, deals); ValueError naming what is wrong."""
    levels, _, count = text.partition(":")
    try:
        low, high = (int(x) for x in levels.split("-"))
        deals = int(count) if count else deals
    except ValueError:
        raise ValueError(f"{text!r} is not LOW-HIGH or LOW-HIGH:DEALS") from None
    if low not in LEVELS or high not in LEVELS or deals < 1:
        raise ValueError(f"{text!r}: levels are 1..{max(LEVELS)} and deals at least 1")
    return low, high, deals


if __name__ == "__main__":
    main()
