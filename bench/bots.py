"""Bot strength and Monte Carlo speed, measured with the in-process simulator.

Strength: ``rules`` against ``random`` and ``montecarlo`` against ``rules``,
over duplicate deals (each deal played once per seating, the teams swapped), on
a few presets (``--presets all``: every one). Printed per match: games, win
rate, and the margin in points per hand (the first bot's minus the second's,
averaged per deal) with its 95% interval. The Monte Carlo bot plays at
``--level`` (1..4; levels 1-3 search a fixed number of sampled worlds per
decision, so their strength does not depend on the machine's load);
``--mc-worlds N`` sets the worlds of every decision instead (0: the time
limit, ``--time-limit``, alone bounds the search).

``--best-average`` adds the Monte Carlo bot that plays its best average card
outright instead of overriding the rules bot's card only on clear evidence.

Speed: Monte Carlo playouts (one candidate card played to the end of the hand
in one sampled world) per second of this process's CPU time, over the play
decisions of a few hands per preset, with the bot's own time budget at
``--time-limit`` ms.

    python bench/bots.py                            # neuralplay and indiana
    python bench/bots.py --presets pagat,double-deck --deals 100 --mc-deals 20
    python bench/bots.py --speed-only
"""

from __future__ import annotations

import argparse
import os
import random
import sys
import time
from functools import partial
from pathlib import Path

# Runnable as a plain script from a checkout (``python bench/bots.py``): the
# checkout goes first on sys.path, this folder (bench/machine.py) stays next.
sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from machine import describe  # bench/machine.py

from example_bots.montecarlo_bot import FROM_LEVEL, LEVELS, MonteCarloBot, SearchStats
from example_bots.random_bot import RandomBot
from example_bots.rules_bot import RulesBot
from referee.engine.game import DecisionKind, Game
from referee.engine.presets import PRESETS, rules_for
from referee.engine.simulate import shuffled_deck
from referee.engine.view import seat_view
from sdk.simulator import BotFactory, SimulationResult, simulate


def match(
    name: str, entrants: list[BotFactory], preset: str, deals: int, seed: int, workers: int, time_limit_ms: int
) -> SimulationResult:
    rules = rules_for(preset)
    started = time.perf_counter()
    result = simulate(
        entrants, rules, deals=deals, seed=seed, duplicate=True, workers=workers, time_limit_ms=time_limit_ms
    )
    first = result.totals[0]
    margin = result.margin(0, 1)
    print(
        f"{preset:<18} {name:<22} {len(result.games):>5} {first.win_rate:>8.1%} "
        f"{margin.mean:>+8.2f} ± {margin.half_width:<5.2f} {time.perf_counter() - started:>7.0f}s"
        f"  (slowest decision {first.slowest_ms:.0f} ms, {first.late} over {time_limit_ms} ms)",
        flush=True,
    )
    return result


