"""Monte Carlo bot against the rules bot through the real referee, duplicate: each bot a process per seat.

For each preset, one ``arena match`` per team with the same seed (so the same
deals, game by game), the measured bot playing that team and the opponent
every other team; each game's points per hand come from its log. Printed: the
mean per deal of the measured bot's points per hand minus the opponents'
(averaged over the seatings), with its 95% interval, the games in which it
was ahead, and the faults the referee logged (a late answer is a fault).

    python bench/mc_referee.py --presets neuralplay --games 4 --level 2
    python bench/mc_referee.py --presets neuralplay,pagat --games 10 --move-time 1000
    python bench/mc_referee.py --presets all --games 24 --level 2
    python bench/mc_referee.py --presets indiana --mc "python -m example_bots.montecarlo_bot --worlds 60"
    python bench/mc_referee.py --presets all --games 8 --mc "python -m example_bots.rules_bot" \
        --opponent "python -m example_bots.random_bot"

Slow by nature: at the referee's default 1000 ms a decision, the Monte Carlo
bot searches for up to 30-60% of each (level 1-4), or until its world count.
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

from referee.engine.presets import PRESETS, rules_for
from referee.gamelog import read_records
from referee.runfolder import MATCH_LOG
from sdk.simulator import _mean_interval

MEASURED = "mc"
OTHER = "rules"  # the opponent teams are named rules0, rules1, ...


def run_match(
    preset: str, bots: list[str], games: int, seed: int, move_time: int, log_dir: Path, rules: list[str]
) -> Path:
    """One ``arena match``; returns its log."""
    before = set(log_dir.glob(f"*/{MATCH_LOG}"))  # a folder per match, its log inside
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
    (log,) = set(log_dir.glob(f"*/{MATCH_LOG}")) - before
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
    parser.add_argument(
        "--mc", default=None, help="the command of the bot measured (default: the Monte Carlo bot at --level)"
    )
    parser.add_argument(
        "--opponent", default="python -m example_bots.rules_bot", help="the command of the other teams' bot"
    )
    args = parser.parse_args(argv)
    mc = args.mc or f"python -m example_bots.montecarlo_bot --level {args.level}"
    opponent = args.opponent
    print(f"bench/mc_referee.py on {describe()}")
    print(
        f"{mc} v {opponent}, {args.games} deals x one seating per team, {args.move_time} ms a decision"
        + (f", rules {' '.join(args.rule)}" if args.rule else "")
        + "\n"
    )
    presets = list(PRESETS) if args.presets == "all" else [p.strip() for p in args.presets.split(",") if p.strip()]
    for preset in presets:
        started = time.perf_counter()
        teams = rules_for(preset, args.rule).teams
        seatings: list[dict[int, dict[str, float]]] = []
        faults = 0
        with tempfile.TemporaryDirectory() as tmp:
            folder = Path(tmp)
            settings = (args.games, args.seed, args.move_time, folder, args.rule)
            for at in range(teams):  # the measured bot plays team `at`; the opponent every other team
                names = [MEASURED if t == at else f"{OTHER}{t}" for t in range(teams)]
                commands = [f"{n}={mc if n == MEASURED else opponent}" for n in names]
                result, seen = per_game(run_match(preset, commands, *settings), {n: t for t, n in enumerate(names)})
                seatings.append(result)
                faults += seen
        # Per deal: over its seatings, the measured bot's points per hand minus the opponents' mean.
        diffs = [
            sum(_ahead_by(s[g]) for s in seatings) / teams for g in sorted(seatings[0]) if all(g in s for s in seatings)
        ]
        margin = _mean_interval(diffs)
        games = [g for s in seatings for g in s.values()]
        ahead = sum(_ahead_by(g) > 0 for g in games)
        print(
            f"{preset:<18} {margin}; ahead in {ahead} of {len(games)} games; faults logged: {faults}; "
            f"{time.perf_counter() - started:.0f} s",
            flush=True,
        )


def _ahead_by(game: dict[str, float]) -> float:
    """The measured bot's points per hand in one game minus the mean of the other teams'."""
    others = [v for name, v in game.items() if name != MEASURED]
    return game[MEASURED] - sum(others) / len(others)


if __name__ == "__main__":
    main()
