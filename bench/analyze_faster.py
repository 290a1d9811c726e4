"""Does a statistic built on ``arena analyze`` decide faster than plain duplicate scoring?

Input: a two-bot tournament folder played on duplicate deals (``arena
tournament --games 2N``: N deals, each played once per seating), and the
analysis of its games (``arena analyze FOLDER --json``; run here and saved
when the file is missing). The first bot of the tournament is the new one
(A), the other the base (B). Per duplicate pair (the two games of a deal),
four statistics of A against B:

- ``game score``: A's wins in the pair (1 per game won, 1/2 a draw), less 1:
  what ``arena sprt`` counts (its pentanomial pair score);
- ``points``: A's final score less B's, summed over the pair's two games:
  plain duplicate scoring in points;
- ``decision losses``: the points B's decisions gave up less the points A's
  gave up, by the analysis, summed over the pair (if the analysis's judge
  were perfect play, this would have the mean of ``points``);
- ``AIVAT``: ``points`` less a control variate on the luck of each deal
  (Burch et al., AAAI 2018, its chance-node term): for every hand, what the
  deal was worth to A's team when the reference policy plays all four hands
  out, less that worth's mean over random deals. The term has mean zero
  whatever the bots, so the statistic has the mean of ``points``.

For each: the mean per pair with its 95% interval, the variance per pair,
and the pairs a sequential test needs on average to decide between "no
better" (mean 0) and "as much better as measured" at alpha = beta = 0.05
(Wald's approximation for a normal SPRT: 2 sigma^2 / mu^2 times 2.65), and
that figure against plain scoring in the same unit. Unbiasedness: the mean
difference, pair by pair, of each points-unit statistic from ``points``,
with its interval.

    python bench/analyze_faster.py logs/mc-vs-rules --analysis mc-vs-rules.json --pairs 100
"""

from __future__ import annotations

import argparse
import json
import math
import statistics
import subprocess
import sys
import tempfile
from collections import defaultdict
from pathlib import Path
from typing import Any

# Runnable as a plain script from a checkout (``python bench/analyze_faster.py``).
sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from machine import describe  # bench/machine.py

from referee.analyze.evaluate import average_worth
from referee.engine.events import DealEvent
from referee.gamelog import read_json_lines
from referee.replay.logfile import load_log
from referee.replay.steps import GameReplay, Step
from sdk.worldmodel import WorldModel, finish_points, margin

ALPHA = BETA = 0.05
# Wald: E[N] under H1 = ((1-b) ln((1-b)/a) + b ln(b/(1-a))) / (mu^2 / (2 sigma^2))
WALD = (1 - BETA) * math.log((1 - BETA) / ALPHA) + BETA * math.log(BETA / (1 - ALPHA))
AVERAGE_DEALS = 20000  # deals behind the mean worth of a deal (the control variate's expectation)


def deal_luck(log: Path, team: int, seed: int) -> tuple[float, int]:
    """The summed control variate of a game for ``team``: per hand, the deal's worth to it played out by the
    reference policy, less the mean worth at that place round the table; and the hands."""
    match = load_log(log)
    logged = match.games[0]
    average = average_worth(match.rules, seed, AVERAGE_DEALS)
    replay = GameReplay(match, logged)
    total, hands = 0.0, 0
    for item in replay:
        if isinstance(item, Step) and isinstance(item.event, DealEvent):
            game = replay.game
            points = finish_points(game.copy(), WorldModel(match.rules))
            worth = 0.0 if points is None else margin(points, team)
            # average_worth[k]: the team of the seat k to the dealer's left; a seat of ``team``:
            seat = next(s for s in range(match.rules.players) if match.rules.team_of(s) == team)
            total += worth - average[(seat - game.dealer) % match.rules.players].mean
            hands += 1
    return total, hands


def summary(name: str, values: list[float], *plain: float) -> tuple[str, float]:
    """A statistic's line: mean per pair and its interval, variance, SPRT pairs, and how many times fewer pairs
    it needs than each of ``plain`` (the pairs the plain statistics need)."""
    n = len(values)
    mean = statistics.fmean(values)
    var = statistics.variance(values)
    half = 1.96 * math.sqrt(var / n)
    pairs = WALD * 2 * var / mean**2 if mean else math.inf
    ratios = "".join(f"{p / pairs:>9.2f}x" for p in plain)
    return f"{name:<16} {mean:>+9.3f} ±{half:<7.3f} {var:>10.2f} {pairs:>10.1f}{ratios}", pairs


