"""arena sprt on several tables (--workers, --ray) and from a --config file: the decision of one table."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from referee.cli.app import Status
from referee.sprt.config import SprtChoices, read_sprt_toml
from referee.stats.sprt import Model
from referee.tournament.settings import SettingsError
from tests.support.arena import ARENA, QUICK, RANDOM, RULES, arena
from tests.support.logs import results, without_think
from tests.support.netns import in_netns

TEST = ["--elo0", "0", "--elo1", "100", "--bot", RULES, "--bot", RANDOM]


def summary(folder: Path) -> dict[str, Any]:
    return json.loads((folder / "sprt-result.json").read_text())


def decision(folder: Path) -> dict[str, Any]:
    """Where the test decided, less the games finished by then (on several tables, games of later pairs
    may have ended first)."""
    return {k: v for k, v in summary(folder)["decided_at"].items() if k != "games"}


@pytest.fixture(scope="module")
def one_table(tmp_path_factory: pytest.TempPathFactory) -> Path:
    folder = tmp_path_factory.mktemp("sprt") / "one"
    run = arena("sprt", *QUICK, *TEST, "-j", "1", "--workers", "1", "--out", str(folder))
    assert run.returncode == 0, run.stderr
    assert "1 table(s); folder" in run.stdout
    return folder


def same_decision(folder: Path, plain: Path) -> None:
    """The run in ``folder`` decided as the one-table run did, on the same games, in a results file of the
    same form."""
    mine, theirs = summary(folder), summary(plain)
    assert mine.keys() == theirs.keys()
    assert mine["final"].keys() == theirs["final"].keys() == mine["decided_at"].keys()
    assert decision(folder) == decision(plain)
    assert decision(plain)["verdict"] == "H1"
    played, plain_played = results(folder), results(plain)
    # the games of the one-table run, and at most a game or two more that were at a table at the decision
    assert without_think(played[: len(plain_played)]) == without_think(plain_played)
    assert len(plain_played) <= len(played) <= len(plain_played) + 2
    assert [r["game"] for r in played] == list(range(1, len(played) + 1))
    assert mine["final"]["games"] == len(played)


def test_two_workers_decide_as_one_table(one_table: Path, tmp_path: Path) -> None:
    folder = tmp_path / "two"
    run = arena("sprt", *QUICK, *TEST, "-j", "2", "--workers", "2", "--out", str(folder))
    assert run.returncode == 0, run.stderr
    assert "2 table(s) in 2 worker processes" in run.stdout
    assert "H1 accepted" in run.stdout and "after 12 pairs" in run.stdout
    same_decision(folder, one_table)
    # both worker processes played: each table's bots wrote their output into the folder
    assert {p.name.split(".")[0] for p in (folder / "bots").iterdir()} == {"table1", "table2"}


CONFIG = f"""
name = "from-file"
preset = "double-deck"
move_time = 2000
workers = 2
concurrency = 2
elo0 = 0
elo1 = 100
max_pairs = 40

[rules]
hand_limit = 3

