"""The wire's CPU cost per DecisionRequest, in one process: writing it on the referee's side, reading it on a bot's.

Random games of the chosen presets are played through the engine; at every
decision the request is written by ``RequestEncoder.decision`` (what the
referee sends), built through the protobuf library by ``decision_to_pb`` and
serialised (the reference the encoder is tested against, for comparison),
and read back by ``decode_referee_message`` (what the SDK does with it). Each
is timed in this process's CPU time, so other load on the machine disturbs it
less than wall-clock time would; the best of a few runs is shown next to the
median. ``bench/referee.py`` measures the referee as a whole.

    python bench/wire.py                      # neuralplay
    python bench/wire.py --presets all --repeat 9
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
from pathlib import Path

# Runnable as a plain script from a checkout (``python bench/wire.py``).
sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from machine import describe  # bench/machine.py

from referee.engine.events import visible_to
from referee.engine.game import Decision, Game
from referee.engine.presets import PRESETS
from referee.engine.rules import Rules
from referee.engine.simulate import play_game, random_action
from referee.protocol.decoded import decode_referee_message
from referee.protocol.encoder import RequestEncoder
from referee.protocol.messages import decision_to_pb

Costs = tuple[float, float, float, int]  # CPU seconds: encoder, protobuf library, decoding; requests


def run(rules: Rules, games: int, seed: int) -> Costs:
    """Play ``games`` random games (the same ones on every run of a seed), timing each request's three paths;
    a game stops after 8 hands (random bids can go on for hundreds)."""
    rules = rules.with_overrides({"hand_limit": "8"})
    fast = library = read = 0.0
    requests = 0
    rng = random.Random(seed)
    clock = time.process_time

    def timed(game: Game, decision: Decision) -> object:
        nonlocal fast, library, read, requests
        seat = decision.seat
        untold = [visible_to(ev, seat) for ev in game.events[told[seat] :]]
        told[seat] = len(game.events)
        rid = requests + 1
        t0 = clock()
        data = encoder.decision(game, decision, request_id=rid, game_id="g0001", events=untold, time_limit_ms=1000)
        t1 = clock()
        msg = decision_to_pb(game, decision, request_id=rid, game_id="g0001", events=untold, time_limit_ms=1000)
        msg.SerializeToString()
        t2 = clock()
        decode_referee_message(data, seat=seat, players=rules.players)
        t3 = clock()
        fast, library, read, requests = fast + t1 - t0, library + t2 - t1, read + t3 - t2, requests + 1
        return random_action(decision, rng)

    for _ in range(games):
        encoder = RequestEncoder()  # one per game, as the referee has
        told = [0] * rules.players
        play_game(Game(rules, rng.randrange(rules.players)), timed, rng)
    return fast, library, read, requests


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--presets", default="neuralplay", help="comma-separated preset names, or all")
    parser.add_argument("--games", type=int, default=20, help="games per preset and run")
    parser.add_argument("--repeat", type=int, default=5, help="runs per preset: the best and the median are shown")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    names = list(PRESETS) if args.presets == "all" else args.presets.split(",")
    unknown = [n for n in names if n not in PRESETS]
    if unknown:
        parser.error(f"unknown preset {unknown[0]!r}: one of {', '.join(PRESETS)}, or all")
    print(f"machine: {describe()}")
    print("CPU microseconds per DecisionRequest, best (median) of the runs")
    print(f"{'preset':<20} {'requests':>8} {'encoder':>16} {'protobuf':>16} {'SDK decode':>16}")
    for name in names:
        runs = [run(PRESETS[name], args.games, args.seed) for _ in range(args.repeat)]
        n = runs[0][3]
        cells = []
        for i in range(3):
            per = [r[i] / n * 1e6 for r in runs]
            cells.append(f"{min(per):7.1f} ({statistics.median(per):5.1f})")
        print(f"{name:<20} {n:>8} {cells[0]:>16} {cells[1]:>16} {cells[2]:>16}")


if __name__ == "__main__":
    main()
