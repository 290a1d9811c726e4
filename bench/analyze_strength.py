"""Does ``arena analyze`` tell bots apart? Mean loss per decision of each bot, with 95% intervals, per preset.

Give tournament folders (or their saved ``arena analyze --json`` output);
a folder's analysis is run here with the default budget and saved beside it
(``FOLDER.analysis.json``) when missing. The analyses of one preset are
pooled. Made for a round-robin of ``shaky`` (the rules bot, a random legal
card 10% of the time), ``rules`` and ``montecarlo``, as docs/analyze.md
reports it:

    arena tournament --preset hammerwalt --games 48 --out logs/apart-hammerwalt \\
        --bot shaky='python -m example_bots.shaky_bot' --bot rules='python -m example_bots.rules_bot' \\
        --bot montecarlo='python -m example_bots.montecarlo_bot'
    python bench/analyze_strength.py logs/apart-hammerwalt

Printed per preset and bot: the decisions with a choice, the mean loss per
decision (all of them, then by phase) with its interval (hands as clusters,
``referee.analyze.summary``), and whether the bots come out in the expected
order with intervals apart.
"""

from __future__ import annotations

import argparse
import itertools
import json
import subprocess
import sys
from collections import defaultdict
from pathlib import Path
from typing import Any

# Runnable as a plain script from a checkout (``python bench/analyze_strength.py``).
sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from machine import describe  # bench/machine.py

from referee.analyze.summary import PHASES, DecisionRecord, Mean, summarise


def load(path: Path, workers: int) -> dict[str, Any]:
    """The analysis of a folder (run and saved when missing) or a saved analysis."""
    if path.suffix == ".json":
        data: dict[str, Any] = json.loads(path.read_text())
        return data
    saved = path.with_name(path.name + ".analysis.json")
    if not saved.exists():
        arena = Path(sys.executable).with_name("arena")
        run = subprocess.run(
            [str(arena), "analyze", str(path), "--json", "--workers", str(workers)],
            capture_output=True,
            text=True,
            check=False,
        )
        if run.returncode:
            raise SystemExit(run.stderr)
        saved.write_text(run.stdout)
    data = json.loads(saved.read_text())
    return data


def shown(m: Mean) -> str:
    return "-" if not m.count else f"{m.mean:.3f} ±{m.half_width:.3f}"


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("paths", type=Path, nargs="+", help="tournament folders, or their analyses (.json)")
    parser.add_argument("--workers", type=int, default=2, help="for analyses run here")
    parser.add_argument("--order", default="shaky,rules,montecarlo", help="the bots, worst expected first")
    args = parser.parse_args(argv)
    print(f"bench/analyze_strength.py on {describe()}\n")
    by_preset: dict[str, list[DecisionRecord]] = defaultdict(list)
    budgets = set()
    for path in args.paths:
        data = load(path, args.workers)
        budgets.add(data["budget"]["samples"])
        for game in data["games"]:
            for d in game["decisions"]:
                by_preset[game["preset"]].append(DecisionRecord(**{**d, "choices": tuple(d["choices"])}))
    order = args.order.split(",")
    for preset, decisions in by_preset.items():
        games = len({(d.log, d.game) for d in decisions})
        print(f"{preset}: {games} games; worlds per choice {sorted(budgets)}")
        print(f"  {'bot':<11} {'decisions':>9} {'loss/decision':>15} " + " ".join(f"{p:>15}" for p in PHASES))
        stats = {}
        for bot in [b for b in order if any(d.bot == b for d in decisions)]:
            st = stats[bot] = summarise([d for d in decisions if d.bot == bot], [], 0)
            print(
                f"  {bot:<11} {st.decisions:>9} {shown(st.loss):>15} "
                + " ".join(f"{shown(st.phases[p]):>15}" for p in PHASES)
            )
        for worse, better in itertools.pairwise(order):
            if worse in stats and better in stats:
                w, b = stats[worse].loss, stats[better].loss
                apart = w.mean - w.half_width > b.mean + b.half_width
                print(
                    f"  {worse} > {better}: {'yes' if w.mean > b.mean else 'NO'}, "
                    f"intervals {'apart' if apart else 'overlap'} (difference {w.mean - b.mean:+.3f})"
                )
        print()
    print(f"load now: {describe()}")


if __name__ == "__main__":
    main()
