"""What the Monte Carlo bot's departures from the rules bot are worth, judged on the true deal.

The Monte Carlo bot plays one team against rules bots, in-process. Each time
it chooses otherwise than the rules bot would (a bid, trump, gift, discard or
card), the hand is finished twice from the true deal (every hidden card as
dealt): once after its choice, once after the rules bot's, every seat played
by rules bots from there. The difference of its team's hand margin is what
that departure was worth against this field. Printed per decision kind: the
decisions, the departures, and their summed worth per hand with its 95%
interval (departures vary a lot, so it takes a few hundred hands to say
much). ``--show-bids`` prints each bid departure with the auction before it,
the way the partners' outbidding of each other on indiana was found.

    python bench/mc_overrides.py --preset indiana --hands 100 --level 2
    python bench/mc_overrides.py --preset pagat --hands 60 --show-bids
"""

from __future__ import annotations

import argparse
import math
import random
import statistics
import sys
import time
from pathlib import Path

# Runnable as a plain script from a checkout (``python bench/mc_overrides.py``).
sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from machine import describe  # bench/machine.py

from example_bots.montecarlo_bot import LEVELS, MonteCarloBot
from example_bots.rules_bot import RulesBot
from referee.engine.bids import Bid
from referee.engine.events import HandEndEvent
from referee.engine.game import DecisionKind, Game
from referee.engine.presets import PRESETS, rules_for
from referee.engine.simulate import shuffled_deck
from referee.engine.view import SeatView, seat_view
from sdk import Bot
from sdk.worldmodel import margin


def rules_choice(bot: RulesBot, view: SeatView) -> object:
    """The rules bot's answer to the decision in ``view`` (card sets sorted, to compare)."""
    d = view.decision
    assert d is not None
    if d.kind is DecisionKind.BID:
        return RulesBot.bid(bot, view, d.bids)
    if d.kind is DecisionKind.TRUMP:
        return RulesBot.trump(bot, view, d.trumps)
    if d.kind is DecisionKind.GIVE:
        assert d.to is not None
        return sorted(RulesBot.give(bot, view, d.count, d.to))
    if d.kind is DecisionKind.DISCARD:
        return sorted(RulesBot.discard(bot, view, d.count))
    return RulesBot.play(bot, view, d.cards)


def finish(game: Game, bots: list[Bot], team: int) -> float:
    """Play ``game``'s hand out with ``bots``; ``team``'s margin for the hand (0 when thrown in)."""
    while (d := game.decision()) is not None:
        for ev in game.answer(bots[d.seat].decide(seat_view(game, d.seat))):
            if isinstance(ev, HandEndEvent):
                return 0.0 if ev.passed_out else margin(ev.points, team)
    return 0.0


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--preset", default="indiana", choices=sorted(PRESETS))
    parser.add_argument("--hands", type=int, default=60)
    parser.add_argument("--level", type=int, default=2, choices=sorted(LEVELS))
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--show-bids", action="store_true", help="print every bid departure and what it was worth")
    args = parser.parse_args(argv)
    rules = rules_for(args.preset)
    rng = random.Random(args.seed)
    mc_seats = [s for s in range(rules.players) if rules.team_of(s) == 0]
    bots: list[Bot] = [
        MonteCarloBot(seed=args.seed * 10 + s, level=args.level) if s in mc_seats else RulesBot(seed=s)
        for s in range(rules.players)
    ]
    judges: list[Bot] = [RulesBot(seed=100 + s) for s in range(rules.players)]
    decisions: dict[str, int] = {}
    worth: dict[str, list[float]] = {}
    hands = 0
    started = time.perf_counter()
    print(f"bench/mc_overrides.py on {describe()}")
    print(f"{args.preset}: montecarlo --level {args.level} (team 0) v rules, {args.hands} hands, seed {args.seed}\n")
    while hands < args.hands:
        game = Game(rules, rng.randrange(rules.players))
        while not game.is_over and hands < args.hands:
            game.deal(shuffled_deck(rules, rng))
            while (d := game.decision()) is not None:
                view = seat_view(game, d.seat)
                bot = bots[d.seat]
                bot.time_limit_ms = 1000
                action = bot.decide(view)
                if d.seat in mc_seats:
                    kind = d.kind.value
                    decisions[kind] = decisions.get(kind, 0) + 1
                    assert isinstance(bot, RulesBot)
                    default = rules_choice(bot, view)
                    if (sorted(action) if isinstance(action, list) else action) != default:
                        mine, theirs = game.copy(), game.copy()
                        mine.answer(action)
                        theirs.answer(default)
                        delta = finish(mine, judges, 0) - finish(theirs, judges, 0)
                        worth.setdefault(kind, []).append(delta)
                        if args.show_bids and d.kind is DecisionKind.BID:
                            assert isinstance(default, Bid) and isinstance(action, Bid)
                            auction = ", ".join(f"{s}:{b.text()}" for s, b in view.bids) or "-"
                            print(
                                f"  seat {d.seat} after [{auction}]: rules {default.text()}, "
                                f"mc {action.text()}: {delta:+.1f}"
                            )
                game.answer(action)
            hands += 1
    print(f"\n{hands} hands in {time.perf_counter() - started:.0f} s")
    print(f"{'decision':<9} {'made':>6} {'departures':>10}  worth per hand (95%)")
    total = 0.0
    for kind, made in decisions.items():
        deltas = worth.get(kind, [])
        total += sum(deltas)
        half = 1.96 * statistics.stdev(deltas) * math.sqrt(len(deltas)) / hands if len(deltas) > 1 else math.nan
        print(f"{kind:<9} {made:>6} {len(deltas):>10}  {sum(deltas) / hands:+.3f} ± {half:.3f}")
    print(f"all departures: {total / hands:+.3f} points per hand")


if __name__ == "__main__":
    main()
