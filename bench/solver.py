"""How fast the compiled double-dummy solver answers (``referee.solver`` through ``referee.engine.doubledummy``).

Three tables, every preset (or those named):

- Solves per second per core, by tricks left: hands dealt and bid at random
  (lone bids too), played at random until that many tricks are left (at a
  trick's start), then solved: ``tricks`` (the team to act's tricks with best
  play) and ``card values`` (the tricks after each legal card: what a Monte
  Carlo search asks of each sampled world).
- A whole hand from its first lead: the same two questions at the first lead
  of the hand, with median and slowest time and the most nodes searched.
- Claims: the claim of the seat to act at the first lead, at half the hand
  and with three tricks left, as the engine decides it (``Game.claim_search``):
  how many held, the slowest, and how many reached the solver's node limit
  (``claim.SOLVER_NODE_LIMIT``, refused unproved).

Times are CPU seconds of this process (``time.process_time``): the search is
single-threaded, so solves per CPU second are solves per second on one core.
The solvers are the engine's, one per trump and number of decks, as in a bot
or the referee (each question starts with an empty transposition table).

    python bench/solver.py                    # every preset
    python bench/solver.py indiana --positions 50
    python bench/solver.py double-deck --positions 10 --tables whole
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
from collections.abc import Callable
from pathlib import Path

# Runnable as a plain script from a checkout (``python bench/solver.py``).
ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from machine import chosen_presets, describe  # bench/machine.py

from referee.engine import doubledummy as dd
from referee.engine.claim import SOLVER_NODE_LIMIT
from referee.engine.game import Game
from referee.engine.presets import PRESETS
from referee.solver import SearchLimitError, available, unavailable_reason
from tests.support.claims import random_ending


def positions(name: str, left: int, count: int, seed: str) -> list[Game]:
    """``count`` random hands of ``name`` with ``left`` tricks to play, at a trick's start (each table and question
    has positions of its own, none met before by the solvers' transposition tables)."""
    rules = PRESETS[name]
    rng = random.Random(f"{seed}:{name}:{left}")
    games: list[Game] = []
    while len(games) < count:
        game = random_ending(rules, rng, tricks_left=left, lone=0.2)
        if game is not None and not game.trick_cards:
            games.append(game)
    return games


# Each question may take this many nodes (seconds on the largest presets); one that reaches it is counted apart.
NODE_LIMIT = 20_000_000


def timed(ask: Callable[..., object], position: dd.Position) -> tuple[float, int, bool]:
    """(CPU seconds, nodes searched, whether it was answered within ``NODE_LIMIT`` nodes) of one question."""
    start = time.process_time()
    try:
        ask(position, node_limit=NODE_LIMIT)
        answered = True
    except SearchLimitError:
        answered = False
    return time.process_time() - start, dd.solver_for(position.trump, position.copies).nodes, answered


QUESTIONS: dict[str, Callable[..., object]] = {"tricks": dd.tricks, "card values": dd.card_values}


def ms(seconds: float) -> str:
    return f"{seconds * 1000:.1f}" if seconds < 10 else f"{seconds:.0f}s"


def by_tricks_left(names: list[str], count: int, seed: int) -> None:
    print("Solves per CPU second (one core), by tricks left at a trick's start (a question that reaches")
    print(f"{NODE_LIMIT:,} nodes counts with its time)")
    head = f"{'preset':<19} {'left':>5} " + " ".join(f"{q + ' /s':>16}" for q in QUESTIONS)
    print(head)
    print("-" * len(head))
    for name in names:
        each = PRESETS[name].cards_each
        for left in sorted({2, 4, (each + 1) // 2, each}, reverse=True):
            cells = []
            for question, ask in QUESTIONS.items():
                games = [dd.Position.of_game(g) for g in positions(name, left, count, f"{seed}:{question}")]
                seconds = sum(timed(ask, p)[0] for p in games)
                cells.append(f"{len(games) / max(seconds, 1e-9):>16,.0f}")
            print(f"{name:<19} {left:>5} " + " ".join(cells))
    print()


def whole_hands(names: list[str], count: int, seed: int) -> None:
    print(f"A whole hand from its first lead: ms per question ({count} hands per preset; limit: questions that")
    print(f"reached {NODE_LIMIT:,} nodes, their time counted)")
    head = f"{'preset':<19} {'tricks':>6} " + " ".join(
        f"{q + ': median':>20} {'slowest':>8} {'most nodes':>11} {'limit':>5}" for q in QUESTIONS
    )
    print(head)
    print("-" * len(head))
    for name in names:
        each = PRESETS[name].cards_each
        cells = []
        for question, ask in QUESTIONS.items():
            games = [dd.Position.of_game(g) for g in positions(name, each, count, f"{seed}:whole:{question}")]
            results = [timed(ask, p) for p in games]
            times = sorted(t for t, _, _ in results)
            most = max(n for _, n, _ in results)
            limited = sum(not answered for _, _, answered in results)
            cells.append(f"{ms(statistics.median(times)):>20} {ms(times[-1]):>8} {most:>11,} {limited:>5}")
        print(f"{name:<19} {each:>6} " + " ".join(cells))
    print()


def claims(names: list[str], count: int, seed: int) -> None:
    print(f"Claims of the seat to act, decided by the engine ({count} random positions per depth)")
    head = (
        f"{'preset':<19} {'left':>5} {'held':>5} {'at the limit':>12} {'median ms':>10} {'slowest ms':>11} "
        f"{'its nodes':>10}"
    )
    print(head)
    print("-" * len(head))
    for name in names:
        each = PRESETS[name].cards_each
        for left in sorted({each, (each + 1) // 2, min(3, each)}, reverse=True):
            held = limited = 0
            results: list[tuple[float, int]] = []
            for game in positions(name, left, count, f"{seed}:claims"):
                assert game.to_act is not None
                search = game.claim_search(game.rules.team_of(game.to_act))
                start = time.process_time()
                held += search.holds()
                results.append((time.process_time() - start, search.nodes))
                limited += not search.decided
            times = sorted(t for t, _ in results)
            slowest = max(results)
            print(
                f"{name:<19} {left:>5} {held:>5} {limited:>12} {ms(statistics.median(times)):>10} "
                f"{ms(slowest[0]):>11} {slowest[1]:>10,}"
            )
    print(f"(the node limit: {SOLVER_NODE_LIMIT:,})")


TABLES: dict[str, Callable[[list[str], int, int], None]] = {
    "speed": by_tricks_left,
    "whole": whole_hands,
    "claims": claims,
}


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("presets", nargs="*", help="presets to measure (default: all)")
    parser.add_argument("--positions", type=int, default=100, help="random positions per row (default 100)")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument(
        "--tables",
        default="speed,whole,claims",
        help="the tables to print, of speed (by tricks left), whole (a whole hand), claims (default: all three)",
    )
    args = parser.parse_args(argv)
    tables = {name: table for name, table in TABLES.items() if name in args.tables.split(",")}
    if not tables or set(args.tables.split(",")) - set(TABLES):
        parser.error(f"--tables: a list of {', '.join(TABLES)}, got {args.tables!r}")
    names = chosen_presets(parser, args.presets)
    if not available():
        parser.exit(1, f"{unavailable_reason()}: nothing to measure\n")
    print("The double-dummy solver: CPU time of one process")
    print(f"Machine: {describe()}")
    print(f"Random positions: {args.positions} per row, seed {args.seed}\n")
    for table in tables.values():
        table(names, args.positions, args.seed)


if __name__ == "__main__":
    main()
