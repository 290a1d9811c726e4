"""What watching costs: games per minute of a tournament without the live view, with it and no page open,
and with three pages open in Chromium (the report and two tables' games in play).

Plays ``arena tournament`` of three instant bots (random, first, random: the referee, not the bots, sets
the pace, so any cost of the live view shows) on quick games (double-deck, hand limit 3), two tables, on one
referee (``--workers 1``), on two worker processes (``--workers 2``) and, with ``--ray``, on a local Ray (in
a network namespace of its own, loopback only: this script runs itself again in one). Games per minute are
counted once the pages are open and the first games are done, to the last game (start-ups left out). The
browser runs on the same machine: what it costs to draw the pages is in the figures. So a fourth way opens
the same three event streams with plain HTTP readers that take everything the server sends and draw
nothing: the server's own cost.

    python bench/live.py [--games-per-pair 40] [--ray] [--repeat 1]
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
BOTS = [
    f"random={sys.executable} -m example_bots.random_bot",
    f"first={sys.executable} -m example_bots.first_bot",
    f"other={sys.executable} -m example_bots.random_bot",
]
CHROMIUM_ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--no-first-run"]


WARMUP = 6  # games left out at the start: the bots start, the pages open


def one_run(where: list[str], per_pair: int, live: bool, pages: int, browser: bool = True) -> tuple[float, int]:
    """(games per minute, games counted) of one tournament: counted from the moment the pages are open and
    ``WARMUP`` games are done, to the last game."""
    with tempfile.TemporaryDirectory(prefix="arena-bench-live-") as scratch:
        folder = Path(scratch) / "t"
        argv = [
            str(ARENA),
            "tournament",
            *QUICK,
            *(a for b in BOTS for a in ("--bot", b)),
            "-n",
            str(per_pair),
            "-j",
            "2",
            *where,
            "--out",
            str(folder),
            *(["--live", "0"] if live else []),
        ]
        proc = subprocess.Popen(argv, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, cwd=ROOT)
        lines: list[str] = []
        assert proc.stdout is not None
        out = proc.stdout
        threading.Thread(target=lambda: lines.extend(iter(out.readline, "")), daemon=True).start()
        opened = threading.Event()
        if live and pages:
            target = watch if browser else read_streams
            threading.Thread(target=target, args=(lines, pages, proc, opened), daemon=True).start()
        else:
            opened.set()
        results = folder / "results.jsonl"

        def done() -> int:
            return results.read_bytes().count(b"\n") if results.exists() else 0

        while proc.poll() is None and not (opened.is_set() and done() >= WARMUP):
            time.sleep(0.01)
        first, since = done(), time.perf_counter()
        last, until = first, since
        while proc.poll() is None:
            if (now := done()) > last:
                last, until = now, time.perf_counter()
            time.sleep(0.01)
        if done() > last:
            last, until = done(), time.perf_counter()
        if proc.returncode != 0:
            raise SystemExit(f"the tournament failed: {proc.stderr.read() if proc.stderr else ''}")
        if last - first < 10:
            raise SystemExit(f"only {last - first} games after the pages opened: ask for more --games-per-pair")
        return 60 * (last - first) / (until - since), last - first


def live_url(lines: list[str], proc: subprocess.Popen[str]) -> str | None:
    """The live view's address, once the run has printed it."""
    while proc.poll() is None:
        url = next((m.group(1) for line in lines if (m := re.search(r"live view: (\S+)", line))), None)
        if url is not None:
            return url
        time.sleep(0.02)
    return None


def read_streams(lines: list[str], pages: int, proc: subprocess.Popen[str], opened: threading.Event) -> None:
    """The event streams of the report and tables 1, 2 ... read to the end by plain HTTP readers (no drawing);
    ``opened`` once every stream answers."""
    import http.client
    import urllib.error
    import urllib.request

    url = live_url(lines, proc)
    streams = [f"{url}events", *(f"{url}tables/{t}/events" for t in range(1, pages))]
    readers = []

    def drain(response: http.client.HTTPResponse) -> None:
        try:
            while response.read(65536):
                pass
        except OSError:
            pass

    try:
        for stream in streams if url is not None else []:
            while proc.poll() is None:
                try:
                    response = urllib.request.urlopen(stream, timeout=60)
                except (urllib.error.URLError, OSError):
                    time.sleep(0.1)  # the table has no game yet
                    continue
                readers.append(threading.Thread(target=drain, args=(response,), daemon=True))
                readers[-1].start()
                break
    finally:
        opened.set()


def watch(lines: list[str], pages: int, proc: subprocess.Popen[str], opened: threading.Event) -> None:
    """Open the report and tables 1, 2 ... in Chromium for as long as the run lasts; ``opened`` once they are."""
    from playwright.sync_api import Error, sync_playwright

    url = live_url(lines, proc)
    if url is None:
        return
    with sync_playwright() as pw:
        browser = pw.chromium.launch(executable_path="/usr/bin/chromium", args=CHROMIUM_ARGS)
        try:
            report = browser.new_page(viewport={"width": 1280, "height": 900})
            report.goto(url)
            for table in range(1, pages):
                page = browser.new_page(viewport={"width": 1280, "height": 900})
                while proc.poll() is None:
                    if (response := page.goto(f"{url}tables/{table}")) is not None and response.status == 200:
                        break
                    time.sleep(0.1)
            opened.set()
            while proc.poll() is None:
                time.sleep(0.1)
        except Error:
            pass  # the run ended while the pages were opening
        finally:
            opened.set()
            browser.close()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games-per-pair", type=int, default=40)
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
        for label, live, pages, browser in (
            ("no live view", False, 0, False),
            ("--live, no page", True, 0, False),
            ("--live, 3 readers", True, 3, False),
            ("--live, 3 pages", True, 3, True),
        ):
            for _ in range(args.repeat):
                rate, games = one_run(where, args.games_per_pair, live, pages, browser)
                print(
                    json.dumps({"where": name, "how": label, "games": games, "games_per_minute": round(rate, 1)})
                    if args.only_ray
                    else f"{name:28} {label:18} {games} games: {rate:6.1f} games/min",
                    flush=True,
                )
                print(f"    {describe()}", flush=True) if not args.only_ray else None
    if args.ray and not args.only_ray:
        run = subprocess.run(
            [
                *NETNS,
                sys.executable,
                __file__,
                "--only-ray",
                "--games-per-pair",
                str(args.games_per_pair),
                "--repeat",
                str(args.repeat),
            ],
            check=False,
            capture_output=True,
            text=True,
        )
        for line in run.stdout.splitlines():
            row = json.loads(line)
            print(f"{row['where']:28} {row['how']:18} {row['games']} games: {row['games_per_minute']:6.1f} games/min")
        if run.returncode:
            print(run.stderr[-2000:])
        print(f"    {describe()}")


if __name__ == "__main__":
    main()
