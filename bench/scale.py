"""Tournament speed across processes and Ray: games per minute of 4 instant bots, and what the driver pays a game.

Plays a round-robin of 4 random bots (example_bots.random_bot: they answer at
once, so the referees, not the bots, set the pace) through the tournament
runner, in a temporary folder:

- with ``--workers`` 1 and 2: the tables in this process, then in two
  worker processes;
- with ``--ray``: the tables as actors of a local Ray (``--ray-nodes K``: of
  a cluster of K simulated nodes, ``ray.cluster_utils.Cluster``). Ray runs in
  a network namespace of its own with loopback only (``unshare --user --net``;
  Ray would probe an outside address), so this script runs itself again in
  one for that part. Ray's start-up is timed apart from the games.

For each it prints games per minute, the driver's CPU time per game (the
process that keeps the queue and writes results and logs: with Ray, it also
receives every log), and the bytes of log per game that a table hands back.

    python bench/scale.py [--games N] [--tables 2] [--workers 1 2] [--ray-nodes 1 3] [--no-ray]
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import resource
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from machine import cpu_seconds, describe  # bench/machine.py

from referee.games.backends import Backend
from referee.games.backends.local import LocalBackend
from referee.games.backends.workers import WorkerBackend
from referee.logging import configure
from referee.runfolder import RunFolder
from referee.tournament.playing import Tournament
from referee.tournament.settings import TournamentChoices, parse_bots, resolve

BOTS = 4
NETNS = ["unshare", "--user", "--map-root-user", "--net", "sh", "-c", 'ip link set lo up && exec "$@"', "netns"]


def play(backend: Backend, args: argparse.Namespace) -> dict[str, Any]:
    bots = parse_bots([f"random{k}={sys.executable} -m example_bots.random_bot" for k in range(1, BOTS + 1)])
    given = TournamentChoices(
        bots=bots, preset=args.preset, games=args.games, seed=args.seed, move_time=1000, name="bench"
    )
    settings = resolve(given)
    with tempfile.TemporaryDirectory() as tmp:
        folder = RunFolder(Path(tmp) / "bench")
        folder.create(settings.record())
        tournament = Tournament(settings, folder, concurrency=args.tables, backend=backend)
        start, own = time.perf_counter(), cpu_seconds(resource.RUSAGE_SELF)
        asyncio.run(tournament.run())
        elapsed = time.perf_counter() - start
        own = cpu_seconds(resource.RUSAGE_SELF) - own
        log_bytes = sum((folder.path / r.log).stat().st_size for r in tournament.done.values())
    games = len(tournament.done)
    return {
        "games": games,
        "seconds": elapsed,
        "games_per_minute": 60 * games / elapsed,
        "driver_ms_per_game": 1000 * own / games,
        "log_kb_per_game": log_bytes / games / 1024,
    }


def line(label: str, r: dict[str, Any]) -> str:
    extra = f" (Ray start-up {r['startup_s']:.1f} s, not counted)" if "startup_s" in r else ""
    return (
        f"{label}: {r['games']} games in {r['seconds']:.1f} s: {r['games_per_minute']:.0f} games/min; "
        f"driver CPU {r['driver_ms_per_game']:.1f} ms/game; log {r['log_kb_per_game']:.0f} KB/game{extra}"
    )


def ray_run(args: argparse.Namespace) -> dict[str, Any]:
    """Inside the namespace: start Ray (local, or K simulated nodes), play, print the figures as JSON."""
    import ray

    from referee.games.backends.cluster import LOCAL, connect

    start = time.perf_counter()
    cluster = None
    if args.inside == 1:
        backend = connect(LOCAL)
    else:
        from ray.cluster_utils import Cluster

        node = {"num_cpus": args.node_cpus, "object_store_memory": 80 * 1024 * 1024}
        cluster = Cluster(initialize_head=True, head_node_args={**node, "include_dashboard": False})
        for _ in range(args.inside - 1):
            cluster.add_node(**node)
        cluster.wait_for_nodes()
        backend = connect(cluster.address)
    startup = time.perf_counter() - start
    try:
        return {**play(backend, args), "startup_s": startup, "where": backend.describe(args.tables)}
    finally:
        ray.shutdown()
        if cluster is not None:
            cluster.shutdown()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--games", type=int, default=4, help="games per pairing (6 pairings of 4 bots)")
    parser.add_argument("--preset", default="double-deck", help="rule preset (random bots finish its games)")
    parser.add_argument("--tables", type=int, default=2)
    parser.add_argument("--workers", type=int, nargs="*", default=[1, 2])
    parser.add_argument("--ray-nodes", type=int, nargs="*", default=[1], help="1: a local Ray; K: K simulated nodes")
    parser.add_argument("--node-cpus", type=int, default=1, help="CPUs of each simulated node")
    parser.add_argument("--no-ray", action="store_true")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--inside", type=int, default=0, help=argparse.SUPPRESS)  # the Ray part, in its namespace
    args = parser.parse_args()
    configure("warning")
    if args.inside:
        print(json.dumps(ray_run(args)), flush=True)
        return
    print(f"machine: {describe(grpc=True)}")
    print(f"{BOTS} random bots, {args.preset}, {args.games} games per pairing, {args.tables} tables")
    for workers in args.workers:
        backend = LocalBackend() if workers == 1 else WorkerBackend(workers)
        print(line(f"--workers {workers}", play(backend, args)), flush=True)
    for nodes in [] if args.no_ray else args.ray_nodes:
        argv = [sys.executable, __file__, *sys.argv[1:], "--inside", str(nodes)]
        run = subprocess.run([*NETNS, *argv], capture_output=True, text=True, check=False, cwd=os.getcwd())
        if run.returncode != 0:
            print(f"--ray ({nodes} nodes): failed: {run.stderr.strip().splitlines()[-1:]}")
            continue
        r = json.loads(run.stdout.strip().splitlines()[-1])
        print(line(f"--ray ({r['where']})", r), flush=True)


if __name__ == "__main__":
    main()