def analysis_of(folder: Path, saved: Path, pairs: int | None, workers: int) -> dict[str, Any]:
    """The analysis JSON of the folder's first ``pairs`` deals: read from ``saved``, else run and saved there."""
    if saved.exists():
        data: dict[str, Any] = json.loads(saved.read_text())
        return data
    results = sorted((r for _, r in read_json_lines(folder / "results.jsonl")), key=lambda r: r["game"])
    deals = sorted({r["deal"] for r in results})[:pairs] if pairs else None
    with tempfile.TemporaryDirectory() as tmp:
        games = Path(tmp) / "games"
        games.mkdir()
        for r in results:
            if deals is None or r["deal"] in deals:
                (games / Path(r["log"]).name).symlink_to((folder / r["log"]).resolve())
        arena = Path(sys.executable).with_name("arena")
        run = subprocess.run(
            [str(arena), "analyze", tmp, "--json", "--workers", str(workers)],
            capture_output=True,
            text=True,
            check=False,
        )
    if run.returncode:
        raise SystemExit(run.stderr)
    saved.write_text(run.stdout)
    data = json.loads(run.stdout)
    return data


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("folder", type=Path, help="a two-bot tournament folder played on duplicate deals")
    parser.add_argument("--analysis", type=Path, required=True, help="its analysis (JSON), read or written")
    parser.add_argument("--pairs", type=int, default=None, help="use only the first N deals")
    parser.add_argument("--workers", type=int, default=2, help="for the analysis, when it is run here")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args(argv)
    print(f"bench/analyze_faster.py on {describe()}")
    data = analysis_of(args.folder, args.analysis, args.pairs, args.workers)
    settings = json.loads((args.folder / "settings.json").read_text())
    a, b = list(settings["bots"])[:2]
    loss: dict[str, dict[str, float]] = defaultdict(lambda: defaultdict(float))  # game log name -> bot -> loss
    for game in data["games"]:
        for d in game["decisions"]:
            if d["status"] == "analysed":
                loss[Path(d["log"]).name][d["bot"]] += d["loss"]
    results = sorted((r for _, r in read_json_lines(args.folder / "results.jsonl")), key=lambda r: r["game"])
    by_deal: dict[int, list[dict[str, Any]]] = defaultdict(list)
    for r in results:
        if Path(r["log"]).name in loss:
            by_deal[r["deal"]].append(r)
    pairs = [games for deal, games in sorted(by_deal.items()) if len(games) == 2]
    if args.pairs:
        pairs = pairs[: args.pairs]
    stats: dict[str, list[float]] = defaultdict(list)
    single: dict[str, list[float]] = defaultdict(list)  # per game, as if the deals were not duplicated
    for games in pairs:
        score = points = losses = luck = 0.0
        for r in games:
            team_a = r["teams"].index(a)
            team_b = 1 - team_a
            score += 1.0 if r["winner"] == team_a else 0.5 if r["winner"] is None else 0.0
            margin_a = r["scores"][team_a] - r["scores"][team_b]
            points += margin_a
            name = Path(r["log"]).name
            losses += loss[name][b] - loss[name][a]
            game_luck = deal_luck(args.folder / r["log"], team_a, args.seed)[0]
            luck += game_luck
            single["points"].append(margin_a)
            single["AIVAT"].append(margin_a - game_luck)
        stats["game score"].append(score - 1)
        stats["points"].append(points)
        stats["decision losses"].append(losses)
        stats["AIVAT"].append(points - luck)
        stats["AIVAT term"].append(luck)
    print(
        f"{args.folder}: {a} (A) against {b} (B), {len(pairs)} duplicate pairs; analysis {args.analysis} "
        f"({data['budget']['samples']} worlds per choice, seed {data['seed']})\n"
    )
    print(
        f"{'statistic':<16} {'mean/pair':>9} {'95%':<8} {'var/pair':>10} {'SPRT pairs':>10} {'v score':>10}"
        f"{'v points':>10}"
    )
    _, score_pairs = summary("game score", stats["game score"])
    _, points_pairs = summary("points", stats["points"])
    for name in ("game score", "points", "decision losses", "AIVAT"):
        print(summary(name, stats[name], score_pairs, points_pairs)[0])
    print("\nv score, v points: how many times fewer pairs than game score (arena sprt's) and points need")
    print("\nunbiased? mean difference from points, per pair (95%):")
    for name in ("decision losses", "AIVAT"):
        diffs = [x - p for x, p in zip(stats[name], stats["points"], strict=True)]
        half = 1.96 * statistics.stdev(diffs) / math.sqrt(len(diffs))
        print(f"  {name:<16} {statistics.fmean(diffs):+.3f} ±{half:.3f}")
    term = stats["AIVAT term"]
    term_half = 1.96 * statistics.stdev(term) / math.sqrt(len(term))
    print(f"  AIVAT's luck term alone: mean {statistics.fmean(term):+.3f} ±{term_half:.3f} (zero by construction)")
    print("\nwithout duplicate deals (each game on its own), variance per game:")
    for name in ("points", "AIVAT"):
        print(
            f"  {name:<16} mean {statistics.fmean(single[name]):+8.3f}  "
            f"variance {statistics.variance(single[name]):10.2f}"
        )
    corr = statistics.correlation(stats["points"], stats["decision losses"])
    print(f"\ncorrelation of decision losses with points, per pair: {corr:.3f}")
    print(f"load now: {describe()}")


if __name__ == "__main__":
    main()
