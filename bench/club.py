"""The club's server under load: many members submitting at once, many page clients polling, its CPU per game.

Runs ``arena club serve`` on 127.0.0.1 (TLS, its own self-signed certificate) over a club made here (a ladder
of short games, at most 3 hands, its bots in the sandbox; the Python kit set up), and measures from outside,
as members and browsers do:

1. ``--members N`` (30) members, each with a Python bot of its own (``arena new``), submit at the same moment:
   the time until every version is built, until every one is past its validation game, and until every one
   is playing (has played a ladder game); that none is lost;
2. ``--clients N`` (200) page clients polling the public leaderboard (``/api/board``) as fast as they can
   for ``--seconds`` while the ladder plays: requests per second and the answers' latency, and the games'
   rate beside the same time with no clients;
3. the server's CPU (its own process: HTTP, the database, matchmaking, the driver; not the referees and
   bots, in worker processes) per 1,000 games, from /proc, over the whole run;
4. how long the public board takes to make from the ladder at the end (it reads every game).

    python bench/club.py [--members 30] [--clients 200] [--seconds 30] [--workers 2]
"""

from __future__ import annotations

import argparse
import http.client
import json
import os
import shutil
import sqlite3
import ssl
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from machine import describe  # bench/machine.py

from referee.club import config
from referee.club.client import Client
from referee.club.db import connect, rows
from referee.club.entries import public_board
from referee.club.members import invite
from referee.club.server import TREE_HEADER
from referee.frozen.archive import Packed, pack
from referee.ladder.database import LadderDatabase
from referee.runfolder import RunFolder

ARENA = str(Path(sys.executable).parent / "arena")
RULES = ["--preset", "double-deck", "--rule", "hand_limit=3", "--move-time", "2000"]  # short games
CLK_TCK = os.sysconf("SC_CLK_TCK")


