"""Swiss and knockout played for real: bot processes, on one referee, on ``--workers 2`` and on a loopback Ray
in a network namespace of its own, all giving the games of one plain run; a Swiss of groups of three; and a
run killed with -9 mid-round resumes to the same rounds and the same standings."""

from __future__ import annotations

import signal
import subprocess
import time
from pathlib import Path

import pytest

from tests.support.arena import ARENA, QUICK, arena
from tests.support.logs import result_lines, results, same_games
from tests.support.netns import in_netns
from tests.support.processes import children_of, wait_gone
from tests.support.tournament import FIVE, play_each, summary

SWISS = [*QUICK, *FIVE, "--format", "swiss", "--rounds", "3", "--seed", "4"]  # 3 rounds of 2 meetings, a bye each
KNOCKOUT = [*QUICK, *FIVE, "--format", "knockout", "--seed", "4"]  # 5 bots: 3 byes, then 2 matches, then the final
FORMATS = {"swiss": SWISS, "knockout": KNOCKOUT}


@pytest.fixture(scope="module")
def plain(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    """Each format played on two tables of one referee process: what the other ways must give."""
    return play_each(tmp_path_factory, FORMATS, "-j", "2", "--workers", "1")


def test_a_swiss_plays_its_rounds_from_the_results(plain: dict[str, Path]) -> None:
    folder = plain["swiss"]
    data = summary(folder)
    assert data["format"] == "swiss" and data["rounds"] == 3 and data["complete"] is True
    assert data["games_played"] == data["games_scheduled"] == 12
    games = results(folder)
    assert [r["round"] for r in games] == [1] * 4 + [2] * 4 + [3] * 4
    matches = data["matches"]
    assert isinstance(matches, list)
    byes = [m["bots"][0] for m in matches if m["bye"]]
    assert len(byes) == 3 == len(set(byes))  # one bye a round, never twice to a bot
    met = [frozenset(m["bots"]) for m in matches if not m["bye"]]
    assert len(met) == len(set(met)) == 6  # no pairing twice
    # a meeting's points are its games' results; the standings hold the score with the byes
    rows = {r["bot"]: r for r in summary(folder)["standings"]}
    for name, row in rows.items():
        played = sum(m["points"][m["bots"].index(name)] for m in matches if name in m["bots"] and not m["bye"])
        assert row["swiss_score"] == played + (1.0 if name in byes else 0.0)
        assert row["score"] == played  # the standings' own pairwise score, without the bye
    ranked = [r["bot"] for r in summary(folder)["standings"]]
    key = [(-rows[b]["swiss_score"], -rows[b]["buchholz"], -rows[b]["sonneborn_berger"]) for b in ranked]
    assert key == sorted(key)


def test_a_knockout_plays_its_bracket(plain: dict[str, Path]) -> None:
    folder = plain["knockout"]
    data = summary(folder)
    assert data["format"] == "knockout" and data["rounds"] == 3 and data["complete"] is True
    matches = data["matches"]
    assert isinstance(matches, list)
    first = [m["bots"] for m in matches if m["round"] == 1]
    assert first == [["random"], ["f2", "r3"], ["first"], ["r2"]]  # the byes to the top three seeds
    final = [m for m in matches if m["round"] == 3]
    assert len(final) == 1 and final[0]["winner"] == summary(folder)["standings"][0]["bot"]
    assert sum(len(m["games"]) for m in matches) == data["games_played"] == len(results(folder))


def test_a_three_team_swiss_plays_groups_of_three_and_byes(tmp_path: Path) -> None:
    """double-deck-3p: five bots, so each round one group of three meets and two bots have a bye."""
    folder = tmp_path / "3p"
    run = arena(
        "tournament", *FIVE, "--preset", "double-deck-3p", "--rule", "hand_limit=2", "--format", "swiss", "-j", "2",
        "--out", str(folder),
    )  # fmt: skip
    assert run.returncode == 0, run.stderr
    data = summary(folder)
    assert data["format"] == "swiss" and data["rounds"] == 2 and data["complete"] is True  # 5 // 2 byes a round
    matches = data["matches"]
    groups = [m for m in matches if not m["bye"]]
    byes = [m["bots"][0] for m in matches if m["bye"]]
    assert [len(m["bots"]) for m in groups] == [3, 3] and len(byes) == 4 == len(set(byes))
    assert len({frozenset(m["bots"]) for m in groups}) == 2  # no group twice
    games = {r["game"]: r for r in results(folder)}
    for m in groups:  # a group's games seat its three bots, and its points are theirs over those games
        assert [set(games[g]["teams"]) for g in m["games"]] == [set(m["bots"])] * 3
        assert sum(m["points"]) == 3 * len(m["games"])  # each game: 1 point for each of its three pairs of teams
    for row in data["standings"]:  # a bye is worth half a meeting's points: 3 of 6
        name = row["bot"]
        met = sum(m["points"][m["bots"].index(name)] for m in groups if name in m["bots"])
        assert row["swiss_score"] == met + 3.0 * byes.count(name)


@pytest.mark.parametrize("name", FORMATS)
def test_two_worker_processes_play_the_games_of_one(name: str, plain: dict[str, Path], tmp_path: Path) -> None:
    folder = tmp_path / name
    run = arena("tournament", *FORMATS[name], "-j", "2", "--workers", "2", "--out", str(folder))
    assert run.returncode == 0, run.stderr
    assert "worker processes" in run.stdout
    same_games(folder, plain[name])


def test_kill_9_mid_round_resumes_to_the_same_rounds_and_standings(plain: dict[str, Path], tmp_path: Path) -> None:
    folder = tmp_path / "killed"
    proc = subprocess.Popen(
        [ARENA, "tournament", *SWISS, "-j", "2", "--out", str(folder)],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    deadline = time.monotonic() + 120
    while result_lines(folder) < 5:  # the first round (4 games) is in, the second begun
        assert proc.poll() is None, proc.communicate()
        assert time.monotonic() < deadline, "the tournament did not get going"
        time.sleep(0.01)
    bots = children_of(proc.pid)
    proc.send_signal(signal.SIGKILL)
    proc.communicate(timeout=60)
    wait_gone(bots)
    done = result_lines(folder)
    assert 5 <= done < 12
    resumed = arena("tournament", "--resume", "--out", str(folder), "-j", "2")
    assert resumed.returncode == 0, resumed.stderr
    assert f"({done} done)" in resumed.stdout.splitlines()[0]
    same_games(folder, plain["swiss"])
    assert summary(folder)["matches"] == summary(plain["swiss"])["matches"]


@pytest.mark.slow
@pytest.mark.parametrize("name", FORMATS)
def test_a_loopback_ray_plays_the_games_of_one_referee(name: str, plain: dict[str, Path], tmp_path: Path) -> None:
    folder = tmp_path / "ray"
    run = in_netns(str(ARENA), "tournament", *FORMATS[name], "-j", "2", "--ray", "--out", str(folder))
    assert run.returncode == 0, run.stderr[-3000:]
    assert "on Ray" in run.stdout
    same_games(folder, plain[name])
