"""How long the engine takes to check a claim (``Game.claim``'s search), per preset, in one process.

The engine decides claims with the compiled double-dummy solver where it is
built (``referee.solver``); ``--python`` measures its own pure-Python search
instead (``ClaimSearch``, which decides them where the solver is not built).

Two kinds of position for every preset:

- Built at the first lead, the whole hand left (``tests/support/claims.py``):
  ``top trumps`` (the declarer holds the highest trumps: proved at once),
  ``draw first`` (the highest trumps but one and a plain ace, an opponent able
  to ruff it: proved only by a search that draws trumps first, against every
  discard of the others), ``held over`` (the highest trumps and a low card
  under a high card an opponent keeps: refused).
- Random: hands dealt and bid at random (lone bids too), played at random to
  the first lead, to half the hand, and to three tricks left; the seat on
  turn claims. Most of these claims are refused. The table gives, per depth,
  how many held, how many the search gave up on (its node limit,
  ``SOLVER_NODE_LIMIT`` for the solver and ``SEARCH_LIMIT`` turns for the
  Python search: refused unproved), the median, mean, 99th percentile and
  slowest claim and that one's search size (nodes searched), and the slowest
  claim that held.

Times are CPU seconds of this process (``time.process_time``), so the load of
other processes disturbs them less than the wall clock would; the search is
single-threaded.

Last, the referee's event loop while a bot's claim is searched: the slowest
of 20 triple-deck claims at the first lead is put to the engine as the
referee does (``referee.seat.CLAIMS``, a
thread beside the loop), and again on the loop itself, while a task of the
loop asks to wake every millisecond; the table gives how often it woke and
how late, in wall-clock time.

    python bench/claim.py                   # every preset, 100 random positions per depth
    python bench/claim.py indiana --positions 300
    python bench/claim.py --python          # the engine's own search

The figures measured so far, and what they mean for the rule, are in
docs/rules.md ("Claims").
"""

from __future__ import annotations

import argparse
import asyncio
import random
import statistics
import sys
import time
from collections.abc import Callable
from pathlib import Path

# Runnable as a plain script from a checkout (``python bench/claim.py``).
ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from machine import chosen_presets, describe  # bench/machine.py

from referee.engine.cards import Card, Trump
from referee.engine.game import Game
from referee.engine.presets import PRESETS
from referee.engine.rules import Rules
from referee.seat import CLAIMS
from referee.solver import available as solver_available
from tests.support.claims import deal_and_contract, draw_first, held_over, random_ending, top_trumps

Deal = Callable[[Rules, int, int], list[list[Card]]]
BUILT: dict[str, Deal] = {"top trumps": top_trumps, "draw first": draw_first, "held over": held_over}
PYTHON_SEARCH = False  # --python: the engine's own search, not the solver


def timed(game: Game) -> tuple[float, bool, int, bool]:
    """(CPU seconds, whether the claim of the seat on turn holds, nodes searched, whether the search decided it
    within its limit)."""
    assert game.to_act is not None
    team = game.rules.team_of(game.to_act)
    search = game.python_claim_search(team) if PYTHON_SEARCH else game.claim_search(team)
    start = time.process_time()
    holds = search.holds()
    return time.process_time() - start, holds, search.nodes, search.decided


def built(name: str) -> dict[str, tuple[float, bool, int, bool]]:
    rules = PRESETS[name]
    out = {}
    for label, deal in BUILT.items():
        hands = deal(rules, 1, Trump.S)
        out[label] = timed(deal_and_contract(rules, 1, dict(enumerate(hands)), Trump.S))
    return out


def sampled(name: str, left: int, positions: int, seed: int) -> list[tuple[float, bool, int, bool]]:
    rules = PRESETS[name]
    rng = random.Random(f"{seed}:{name}:{left}")
    results: list[tuple[float, bool, int, bool]] = []
    while len(results) < positions:
        game = random_ending(rules, rng, tricks_left=left, lone=0.2)
        if game is not None:
            results.append(timed(game))
    return results


def slow_claim(seed: int) -> Game:
    """Of 20 triple-deck positions at the first lead, the one whose claim takes the search longest."""
    rules = PRESETS["triple-deck"]
    rng = random.Random(f"{seed}:loop")
    games: list[Game] = []
    while len(games) < 20:
        game = random_ending(rules, rng, tricks_left=rules.cards_each, lone=0.2)
        if game is not None:
            games.append(game)
    return max(games, key=lambda game: timed(game.copy())[0])


