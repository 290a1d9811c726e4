"""``arena tournament --ray``: tables on a real Ray cluster, started here on loopback only.

Ray finds its node's address by probing an outside one; each test runs it in
a network namespace of its own (``unshare --net``) where only loopback
exists, so nothing here reaches any address but 127.0.0.1. A local Ray, a
cluster of three simulated nodes and one of them killed mid-tournament must
all give the games of a plain run in one process (``scale_plain``).
"""

from __future__ import annotations

import json
import os
import re
import sys
from pathlib import Path
from typing import Any

import pytest

from tests.support.arena import ARENA, REPO
from tests.support.logs import results, same_games
from tests.support.netns import NETNS_PIDS, in_netns
from tests.support.tournament import SCALE_ARGS

pytestmark = pytest.mark.slow


def events(stderr: str, name: str) -> list[dict[str, Any]]:
    """The referee's JSON log lines with this event (Ray's own lines are not JSON)."""
    out = []
    for line in stderr.splitlines():
        if line.startswith("{"):
            record = json.loads(line)
            if record.get("event") == name:
                out.append(record)
    return out


def test_a_local_ray_plays_the_games_of_one_process_with_bots_it_ships(scale_plain: Path, tmp_path: Path) -> None:
    folder = tmp_path / "local"
    cpus = len(os.sched_getaffinity(0))  # a local Ray has one CPU for each, and a table takes one
    tables = min(cpus + 1, 12)  # one table more than there is room for: it waits, and the others play
    # one bot is a script that only the folder Ray ships to the node has (the arena runs elsewhere)
    shipped = tmp_path / "shipped"
    shipped.mkdir()
    (shipped / "other_bot.py").write_text(
        "from example_bots.random_bot import RandomBot\nfrom sdk import run\n\nrun(RandomBot())\n"
    )
    args = ["other=python other_bot.py" if a.startswith("other=") else a for a in SCALE_ARGS]
    ray = ["--ray", "--ray-working-dir", str(shipped)]
    run = in_netns(str(ARENA), "tournament", *args, "-j", str(tables), *ray, "--out", str(folder))
    assert run.returncode == 0, run.stderr
    assert f"12 games, {tables} table(s) on Ray, 1 node(s), {cpus} CPUs" in run.stdout, run.stdout
    same_games(folder, scale_plain)
    # the bots' output came back from the tables' scratch folders, game by game
    seen = {p.name.split(".")[0] for p in (folder / "bots").iterdir()}
    assert 1 <= len(seen) <= min(cpus, tables) and seen <= {f"table{k}" for k in range(1, tables + 1)}
    assert all(p.read_text().startswith("--- ") for p in (folder / "bots").iterdir())


def test_ctrl_c_on_a_local_ray_leaves_no_process_and_resume_finishes(scale_plain: Path, tmp_path: Path) -> None:
    folder = tmp_path / "stopped"
    run = in_netns(
        sys.executable, "-m", "tests.support.ray_local", str(folder), "2", "--", *SCALE_ARGS,
        namespaces=NETNS_PIDS, cwd=str(REPO),
    )  # fmt: skip
    assert run.returncode == 0, run.stderr[-5000:]
    summary = json.loads(run.stdout.strip().splitlines()[-1])
    assert summary["interrupted"] == 130
    assert re.fullmatch(
        rf"interrupted: finished games kept in {re.escape(str(folder))}: \d+; "
        rf"continue with `arena tournament --resume --out {re.escape(str(folder))}`",
        summary["message"],
    )
    assert summary["left_interrupted"] == []  # no bot, no Ray process
    assert 2 <= summary["recorded"] < len(results(scale_plain))
    assert summary["resumed"] == 0, summary["resumed_err"]
    assert f"({summary['recorded']} done)" in summary["resumed_out"][0]
    assert summary["left_resumed"] == []
    same_games(folder, scale_plain)


@pytest.fixture(scope="module")
def cluster(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Path, dict[str, Any], str]:
    """The tournament on three simulated nodes, then on four with one killed after two games."""
    base = tmp_path_factory.mktemp("cluster")
    whole, lost = base / "whole", base / "lost"
    run = in_netns(
        sys.executable, "-m", "tests.support.ray_cluster", str(whole), str(lost), "--", *SCALE_ARGS, cwd=str(REPO)
    )
    assert run.returncode == 0, run.stderr[-5000:]
    summary = json.loads(run.stdout.strip().splitlines()[-1])
    return whole, lost, summary, run.stderr


def test_three_nodes_play_a_table_each_and_the_games_of_one_process(
    scale_plain: Path, cluster: tuple[Path, Path, dict[str, Any], str]
) -> None:
    whole, _, summary, stderr = cluster
    started = events(stderr, "table started")[:3]  # the first tournament's tables
    assert len({e["node"] for e in started}) == 3  # one CPU a node: each table on its own node
    assert {e["node"] for e in started} <= set(summary["nodes"])
    same_games(whole, scale_plain)


def test_a_node_lost_mid_tournament_has_its_game_played_again(
    scale_plain: Path, cluster: tuple[Path, Path, dict[str, Any], str]
) -> None:
    _, lost, summary, stderr = cluster
    assert summary.get("node"), "no node was playing a table when the tournament had two games"
    assert summary["node"] != summary["head"]
    assert 2 <= int(summary["games_recorded"]) < len(results(scale_plain))
    lost_games = events(stderr, "table lost, its game is played again")
    assert len(lost_games) == 1, (
        summary,
        events(stderr, "table lost before it played"),
        events(stderr, "table started"),
    )
    (lost_game,) = lost_games
    assert any(r["game_id"] == lost_game["game"] for r in results(lost))  # played again, by another table
    # the second tournament's tables: three, and maybe one in place of the lost (if Ray placed it before the
    # others had played every game); none on the node that was killed
    started = events(stderr, "table started")[3:]
    assert len(started) >= 3
    assert summary["node"] not in {e["node"] for e in started[3:]}
    # none lost, none counted twice: the results file holds each game once, as a plain run played it
    same_games(lost, scale_plain)
