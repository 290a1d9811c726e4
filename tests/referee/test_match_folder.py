"""``arena match``: a folder per match, a path printed that exists, nothing left by a match that could not start
(issue 31, item 5), and the tournament's measure, points per hand (item 4).

Real matches by the real ``arena`` command, each in a folder of its own under the test's tmp folder.
"""

from __future__ import annotations

import re
from pathlib import Path

from referee.cli.app import Status
from tests.support.arena import RANDOM, RULES, arena, script_bot
from tests.support.logs import match_folder, of_kind, records
from tests.support.sandbox import BOTS

QUICK = ("-r", "hand_limit=3", "--seed", "9")
NOSTART = script_bot("nostart", BOTS / "sbx_nostart.py")  # prints a line or two, exits before it connects


def test_a_match_writes_its_log_and_its_bots_output_in_a_folder_of_its_own(tmp_path: Path) -> None:
    run = arena("match", "--bot", RULES, "--bot", RANDOM, *QUICK, cwd=tmp_path)  # the default: logs/
    assert run.returncode == 0, run.stderr
    (folder,) = (tmp_path / "logs").iterdir()
    assert re.fullmatch(r"match-\d{8}-\d{6}", folder.name)
    assert sorted(p.name for p in folder.iterdir()) == [
        "match.jsonl",
        "seat0-rules.stderr",
        "seat1-random.stderr",
        "seat2-rules.stderr",
        "seat3-random.stderr",
    ]
    shown = [line.split(" log ")[-1] for line in run.stdout.splitlines() if ", log " in line]
    assert shown == ["logs/" + folder.name + "/match.jsonl"]  # the first line says where, once it exists
    assert run.stdout.strip().splitlines()[-1] == f"log: logs/{folder.name}/match.jsonl"
    again = arena("match", "--bot", RULES, "--bot", RANDOM, *QUICK, cwd=tmp_path)
    assert again.returncode == 0, again.stderr
    assert len(list((tmp_path / "logs").iterdir())) == 2  # a second match, a second folder: never mixed


def test_log_dir_is_where_the_match_folder_goes(tmp_path: Path) -> None:
    run = arena("match", "--bot", RANDOM, *QUICK, "--log-dir", tmp_path / "mine")
    assert run.returncode == 0, run.stderr
    folder = match_folder(tmp_path / "mine")
    assert run.stdout.strip().splitlines()[-1] == f"log: {folder / 'match.jsonl'}"
    analyzed = arena("analyze", tmp_path / "mine", "--samples", "8", "--workers", "1", "--json")
    assert analyzed.returncode == 0, analyzed.stderr  # arena analyze reads the match folders of a log folder
    assert f'"{folder / "match.jsonl"}"' in analyzed.stdout


def test_a_match_that_cannot_start_leaves_only_what_says_why(tmp_path: Path) -> None:
    run = arena("match", "--bot", RANDOM, "--bot", NOSTART, *QUICK, "--log-dir", tmp_path)
    assert run.returncode == Status.FAILED
    (line,) = run.stderr.strip().splitlines()
    assert run.stdout == ""  # no log path: no log was written
    folder = match_folder(tmp_path)
    (output,) = folder.iterdir()  # the other bots' output and the log are gone
    assert output.name == "seat1-nostart.stderr"
    assert f"(its output: {output})" in line and "no such file: weights.bin" in output.read_text()


def test_a_match_prints_points_per_hand_as_a_tournament_does(tmp_path: Path) -> None:
    run = arena("match", "--bot", RULES, "--bot", RANDOM, *QUICK, "-n", "2", "--log-dir", tmp_path, columns=120)
    assert run.returncode == 0, run.stderr
    recs = records(match_folder(tmp_path) / "match.jsonl")
    hands = len(of_kind(recs, "hand_end"))
    ends = of_kind(recs, "game_end")
    header = next(line for line in run.stdout.splitlines() if "team" in line and "bot" in line)
    assert "pts/hand" in header and "points" not in header
    for team, name in enumerate(("rules", "random")):
        row = next(line for line in run.stdout.splitlines() if f" {name} " in line and "│" in line)
        expected = sum(end["scores"][team] for end in ends) / hands
        assert f"{expected:.2f}" in [cell.strip() for cell in row.split("│")], row
    tournament = arena("tournament", "--bot", RULES, "--bot", RANDOM, *QUICK, "-n", "2", "--out", tmp_path / "t")
    assert tournament.returncode == 0, tournament.stderr
    assert "pts/hand" in tournament.stdout  # the same measure, the same words
