"""The report at scale: 30 bots and 10,000 games. How long ``arena report`` takes, how big the page is, how
long Chromium takes to open it, and what a replay page costs.

Makes a synthetic tournament folder: the settings of a round-robin of 30 bots with 24 games a pairing
(435 pairs, 10,440 games), a result line per game (winners drawn by each bot's strength, a violation now
and then, forfeits among them) and a log per game, copied from the logs of a short real tournament played
first with the bots' names put in (so think times and points per hand come from real games). Then:

- ``arena report FOLDER --no-replays``: the time, and report.html's size;
- the page in Debian's Chromium (Playwright) at 1920x1080 and 1024x768: the time until it is drawn
  (navigation to the script's last line), and to show only the games with violations;
- replay pages: the time and size per game, from 100 of the games.

    python bench/report.py [--bots 30] [--games-per-pair 24] [--keep DIR]
"""

from __future__ import annotations

import argparse
import json
import random
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from machine import describe  # bench/machine.py

from referee.report.replays import write_replays
from referee.tournament.settings import TournamentChoices, parse_bots, resolve

ARENA = Path(sys.executable).with_name("arena")
CHROMIUM_ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--no-first-run"]


def templates(scratch: Path) -> list[list[str]]:
    """The log lines of a short real tournament's games (neuralplay, rules against random)."""
    folder = scratch / "templates"
    subprocess.run(
        [
            str(ARENA),
            "tournament",
            "--games",
            "8",
            "--move-time",
            "500",
            "--out",
            str(folder),
            "--bot",
            "rules=python -m example_bots.rules_bot",
            "--bot",
            "random=python -m example_bots.random_bot",
        ],
        check=True,
        capture_output=True,
        cwd=ROOT,
    )
    return [p.read_text().splitlines() for p in sorted((folder / "games").glob("g*.jsonl"))]


def synthetic(folder: Path, bots: int, per_pair: int, lines: list[list[str]]) -> int:
    names = [f"bot{k:02d}" for k in range(bots)]
    given = TournamentChoices(
        bots=parse_bots([f"{n}=python -m example_bots.random_bot" for n in names]),
        games=per_pair,
        name=folder.name,
        rules={},
        move_time=500,
    )
    settings = resolve(given)
    folder.mkdir(parents=True)
    (folder / "settings.json").write_text(json.dumps(settings.record(), indent=2))
    (folder / "games").mkdir()
    rng = random.Random(7)
    strength = {n: rng.gauss(0, 1) for n in names}
    with (folder / "results.jsonl").open("w") as results:
        for game in settings.format().plan({}).games:
            template = rng.choice(lines)
            a, b = game.teams
            p = 1 / (1 + 10 ** (strength[b] - strength[a]))
            winner = 0 if rng.random() < p else 1
            violations = []
            forfeit = None
            if rng.random() < 0.02:
                seat = rng.randrange(4)
                kind = rng.choice(["timeout", "illegal", "crash"])
                forfeit = seat % 2 if rng.random() < 0.5 else None
                penalty = "forfeit" if forfeit is not None else "default-action"
                violations.append(
                    {
                        "seat": seat,
                        "team": seat % 2,
                        "bot": game.teams[seat % 2],
                        "kind": kind,
                        "penalty": penalty,
                        "detail": f"a synthetic {kind}",
                    }
                )
                if forfeit is not None:
                    winner = 1 - forfeit
            record = {
                "game": game.number,
                "game_id": game.game_id,
                "group": list(game.group),
                "deal": game.deal,
                "rotation": game.rotation,
                "seed": game.seed,
                "teams": list(game.teams),
                "scores": [52, 20] if winner == 0 else [18, 53],
                "winner": winner,
                "reason": "forfeit" if forfeit is not None else "target",
                "forfeit": forfeit,
                "hands": 10,
                "decisions": 380,
                "violations": violations,
                "think": [{"answers": 190, "total_ms": 400, "max_ms": 20}] * 2,
                "log": f"games/{game.game_id}.jsonl",
            }
            results.write(json.dumps(record) + "\n")
            out = []
            for line in template:
                rec = json.loads(line)
                if rec["event"] in ("match_start", "game_start"):
                    for seat in rec["seats"]:
                        seat["bot"] = game.teams[seat["team"]]
                    rec.setdefault("game_id", game.game_id) if rec["event"] == "game_start" else None
                    out.append(json.dumps(rec, separators=(",", ":")))
                else:
                    out.append(line)
            (folder / "games" / f"{game.game_id}.jsonl").write_text("\n".join(out) + "\n")
    return len(settings.format().plan({}).games)


def load_times(html: Path) -> dict[str, float]:
    from playwright.sync_api import sync_playwright

    out = {}
    with sync_playwright() as pw:
        browser = pw.chromium.launch(executable_path="/usr/bin/chromium", args=CHROMIUM_ARGS)
        for width, height in ((1920, 1080), (1024, 768)):
            page = browser.new_page(viewport={"width": width, "height": height})
            started = time.perf_counter()
            page.goto(html.as_uri())
            page.wait_for_function("document.body.dataset.ready === '1'", timeout=120_000)
            out[f"open {width}x{height}"] = time.perf_counter() - started
            wide = page.evaluate("document.documentElement.scrollWidth > innerWidth")
            out[f"scrolls sideways {width}x{height}"] = float(wide)
            started = time.perf_counter()
            page.check("#games-violations")
            page.wait_for_function("document.getElementById('games-count').textContent.includes(' of ')")
            out[f"filter {width}x{height}"] = time.perf_counter() - started
            page.close()
        browser.close()
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--bots", type=int, default=30)
    parser.add_argument("--games-per-pair", type=int, default=24)
    parser.add_argument("--keep", type=Path, help="make the folder here and keep it")
    args = parser.parse_args()
    print(describe())
    scratch = Path(tempfile.mkdtemp(prefix="arena-bench-report-"))
    folder = (args.keep or scratch) / "big"
    try:
        lines = templates(scratch)
        started = time.perf_counter()
        games = synthetic(folder, args.bots, args.games_per_pair, lines)
        print(f"synthetic folder: {args.bots} bots, {games} games, made in {time.perf_counter() - started:.0f} s")
        started = time.perf_counter()
        run = subprocess.run(
            [str(ARENA), "report", str(folder), "--no-replays"], check=False, capture_output=True, text=True
        )
        took = time.perf_counter() - started
        assert run.returncode == 0, run.stderr
        html = folder / "report.html"
        print(f"arena report --no-replays: {took:.1f} s; report.html {html.stat().st_size / 1e6:.2f} MB")
        for what, value in load_times(html).items():
            print(
                f"  {what}: {'yes' if value == 1.0 else 'no'}"
                if what.startswith("scrolls")
                else f"  {what}: {value:.2f} s"
            )
        sample = [(folder / "games" / f"g{k:04d}.jsonl", f"g{k:04d}") for k in range(1, 101)]
        out = scratch / "replays"
        started = time.perf_counter()
        write_replays(sample, out, jobs=1)
        took = time.perf_counter() - started
        size = sum(p.stat().st_size for p in out.glob("*.html")) / len(sample)
        print(
            f"replay pages, one process: {1000 * took / len(sample):.0f} ms and {size / 1e3:.0f} KB a game; "
            f"for all {games} games: {took / len(sample) * games / 60:.1f} CPU-minutes, {size * games / 1e9:.2f} GB"
        )
    finally:
        shutil.rmtree(scratch, ignore_errors=True)
    print(describe())


if __name__ == "__main__":
    main()
