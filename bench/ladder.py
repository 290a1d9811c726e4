"""How well and how fast the ladder ranks: a field of known order, a stronger version added mid-run.

Plays a ladder (``referee.ladder``, in this process, its tables in worker processes) of bots whose order
is known: the rules bot, the shaky bot at several error rates (a random legal card with probability
0.15, 0.35, 0.6: the more, the weaker), and the random bot; with ``--montecarlo``, the Monte Carlo bot
at level 1 on top. After ``--add-after`` games, a new version of the random bot is added: the shaky bot
at 0.05, which belongs second, after the rules bot. Then, from the database alone:

- the games until the ladder's order (mu - 3 sigma) matches the true order with Kendall tau >= 0.9
  (first reached, and for good), and the same for the Elo order of a round-robin's standings over the
  same games (``referee.games.standings``, as ``arena tournament`` ranks);
- the games until the new version reaches its place (for good), and how many of them it played;
- games per hour on this machine, and the CPU share of the coordinator (this process: matchmaking,
  the database, the driver; the referees and bots are other processes).

    python bench/ladder.py [--games 300] [--add-after 150] [--hand-limit 6] [--concurrency 2] [--montecarlo]
"""

from __future__ import annotations

import argparse
import asyncio
import json
import resource
import sys
import tempfile
import time
from dataclasses import asdict, dataclass, replace
from itertools import combinations
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from machine import cpu_seconds, describe  # bench/machine.py

from referee.bots import BotCommand
from referee.games.placement import HERE, choose_backend
from referee.games.standings import standings
from referee.ladder import setup
from referee.ladder.database import LADDER, LadderDatabase
from referee.ladder.playing import LadderRun, Stop
from referee.ladder.ratings import NEW, Rating
from referee.ladder.settings import LadderChoices
from referee.logging import configure
from referee.runfolder import RunFolder
from referee.sandbox import SandboxMode

PY = sys.executable
SHAKY = f"{PY} -m example_bots.shaky_bot --random-share"
FIELD = [  # best first: the true order
    ("rules", f"{PY} -m example_bots.rules_bot"),
    ("shaky15", f"{SHAKY} 0.15"),
    ("shaky35", f"{SHAKY} 0.35"),
    ("shaky60", f"{SHAKY} 0.6"),
    ("random", f"{PY} -m example_bots.random_bot"),
]
MONTECARLO = ("montecarlo", f"{PY} -m example_bots.montecarlo_bot --level 1")
NEW_VERSION = ("random", f"{SHAKY} 0.05")  # random.v2: second, after the rules bot
NEW_PLACE = 2


def kendall_tau(order: list[str], truth: list[str]) -> float:
    """Kendall's tau between two orders of the same names: 1 the same, -1 reversed."""
    rank = {name: k for k, name in enumerate(order)}
    pairs = list(combinations(truth, 2))
    agree = sum(1 if rank[a] < rank[b] else -1 for a, b in pairs)
    return agree / len(pairs)


def play(folder: RunFolder, field: list[tuple[str, str]], args: argparse.Namespace) -> dict[str, float]:
    given = LadderChoices(preset=args.preset, rules={"hand_limit": str(args.hand_limit)}, seed=args.seed,
                          sandbox=SandboxMode.OFF)  # fmt: skip
    db, _ = setup.init(folder, replace(given, bots=tuple(BotCommand.parse(f"{n}={c}") for n, c in field)))
    settings, options = db.settings(), db.options()
    db.close()
    backend, tables = choose_backend(
        HERE, workers=args.workers, concurrency=args.concurrency, sandbox=None
    )  # the coordinator here, the tables in worker processes
    ladder = LadderRun(folder, settings, options, backend, tables)
    start, own = time.perf_counter(), cpu_seconds(resource.RUSAGE_SELF)
    asyncio.run(ladder.run(Stop(games=args.add_after)))
    db = LadderDatabase.open(folder)
    setup.add(db, BotCommand.parse(f"{NEW_VERSION[0]}={NEW_VERSION[1]}"))
    db.close()
    asyncio.run(ladder.run(Stop(games=args.games - args.add_after)))
    elapsed = time.perf_counter() - start
    return {"elapsed": elapsed, "coordinator_cpu": cpu_seconds(resource.RUSAGE_SELF) - own, "tables": tables}


@dataclass(frozen=True)
class Analysis:
    ladder: dict[str, int | None]  # games until tau >= 0.9: first, for good
    elo: dict[str, int | None]
    new: dict[str, int | None]  # games until the new version is in its place for good; its own games of them
    final_ladder_tau: float | None
    final_elo_tau: float | None
    ladder_games: int


