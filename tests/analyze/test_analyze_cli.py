"""``arena analyze`` on real logs: what it prints, its JSON, the seats it analyses, and bad input.

Every log here was written by a real ``arena match`` or ``arena tournament``
(``conftest.py``). The JSON is checked against the log itself, replayed
through the engine: every decision of the chosen seats is there once, at the
address ``arena replay --at`` opens, with a loss that its interval and grade
agree with.
"""

from __future__ import annotations

import json
import shutil
from pathlib import Path
from typing import Any

import pytest

from referee.analyze.grades import THRESHOLDS, grade
from referee.replay.ask import Address
from referee.replay.logfile import load_log
from referee.replay.steps import DecisionPoint, GameReplay
from tests.support.analyze import analyze_json
from tests.support.arena import arena

QUICK = ("--samples", "8", "--workers", "1")


def decision_points(log: Path) -> dict[tuple[int, int], DecisionPoint]:
    """Every decision of every game of the log, by (game, number)."""
    match = load_log(log)
    return {
        (logged.number, item.number): item
        for logged in match.games
        for item in GameReplay(match, logged)
        if isinstance(item, DecisionPoint)
    }


def choices(data: dict[str, Any]) -> list[list[dict[str, Any]]]:
    """The values of every choice of every decision."""
    return [d["choices"] for g in data["games"] for d in g["decisions"]]


def stable(data: dict[str, Any]) -> dict[str, Any]:
    """The analysis without what depends on the machine (how long it took, and where)."""
    return {k: v for k, v in data.items() if k not in ("seconds", "where")}


def test_a_log_gives_tables_of_bots_games_and_worst_decisions(real_logs: dict[str, Path]) -> None:
    log = real_logs["neuralplay"]
    run = arena("analyze", log, *QUICK)
    assert run.returncode == 0, run.stderr
    out = run.stdout
    assert out.startswith(f"{log}: 2 games, ")
    assert "decisions of every seat: " in out.splitlines()[0] and " to rate" in out.splitlines()[0]
    assert "; 8 worlds per choice (screen 8), seed 1; in this process" in out.splitlines()[0]
    for needle in (
        "Loss per decision by bot",
        "By game and seat",
        "Worst decisions of rules",
        "Worst decisions of shaky",
    ):
        assert needle in out
    table = out[out.index("Loss per decision by bot") : out.index("By game and seat")]
    assert "rules" in table and "shaky" in table
    hint = next(line for line in out.splitlines() if line.startswith("Open one: arena replay "))
    assert f"arena replay {log} --game " in hint and " --at " in hint
    assert "Grades by the low end of the 95% interval" in out
    assert run.stderr == ""


def test_the_json_holds_every_decision_of_the_log_where_replay_finds_it(real_logs: dict[str, Path]) -> None:
    log = real_logs["bloomington"]
    data = analyze_json(log, *QUICK)
    points = decision_points(log)
    decisions = [d for g in data["games"] for d in g["decisions"]]
    assert sorted((d["game"], d["number"]) for d in decisions) == sorted(points)
    statuses = {d["status"] for d in decisions}
    assert statuses <= {"analysed", "forced", "referee", "unjudged"} and "analysed" in statuses
    for d in decisions:
        point = points[(d["game"], d["number"])]
        assert Address.parse(d["address"]).matches(point), d
        assert d["line"] == point.line and d["seat"] == point.decision.seat and d["kind"] == point.decision.kind.value
        if d["status"] == "forced":
            assert len(point.decision.options) == 1 and d["loss"] is None
        if d["status"] != "analysed":
            continue
        assert d["loss"] >= 0
        assert d["low"] <= d["loss"] <= d["high"] or d["loss"] == 0  # a loss measured below 0 is shown as 0
        assert d["grade"] == grade(d["low"]).value
        finalists = [c for c in d["choices"] if c["final"]]
        assert finalists and d["taken"] in [c["choice"] for c in finalists]
        assert d["best"] == max(finalists, key=lambda c: c["value"])["choice"] or d["loss"] == 0
    # per bot: the decisions with a choice of its seats, the grades counted, the worst first
    for bot, stats in data["bots"].items():
        mine = [d for d in decisions if d["bot"] == bot]
        analysed = [d for d in mine if d["status"] == "analysed"]
        assert stats["decisions"] == len(analysed)
        assert stats["forced"] == sum(d["status"] == "forced" for d in mine)
        assert sum(stats["grades"].values()) == sum(d["grade"] != "none" for d in analysed)
        worst = [w["loss"] for w in stats["worst"]]
        assert worst == sorted(worst, reverse=True) and worst[0] == max(d["loss"] for d in analysed)
        mean = sum(d["loss"] for d in analysed) / len(analysed)
        assert stats["loss_per_decision"]["mean"] == pytest.approx(mean, abs=1e-3)
    assert data["thresholds"] == {g.value: t for g, t in THRESHOLDS.items()}
    # luck: one per seat and complete hand
    assert [len(g["luck"]) for g in data["games"]] == [6 * g["hands"] for g in data["games"]]