[bots]
{RULES.replace("=", " = '", 1)}'
{RANDOM.replace("=", " = '", 1)}'
"""


def test_a_config_file_sets_the_test_the_games_and_the_workers(one_table: Path, tmp_path: Path) -> None:
    (tmp_path / "sprt.toml").write_text(CONFIG)
    # the command line overrides the file
    run = arena("sprt", "--config", "sprt.toml", "--alpha", "0.05", "--max-pairs", "30", cwd=tmp_path)
    assert run.returncode == 0, run.stderr
    folder = tmp_path / "logs" / "from-file"
    assert "2 table(s) in 2 worker processes" in run.stdout and f"folder {Path('logs/from-file')}" in run.stdout
    plan = json.loads((folder / "sprt.json").read_text())
    assert (plan["elo0"], plan["elo1"], plan["max_pairs"]) == (0.0, 100.0, 30)
    settings = json.loads((folder / "settings.json").read_text())
    assert settings["rules"]["hand_limit"] == 3 and settings["move_time_ms"] == 2000
    assert list(settings["bots"]) == ["rules", "random"]
    # the same games as the one-table run given on the command line (but for max_pairs, the same test)
    assert decision(folder) == {**decision(one_table), "max_pairs": 30}
    # and it resumes by its name from the file alone
    again = arena("sprt", "--config", "sprt.toml", "--resume", "--max-pairs", "30", cwd=tmp_path)
    assert again.returncode == 0, again.stderr
    assert "H1 accepted" in again.stdout


def test_the_sprt_keys_of_a_config_file(tmp_path: Path) -> None:
    path = tmp_path / "t.toml"
    path.write_text('elo1 = 25\nmodel = "normalized"\nalpha = 0.01\nseed = 4\n[bots]\na = "x"\nb = "y"\n')
    chosen = read_sprt_toml(path)
    assert chosen == SprtChoices(elo1=25.0, model=Model.NORMALIZED, alpha=0.01, seed=4, bots=chosen.bots)
    assert chosen.bots is not None and [b.name for b in chosen.bots] == ["a", "b"]
    plan = SprtChoices(elo1=50.0).over(chosen).plan()
    assert (plan.test.elo0, plan.test.elo1, plan.test.alpha, plan.test.beta) == (0.0, 50.0, 0.01, 0.05)
    assert plan.max_pairs == 10_000


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("games = 4\n", "t.toml:1: games: unknown setting; known: name, out, preset, seed"),
        ("gauntlet = 'a'\n", "t.toml:1: gauntlet: unknown setting"),
        # a tournament's format is no setting of an SPRT's: it plays duplicate pairs of two bots
        ("format = 'swiss'\n", "t.toml:1: format: unknown setting; known: name, out, preset, seed"),
        ("seed = 1\nrounds = 3\n", "t.toml:2: rounds: unknown setting; known: name, out, preset, seed"),
        ("seed = 1\nalpha = 1.5\n", "t.toml:2: alpha: expected a number between 0 and 1, got a number (1.5)"),
        ("elo1 = 'ten'\n", "t.toml:1: elo1: expected a number (Elo) above elo0, got a string ('ten')"),
        ("model = 'bayes'\n", "t.toml:1: model: expected 'logistic' or 'normalized', got a string ('bayes')"),
        ("max_pairs = 0\n", "t.toml:1: max_pairs: expected a whole number >= 1, got a number (0)"),
        ("workers = true\n", "t.toml:1: workers: expected a whole number >= 1, got a boolean (True)"),
    ],
)
def test_bad_sprt_config_files_name_the_line(tmp_path: Path, text: str, message: str) -> None:
    path = tmp_path / "t.toml"
    path.write_text(text)
    with pytest.raises(SettingsError) as info:
        read_sprt_toml(path)
    assert message in str(info.value) and "\n" not in str(info.value)


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--workers", "0"], "Invalid value for '--workers' / '-w'"),
        (["--ray-working-dir", "."], "--ray-working-dir goes with --ray"),
        (["--ray", "--workers", "2"], "--ray and --workers: choose one"),
        (["--config", "missing.toml"], "missing.toml: no such file"),
        (["--config", "bad.toml"], "bad.toml:1: games: unknown setting"),
    ],
)
def test_bad_table_options_are_one_line_errors(tmp_path: Path, args: list[str], message: str) -> None:
    """A usage error (typer's) and a setting that cannot be used end the same way: status 2, one line."""
    (tmp_path / "bad.toml").write_text("games = 4\n")
    run = arena("sprt", *TEST, *args, cwd=tmp_path)
    assert run.returncode == Status.BAD_INPUT, run.stdout
    lines = run.stderr.strip().splitlines()
    assert len(lines) == 1 and message in lines[0], run.stderr
    assert not (tmp_path / "logs").exists()


@pytest.mark.parametrize(("key", "line"), [("format", 'format = "swiss"'), ("rounds", "rounds = 3")])
def test_a_format_in_an_sprt_file_is_refused_naming_the_key_and_the_file(tmp_path: Path, key: str, line: str) -> None:
    """An SPRT has no format (it plays duplicate pairs of two bots): a format's setting in its file is refused in
    one line naming the key and the file, not an option ``arena sprt`` does not have; nothing is played."""
    (tmp_path / "x.toml").write_text(f"elo1 = 100\n{line}\n")
    run = arena("sprt", *TEST, "-c", "x.toml", cwd=tmp_path)
    assert run.returncode == Status.BAD_INPUT, run.stdout
    lines = run.stderr.strip().splitlines()
    assert len(lines) == 1 and f"x.toml:2: {key}: unknown setting" in lines[0], run.stderr
    assert "--rounds" not in lines[0] and "--format" not in lines[0]
    assert not (tmp_path / "logs").exists()


@pytest.mark.slow
def test_a_local_ray_decides_as_one_table(one_table: Path, tmp_path: Path) -> None:
    """On a Ray started here, in a network namespace with loopback only (as test_ray.py runs it)."""
    folder = tmp_path / "ray"
    run = in_netns(str(ARENA), "sprt", *QUICK, *TEST, "-j", "2", "--ray", "--out", str(folder))
    assert run.returncode == 0, run.stderr[-5000:]
    assert "2 table(s) on Ray, 1 node(s)" in run.stdout, run.stdout
    same_decision(folder, one_table)
