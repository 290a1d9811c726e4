"""Engine speed: complete random-play hands, and fast playouts, per second for every preset, in one process.

Each hand is dealt from a shuffled deck and played to its end by random legal
actions (``referee.engine.simulate``), auction and exchanges included; games
are played to their end and new ones started until the time is up. The rate
is hands per second of this process's CPU time (one core), so other load on
the machine disturbs it less than wall-clock time would; the best of a few
runs is reported next to the median.

Playouts per second per core: the fast playout Monte Carlo bots use
(``referee.engine.playout``: every trick of a hand played by the quick policy
on bare card codes, then scored), from the first lead of hands whose auction
and exchanges were played at random beforehand (not timed).

    python bench/engine.py                 # every preset
    python bench/engine.py indiana pagat   # some presets
    python bench/engine.py --seconds 2 --repeat 5
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
from pathlib import Path

# Runnable as a plain script from a checkout (``python bench/engine.py``).
sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from machine import chosen_presets, describe  # bench/machine.py

from referee.engine.game import Game, Phase
from referee.engine.playout import finish_game_hand
from referee.engine.presets import PRESETS
from referee.engine.simulate import play_hand, random_action, random_chooser, shuffled_deck

# The floor, for the 48-card 4-player presets.
REQUIRED_RATE = 2000


def run(name: str, seconds: float, seed: int) -> tuple[int, int, float, float]:
    """Play random games under preset ``name`` for ``seconds`` of CPU time: (hands, games, cpu s, wall s)."""
    rules = PRESETS[name]
    rng = random.Random(seed)
    choose = random_chooser(rng)
    hands = games = 0
    cpu0, wall0 = time.process_time(), time.perf_counter()
    while time.process_time() - cpu0 < seconds:
        game = Game(rules, rng.randrange(rules.players))
        while not game.is_over:
            play_hand(game, choose, rng)
            hands += 1
        games += 1
    return hands, games, time.process_time() - cpu0, time.perf_counter() - wall0


def playout_run(name: str, seconds: float, seed: int, positions: int = 200) -> float:
    """Fast playouts per CPU second under preset ``name``, from the first lead of random contracts."""
    rules = PRESETS[name]
    rng = random.Random(seed)
    games: list[Game] = []
    while len(games) < positions:
        game = Game(rules, rng.randrange(rules.players))
        game.deal(shuffled_deck(rules, rng))
        while game.phase not in (Phase.PLAY, Phase.DEAL, Phase.OVER):
            decision = game.decision()
            assert decision is not None  # a seat decides in the auction, trump and exchange phases
            game.apply(random_action(decision, rng))
        if game.phase is Phase.PLAY:
            games.append(game)
    done = 0
    cpu0 = time.process_time()
    while time.process_time() - cpu0 < seconds:
        for game in games:
            finish_game_hand(game)
        done += len(games)
    return done / (time.process_time() - cpu0)


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("presets", nargs="*", help="presets to measure (default: all)")
    parser.add_argument("--seconds", type=float, default=1.0, help="CPU seconds per run (default 1)")
    parser.add_argument("--repeat", type=int, default=3, help="runs per preset (default 3)")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args(argv)
    names = chosen_presets(parser, args.presets)

    print("Engine: random-play hands per second, and fast playouts per second (playouts/s), one process, one core")
    print(f"Machine: {describe(load=False)}")
    print(f"Runs: {args.repeat} x {args.seconds:g} s CPU per preset\n")
    header = (
        f"{'preset':<20} {'players':>7} {'deck':>10} {'best h/s':>9} {'median':>8} {'hands':>7} {'games':>6}"
        f" {'cpu/wall':>8} {'playouts/s':>10}"
    )
    print(header)
    print("-" * len(header))
    for name in names:
        rules = PRESETS[name]
        results = [run(name, args.seconds, args.seed + i) for i in range(args.repeat)]
        rates = [hands / cpu for hands, _, cpu, _ in results]
        hands = sum(r[0] for r in results)
        games = sum(r[1] for r in results)
        busy = sum(r[2] for r in results) / sum(r[3] for r in results)
        playouts = max(playout_run(name, args.seconds, args.seed + i) for i in range(args.repeat))
        floor = ""
        if rules.deck == "double-48" and rules.players == 4:
            floor = f"  (>= {REQUIRED_RATE} required)"
        print(
            f"{name:<20} {rules.players:>7} {rules.deck:>10} {max(rates):>9.0f} {statistics.median(rates):>8.0f}"
            f" {hands:>7} {games:>6} {busy:>8.0%} {playouts:>10.0f}{floor}"
        )


if __name__ == "__main__":
    main()
