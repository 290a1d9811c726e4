"""How long the browser table's hint, estimates and a bid's chance take, per preset, at the table's budget.

The issue asks for a hint or an estimate within a second on this machine. The views are taken from games the
rules bot plays at every seat (the engine alone, in this process): at each kind of decision, ``--views`` of
them, spread over the hands. Each answer is worked out as the table works it out (``referee.browserseat.advice``,
one thread, no clock), and timed in milliseconds of this process's CPU time, median and slowest per kind of
decision: what the person waits on a machine with a CPU free, whatever else the machine is doing while the
benchmark runs. The last line gives the slowest in wall-clock time too.

    python bench/advice.py                          # every preset, the table's budget
    python bench/advice.py neuralplay --hint-play 100 --estimate 48
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
from collections import defaultdict
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from machine import chosen_presets, cpu_seconds, describe  # bench/machine.py

from example_bots.rules_bot import RulesBot
from referee.browserseat.advice import AdviceBudget, chance_json, estimates_json, hint_json
from referee.engine.game import DecisionKind, Game
from referee.engine.presets import rules_for
from referee.engine.simulate import shuffled_deck
from referee.engine.view import SeatView, seat_view


def views(preset: str, per_kind: int, seed: int) -> dict[DecisionKind, list[SeatView]]:
    """Up to ``per_kind`` views of each kind of decision (with a choice to make), from rules-bot games."""
    rules = rules_for(preset)
    rng = random.Random(seed)
    found: dict[DecisionKind, list[SeatView]] = defaultdict(list)
    bot = RulesBot(seed)
    for _ in range(40):
        game = Game(rules, rng.randrange(rules.players))
        game.deal(shuffled_deck(rules, rng))
        while (decision := game.decision()) is not None:
            view = seat_view(game, decision.seat)
            if len(decision.options) > 1 and len(found[decision.kind]) < per_kind and rng.random() < 0.3:
                found[decision.kind].append(view)
            game.apply(bot.decide(view))
        if all(len(found[k]) >= per_kind for k in (DecisionKind.BID, DecisionKind.PLAY)):
            break
    return found


WALL: list[float] = []  # every answer's wall-clock ms


def timed(work: object) -> float:
    """CPU ms of ``work()`` (its wall-clock ms go to WALL)."""
    started, cpu = time.perf_counter(), cpu_seconds()
    work()  # type: ignore[operator]
    WALL.append((time.perf_counter() - started) * 1000)
    return (cpu_seconds() - cpu) * 1000


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("presets", nargs="*", help="presets to measure (default: all)")
    parser.add_argument("--views", type=int, default=6, help="views per kind of decision")
    parser.add_argument("--seed", type=int, default=1)
    default = AdviceBudget()
    parser.add_argument("--hint-play", type=int, default=default.hint_play)
    parser.add_argument("--hint-decide", type=int, default=default.hint_decide)
    parser.add_argument("--estimate", type=int, default=default.estimate)
    parser.add_argument("--estimate-decide", type=int, default=default.estimate_decide)
    parser.add_argument("--chance", type=int, default=default.chance)
    args = parser.parse_args(argv)
    names = chosen_presets(parser, args.presets)
    budget = AdviceBudget(args.hint_play, args.hint_decide, args.estimate, args.estimate_decide, args.chance)
    print("Browser table: CPU ms for an answer (median / slowest), one thread")
    print(f"Machine: {describe()}")
    print(f"Budget: {budget.record()}; {args.views} views per kind of decision, seed {args.seed}\n")
    head = f"{'preset':<19} {'kind':<8} {'views':>5} {'hint':>15} {'estimates':>15} {'chance':>15}"
    print(head)
    print("-" * len(head))
    worst = 0.0
    for name in names:
        for kind, found in sorted((k, v) for k, v in views(name, args.views, args.seed).items() if v):
            cells = []
            for what in ("hint", "estimates", "chance"):
                if what == "chance" and kind is not DecisionKind.BID:
                    cells.append("")
                    continue
                ms = []
                for view in found:
                    if what == "hint":
                        ms.append(timed(lambda v=view: hint_json(v, budget)))
                    elif what == "estimates":
                        ms.append(timed(lambda v=view: estimates_json(v, budget)))
                    else:
                        bid = next(b.text() for b in view.decision.bids if not b.is_pass)  # type: ignore[union-attr]
                        ms.append(timed(lambda v=view, b=bid: chance_json(v, b, budget)))
                worst = max(worst, max(ms)) if what != "chance" else worst
                cells.append(f"{statistics.median(ms):.0f} / {max(ms):.0f}")
            print(f"{name:<19} {kind!s:<8} {len(found):>5} " + " ".join(f"{c:>15}" for c in cells), flush=True)
    print(f"\nslowest hint or estimate: {worst:.0f} CPU ms; slowest answer in wall-clock time: {max(WALL):.0f} ms")


if __name__ == "__main__":
    main()
