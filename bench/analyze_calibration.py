"""How well ``arena analyze`` predicts what a decision cost: its loss against the loss on the true deal.

For each decision with a choice in the logs given (a log, or a folder of
them), the analysis predicts, from the deciding seat's view only, the loss of
the choice taken against the best choice it found. The same two choices are
then played out from the true position, every hidden card where it really
was, with the same reference policy (``referee.analyze.calibration``): that
is what the choice taken cost on that deal. Printed per decision kind and in
all: the decisions, the mean predicted and true losses, their correlation,
and the mean error (predicted less true) with its 95% interval.

    python bench/analyze_calibration.py logs/my-tournament --limit 2000
    python bench/analyze_calibration.py logs/my-tournament --samples 96
"""

from __future__ import annotations

import argparse
import math
import statistics
import sys
import time
from pathlib import Path

# Runnable as a plain script from a checkout (``python bench/analyze_calibration.py``).
sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from machine import describe  # bench/machine.py

from referee.analyze.calibration import Calibrated, calibrate, correlation
from referee.analyze.driver import find_logs
from referee.analyze.evaluate import Budget


def line(name: str, rows: list[Calibrated]) -> str:
    if len(rows) < 3:
        return f"{name:<9} {len(rows):>6}"
    predicted = [r.predicted for r in rows]
    true = [r.true for r in rows]
    errors = [p - t for p, t in zip(predicted, true, strict=True)]
    half = 1.96 * statistics.stdev(errors) / math.sqrt(len(errors))
    return (
        f"{name:<9} {len(rows):>6} {statistics.fmean(predicted):>9.3f} {statistics.fmean(true):>9.3f} "
        f"{correlation(predicted, true):>7.3f} {statistics.fmean(errors):>+8.3f} ±{half:.3f}"
    )


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("path", type=Path, help="a game log, or a folder of them (a tournament's)")
    parser.add_argument("--samples", type=int, default=Budget().samples, help="worlds per finalist choice")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--limit", type=int, default=1000, help="decisions to check at most")
    args = parser.parse_args(argv)
    budget = Budget(samples=args.samples, screen=max(8, args.samples // 4), luck_samples=args.samples)
    print(f"bench/analyze_calibration.py on {describe()}")
    print(f"{args.path}: {args.samples} worlds per choice, seed {args.seed}, at most {args.limit} decisions\n")
    started = time.perf_counter()
    rows: list[Calibrated] = []
    for match in find_logs(args.path):
        left = args.limit - len(rows)
        if left <= 0:
            break
        rows.extend(calibrate(match, budget, args.seed, left))
    print(f"{'decision':<9} {'count':>6} {'predicted':>9} {'true':>9} {'corr.':>7} {'mean error (95%)':>17}")
    for kind in sorted({r.kind for r in rows}):
        print(line(kind.value, [r for r in rows if r.kind is kind]))
    print(line("all", rows))
    print(f"\n{len(rows)} decisions in {time.perf_counter() - started:.0f} s; load now: {describe()}")


if __name__ == "__main__":
    main()