def playout_rate(
    preset: str, hands: int, time_limit_ms: int, seed: int, exact: bool | None = None
) -> tuple[SearchStats, SearchStats, float, float]:
    """Search totals of level-4 Monte Carlo bots playing every seat: (card play, other decisions, CPU seconds).

    Level 4 has no world cap: each search runs for its share of ``time_limit_ms``. ``exact``: the bots solve
    their worlds (None: when the solver is built), or play them out (False).
    """
    rules = rules_for(preset)
    rng = random.Random(seed)
    bots = [MonteCarloBot(seed=seed + s, level=4, exact=exact) for s in range(rules.players)]
    game = Game(rules, 0)
    cpu = {"play": 0.0, "other": 0.0}
    for _ in range(hands):
        if game.is_over:
            game = Game(rules, 0)
        game.deal(shuffled_deck(rules, rng))
        while (decision := game.decision()) is not None:
            bot = bots[decision.seat]
            bot.time_limit_ms = time_limit_ms
            view = seat_view(game, decision.seat)
            started = time.process_time()
            action = bot.decide(view)
            cpu["play" if decision.kind is DecisionKind.PLAY else "other"] += time.process_time() - started
            game.answer(action)
    play, other = SearchStats(), SearchStats()
    for b in bots:
        for total, part in ((play, b.stats), (other, b.decide_stats)):
            total.decisions += part.decisions
            total.worlds += part.worlds
            total.playouts += part.playouts
            total.solved += part.solved
    return play, other, cpu["play"], cpu["other"]


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--presets", default="neuralplay,indiana", help="comma-separated presets")
    parser.add_argument("--deals", type=int, default=200, help="duplicate deals for rules vs random")
    parser.add_argument("--mc-deals", type=int, default=40, help="duplicate deals for montecarlo vs rules (0: none)")
    parser.add_argument("--level", type=int, default=2, choices=sorted(LEVELS), help="Monte Carlo level (default 2)")
    parser.add_argument(
        "--mc-worlds",
        type=int,
        default=None,
        help="sampled worlds per Monte Carlo decision instead of the level's (0: as many as time allows)",
    )
    parser.add_argument("--time-limit", type=int, default=1000, help="ms per decision")
    parser.add_argument("--speed-hands", type=int, default=4, help="hands per preset for the speed figure (0: none)")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--workers", type=int, default=os.cpu_count() or 1)
    parser.add_argument("--speed-only", action="store_true")
    parser.add_argument("--playouts", action="store_true", help="speed: the bots play their worlds out (--playouts)")
    parser.add_argument(
        "--best-average",
        action="store_true",
        help="also play montecarlo taking the best average outright (no override rule)",
    )
    args = parser.parse_args(argv)
    presets = list(PRESETS) if args.presets == "all" else [p.strip() for p in args.presets.split(",") if p.strip()]

    print(f"bench/bots.py on {describe()}")
    if args.speed_hands > 0:
        probe = MonteCarloBot(level=4)
        probe.time_limit_ms = args.time_limit
        budget_ms = probe.budget_seconds() * 1000
        print(f"\nMonte Carlo speed, level 4 ({args.time_limit} ms per decision: search budget {budget_ms:.0f} ms)")
        print("  card play: playouts (a candidate card, then the fast playout) and worlds solved (every card at once)")
        print("  per CPU second of its decisions; bids/trump/exchanges: hands finished from rebuilt games (auction")
        print("  model + fast playout) and worlds solved (every candidate's hand) per CPU second")
        exact = False if args.playouts else None
        for preset in presets:
            play, other, play_cpu, other_cpu = playout_rate(preset, args.speed_hands, args.time_limit, args.seed, exact)
            print(
                f"  {preset:<18} card play {play.playouts / max(play_cpu, 1e-9):>7.0f}/s,"
                f" solved {play.solved / max(play_cpu, 1e-9):>5.0f}/s"
                f" ({play.worlds / max(1, play.decisions):.0f} worlds per search);"
                f" bids etc. {other.playouts / max(other_cpu, 1e-9):>6.0f}/s,"
                f" solved {other.solved / max(other_cpu, 1e-9):>4.0f}/s"
                f" ({other.worlds / max(1, other.decisions):.0f} worlds per search)"
            )
    if args.speed_only:
        return
    print()
    print(f"{'preset':<18} {'match':<22} {'games':>5} {'win rate':>8} {'margin pts/hand (95%)':>18} {'time':>7}")
    worlds: int | None
    if args.mc_worlds is None:
        worlds, search = FROM_LEVEL, f"L{args.level}"
    else:
        worlds = args.mc_worlds or None  # 0: no cap, the time limit alone bounds the search
        search = f"{args.mc_worlds}w" if worlds else f"{args.time_limit}ms"
    montecarlo = partial(MonteCarloBot, level=args.level, max_worlds=worlds, decide_worlds=worlds)
    outright = partial(MonteCarloBot, level=args.level, max_worlds=worlds, decide_worlds=worlds, override_z=None)
    for preset in presets:
        others = rules_for(preset).teams - 1
        matches: list[tuple[str, list[BotFactory], int]] = [
            ("rules v random", [RulesBot, *[RandomBot] * others], args.deals)
        ]
        if args.mc_deals > 0:
            matches.append((f"montecarlo({search}) v rules", [montecarlo, *[RulesBot] * others], args.mc_deals))
            if args.best_average:
                matches.append((f"mc-best-avg({search}) v rules", [outright, *[RulesBot] * others], args.mc_deals))
        for name, entrants, deals in matches:
            match(name, entrants, preset, deals, args.seed, args.workers, args.time_limit)
    print()
    print("margin: the first bot's points per hand minus the second's, averaged over each deal's two seatings")


if __name__ == "__main__":
    main()