def cpu_of(pid: int) -> float:
    """CPU seconds (user + system) of process ``pid`` itself."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / CLK_TCK


def run(*args: str, env: dict[str, str] | None = None, timeout: float = 900) -> str:
    done = subprocess.run([ARENA, *args], capture_output=True, text=True, timeout=timeout, env=env, check=False)
    if done.returncode != 0:
        raise SystemExit(f"arena {' '.join(args)} failed: {done.stderr.strip()}")
    return done.stdout


def ladder_rows(folder: Path, query: str) -> list[tuple[object, ...]]:
    db = sqlite3.connect(folder / "ladder.db", timeout=30)
    try:
        return [tuple(r) for r in db.execute(query).fetchall()]
    finally:
        db.close()


def progress(folder: Path, bots: list[str]) -> tuple[int, int, int]:
    """How many of ``bots`` are built (the club's database), past their validation (in the ladder, not
    building or pending), and have played a ladder game."""
    db = connect(folder / "club.db")
    try:
        built = {r["bot"] for r in rows(db, "SELECT bot FROM submissions WHERE state = 'built'")}
    finally:
        db.close()
    status = {str(b): str(st) for b, st in ladder_rows(folder, "SELECT bot, status FROM versions")}
    played = {
        str(b)
        for (b,) in ladder_rows(
            folder,
            "SELECT DISTINCT v.bot FROM games g JOIN sets s ON s.id = g.set_id, json_each(g.teams) t "
            "JOIN versions v ON v.id = t.value WHERE s.kind = 'ladder'",
        )
    }
    wanted = set(bots)
    validated = {b for b, st in status.items() if st not in ("building", "pending")}
    return len(wanted & built), len(wanted & validated), len(wanted & played)


def ladder_games(folder: Path) -> int:
    (count,) = ladder_rows(folder, "SELECT COUNT(*) FROM games")[0]
    return int(str(count))


Bots = list[tuple[str, Packed, Client]]  # each member's bot: its name, its archive, the member's client


def members_with_bots(folder: Path, url: str, fingerprint: str, members: int, work: Path) -> Bots:
    """``members`` members invited, each logged in and with a Python bot of its own, packed."""
    bots = []
    db = connect(folder / "club.db")
    try:
        for k in range(members):
            token = invite(db, f"m{k:02d}")[1]
            bot = work / f"bot{k:02d}"
            run("new", str(bot), "--lang", "python")
            (bot / "note.txt").write_text(f"member {k}'s own version\n")
            login = config.Login(url, token, f"m{k:02d}", config.PINNED, fingerprint)
            bots.append((f"bot{k:02d}", pack(bot), Client(login)))
    finally:
        db.close()
    return bots


def submit_all(bots: Bots) -> dict[str, float]:
    """Every member sends its bot at the same moment; the time each took to be answered (its build done)."""
    start = threading.Barrier(len(bots) + 1)
    answered: dict[str, float] = {}

    def send(name: str, packed: Packed, client: Client) -> None:
        start.wait()
        began = time.monotonic()
        for _ in client.stream(f"/api/submit?bot={name}", packed.data, {TREE_HEADER: packed.tree.hash}):
            pass
        answered[name] = time.monotonic() - began

    threads = [threading.Thread(target=send, args=bot) for bot in bots]
    for t in threads:
        t.start()
    start.wait()
    for t in threads:
        t.join()
    return answered


def poll_board(url: str, clients: int, seconds: float) -> tuple[int, list[float], int]:
    """``clients`` page clients, each on a kept-alive connection, asking for the public board as fast as they
    can for ``seconds``: the answers, their latencies (s), the failures."""
    host, port = url.removeprefix("https://").split(":")
    context = ssl.create_default_context()
    context.check_hostname = False
    context.verify_mode = ssl.CERT_NONE  # the club's own certificate; members pin it, a bench need not
    latencies: list[float] = []
    failures = [0]
    lock = threading.Lock()
    ready = threading.Barrier(clients + 1)
    stop = threading.Event()

    def client() -> None:
        connection = http.client.HTTPSConnection(host, int(port), context=context, timeout=60)
        mine = []
        ready.wait()
        while not stop.is_set():
            began = time.monotonic()
            try:
                connection.request("GET", "/api/board")
                response = connection.getresponse()
                json.loads(response.read())
                ok = response.status == 200
            except (OSError, http.client.HTTPException, ValueError):
                ok = False
                connection.close()
                connection = http.client.HTTPSConnection(host, int(port), context=context, timeout=60)
            if ok:
                mine.append(time.monotonic() - began)
            else:
                with lock:
                    failures[0] += 1
        connection.close()
        with lock:
            latencies.extend(mine)

    threads = [threading.Thread(target=client) for _ in range(clients)]
    for t in threads:
        t.start()
    ready.wait()
    time.sleep(seconds)
    stop.set()
    for t in threads:
        t.join()
    return len(latencies), latencies, failures[0]


def games_in(folder: Path, seconds: float) -> int:
    before = ladder_games(folder)
    time.sleep(seconds)
    return ladder_games(folder) - before


def board_time(folder: Path) -> tuple[float, int]:
    """How long the public board takes to make from the ladder as it is (ms), and from how many games."""
    ladder = LadderDatabase.open(RunFolder(folder))
    try:
        public_board(ladder)  # warm: the first read pays for the file's pages
        began = time.perf_counter()
        public_board(ladder)
        return 1000 * (time.perf_counter() - began), ladder.game_count()
    finally:
        ladder.close()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--members", type=int, default=30)
    parser.add_argument("--clients", type=int, default=200)
    parser.add_argument("--seconds", type=float, default=30.0)
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--port", type=int, default=18443)
    args = parser.parse_args()
    print(describe())
    work = Path(tempfile.mkdtemp(prefix="bench-club-"))
    folder = work / "club"
    server = None
    try:
        run("ladder", "init", str(folder), *RULES, "--sandbox", "required")
        run("club", "setup", str(folder), "--lang", "python")
        server = subprocess.Popen(
            [ARENA, "club", "serve", str(folder), "--host", "127.0.0.1", "--port", str(args.port),
             "--workers", str(args.workers), "--submissions-per-day", str(args.members)],
            stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
        )  # fmt: skip
        assert server.stdout is not None
        fingerprint = server.stdout.readline().split("fingerprint:", 1)[1].strip()
        print(server.stdout.readline().strip())
        threading.Thread(target=lambda: server.stdout.read() if server.stdout else None, daemon=True).start()
        cpu_start, games_start = cpu_of(server.pid), ladder_games(folder)
        url = f"https://127.0.0.1:{args.port}"
        bots = members_with_bots(folder, url, fingerprint, args.members, work)
        names = [name for name, _, _ in bots]
        began = time.monotonic()
        sender = threading.Thread(target=submit_all, args=(bots,))
        sender.start()
        reached: dict[str, float] = {}
        while len(reached) < 3 and time.monotonic() - began < 3600:
            for what, count in zip(("built", "validated", "playing"), progress(folder, names), strict=True):
                if count == len(names) and what not in reached:
                    reached[what] = time.monotonic() - began
            time.sleep(0.5)
        sender.join()
        built, validated, playing = progress(folder, names)
        status = {
            str(v): str(st) for v, st in ladder_rows(folder, "SELECT bot || '@' || version, status FROM versions")
        }
        lost = [n for n in names if f"{n}@1" not in status]
        print(
            f"{args.members} members submitting at once: all built after {reached.get('built', float('nan')):.1f} s, "
            f"all past validation after {reached.get('validated', float('nan')):.1f} s, all playing after "
            f"{reached.get('playing', float('nan')):.1f} s ({built} built, {validated} validated, {playing} "
            f"playing; {len(lost)} lost; states: {sorted(set(status.values()))})"
        )
        quiet = games_in(folder, args.seconds)
        cpu, games = cpu_of(server.pid) - cpu_start, ladder_games(folder) - games_start
        before = ladder_games(folder)
        cpu_before = cpu_of(server.pid)
        answers, latencies, failures = poll_board(url, args.clients, args.seconds)
        polled = ladder_games(folder) - before
        cpu_polled = cpu_of(server.pid) - cpu_before
        print(
            f"{args.clients} page clients polling /api/board for {args.seconds:.0f} s: {answers / args.seconds:.0f} "
            f"answers/s (median {statistics.median(latencies) * 1000:.0f} ms, 95th "
            f"{sorted(latencies)[int(0.95 * len(latencies))] * 1000:.0f} ms; {failures} failed)"
            if latencies
            else f"{args.clients} page clients: no answer in {args.seconds:.0f} s ({failures} failed)"
        )
        print(f"ladder games: {quiet} in {args.seconds:.0f} s with no page client, {polled} with them")
        print(
            f"the server's own CPU: {cpu:.1f} s over {games} games until then ({1000 * cpu / max(games, 1):.0f} s per "
            "1,000 games; HTTP, the database, matchmaking and the driver, not the games' referees and bots); "
            f"{cpu_polled:.1f} s while the page clients polled ({1000 * cpu_polled / max(answers, 1):.1f} s per "
            "1,000 answers)"
        )
        server.terminate()
        server.wait(60)
        board_ms, games = board_time(folder)
        print(f"the public board made from {games} games: {board_ms:.0f} ms (made at most once a second)")
    finally:
        if server is not None and server.poll() is None:
            server.terminate()
            server.wait(60)
        for top, dirs, _ in os.walk(work):
            for name in dirs:
                os.chmod(os.path.join(top, name), 0o755)
        shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    main()
