"""Monte Carlo bot against the rules bot through the real referee, duplicate: each bot a process per seat.

For each preset, two ``arena match`` runs with the same seed (so the same
deals, game by game) and the bots' teams swapped; each game's points per hand
of each bot come from its log. Printed: the mean per deal of the Monte Carlo
bot's points per hand minus the rules bot's, with its 95% interval, and the
faults the referee logged (a late answer is a fault).

    python bench/mc_referee.py --presets neuralplay --games 4 --level 2
    python bench/mc_referee.py --presets neuralplay,pagat --games 10 --move-time 1000
    python bench/mc_referee.py --presets all --games 24 --level 2
    python bench/mc_referee.py --presets indiana --mc "python -m example_bots.montecarlo_bot --worlds 60"

Slow by nature: at the referee's default 1000 ms a decision, the bot searches
for up to half of each.
"""

from __future__ import annotations

import argparse
import subprocess
import sys
import tempfile
import time
from pathlib import Path

# Runnable as a plain script from a checkout (``python bench/mc_referee.py``).
sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from machine import describe  # bench/machine.py

from referee.engine.presets import PRESETS
from referee.gamelog import read_records
from sdk.simulator import _mean_interval

RULES = "rules=python -m example_bots.rules_bot"


def run_match(
    preset: str, bots: list[str], games: int, seed: int, move_time: int, log_dir: Path, rules: list[str]
) -> Path:
    """One ``arena match``; returns its log."""
    before = set(log_dir.glob("*.jsonl"))
    command = [sys.executable, "-c", "from referee.cli import main; main()", "match", "--preset", preset]
    command += ["--games", str(games)]
    command += ["--seed", str(seed), "--move-time", str(move_time), "--log-dir", str(log_dir)]
    for bot in bots:
        command += ["--bot", bot]
    for rule in rules:
        command += ["--rule", rule]
    done = subprocess.run(command, capture_output=True, text=True)
    if done.returncode != 0:
        raise SystemExit(f"arena match failed ({done.returncode}): {done.stderr.strip() or done.stdout.strip()}")
    (log,) = set(log_dir.glob("*.jsonl")) - before
    return log


def per_game(log: Path, team_of_bot: dict[str, int]) -> tuple[dict[int, dict[str, float]], int]:
    """({game: {bot name: points per hand}}, faults) from a match log."""
    hands: dict[int, int] = {}
    result: dict[int, dict[str, float]] = {}
    faults = 0
    for _, rec in read_records(log):
        event = rec["event"]
        game = rec.get("game", 1)
        if event == "hand_end":
            hands[game] = hands.get(game, 0) + 1
        elif event == "game_end":
            scores = rec["scores"]
            result[game] = {bot: scores[team] / max(1, hands.get(game, 1)) for bot, team in team_of_bot.items()}
        elif event == "violation":
            faults += 1
    return result, faults


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--presets", default="neuralplay", help="comma-separated presets, or all")
    parser.add_argument("--games", type=int, default=4, help="games per seating (deals)")
    parser.add_argument("--level", type=int, default=3, help="the Monte Carlo bot's --level")
    parser.add_argument("--move-time", type=int, default=1000, help="ms per decision (the referee's default: 1000)")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--rule", action="append", default=[], help="a rule override name=value (repeatable)")
    parser.add_argument("--mc", default=None, help="the command of the bot measured (default: the Monte Carlo bot at --level)")
    args = parser.parse_args(argv)
    mc = "mc=" + (args.mc or f"python -m example_bots.montecarlo_bot --level {args.level}")
    print(f"bench/mc_referee.py on {describe()}")
    print(
        f"{args.mc or f'montecarlo --level {args.level}'} v rules, {args.games} deals x 2 seatings, {args.move_time} ms a decision"
        + (f", rules {' '.join(args.rule)}" if args.rule else "")
        + "\n"
    )
    presets = list(PRESETS) if args.presets == "all" else [p.strip() for p in args.presets.split(",") if p.strip()]
    for preset in presets:
        started = time.perf_counter()
        with tempfile.TemporaryDirectory() as tmp:
            folder = Path(tmp)
            settings = (args.games, args.seed, args.move_time, folder, args.rule)
            first, faults_a = per_game(run_match(preset, [mc, RULES], *settings), {"mc": 0, "rules": 1})
            second, faults_b = per_game(run_match(preset, [RULES, mc], *settings), {"rules": 0, "mc": 1})
        diffs = [
            ((first[g]["mc"] - first[g]["rules"]) + (second[g]["mc"] - second[g]["rules"])) / 2
            for g in sorted(first)
            if g in second
        ]
        margin = _mean_interval(diffs)
        games = [*first.values(), *second.values()]
        wins = sum(g["mc"] > g["rules"] for g in games)
        print(
            f"{preset:<18} {margin}; mc ahead in {wins} of {len(games)} games; faults logged: {faults_a + faults_b}; "
            f"{time.perf_counter() - started:.0f} s",
            flush=True,
        )


if __name__ == "__main__":
    main()
