"""Swiss and knockout as formats: each round a pure function of the settings and the results so far, the
bracket and its byes, the tie-break sets, the tiebreaks of the standings, and the settings that choose them."""

from __future__ import annotations

import json
import math
import random
from pathlib import Path

import pytest
from typer.testing import CliRunner

from referee.cli.app import app
from referee.engine.presets import rules_for
from referee.engine.rules import Rules
from referee.games.scheduled import ScheduledGame
from referee.games.standings import Outcome
from referee.tournament.formats import Knockout, Swiss, bracket
from referee.tournament.schedule import FormatError, FormatName
from referee.tournament.settings import Seeding, TournamentChoices, TournamentSettings, UsageError, parse_bots, resolve
from tests.support.arena import RANDOM, arena, bot
from tests.support.formats import play_out

TWO = rules_for("neuralplay")
THREE = rules_for("double-deck-3p")


def bots(n: int) -> list[str]:
    return [f"s{k:02d}" for k in range(1, n + 1)]


@pytest.mark.parametrize("teams", [2, 3])
def test_the_bracket_gives_the_byes_to_the_top_seeds_and_keeps_them_apart(teams: int) -> None:
    for n in range(2, 60):
        if teams == 3 and (n % 2 == 0 or n < 3):
            with pytest.raises(FormatError):
                bracket(n, teams)
            continue
        groups = bracket(n, teams)
        places = teams ** math.ceil(round(math.log(n, teams), 9))
        assert len(groups) == places // teams
        assert sorted(s for g in groups for s in g) == list(range(1, n + 1))  # every seed once
        assert all(len(g) in (1, teams) for g in groups)
        byes = sorted(g[0] for g in groups if len(g) == 1)
        assert byes == list(range(1, len(byes) + 1))  # the byes are the top seeds'
        # seeds 1 and 2 are in different halves (thirds): they can meet only in the final
        span = len(groups) // teams
        if span:
            where = {s: k // span for k, g in enumerate(groups) for s in g}
            assert where[1] != where[2]


def test_a_bracket_of_eight() -> None:
    assert bracket(8, 2) == [(1, 8), (4, 5), (2, 7), (3, 6)]
    assert bracket(6, 2) == [(1,), (4, 5), (2,), (3, 6)]
    assert bracket(9, 3) == [(1, 6, 7), (2, 5, 8), (3, 4, 9)]
    assert bracket(7, 3) == [(1,), (2, 5, 6), (3, 4, 7)]


@pytest.mark.parametrize("n", [1])
def test_a_knockout_needs_two_bots(n: int) -> None:
    with pytest.raises(FormatError, match="a knockout needs at least 2 bots, got 1"):
        Knockout.of(bots(n), TWO, games=2, seed=1, tie_sets=2)


@pytest.mark.parametrize(("rules", "n"), [(TWO, 2), (TWO, 5), (TWO, 16), (THREE, 3), (THREE, 7), (THREE, 11)])
def test_a_knockout_is_a_pure_function_of_its_results(rules: Rules, n: int) -> None:
    names = bots(n)
    strength = {b: -0.2 * k for k, b in enumerate(names)}
    ko = Knockout.of(names, rules, games=rules.teams, seed=3, tie_sets=2)
    plan, outcomes = play_out(ko, strength, seed=n, draws=0.4)
    assert plan.final and plan.expected == len(plan.games) == len(outcomes)
    assert plan.order[0] == next(m.winner for m in reversed(plan.meetings))  # the winner of the final is first
    # resumed from any prefix of the results (games done in any order): the same games up to it
    for cut in range(0, len(outcomes), 3):
        known = {k: outcomes[k] for k in random.Random(cut).sample(sorted(outcomes), cut)}
        again = ko.plan(known)
        assert again.games == plan.games[: len(again.games)]
    # every match but the byes was played, its winner went on
    for m in plan.meetings:
        assert (m.winner in m.bots) and (m.bye == (len(m.bots) == 1))


def outcome(game: ScheduledGame, winner_bot: str | None, scores: tuple[int, ...] = (10, 0)) -> Outcome:
    teams = game.teams
    winner = None if winner_bot is None else teams.index(winner_bot)
    per_team = scores if winner is None or winner == 0 else tuple(reversed(scores))
    return Outcome(game.number, teams, per_team, winner, None, 5, (0,) * len(teams))


def test_a_tied_match_plays_tie_break_sets_up_to_the_cap_then_points_per_hand() -> None:
    ko = Knockout.of(["a", "b"], TWO, games=2, seed=1, tie_sets=2)
    plan = ko.plan({})
    assert [g.number for g in plan.games] == [1, 2] and not plan.final
    outcomes = {g.number: outcome(g, g.teams[0]) for g in plan.games}  # each wins the seat it had: 1 - 1
    plan = ko.plan(outcomes)
    assert [g.number for g in plan.games] == [1, 2, 3, 4]  # one more set
    assert plan.games[2].deal != plan.games[0].deal and plan.games[2].deal == plan.games[3].deal
    outcomes |= {g.number: outcome(g, g.teams[0]) for g in plan.games[2:]}
    plan = ko.plan(outcomes)
    assert len(plan.games) == 6 and not plan.final  # and one more: the cap is 2
    # b's team scores more per hand in the last set, still a 1 - 1 set: points per hand decide
    outcomes |= {g.number: outcome(g, g.teams[0], (20, 0) if g.teams[0] == "b" else (10, 0)) for g in plan.games[4:]}
    plan = ko.plan(outcomes)
    assert plan.final and len(plan.games) == 6
    (final,) = plan.meetings
    assert final.points == (3.0, 3.0) and final.winner == "b" and final.decided_by == "points per hand"
    assert plan.order == ("b", "a")


def test_a_tie_broken_by_a_set_and_one_still_tied_goes_to_the_seed() -> None:
    ko = Knockout.of(["a", "b"], TWO, games=2, seed=1, tie_sets=1)
    outcomes = {g.number: outcome(g, g.teams[0]) for g in ko.plan({}).games}
    plan = ko.plan(outcomes)
    outcomes |= {g.number: outcome(g, "b") for g in plan.games[2:]}
    (m,) = ko.plan(outcomes).meetings
    assert m.winner == "b" and m.decided_by == "tie-break sets" and m.points == (1.0, 3.0)
    none = Knockout.of(["a", "b"], TWO, games=2, seed=1, tie_sets=0)
    (m,) = none.plan({g.number: outcome(g, None) for g in none.plan({}).games}).meetings
    assert m.winner == "a" and m.decided_by == "seed"  # all drawn, the same points: the better seed


def test_swiss_standings_score_byes_buchholz_and_sonneborn_berger() -> None:
    swiss = Swiss.of(["a", "b", "c"], TWO, rounds=3, games=2, seed=1)
    outcomes: dict[int, Outcome] = {}
    plan = swiss.plan(outcomes)
    strength = {"a": 3, "b": 2, "c": 1}
    while not plan.final or len(outcomes) < len(plan.games):
        for g in plan.games:
            if g.number not in outcomes:
                outcomes[g.number] = outcome(g, max(g.teams, key=strength.__getitem__))
        plan = swiss.plan(outcomes)
    score, buchholz, sb = (plan.columns[k] for k in ("swiss_score", "buchholz", "sonneborn_berger"))
    byes = {m.bots[0] for m in plan.meetings if m.bye}
    assert byes == {"a", "b", "c"}  # three rounds of three bots: each sits out once, worth 1 (half of 2 games)
    assert score == {"a": 5.0, "b": 3.0, "c": 1.0}  # a: 2 + 2 + bye; b: 2 + 0 + bye; c: 0 + 0 + bye
    assert buchholz == {"a": 4.0, "b": 6.0, "c": 8.0}  # the scores of the two it met
    assert sb == {"a": 4.0, "b": 1.0, "c": 0.0}  # the scores of those it beat (it won every game against them)
    assert plan.order == ("a", "b", "c")


def test_swiss_ties_go_to_buchholz() -> None:
    swiss = Swiss.of(["a", "b", "c", "d"], TWO, rounds=1, games=2, seed=1)
    plan = swiss.plan({})
    first = {g.number: outcome(g, g.teams[0]) for g in plan.games}  # every set drawn 1 - 1
    plan = swiss.plan(first)
    assert plan.final and set(plan.columns["swiss_score"].values()) == {1.0}
    assert plan.order == ("a", "b", "c", "d")  # equal in everything: the seeds' order


def test_games_follow_the_deals_round_after_round() -> None:
    swiss = Swiss.of(bots(6), TWO, rounds=3, games=4, seed=9)
    plan, _ = play_out(swiss, {b: 0.0 for b in bots(6)})
    for r in (1, 2, 3):
        deals = sorted({g.deal for g in plan.games if g.round == r})
        assert deals == [2 * (r - 1), 2 * (r - 1) + 1]  # two sets a meeting, new deals each round


# ------------------------------------------------------------------ the settings


def given(*names: str, **kw: object) -> TournamentChoices:
    return TournamentChoices(bots=parse_bots([bot(n) for n in names]), preset="double-deck", **kw)  # type: ignore[arg-type]


def test_the_format_is_saved_and_kept_on_resume() -> None:
    settings = resolve(given("a", "b", "c", "d", "e", format=FormatName.SWISS))
    assert settings.format_name is FormatName.SWISS and settings.rounds == 4  # ceil(log2 5) + 1
    record = settings.record()
    assert record["format_name"] == "swiss" and record["rounds"] == 4 and record["tie_sets"] == 2
    saved = TournamentSettings.from_record(json.loads(json.dumps(record)), "settings.json")
    assert saved == settings
    resumed = resolve(TournamentChoices(), saved)
    assert resumed.differences(saved) == []
    assert resolve(given("a", "b", "c", "d", "e", rounds=3), saved).differences(saved) == ["rounds 3 / 4"]
    # a settings.json from before formats: the format follows from the gauntlet
    old = {k: v for k, v in record.items() if k not in ("format_name", "rounds", "tie_sets", "seeding")}
    assert TournamentSettings.from_record(old, "old").format_name is FormatName.ROUND_ROBIN
    old["gauntlet"] = "a"
    assert TournamentSettings.from_record(old, "old").format_name is FormatName.GAUNTLET


def test_the_gauntlet_option_implies_its_format() -> None:
    assert resolve(given("a", "b", "c", gauntlet="a")).format_name is FormatName.GAUNTLET
    assert resolve(given("a", "b", "c")).format_name is FormatName.ROUND_ROBIN


def test_seeding_by_an_earlier_runs_elo(tmp_path: Path) -> None:
    earlier = tmp_path / "earlier"
    earlier.mkdir()
    rows = [{"bot": "c", "elo": 50.0}, {"bot": "a", "elo": 10.0}, {"bot": "x", "elo": 0.0}, {"bot": "b", "elo": -60}]
    (earlier / "standings.json").write_text(json.dumps({"standings": rows}))
    seeding = Seeding("elo", str(earlier))
    settings = resolve(given("a", "b", "c", "d", format=FormatName.KNOCKOUT, seeding=seeding))
    assert settings.seeds == ("c", "a", "b", "d")  # by Elo; d, not in the earlier run, last
    assert settings.format().plan({}).meetings[0].bots == ("c", "d")  # the top seed meets the lowest
    saved = TournamentSettings.from_record(json.loads(json.dumps(settings.record())), "settings.json")
    assert saved.seeds == ("c", "a", "b", "d")
    (earlier / "standings.json").unlink()  # the seeds are saved: a resumed run does not read the folder again
    assert resolve(TournamentChoices(), saved).seeds == ("c", "a", "b", "d")
    with pytest.raises(UsageError, match="--seeding is for --format swiss or knockout"):
        resolve(given("a", "b", seeding=seeding))


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--format", "swiss", "--rounds", "4"], "--rounds 4 is more than 4 bots allow without a repeated pairing"),
        (["--format", "knockout", "--gauntlet", "a"], "--gauntlet a plays a gauntlet, not a knockout"),
        (["--format", "swiss", "--gauntlet", "a"], "--gauntlet a plays a gauntlet, not a swiss"),
        (["--format", "gauntlet"], "--format gauntlet needs its bot: add --gauntlet NAME"),
        (["--rounds", "2"], "--rounds is for --format swiss, not round-robin"),
        (["--format", "knockout", "--seeding", "rating", "x"], "the one seeding there is is 'elo FOLDER'"),
        (["--format", "swiss", "--seeding", "elo", "nowhere"], "--seeding elo nowhere: no standings.json there"),
    ],
)
def test_bad_format_options_are_one_line_usage_errors(
    args: list[str], message: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    four = [a for name in "abcd" for a in ("--bot", bot(name))]
    result = CliRunner().invoke(app, ["tournament", *four, *args])
    lines = result.output.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("error:") and message in lines[0], result.output
    assert result.exit_code == 2, result.output  # a folder named for seeding with no standings is bad input too
    assert not list(tmp_path.iterdir())  # nothing started, nothing written


def test_a_knockout_of_one_bot_is_a_usage_error(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    result = CliRunner().invoke(app, ["tournament", "--format", "knockout", "--bot", RANDOM])
    assert result.exit_code == 2 and "a knockout needs at least 2 bots, got 1" in result.output
    assert not list(tmp_path.iterdir())


def test_a_format_that_does_not_exist_is_a_usage_error(tmp_path: Path) -> None:
    run = arena("tournament", "--bot", RANDOM, "--bot", bot("b"), "--format", "league", cwd=tmp_path)
    assert run.returncode == 2
    assert run.stderr.strip().splitlines() == [
        "error: Invalid value for '--format': Value error, 'league' is not one of 'round-robin', 'gauntlet', "
        "'swiss', 'knockout' (see 'arena tournament --help')"
    ]
    assert not list(tmp_path.iterdir())
