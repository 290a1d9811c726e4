"""What watching costs: games per minute of a tournament without the live view, with it and no page open,
and with three pages open in Chromium (the report and two tables' games in play).

Plays ``arena tournament`` of three instant bots (random, first, random: the referee, not the bots, sets
the pace, so any cost of the live view shows) on quick games (double-deck, hand limit 3), two tables, on one
referee (``--workers 1``), on two worker processes (``--workers 2``) and, with ``--ray``, on a local Ray (in
a network namespace of its own, loopback only: this script runs itself again in one). Games per minute are
counted from the first result line to the last (Ray's start-up left out).

    python bench/live.py [--games-per-pair 16] [--ray] [--repeat 1]
"""

from __future__ import annotations

import argparse
import json
import re
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from machine import describe  # bench/machine.py

ARENA = Path(sys.executable).with_name("arena")
NETNS = ["unshare", "--user", "--map-root-user", "--net", "sh", "-c", 'ip link set lo up && exec "$@"', "netns"]
QUICK = ["--preset", "double-deck", "--rule", "hand_limit=3", "--move-time", "2000", "--sandbox", "auto"]
BOTS = [f"random={sys.executable} -m example_bots.random_bot", f"first={sys.executable} -m example_bots.first_bot",
        f"other={sys.executable} -m example_bots.random_bot"]  # fmt: skip
CHROMIUM_ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--no-first-run"]


def one_run(where: list[str], per_pair: int, live: bool, pages: int) -> tuple[float, int]:
    """(games per minute between the first and the last result, games) of one tournament."""
    with tempfile.TemporaryDirectory(prefix="arena-bench-live-") as scratch:
        folder = Path(scratch) / "t"
        argv = [str(ARENA), "tournament", *QUICK, *(a for b in BOTS for a in ("--bot", b)), "-n", str(per_pair),
                "-j", "2", *where, "--out", str(folder), *(["--live", "0"] if live else [])]  # fmt: skip
        proc = subprocess.Popen(argv, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, cwd=ROOT)
        lines: list[str] = []
        assert proc.stdout is not None
        reader = threading.Thread(target=lambda: lines.extend(iter(proc.stdout.readline, "")), daemon=True)  # type: ignore[union-attr]
        reader.start()
        stamps: list[float] = []
        results = folder / "results.jsonl"
        watchers: threading.Thread | None = None
        if live and pages:
            watchers = threading.Thread(target=watch, args=(lines, pages, proc), daemon=True)
            watchers.start()
        while proc.poll() is None:
            count = results.read_bytes().count(b"\n") if results.exists() else 0
            while len(stamps) < count:
                stamps.append(time.perf_counter())
            time.sleep(0.02)
        count = results.read_bytes().count(b"\n") if results.exists() else 0
        while len(stamps) < count:
            stamps.append(time.perf_counter())
        if proc.returncode != 0:
            raise SystemExit(f"the tournament failed: {proc.stderr.read() if proc.stderr else ''}")
        if watchers is not None:
            watchers.join(30)
        return 60 * (len(stamps) - 1) / (stamps[-1] - stamps[0]), len(stamps)


def watch(lines: list[str], pages: int, proc: subprocess.Popen[str]) -> None:
    """Open the report and tables 1, 2 ... in Chromium for as long as the run lasts."""
    from playwright.sync_api import sync_playwright

    url = None
    while url is None and proc.poll() is None:
        url = next((m.group(1) for line in lines if (m := re.search(r"live view: (\S+)", line))), None)
        time.sleep(0.02)
    if url is None:
        return
    with sync_playwright() as pw:
        browser = pw.chromium.launch(executable_path="/usr/bin/chromium", args=CHROMIUM_ARGS)
        opened = [browser.new_page(viewport={"width": 1280, "height": 900})]
        opened[0].goto(url)
        for table in range(1, pages):
            page = browser.new_page(viewport={"width": 1280, "height": 900})
            while proc.poll() is None:
                if page.goto(f"{url}tables/{table}").status == 200:
                    break
                time.sleep(0.1)
            opened.append(page)
        while proc.poll() is None:
            time.sleep(0.1)
        browser.close()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games-per-pair", type=int, default=16)
    parser.add_argument("--ray", action="store_true", help="also on a local Ray (in a network namespace)")
    parser.add_argument("--repeat", type=int, default=1)
    parser.add_argument("--only-ray", action="store_true", help=argparse.SUPPRESS)  # inside the namespace
    args = parser.parse_args()
    places = {"one referee (--workers 1)": ["--workers", "1"], "2 worker processes": ["--workers", "2"]}
    if args.only_ray:
        places = {"local Ray (2 CPUs)": ["--ray"]}
    else:
        print(describe())
    for name, where in places.items():
        for label, live, pages in (
            ("no live view", False, 0),
            ("--live, no page", True, 0),
            ("--live, 3 pages", True, 3),
        ):
            for _ in range(args.repeat):
                rate, games = one_run(where, args.games_per_pair, live, pages)
                print(json.dumps({"where": name, "how": label, "games": games, "games_per_minute": round(rate, 1)})
                      if args.only_ray else f"{name:28} {label:18} {games} games: {rate:6.1f} games/min", flush=True)  # fmt: skip
                print(f"    {describe()}", flush=True) if not args.only_ray else None
    if args.ray and not args.only_ray:
        run = subprocess.run([*NETNS, sys.executable, __file__, "--only-ray", "--games-per-pair",
                              str(args.games_per_pair), "--repeat", str(args.repeat)], check=False, capture_output=True, text=True)  # fmt: skip
        for line in run.stdout.splitlines():
            row = json.loads(line)
            print(f"{row['where']:28} {row['how']:18} {row['games']} games: {row['games_per_minute']:6.1f} games/min")
        if run.returncode:
            print(run.stderr[-2000:])
        print(f"    {describe()}")


if __name__ == "__main__":
    main()
