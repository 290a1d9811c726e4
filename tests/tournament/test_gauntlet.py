"""Gauntlets: the schedule kind, its settings (kept on --resume), the head-to-head table, a real run."""

from __future__ import annotations

import json
import math
from dataclasses import replace
from pathlib import Path

import pytest

from referee.engine.presets import rules_for
from referee.games.standings import Outcome
from referee.tournament.gauntlet import head_to_head
from referee.tournament.schedule import ScheduleError, gauntlet, round_robin
from referee.tournament.settings import (
    SettingsError,
    TournamentChoices,
    TournamentSettings,
    parse_bots,
    read_toml,
    resolve,
)
from tests.support.arena import FIRST, RANDOM, bot
from tests.support.logs import results
from tests.support.tournament import tournament

BOTS = ("new", "a", "b", "c")


@pytest.mark.parametrize("preset", ["neuralplay", "double-deck-3p"])
def test_the_candidate_meets_everyone_and_the_others_never_meet(preset):
    rules = rules_for(preset)
    games = gauntlet(BOTS, rules, candidate="new", games=rules.teams * 2, seed=5)
    assert [g.number for g in games] == list(range(1, len(games) + 1))
    assert all("new" in g.group for g in games)
    met = {name for g in games for name in g.group} - {"new"}
    assert met == {"a", "b", "c"}
    # exactly the round-robin's games of the candidate: same groups, seatings and deals
    full = [g for g in round_robin(BOTS, rules, games=rules.teams * 2, seed=5) if "new" in g.group]
    assert [replace(g, number=0) for g in games] == [replace(g, number=0) for g in full]
    # every seating: the candidate plays each team position equally often
    positions = [g.teams.index("new") for g in games]
    assert {positions.count(t) for t in range(rules.teams)} == {len(games) // rules.teams}


def test_an_unknown_candidate_is_refused():
    with pytest.raises(ScheduleError, match="'nobody' is not one of the bots"):
        gauntlet(BOTS, rules_for("pagat"), candidate="nobody", games=2, seed=1)
    given = TournamentChoices(
        bots=parse_bots(["x=python -m example_bots.random_bot", "y=python -m example_bots.first_bot"])
    )
    with pytest.raises(SettingsError, match="'z' is not one of the bots"):
        resolve(replace(given, gauntlet="z"))


def test_the_gauntlet_is_saved_and_kept_on_resume():
    given = TournamentChoices(
        bots=parse_bots(["x=python -m example_bots.random_bot", "y=python -m example_bots.first_bot", "z=true"]),
        gauntlet="x",
    )
    settings = resolve(given)
    saved = TournamentSettings.from_record(json.loads(json.dumps(settings.record())), "settings.json")
    assert saved.gauntlet == "x" and saved.format().plan({}) == settings.format().plan({})
    resumed = resolve(TournamentChoices(), saved)  # --resume with nothing named
    assert resumed.gauntlet == "x" and resumed.differences(saved) == []
    other = resolve(TournamentChoices(gauntlet="y"), saved)
    assert any(d.startswith("gauntlet 'y' / 'x'") for d in other.differences(saved))
    # a folder written before gauntlets existed is a round-robin
    old = settings.record()
    del old["gauntlet"]
    assert TournamentSettings.from_record(old, "settings.json").gauntlet is None


def outcome(number: int, teams: tuple[str, ...], winner: int | None) -> Outcome:
    return Outcome(number, teams, (0,) * len(teams), winner, None, 3, (0,) * len(teams))


def test_head_to_head_counts_each_opponent_from_the_candidates_side():
    games = [
        outcome(1, ("new", "a"), 0),
        outcome(2, ("a", "new"), 1),
        outcome(3, ("new", "a"), None),
        outcome(4, ("b", "new"), 0),
        outcome(5, ("a", "b"), 0),  # not the candidate's: ignored
    ]
    rows = {m.opponent: m for m in head_to_head("new", ["new", "a", "b"], games)}
    assert (rows["a"].wins, rows["a"].draws, rows["a"].losses) == (2, 1, 0)
    assert (rows["b"].wins, rows["b"].draws, rows["b"].losses) == (0, 0, 1)
    a = rows["a"].elo  # 2 wins, 1 draw and the virtual draw: 3 of 4 points
    assert a.score == pytest.approx(0.75)
    assert a.elo == pytest.approx(400 * math.log10(3))
    assert a.elo_low < a.elo < a.elo_high
    assert rows["b"].elo.elo < 0


def test_a_real_gauntlet_plays_only_the_candidates_games_and_resumes(tmp_path: Path):
    folder = tmp_path / "g"
    bots = (RANDOM, FIRST, bot("other"))
    run = tournament(folder, "--gauntlet", "first", "--games", "2", "--concurrency", "2", bots=bots)
    assert run.returncode == 0, run.stderr
    played = results(folder)
    assert len(played) == 4 and all("first" in r["teams"] for r in played)
    assert "gauntlet: first against each opponent" in run.stdout
    summary = json.loads((folder / "standings.json").read_text())
    assert summary["gauntlet"] == "first"
    assert [row["opponent"] for row in summary["head_to_head"]] == ["random", "other"]
    assert all(row["games"] == 2 for row in summary["head_to_head"])
    again = tournament(None, "--resume", "--out", str(folder), bots=(), quick=False)
    assert again.returncode == 0, again.stderr
    assert "4 games (4 done)" in again.stdout and "gauntlet: first" in again.stdout


def test_a_settings_file_names_the_gauntlet(tmp_path: Path):
    config = tmp_path / "t.toml"
    config.write_text('gauntlet = "x"\n[bots]\nx = "python -m example_bots.random_bot"\ny = "true"\n')
    assert read_toml(config).gauntlet == "x"
    config.write_text("gauntlet = 3\n")
    with pytest.raises(SettingsError, match=r"t.toml:1: gauntlet: expected the name of one of the bots, got a number"):
        read_toml(config)
