"""``arena tournament`` as a user runs it: real referee, real bot processes, real files."""

from __future__ import annotations

import json
import os
import pty
import subprocess
import sys
from collections import Counter
from itertools import permutations
from pathlib import Path

import pytest
from typer.testing import CliRunner

from referee.cli.app import Status, app
from referee.replay.logfile import load_log
from referee.replay.verify import verify_log
from tests.support.arena import ARENA, FIRST, QUICK, RANDOM, arena, bot
from tests.support.logs import results, revealed, standings
from tests.support.tournament import tournament as play
from tests.support.tournament import tournament_bot

TWO = ["--bot", RANDOM, "--bot", FIRST]


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--bot", "nonsense"], "bad bot 'nonsense': expected NAME=COMMAND"),
        (["--bot", RANDOM], "needs at least 2 bots, got 1"),
        (["--bot", RANDOM, "--bot", RANDOM], "bot name 'random' is given twice"),
        ([*TWO, "--games", "3"], "3 is not a multiple of 2"),
        ([*TWO, "--rule", "nonsense=1"], "unknown rule option 'nonsense'"),
        ([*TWO, "--rule", "min_bid=lots"], "bad value 'lots' for rule option min_bid"),
        ([*TWO, "--preset", "nope"], "unknown preset 'nope'"),
        (["--bot", RANDOM, "--bot", "x=no-such-program-here"], "program 'no-such-program-here' not found"),
        ([*TWO, "--name", "a/b"], "bad tournament name 'a/b'"),
        (["--resume"], "--resume needs --name or --out"),
        (["--resume", "--name", "none-here"], "logs/none-here holds no tournament to resume"),
        ([], "no bots: give --bot NAME=COMMAND"),
    ],
)
def test_bad_arguments_are_one_line_errors(
    args: list[str], message: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    result = CliRunner().invoke(app, ["tournament", *args])
    assert result.exit_code == Status.BAD_INPUT, result.output
    lines = result.output.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("error:") and message in lines[0], result.output
    assert not list(tmp_path.iterdir())  # nothing started, nothing written


@pytest.mark.parametrize(
    "args", [["--games", "0"], ["--concurrency", "0"], ["--on-fault", "sometimes"], ["--move-time", "0"]]
)
def test_out_of_range_options_are_usage_errors(args: list[str]) -> None:
    run = arena("tournament", *TWO, *args)
    assert run.returncode == 2
    lines = run.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("error:"), run.stderr


def test_a_round_robin_end_to_end(tmp_path: Path) -> None:
    folder = tmp_path / "rr"
    run = play(folder, "-n", "4", "-j", "2", "--seed", "11", bots=(RANDOM, FIRST, bot("other")))
    assert run.returncode == 0, run.stderr
    assert "3 bots, double-deck, 12 games, 2 table(s)" in run.stdout
    for name in ("random", "first", "other"):
        assert name in run.stdout
    assert "eta" not in run.stdout  # no progress bar when the output is not a terminal
    assert "ranked by Elo (wins, draws, losses); equal Elo by points per hand" in " ".join(run.stdout.split())
    assert sorted(p.name for p in folder.iterdir()) == [
        "bots",
        "games",
        "replays",
        "report.html",
        "results.jsonl",
        "settings.json",
        "standings.csv",
        "standings.json",
    ]
    assert run.stdout.strip().splitlines()[-1] == f"report: {folder / 'report.html'}"
    assert sorted(p.name for p in (folder / "replays").iterdir()) == [f"g{n:04d}.html" for n in range(1, 13)]
    recs = results(folder)
    assert [r["game"] for r in recs] == list(range(1, 13))
    assert sorted(p.name for p in (folder / "games").iterdir()) == [f"g{n:04d}.jsonl" for n in range(1, 13)]
    for r in recs:
        log = folder / r["log"]
        assert verify_log(load_log(log)).games == 1  # `arena replay --verify` accepts every game log
        recs_of_game = revealed(log)
        start = next(x for x in recs_of_game if x["event"] == "game_start")
        end = next(x for x in recs_of_game if x["event"] == "game_end")
        assert [s["bot"] for s in start["seats"]] == [r["teams"][s % 2] for s in range(4)]
        assert start["seed"] == r["seed"] and end["scores"] == r["scores"] and end["winner"] == r["winner"]
    replay = arena("replay", "--verify", str(folder / recs[-1]["log"]))
    assert replay.returncode == 0 and ": ok, 1 game of double-deck" in replay.stdout, replay.stderr
    # the standings are the results' arithmetic
    rows = {row["bot"]: row for row in standings(folder)}
    for name in ("random", "first", "other"):
        mine = [(r, r["teams"].index(name)) for r in recs if name in r["teams"]]
        assert rows[name]["games"] == len(mine) == 8
        assert rows[name]["wins"] == sum(r["winner"] == t for r, t in mine)
        assert rows[name]["points"] == sum(r["scores"][t] for r, t in mine)
        assert rows[name]["hands"] == sum(r["hands"] for r, _ in mine)
    csv_lines = (folder / "standings.csv").read_text().splitlines()
    assert csv_lines[0].startswith("rank,bot,games,wins,draws,losses,points,hands,points_per_hand,score")
    assert len(csv_lines) == 4


def test_duplicate_games_hold_the_same_cards_with_the_teams_swapped(tmp_path: Path) -> None:
    folder = tmp_path / "dup"
    run = play(folder, "-n", "4", "-j", "1")
    assert run.returncode == 0, run.stderr
    recs = results(folder)
    for deal in (0, 1):
        a, b = (r for r in recs if r["deal"] == deal)
        assert a["teams"] == b["teams"][::-1] and a["seed"] == b["seed"]
        deals_a = [x for x in revealed(folder / a["log"]) if x["event"] == "deal"]
        deals_b = [x for x in revealed(folder / b["log"]) if x["event"] == "deal"]
        common = min(len(deals_a), len(deals_b))
        assert common >= 1
        assert deals_a[:common] == deals_b[:common]  # same dealer, same cards to the same seats, every hand
    assert recs[0]["seed"] != recs[2]["seed"]


def test_a_table_keeps_its_bot_processes_and_restarts_one_that_crashed(tmp_path: Path) -> None:
    folder = tmp_path / "reuse"
    marker = tmp_path / "crashed"
    crashing = tournament_bot("crashy", "crash_once_bot.py", str(marker), "6")
    run = play(folder, "-n", "4", "-j", "1", bots=(crashing, FIRST))
    assert run.returncode == 0, run.stderr
    assert any(f"crashed once: {marker}" in p.read_text() for p in (folder / "bots").iterdir())
    recs = results(folder)
    crashes = [(r["game"], v) for r in recs for v in r["violations"]]
    assert len(crashes) == 1
    game, violation = crashes[0]
    assert violation["kind"] == "crash" and violation["bot"] == "crashy" and violation["penalty"] == "forfeit"
    assert next(r for r in recs if r["game"] == game)["forfeit"] == violation["team"]
    assert all(not r["violations"] for r in recs if r["game"] != game)  # the restarted bot played cleanly
    # one table, four roles: each started once for all four games, the crashed one once more
    starts = {p.name: p.read_text().count("--- ") for p in (folder / "bots").iterdir()}
    assert sorted(starts) == [f"table1.{name}.{k}.stderr" for name in ("crashy", "first") for k in (0, 1)]
    assert sorted(starts.values()) == [1, 1, 1, 2]
    rows = {row["bot"]: row for row in standings(folder)}
    assert rows["crashy"]["violations"] == 1 and rows["first"]["violations"] == 0


def test_three_teams_rotate_over_the_seats(tmp_path: Path) -> None:
    folder = tmp_path / "three"
    preset = ["--preset", "double-deck-3p", "--rule", "hand_limit=2"]
    run = play(folder, *preset, bots=(RANDOM, FIRST, bot("third")), quick=False)
    assert run.returncode == 0, run.stderr
    recs = results(folder)
    assert len(recs) == 3 and len({r["seed"] for r in recs}) == 1
    rotations = [("random", "first", "third"), ("first", "third", "random"), ("third", "random", "first")]
    assert Counter(tuple(r["teams"]) for r in recs) == Counter(rotations)
    first_deals = []
    for r in recs:
        log = folder / r["log"]
        verify_log(load_log(log))
        first_deals.append(next(x for x in revealed(log) if x["event"] == "deal"))
    assert first_deals[0] == first_deals[1] == first_deals[2]
    assert {row["games"] for row in standings(folder)} == {3}


def test_a_started_tournament_is_not_started_again(tmp_path: Path) -> None:
    folder = tmp_path / "once"
    assert play(folder).returncode == 0
    again = play(folder)
    assert again.returncode == Status.BAD_INPUT
    assert again.stderr.strip().splitlines() == [
        f"error: {folder} already holds a tournament: continue it with --resume, or choose another --name or --out"
    ]
    # resuming a finished one plays nothing and prints the standings again
    done = play(folder, "--resume")
    assert done.returncode == 0, done.stderr
    assert "2 games (2 done); folder" in done.stdout and "2/2 games" in done.stdout


def test_the_progress_bar_shows_on_a_terminal(tmp_path: Path) -> None:
    main, child = pty.openpty()
    env = dict(os.environ, COLUMNS="120", LINES="40", TERM="xterm")
    argv = [str(ARENA), "tournament", *QUICK, *TWO, "-n", "4", "--name", "bar"]
    proc = subprocess.Popen(argv, stdin=child, stdout=child, stderr=child, cwd=tmp_path, env=env)
    os.close(child)
    out = b""
    while True:
        try:
            chunk = os.read(main, 65536)
        except OSError:  # the child side closed
            break
        if not chunk:
            break
        out += chunk
    os.close(main)
    assert proc.wait(timeout=120) == 0
    text = out.decode(errors="replace")
    assert "4/4" in text and "games" in text and "eta" in text
    assert (tmp_path / "logs" / "bar" / "standings.json").exists()


def test_settings_are_saved_with_the_tournament(tmp_path: Path) -> None:
    folder = tmp_path / "saved"
    run = play(folder, "--seed", "9", "--no-duplicate", "--on-fault", "default")
    assert run.returncode == 0, run.stderr
    saved = json.loads((folder / "settings.json").read_text())
    assert saved["bots"] == {
        "random": [sys.executable, "-m", "example_bots.random_bot"],
        "first": [sys.executable, "-m", "example_bots.first_bot"],
    }
    assert (saved["preset"], saved["seed"], saved["duplicate"]) == ("double-deck", 9, False)
    assert saved["on_fault"] == "default" and saved["move_time_ms"] == 2000 and saved["games"] == 2
    assert saved["rule_overrides"] == {"hand_limit": "3"} and saved["rules"]["hand_limit"] == 3
    assert len({r["seed"] for r in results(folder)}) == 2  # no duplicate: a deal per game


def test_a_folder_holding_other_files_is_refused(tmp_path: Path) -> None:
    folder = tmp_path / "busy"
    folder.mkdir()
    (folder / "notes.txt").write_text("mine\n")
    run = play(folder)
    assert run.returncode == Status.BAD_INPUT
    assert run.stderr.strip().splitlines() == [
        f"error: {folder} is not empty: choose another --name or --out for a new tournament"
    ]
    assert sorted(p.name for p in folder.iterdir()) == ["notes.txt"]


def test_all_seatings_for_three_teams(tmp_path: Path) -> None:
    folder = tmp_path / "six"
    argv = ["--preset", "double-deck-3p", "--rule", "hand_limit=1", "--all-seatings", "-j", "2"]
    run = play(folder, *argv, bots=(bot("a"), bot("b"), bot("c")), quick=False)
    assert run.returncode == 0, run.stderr
    assert "3 bots, double-deck-3p, 6 games" in run.stdout  # one duplicate set: 6 seatings
    orders = {tuple(r["teams"]) for r in results(folder)}
    assert orders == set(permutations(("a", "b", "c")))
    assert json.loads((folder / "settings.json").read_text())["all_seatings"] is True
