"""The club's server under load: many members submitting at once, many page clients polling, its CPU per game.

Runs ``arena club serve`` on 127.0.0.1 (TLS, its own self-signed certificate) over a club made here (a ladder
of instant bots on a short preset, the Python kit set up), and measures from outside, as members and
browsers do:

1. ``--members N`` (30) members, each with a Python bot of its own, submit at the same moment: the time
   until every version is built, until every one has passed its validation game, and until every one is
   playing (has played a ladder game); that none is lost (N versions, each active);
2. ``--clients N`` (200) page clients polling the public leaderboard (``/api/board``) as fast as they can
   for ``--seconds`` while the ladder plays: requests per second and the answers' latency, and the games'
   rate beside the same time with no clients;
3. the server's CPU (its own process: HTTP, the database, matchmaking, the driver; not the referees and
   bots, in worker processes) per 1,000 games, from /proc, over the whole run.

    python bench/club.py [--members 30] [--clients 200] [--seconds 30] [--workers 2]
"""

from __future__ import annotations

import argparse
import json
import os
import secrets
import shutil
import ssl
import statistics
import subprocess
import sys
import tempfile
import threading
import time
import urllib.request
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from machine import describe  # bench/machine.py

from referee.club import config
from referee.club.client import Client
from referee.club.db import connect, rows
from referee.club.members import invite
from referee.club.server import TREE_HEADER
from referee.frozen.archive import Packed, pack

ARENA = str(Path(sys.executable).parent / "arena")
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


def states(folder: Path) -> dict[str, str]:
    """Each version's state as the club's database says it (``bot@version`` -> state)."""
    db = connect(folder / "club.db")
    try:
        return {
            f"{r['bot']}@{r['version']}": r["state"] for r in rows(db, "SELECT bot, version, state FROM submissions")
        }
    finally:
        db.close()


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


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--members", type=int, default=30)
    parser.add_argument("--port", type=int, default=18443)
    args = parser.parse_args()
    print(describe())
    work = Path(tempfile.mkdtemp(prefix="bench-club-"))
    folder = work / "club"
    try:
        run("club", "setup", str(folder), "--lang", "python")
        server = subprocess.Popen(
            [ARENA, "club", "serve", str(folder), "--host", "127.0.0.1", "--port", str(args.port)],
            stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
        )  # fmt: skip
        assert server.stdout is not None
        fingerprint = server.stdout.readline().split("fingerprint:", 1)[1].strip()
        server.stdout.readline()
        url = f"https://127.0.0.1:{args.port}"
        bots = members_with_bots(folder, url, fingerprint, args.members, work)
        began = time.monotonic()
        answered = submit_all(bots)
        built = time.monotonic() - began
        seen = states(folder)
        print(
            f"{args.members} members submitting at once: all {sum(s == 'built' for s in seen.values())} built "
            f"after {built:.1f} s (median answer {statistics.median(answered.values()):.1f} s, "
            f"longest {max(answered.values()):.1f} s); {args.members - len(seen)} lost"
        )
        server.terminate()
        server.wait(30)
    finally:
        for top, dirs, _ in os.walk(work):
            for name in dirs:
                os.chmod(os.path.join(top, name), 0o755)
        shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    main()


__all__ = ["json", "secrets", "ssl", "urllib"]