def analyse(folder: RunFolder, truth: list[str]) -> Analysis:
    """The ladder's order and a round-robin's Elo order after each rated set, against the truth."""
    db = LadderDatabase.open(folder)
    versions = {v.id: v for v in db.versions()}
    all_games = db.games()
    games = [g for g in all_games if g.kind == LADDER]
    history = db.history()
    db.close()
    first_label = {f"{name}.v1": name for name, _ in [*FIELD, MONTECARLO]}
    new = next(v for v in versions.values() if v.bot == NEW_VERSION[0] and v.version == 2)
    validated = max(g.finished_at for g in all_games if g.kind != LADDER and new.id in g.teams)
    added_at = sum(1 for g in games if g.finished_at <= validated)  # ladder games before the new version played
    ratings: dict[int, Rating] = {}
    by_update: dict[int, list[tuple[int, Rating, float]]] = {}
    for _, set_id, vid, rating, at in history:
        by_update.setdefault(set_id, []).append((vid, rating, at))
    ladder_tau, elo_tau, new_rank = [], [], []
    for _set_id, updates in sorted(by_update.items(), key=lambda kv: min(u[2] for u in kv[1])):
        for vid, rating, _ in updates:
            ratings[vid] = rating
        at = max(u[2] for u in updates)
        played = [g for g in games if g.finished_at <= at]
        originals = [v for v in versions.values() if v.version == 1 and v.label in first_label]
        order = sorted(originals, key=lambda v: -ratings.get(v.id, NEW).ordinal)
        ladder_tau.append((len(played), kendall_tau([first_label[v.label] for v in order], truth)))
        labels = [v.label for v in originals]
        rows = standings(labels, [g.record.outcome() for g in played if all(t in labels for t in g.record.teams)])
        elo_tau.append((len(played), kendall_tau([first_label[r.bot] for r in rows], truth)))
        if new.id in ratings:
            playing = [v for v in versions.values() if v.label in first_label and v.bot != new.bot] + [new]
            ranked = sorted(playing, key=lambda v: -ratings.get(v.id, NEW).ordinal)
            mine = sum(1 for g in played if new.id in g.teams)
            new_rank.append((len(played), mine, ranked.index(new) + 1))
    return Analysis(
        ladder=_for_good(ladder_tau),
        elo=_for_good(elo_tau),
        new=_placed(new_rank, added_at),
        final_ladder_tau=ladder_tau[-1][1] if ladder_tau else None,
        final_elo_tau=elo_tau[-1][1] if elo_tau else None,
        ladder_games=len(games),
    )


def _for_good(series: list[tuple[int, float]]) -> dict[str, int | None]:
    first = next((n for n, tau in series if tau >= 0.9), None)
    good = None
    for k in range(len(series) - 1, -1, -1):
        if series[k][1] < 0.9:
            break
        good = series[k][0]
    return {"first": first, "for_good": good}


def _placed(series: list[tuple[int, int, int]], start: int) -> dict[str, int | None]:
    """From its validation game on: the ladder games until the new version is in its place for good, and its own
    games among them."""
    found: tuple[int, int] | None = None
    for n, mine, rank in reversed(series):
        if rank != NEW_PLACE:
            break
        found = (n - start, mine)
    return {"games": None if found is None else found[0], "its_games": None if found is None else found[1]}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=300)
    parser.add_argument("--add-after", type=int, default=None, help="games before the new version (default: half)")
    parser.add_argument("--preset", default="bid-euchre-project")
    parser.add_argument("--hand-limit", type=int, default=6)
    parser.add_argument("--concurrency", type=int, default=2)
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--montecarlo", action="store_true", help="the Monte Carlo bot (level 1) on top")
    parser.add_argument("--keep", type=Path, default=None, help="keep the ladder in this folder (it must not exist)")
    parser.add_argument("--analyse", type=Path, default=None, help="only analyse a ladder a run --keep left")
    args = parser.parse_args()
    args.add_after = args.games // 2 if args.add_after is None else args.add_after
    configure("warning")
    field = ([MONTECARLO] if args.montecarlo else []) + FIELD
    truth = [name for name, _ in field]
    if args.analyse is not None:
        print(json.dumps(asdict(analyse(RunFolder(args.analyse), truth))))
        return
    print(describe())
    print(f"field (true order): {', '.join(truth)}; new version after {args.add_after} games: random.v2 = shaky 0.05")
    with tempfile.TemporaryDirectory() as tmp:
        folder = RunFolder(args.keep if args.keep is not None else Path(tmp) / "bench")
        figures = play(folder, field, args)
        result = analyse(folder, truth)
    hours = figures["elapsed"] / 3600
    print(f"{args.preset}, hand_limit {args.hand_limit}: {args.games} games in {figures['elapsed']:.0f} s on "
          f"{figures['tables']:.0f} tables: {args.games / hours:.0f} games/hour; coordinator CPU "
          f"{figures['coordinator_cpu']:.1f} s = {100 * figures['coordinator_cpu'] / figures['elapsed']:.1f}% of "
          "one CPU")  # fmt: skip
    r = result
    print(f"ladder order, Kendall tau >= 0.9: first after {r.ladder['first']} ladder games, for good after "
          f"{r.ladder['for_good']} (final tau {r.final_ladder_tau})")  # fmt: skip
    print(f"round-robin Elo order of the same games: first after {r.elo['first']}, for good after "
          f"{r.elo['for_good']} (final tau {r.final_elo_tau})")  # fmt: skip
    print(f"new version (random.v2, belongs #{NEW_PLACE}): in its place for good {r.new['games']} ladder games "
          f"after its validation game, {r.new['its_games']} of them its own")  # fmt: skip
    print(json.dumps({**asdict(result), **figures}))


if __name__ == "__main__":
    main()
