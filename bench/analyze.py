"""How fast ``arena analyze`` goes: decisions analysed per second per core, at the default budget, per preset.

For each preset, rules bots play games in this process through the engine,
logged with the referee's own log writer (``referee.gamelog``); the log is
then read and planned as ``arena analyze`` does, and every hand is analysed
in this process (``referee.analyze.spread.analyse_hand``: each seat's luck and
the judgement of each of its decisions). The figure is the decisions with a
choice analysed per CPU second of this process (so per core, whatever else
the machine is doing), the luck of each hand included; the rest of the
columns say where the time goes.

    python bench/analyze.py                      # every preset, 6 hands each
    python bench/analyze.py --presets neuralplay,bloomington --hands 20
    python bench/analyze.py --presets neuralplay --solver     # each world solved double-dummy
"""

from __future__ import annotations

import argparse
import random
import sys
import tempfile
import time
from pathlib import Path

# Runnable as a plain script from a checkout (``python bench/analyze.py``).
sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from machine import describe  # bench/machine.py

from example_bots.rules_bot import RulesBot
from referee.analyze.driver import SeatChoice, choose_seats, plan_logs
from referee.analyze.evaluate import Budget, average_worth
from referee.analyze.spread import analyse_hand
from referee.engine.game import Game, Phase
from referee.engine.presets import PRESETS, rules_for
from referee.engine.simulate import shuffled_deck
from referee.engine.view import seat_view
from referee.gamelog import HandSecrets, LogWriter, game_start_record, match_end_record, match_start_record
from referee.replay.logfile import load_log


def write_log(path: Path, preset: str, hands: int, seed: int) -> None:
    """One game of ``preset`` between rules bots, stopped after ``hands`` hands (or sooner, at the game's end),
    logged as the referee logs it."""
    rules = rules_for(preset, [f"hand_limit={hands}"])
    rng = random.Random(seed)
    names = ["rules"] * rules.players
    bots = [RulesBot(seed=seed * 10 + s) for s in range(rules.players)]
    game = Game(rules, rng.randrange(rules.players))
    secrets = HandSecrets(1)
    with LogWriter(path) as log:
        log.write(
            match_start_record(
                preset=preset, rules=rules, bot_names=names, seed=seed, games=1, move_time_ms=1000, on_fault="forfeit"
            )
        )
        log.write(
            game_start_record(
                game=1, game_id="g0001", seed=seed, first_dealer=game.first_dealer, rules=rules, bot_names=names
            )
        )
        while not game.is_over:
            if game.phase is Phase.DEAL:
                events = game.deal(shuffled_deck(rules, rng))
            else:
                decision = game.decision()
                assert decision is not None
                events = game.answer(bots[decision.seat].decide(seat_view(game, decision.seat)))
            log.write_many(secrets.records(events))
        log.write(
            match_end_record(
                games=1,
                results=[{"game": 1, "winner": game.winner, "scores": list(game.scores), "reason": game.end_reason}],
            )
        )


def measure(preset: str, hands: int, seed: int, budget: Budget) -> str:
    with tempfile.TemporaryDirectory() as folder:
        log = Path(folder) / f"{preset}.jsonl"
        write_log(log, preset, hands, seed)
        match = load_log(log)
    average_worth(match.rules, seed)  # once per run and preset, in the arena process: not counted
    planned = plan_logs([match], choose_seats([match], SeatChoice()), None)
    decisions = sum(len(h.decisions) for _, h in planned.hands)
    hands = len(planned.hands)
    started_cpu, started = time.process_time(), time.perf_counter()
    judged = 0
    for _, plan in planned.hands:
        result = analyse_hand(plan, budget, seed)
        judged += sum(1 for j in result.judgements if j is not None)
    cpu, wall = time.process_time() - started_cpu, time.perf_counter() - started
    return f"{preset:<20} {hands:>5} {decisions:>9} {judged:>8} {cpu:>8.1f} {judged / cpu:>10.1f} {wall:>8.1f}"


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--presets", default="all", help="comma-separated preset names, or 'all'")
    parser.add_argument("--hands", type=int, default=6, help="hands per preset")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--solver", action="store_true", help="solve each world double-dummy (arena analyze --solver)")
    args = parser.parse_args(argv)
    presets = sorted(PRESETS) if args.presets == "all" else args.presets.split(",")
    budget = Budget(solve=args.solver)
    print(f"bench/analyze.py on {describe()}")
    print(
        f"default budget: {budget.samples} worlds per choice{' solved' if budget.solve else ''} (screen "
        f"{budget.screen}, {budget.finalists} "
        f"finalists), {budget.luck_samples} deals for each seat's luck; rules bots, {args.hands} hands per preset, "
        f"seed {args.seed}\n"
    )
    print(f"{'preset':<20} {'hands':>5} {'decisions':>9} {'analysed':>8} {'cpu s':>8} {'per s/core':>10} {'wall s':>8}")
    for preset in presets:
        print(measure(preset, args.hands, args.seed, budget), flush=True)
    print(
        f"\nanalysed: decisions with a choice; per s/core: those per CPU second of this one process. Load now: "
        f"{describe()}"
    )


if __name__ == "__main__":
    main()