async def _ticks(done: asyncio.Event) -> list[float]:
    """How late (seconds) each 1 ms sleep of a loop task woke, until ``done``."""
    late: list[float] = []
    loop = asyncio.get_running_loop()
    while not done.is_set():
        asked = loop.time()
        await asyncio.sleep(0.001)
        late.append(loop.time() - asked - 0.001)
    return late


async def _claim_beside(game: Game, threaded: bool) -> tuple[float, list[float]]:
    """The claim of the seat to act, searched in the referee's claims thread or on the loop: wall seconds, and
    the lateness of every wake-up of a loop task meanwhile."""
    loop = asyncio.get_running_loop()
    done = asyncio.Event()
    ticker = asyncio.create_task(_ticks(done))
    await asyncio.sleep(0.01)  # the ticker runs
    seat = game.to_act
    assert seat is not None
    start = time.perf_counter()
    if threaded:
        await loop.run_in_executor(CLAIMS, game.claim, seat)
    else:
        game.claim(seat)
    took = time.perf_counter() - start
    done.set()
    return took, await ticker


def loop_during_claims(seed: int) -> None:
    game = slow_claim(seed)
    print("The event loop while the slowest of 20 claims (triple-deck, the whole hand left) is searched")
    head = f"{'the search runs':<26} {'wall ms':>8} {'wake-ups':>9} {'late: median':>13} {'p99':>8} {'most':>8}"
    print(head)
    print("-" * len(head))
    for label, threaded in (("in the claims thread", True), ("on the loop itself", False)):
        took, late = asyncio.run(_claim_beside(game.copy(), threaded))
        late.sort()
        p99 = late[max(0, int(len(late) * 0.99) - 1)]
        print(
            f"{label:<26} {took * 1000:>8.0f} {len(late):>9} {ms(statistics.median(late)):>13} {ms(p99):>8} "
            f"{ms(late[-1]):>8}"
        )


def ms(seconds: float) -> str:
    return f"{seconds * 1000:.1f}" if seconds < 10 else f"{seconds:.0f}s"


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("presets", nargs="*", help="presets to measure (default: all)")
    parser.add_argument("--positions", type=int, default=100, help="random positions per depth (default 100)")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--python", action="store_true", help="the engine's own search, not the compiled solver")
    args = parser.parse_args(argv)
    names = chosen_presets(parser, args.presets)
    global PYTHON_SEARCH
    PYTHON_SEARCH = args.python or not solver_available()

    search = "the engine's own Python search" if PYTHON_SEARCH else "the compiled solver"
    print(f"Claims: CPU milliseconds for the engine to decide a claim ({search}), one process")
    print(f"Machine: {describe()}")
    print(f"Random positions: {args.positions} per depth, seed {args.seed}\n")
    head = f"{'preset':<19} {'tricks':>6} " + " ".join(f"{label:>18}" for label in BUILT)
    print("Built positions at the first lead: ms (held or refused, nodes searched)")
    print(head)
    print("-" * len(head))
    for name in names:
        cells = [
            f"{ms(t)} ({'held' if h else 'refused'}, {nodes})".rjust(18) for t, h, nodes, _ in built(name).values()
        ]
        print(f"{name:<19} {PRESETS[name].cards_each:>6} " + " ".join(cells))
    print()
    head = (
        f"{'preset':<19} {'left':>5} {'held':>5} {'undecided':>9} {'median':>8} {'mean':>8} {'p99':>8} {'slowest':>9} "
        f"{'its nodes':>9} {'held: slowest':>13} {'its nodes':>9}"
    )
    print("Random positions: ms per claim")
    print(head)
    print("-" * len(head))
    for name in names:
        each = PRESETS[name].cards_each
        for left in sorted({each, (each + 1) // 2, min(3, each)}, reverse=True):
            results = sampled(name, left, args.positions, args.seed)
            times = sorted(r[0] for r in results)
            slowest = max(results)
            proved = max((r for r in results if r[1]), default=(0.0, True, 0, True))
            undecided = sum(1 for r in results if not r[3])
            print(
                f"{name:<19} {left:>5} {sum(r[1] for r in results):>5} {undecided:>9} "
                f"{ms(statistics.median(times)):>8} "
                f"{ms(statistics.fmean(times)):>8} {ms(times[int(len(times) * 0.99) - 1]):>8} {ms(slowest[0]):>9} "
                f"{slowest[2]:>9} {ms(proved[0]):>13} {proved[2]:>9}"
            )
    print()
    loop_during_claims(args.seed)


if __name__ == "__main__":
    main()
