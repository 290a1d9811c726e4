"""Run by tests/tournament/test_ray.py inside a network namespace of its own (loopback only): ``arena tournament
--ray ADDRESS`` on a Ray cluster of simulated nodes (``ray.cluster_utils.Cluster``, every node a set of processes here).

    python -m tests.support.ray_cluster WHOLE LOST -- TOURNAMENT ARGS...   (from the repository's root)

First the tournament is played into folder WHOLE on three nodes of one CPU
each; then a fourth node joins and it is played into folder LOST, and once
two games are recorded a node playing a table (not the head, where the
driver is) is killed. Prints one JSON line: the nodes, and the node killed.
"""

from __future__ import annotations

import json
import sys
import threading
import time
from pathlib import Path

import ray
from ray._private.state import actors
from ray.cluster_utils import Cluster

from referee.cli import main

NODE = {"num_cpus": 1, "object_store_memory": 80 * 1024 * 1024}


def arena(*args: str) -> None:
    try:
        main(list(args))
    except SystemExit as exc:
        if exc.code:
            raise


def kill_a_busy_node(cluster: Cluster, folder: Path, after: int, killed: dict[str, str]) -> None:
    """Once ``after`` games are recorded, kill (SIGKILL, no grace) a worker node where a table's actor lives."""
    results = folder / "results.jsonl"
    deadline = time.monotonic() + 300
    while not results.exists() or results.read_bytes().count(b"\n") < after:
        if time.monotonic() > deadline:
            return
        time.sleep(0.02)
    # the table that recorded the last game asks for its next one now; give it time to start it, so that the
    # node killed is in the middle of a game (a game of these bots takes longer than this)
    time.sleep(0.15)
    # the tables of this tournament: actors of the newest job (the first tournament's job has ended, but its
    # actors may still be listed as alive for a moment, on nodes with no table now)
    alive = [a for a in actors().values() if a["State"] == "ALIVE"]
    newest = max((a["JobID"] for a in alive), key=lambda job: int(job, 16), default=None)
    playing = {a["Address"]["NodeID"] for a in alive if a["JobID"] == newest}
    for node in cluster.worker_nodes:
        if node.node_id in playing:
            killed["node"] = node.node_id
            killed["games_recorded"] = str(results.read_bytes().count(b"\n"))
            cluster.remove_node(node, allow_graceful=False)
            return


def run() -> None:
    whole, lost = Path(sys.argv[1]), Path(sys.argv[2])
    args = sys.argv[sys.argv.index("--") + 1 :]
    cluster = Cluster(initialize_head=True, head_node_args={**NODE, "include_dashboard": False})
    try:
        for _ in range(2):
            cluster.add_node(wait=True, **NODE)
        cluster.wait_for_nodes()
        arena("tournament", *args, "-j", "3", "-v", "--ray", cluster.address, "--out", str(whole))

        cluster.add_node(wait=True, **NODE)  # room for a table in place of the one lost
        cluster.wait_for_nodes()
        nodes = [n.node_id for n in cluster.list_all_nodes()]
        killed: dict[str, str] = {}
        killer = threading.Thread(target=kill_a_busy_node, args=(cluster, lost, 2, killed))
        killer.start()
        arena("tournament", *args, "-j", "3", "-v", "--ray", cluster.address, "--out", str(lost))
        killer.join()
        print(json.dumps({"nodes": nodes, "head": cluster.list_all_nodes()[0].node_id, **killed}), flush=True)
    finally:
        ray.shutdown()
        cluster.shutdown()


if __name__ == "__main__":
    run()