def test_the_decisions_it_names_open_with_replay_at(real_logs: dict[str, Path]) -> None:
    log = real_logs["hammerwalt"]
    data = analyze_json(log, *QUICK)
    worst = data["bots"]["rules"]["worst"] + data["bots"]["shaky"]["worst"]
    assert worst
    for d in worst[:4]:
        run = arena("replay", log, "--game", str(d["game"]), "--at", d["address"])
        assert run.returncode == 0, run.stderr
        first = run.stdout.splitlines()[0]
        assert f"game {d['game']}, decision {d['number']} (hand {d['hand']}" in first
        assert first.endswith(f"log line {d['line']}: {d['taken']}")
        assert f"Hand {d['hand']}:" in run.stdout


def test_seat_and_bot_choose_the_seats(real_logs: dict[str, Path]) -> None:
    log = real_logs["neuralplay"]
    by_seat = analyze_json(log, "--seat", "1", *QUICK)
    assert by_seat["seats"] == "seat 1"
    assert {d["seat"] for g in by_seat["games"] for d in g["decisions"]} == {1}
    assert {r["seat"] for g in by_seat["games"] for r in g["luck"]} == {1}
    by_bot = analyze_json(log, "--bot", "shaky", *QUICK)
    assert list(by_bot["bots"]) == ["shaky"]
    match = load_log(log)
    for g in by_bot["games"]:
        names = match.game(g["game"]).seat_names
        assert {d["seat"] for d in g["decisions"]} == {s for s, n in enumerate(names) if n == "shaky"}


def test_a_tournament_folder_is_analysed_game_by_game(tournament: Path, tmp_path: Path) -> None:
    pages = tmp_path / "pages"
    run = arena("analyze", tournament, *QUICK, "--html", pages)
    assert run.returncode == 0, run.stderr
    logs = sorted((tournament / "games").glob("*.jsonl"))
    assert len(logs) == 2
    assert run.stdout.startswith(f"{tournament}: 2 games, ")
    assert sorted(p.name for p in pages.iterdir()) == sorted(f"{log.stem}.html" for log in logs)
    assert "By game and seat" in run.stdout and "g0001.jsonl:1" in run.stdout
    data = analyze_json(tournament, *QUICK)
    assert sorted(g["log"] for g in data["games"]) == sorted(map(str, logs))
    assert set(data["bots"]) == {"rules", "shaky"}


def test_the_same_seed_gives_the_same_analysis_on_one_process_or_several(real_logs: dict[str, Path]) -> None:
    log = real_logs["double-deck-3p"]
    here = analyze_json(log, "--samples", "8", "--workers", "1")
    again = analyze_json(log, "--samples", "8", "--workers", "1")
    spread = analyze_json(log, "--samples", "8", "--workers", "2")
    assert here["where"] == "in this process" and spread["where"] == "on 2 worker processes"
    assert stable(here) == stable(again) == stable(spread)
    other = analyze_json(log, "--samples", "8", "--workers", "1", "--seed", "2")
    assert choices(other) != choices(here)


def test_a_cut_off_log_is_analysed_up_to_its_last_complete_hand(real_logs: dict[str, Path], tmp_path: Path) -> None:
    log = real_logs["neuralplay"]
    lines = log.read_text().splitlines(keepends=True)
    records = [json.loads(line) for line in lines]
    # cut game 1 in the middle of hand 2: after its fifth play, then half a line, as a crash leaves it
    plays = [i for i, r in enumerate(records) if r["event"] == "play" and r["hand"] == 2 and r.get("game", 1) == 1]
    cut = tmp_path / "cut.jsonl"
    cut.write_text("".join(lines[: plays[4] + 1]) + lines[plays[4] + 1][:20])
    run = arena("analyze", cut, *QUICK)
    assert run.returncode == 0, run.stderr
    assert "1 game, 1 complete hand, " in run.stdout.splitlines()[0]
    # the hidden cards of hand 2 were to come at its end: the log holds hand 1, and stops after it
    assert run.stderr.strip() == f"note: {cut}: game 1 is cut off after hand 1: analysed up to hand 1"
    data = analyze_json(cut, *QUICK)
    assert {d["hand"] for g in data["games"] for d in g["decisions"]} == {1}
    assert data["cut_off"] == [f"{cut}: game 1 is cut off after hand 1: analysed up to hand 1"]
    assert data["games"][0]["cut_off"] == "after hand 1"


