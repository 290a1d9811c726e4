"""How long the browser table's learning features take, per preset, at the table's budget, and what they compute.

- the weighing (``referee.browserseat.advice.weigh``): the one answer behind the hint, its reason and the
  estimates, at a bid and at a card; with the worlds it drew and how often the best choice stood apart from the
  next (the order the estimates show is then significant);
- a bid's chance (``advice.chance_json``), at a bid;
- the duplicate: the strongest level playing a whole hand in the person's seat, the other seats the level
  given (``referee.browserseat.deal``), from a deal of the engine's.

The views are taken from games the rules bot plays at every seat (the engine alone, in this process): at each
kind of decision, ``--views`` of them, spread over the hands. Each answer is worked out as the table works it
out (one thread, no clock) and timed in milliseconds of this process's CPU time, median and slowest: what the
person waits on a machine with a CPU free, whatever else the machine is doing while the benchmark runs. The
last line gives the slowest in wall-clock time too.

    python bench/advice.py                          # every preset, the table's budget
    python bench/advice.py neuralplay --play-most 1024 --others 6
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
from collections import defaultdict
from collections.abc import Callable
from functools import partial
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from machine import chosen_presets, cpu_seconds, describe  # bench/machine.py

from example_bots.rules_bot import RulesBot
from referee.analyze.evaluate import solved_outcomes, world_outcomes
from referee.browserseat.advice import AdviceBudget, Weighing, chance_json, weigh
from referee.browserseat.deal import STRONGEST, DealTable, bot_seed, level_bot
from referee.engine.game import DecisionKind, Game
from referee.engine.presets import rules_for
from referee.engine.simulate import shuffled_deck
from referee.engine.view import SeatView, seat_view
from referee.play.levels import LEVELS

WALL: list[float] = []  # every answer's wall-clock ms
EVALUATORS = {"solved": solved_outcomes, "playout": world_outcomes}


def views(preset: str, per_kind: int, seed: int) -> tuple[dict[DecisionKind, list[SeatView]], list[Game]]:
    """Up to ``per_kind`` views of a bid and of a card to play (with a choice to make), from rules-bot games; and
    the games just after their deals."""
    rules = rules_for(preset)
    rng = random.Random(seed)
    found: dict[DecisionKind, list[SeatView]] = defaultdict(list)
    deals: list[Game] = []
    bot = RulesBot(seed)
    for _ in range(40):
        game = Game(rules, rng.randrange(rules.players))
        game.deal(shuffled_deck(rules, rng))
        deals.append(game.copy())
        while (decision := game.decision()) is not None:
            view = seat_view(game, decision.seat)
            wanted = decision.kind in (DecisionKind.BID, DecisionKind.PLAY) and len(decision.options) > 1
            if wanted and len(found[decision.kind]) < per_kind and rng.random() < 0.3:
                found[decision.kind].append(view)
            game.answer(bot.decide(view))
        if all(len(found[k]) >= per_kind for k in (DecisionKind.BID, DecisionKind.PLAY)):
            break
    return found, deals


def timed(work: Callable[[], object]) -> float:
    """CPU ms of ``work()`` (its wall-clock ms go to WALL)."""
    started, cpu = time.perf_counter(), cpu_seconds()
    work()
    WALL.append((time.perf_counter() - started) * 1000)
    return (cpu_seconds() - cpu) * 1000


def duplicate(start: Game, others: int) -> None:
    """The strongest level in the seat of the first bidder, ``others`` round it, the whole hand."""
    seat = start.decision().seat  # type: ignore[union-attr]
    names = [LEVELS[STRONGEST if s == seat else others].name for s in range(start.rules.players)]
    bots = [
        level_bot(STRONGEST if s == seat else others, bot_seed("bench", 0, 1, s), names, start, s)
        for s in range(start.rules.players)
    ]
    table = DealTable(start.copy(), bots)
    table.run_bots()


def cell(ms: list[float]) -> str:
    return f"{statistics.median(ms):.0f} / {max(ms):.0f}" if ms else ""


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("presets", nargs="*", help="presets to measure (default: all)")
    parser.add_argument("--views", type=int, default=6, help="views per kind of decision")
    parser.add_argument("--deals", type=int, default=2, help="hands the strongest level plays again per preset")
    parser.add_argument(
        "--others", type=int, default=4, choices=sorted(LEVELS), help="the other seats' level (4: the rules bot)"
    )
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument(
        "--evaluator", choices=sorted(EVALUATORS), default="solved", help="worlds solved (the table's) or played out"
    )
    default = AdviceBudget()
    for name, value in default.record().items():
        parser.add_argument(f"--{name.replace('_', '-')}", type=int, default=value)
    args = parser.parse_args(argv)
    names = chosen_presets(parser, args.presets)
    budget = AdviceBudget(**{name: getattr(args, name) for name in default.record()})
    print("Browser table: CPU ms for an answer (median / slowest), one thread")
    print(f"Machine: {describe()}")
    evaluator = EVALUATORS[args.evaluator]
    print(f"Budget: {budget.record()}; {args.views} views per kind of decision, seed {args.seed}")
    print(f"Evaluator: {args.evaluator} ({evaluator.__name__})")
    print(f"Duplicate: level {STRONGEST} in one seat, level {args.others} in the others, {args.deals} hands a preset\n")
    head = (
        f"{'preset':<19} {'weigh: bid':>12} {'worlds':>7} {'apart':>6} {'±':>6} {'weigh: card':>12} {'worlds':>7} "
        f"{'apart':>6} {'±':>6} {'chance':>11} {'duplicate':>11}"
    )
    print(head)
    print("-" * len(head))
    worst = 0.0
    settled = total = 0
    spreads: list[float] = []  # the 95% half-width of the best's lead over the next, each weighing
    for name in names:
        found, deals = views(name, args.views, args.seed)
        cells: list[str] = []
        for kind in (DecisionKind.BID, DecisionKind.PLAY):
            ms, worlds, apart, spread = [], [], 0, []
            for view in found[kind]:
                result: list[Weighing | None] = []
                ms.append(timed(partial(lambda v, r: r.append(weigh(v, budget, evaluator)), view, result)))
                weighing = result[0]
                assert weighing is not None
                worlds.append(weighing.worlds)
                weights = weighing.weights
                apart += len(weights) < 2 or weights[1].apart
                if len(weights) >= 2:
                    spread.append(weights[1].half_width)
            worst = max([worst, *ms])
            settled, total = settled + apart, total + len(ms)
            spreads += spread
            median_spread = f"{statistics.median(spread):.2f}" if spread else ""
            cells += [
                cell(ms),
                f"{statistics.median(worlds):.0f}" if worlds else "",
                f"{apart}/{len(ms)}",
                median_spread,
            ]
        chances = []
        for view in found[DecisionKind.BID]:
            bid = next(b for b in view.decision.bids if not b.is_pass)  # type: ignore[union-attr]
            chances.append(timed(lambda v=view, b=bid: chance_json(v, b, budget)))  # type: ignore[misc]
        dup = [timed(lambda g=g: duplicate(g, args.others)) for g in deals[: args.deals]]  # type: ignore[misc]
        print(
            f"{name:<19} "
            + " ".join(
                f"{c:>{w}}"
                for c, w in zip([*cells, cell(chances), cell(dup)], (12, 7, 6, 6, 12, 7, 6, 6, 11, 11), strict=True)
            ),
            flush=True,
        )
    print(
        f"\nslowest weighing: {worst:.0f} CPU ms; the best stood apart from the next in {settled} of {total}; "
        f"the 95% interval of its lead over the next: median ±{statistics.median(spreads):.2f} points; "
        f"slowest answer in wall-clock time: {max(WALL):.0f} ms"
    )


if __name__ == "__main__":
    main()