def test_a_log_cut_off_between_its_games_says_so(real_logs: dict[str, Path], tmp_path: Path) -> None:
    log = real_logs["neuralplay"]  # two games
    lines = log.read_text().splitlines(keepends=True)
    events = [json.loads(line)["event"] for line in lines]
    # the match stopped after game 1's end, before game 2 began: every hand is complete, but the log is cut
    cut = tmp_path / "between.jsonl"
    cut.write_text("".join(lines[: events.index("game_end") + 1]))
    data = analyze_json(cut, *QUICK)
    assert [g["game"] for g in data["games"]] == [1]
    assert data["games"][0]["cut_off"] is None
    assert data["cut_off"] == [f"{cut}: the log is cut off after game 1: analysed up to there"]
    # only the match_start: no game at all, still not a whole log
    start = tmp_path / "start.jsonl"
    start.write_text(lines[0])
    run = arena("analyze", start, *QUICK)
    assert run.returncode == 0, run.stderr
    assert run.stderr.strip() == f"note: {start}: the log is cut off before its first game: analysed up to there"
    # the whole log: no note
    whole = arena("analyze", log, *QUICK, "--game", "1")
    assert whole.returncode == 0 and whole.stderr == "", whole.stderr


def bad_inputs(real_logs: dict[str, Path], tournament: Path, tmp_path: Path) -> list[tuple[list[str | Path], str]]:
    log = real_logs["neuralplay"]
    text = tmp_path / "notes.jsonl"
    text.write_text("this is not a log\n")
    headless = tmp_path / "headless.jsonl"
    headless.write_text("".join(log.read_text().splitlines(keepends=True)[1:]))
    empty = tmp_path / "empty"
    empty.mkdir()
    wrong = tmp_path / "wrong.jsonl"
    records = log.read_text().splitlines()
    first_play = next(i for i, line in enumerate(records) if '"event":"play"' in line)
    # the first card of the log played by another seat: the engine refuses it
    record = json.loads(records[first_play])
    record["seat"] = (record["seat"] + 1) % 4
    records[first_play] = json.dumps(record)
    wrong.write_text("\n".join(records) + "\n")
    return [
        ([tmp_path / "nowhere.jsonl"], "no such file or folder"),
        ([text], "notes.jsonl is not a game log (not valid JSON"),
        (
            [tournament / "results.jsonl"],
            f"results.jsonl is not a game log (a log line must be a JSON object with an "
            f"'event' field): a game log has one JSON record per line, from match_start "
            f"on; the game logs of {tournament} are in {tournament / 'games'}/",
        ),
        ([headless], "headless.jsonl is not a game log (line 1 is a game_start record, not match_start)"),
        ([empty], "no game logs (*.jsonl) in"),
        ([wrong], f"wrong.jsonl:{first_play + 1}"),
        ([log, "--seat", "4"], "there is no seat 4 (seats 0..3)"),
        ([log, "--bot", "nobody"], "no bot 'nobody' in the logs (they hold rules, shaky)"),
        ([log, "--seat", "1", "--bot", "rules"], "choose --seat or --bot, not both"),
        ([log, "--samples", "0"], "--samples"),
        ([log, "--workers", "2", "--ray", "auto"], "--ray and --workers: choose one"),
        ([log, "--seat", "x"], "--seat"),
    ]


def test_bad_input_is_one_line_and_exit_status_2(real_logs: dict[str, Path], tournament: Path, tmp_path: Path) -> None:
    for args, needle in bad_inputs(real_logs, tournament, tmp_path):
        run = arena("analyze", *QUICK, *args)  # the options given last win
        lines = run.stderr.strip().splitlines()
        assert run.returncode == 2, (args, run.stderr)
        assert len(lines) == 1 and lines[0].startswith("error: ") and needle in lines[0], (args, run.stderr)
        assert run.stdout == "", args


def test_replay_at_alone_shows_the_game_from_that_decision(real_logs: dict[str, Path]) -> None:
    log = real_logs["hammerwalt"]
    points = decision_points(log)
    play = next(p for p in points.values() if p.decision.kind.value == "play" and p.trick == 3)
    address = f"{play.hand}.{play.trick}.{play.decision.seat}"
    run = arena("replay", log, "--at", address)
    assert run.returncode == 0, run.stderr
    assert f"decision {play.number} (hand {play.hand}, trick 3)" in run.stdout.splitlines()[0]
    assert "Before trick 3" in run.stdout
    missing = arena("replay", log, "--at", "99.1.0")
    assert missing.returncode == 2 and "game 1 has no decision 99.1.0" in missing.stderr


def test_the_match_logs_of_a_logs_folder_are_told_apart_by_their_folders(
    real_logs: dict[str, Path], tmp_path: Path
) -> None:
    """Every match's log is named ``match.jsonl``: analysing a folder of match folders, the tables name each
    log by its folder too."""
    logs = tmp_path / "logs"
    for name in ("hammerwalt", "bloomington"):
        (logs / f"match-{name}").mkdir(parents=True)
        shutil.copy(real_logs[name], logs / f"match-{name}" / "match.jsonl")
    run = arena("analyze", logs, *QUICK)
    assert run.returncode == 0, run.stderr
    assert "match-hammerwalt/match.jsonl:1" in run.stdout and "match-bloomington/match.jsonl:1" in run.stdout
