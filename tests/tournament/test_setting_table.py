"""Settings declared once (referee.setting): what each declaration gives (TOML reading, the command line's options
and their help, the saved record, the resume check, the defaults), and that they agree with one another."""

from __future__ import annotations

import importlib
import pkgutil
import typing
from dataclasses import dataclass, fields
from pathlib import Path

import pytest
import typer
from typer.testing import CliRunner

from referee import cli
from referee.analyze.settings import AnalyzeChoices
from referee.checkbot.settings import CheckChoices
from referee.cli import options
from referee.cli.app import app
from referee.games.matches import MatchChoices, ServeChoices
from referee.ladder.settings import BoardChoices, LadderChoices, LadderRunChoices
from referee.play.settings import PlayChoices
from referee.replay.settings import ReplayChoices
from referee.setting import Choice, Choices, Flag, SettingsError, TomlFile, WholeNumber, declare
from referee.sprt.config import SprtChoices
from referee.stats.sprt import Model
from referee.tournament.settings import SETTINGS, TournamentChoices, TournamentSettings, parse_bots, resolve

BOTS = parse_bots(["a=python", "b=python"])


def test_every_saved_setting_is_an_attribute_of_the_resolved_settings_and_a_key_of_settings_json() -> None:
    resolved = {f.name for f in fields(TournamentSettings)}
    saved = {s.saved for s in SETTINGS.values() if s.saved}
    assert saved <= resolved
    record = resolve(TournamentChoices(bots=BOTS)).record()
    assert saved <= record.keys()
    by_hand = {"settings_format", "bots", "rule_overrides", "rules", "tcp"}
    assert record.keys() == saved | by_hand


def test_the_defaults_come_from_the_declarations() -> None:
    settings = resolve(TournamentChoices(bots=BOTS))
    for s in SETTINGS.values():
        if s.saved and s.default is not None:
            assert getattr(settings, s.saved) == s.default, s.name
    assert settings.name == SETTINGS["name"].default and settings.move_time_ms == 1000
    plan = SprtChoices().plan()
    assert (plan.test.elo0, plan.test.elo1, plan.test.alpha, plan.max_pairs) == (0, 10, 0.05, 10_000)
    assert [SprtChoices.declared()[k].default for k in ("elo0", "elo1", "alpha", "beta", "model", "max_pairs")] == [
        plan.test.elo0,
        plan.test.elo1,
        plan.test.alpha,
        plan.test.beta,
        plan.test.model,
        plan.max_pairs,
    ]


def test_only_what_decides_the_games_must_match_on_resume() -> None:
    saved = resolve(TournamentChoices(bots=BOTS, seed=4))
    deciding = [s.name for s in SETTINGS.values() if s.decides_games]
    # the games' settings first (referee.games.settings), then the seatings and the format's
    assert deciding[:4] == ["preset", "seed", "move_time", "time_bank"]
    assert deciding[4:] == [
        "on_fault",
        "rules",
        "bots",
        "all_seatings",
        "games",
        "duplicate",
        "gauntlet",
        "format",
        "rounds",
        "tie_sets",
        "seeding",
    ]
    free = resolve(TournamentChoices(bots=BOTS, seed=4, name="other", tcp=("a",)), saved)
    assert free.differences(saved) == []
    changed = resolve(TournamentChoices(bots=BOTS, seed=5, games=4, rules={"hand_limit": "7"}), saved)
    limit = saved.rules.hand_limit
    assert changed.differences(saved) == ["seed 5 / 4", "games 4 / 2", f"rule hand_limit 7 / {limit}"]
    assert changed.differences(saved, but=("games",)) == ["seed 5 / 4", f"rule hand_limit 7 / {limit}"]


def test_a_file_lists_the_known_settings_in_the_order_they_are_declared(tmp_path: Path) -> None:
    path = tmp_path / "t.toml"
    path.write_text("nonsense = 1\n")
    with pytest.raises(SettingsError) as caught:
        TomlFile.read(path).check_keys(SETTINGS)
    assert str(caught.value) == f"{path}:1: nonsense: unknown setting; known: {', '.join(SETTINGS)}"
    assert list(SETTINGS)[:3] == ["name", "out", "preset"] and list(SETTINGS)[-3:] == ["rounds", "tie_sets", "seeding"]


def test_each_option_alias_parses_what_its_setting_takes() -> None:
    """An alias's type is written beside it (typer and mypy read it); it must be the declared kind's, in every
    command's module."""
    tables: list[type[Choices]] = [
        TournamentChoices,
        SprtChoices,
        MatchChoices,
        ServeChoices,
        PlayChoices,
        CheckChoices,
    ]
    tables += [AnalyzeChoices, ReplayChoices, LadderChoices, LadderRunChoices, BoardChoices]
    modules = [importlib.import_module(f"referee.cli.{m.name}") for m in pkgutil.iter_modules(cli.__path__)]
    aliases = {
        (m.__name__, k): v for m in modules for k, v in vars(m).items() if typing.get_origin(v) is typing.Annotated
    }
    checked = 0
    for name, alias in aliases.items():
        hint, info = typing.get_args(alias)[:2]
        flags = (info.default, *(info.param_decls or ()))  # typer keeps an Annotated option's first flag as its default
        declared = [s for t in tables for s in t.declared().values() if s.flag in flags]
        setting = next((s for s in declared if info.help.startswith(s.help.rstrip("."))), None)
        if setting is None:
            continue  # an option that is no setting (--config, --resume, --verbose), or a command's words
        assert hint == setting.kind.cli | None, name
        checked += 1
    assert checked >= 60


@pytest.mark.parametrize(
    ("command", "flag", "default"),
    [
        ("tournament", "--move-time", SETTINGS["move_time"].default),
        ("sprt", "--move-time", SETTINGS["move_time"].default),
        ("match", "--move-time", SETTINGS["move_time"].default),
        ("check-bot", "--move-time", SETTINGS["move_time"].default),
        ("play", "--on-fault", SETTINGS["on_fault"].default.value),
        ("sprt", "--max-pairs", SprtChoices.declared()["max_pairs"].default),
        ("sprt", "--alpha", SprtChoices.declared()["alpha"].default),
        ("tournament", "--sandbox", "auto; saved for --resume"),
    ],
)
def test_the_help_shows_the_declared_default(command: str, flag: str, default: object) -> None:
    result = CliRunner().invoke(app, [command, "--help"], env={"COLUMNS": "400"})
    assert result.exit_code == 0, result.output
    (line,) = [row for row in result.output.splitlines() if row.strip("│ ").startswith(f"{flag} ")]
    assert f"(default: {default})." in line, line


@dataclass(frozen=True)
class _Later(Choices):
    """A table with settings of each kind, as one added later would be declared."""

    rounds: int | None = declare(WholeNumber(low=1, high=9), "Rounds to play.", default=3, flag="--rounds", short="-R")
    fast: bool | None = declare(Flag(), "Play fast.", default=False, flag="--fast/--slow")
    model: Model | None = declare(Choice(Model), "The model.", default=Model.LOGISTIC, flag="--model")


def test_a_setting_declared_once_is_read_from_files_and_the_command_line(tmp_path: Path) -> None:
    path = tmp_path / "t.toml"
    path.write_text('rounds = 4\nmodel = "normalized"\n')
    assert _Later.from_toml(TomlFile.read(path)) == _Later(rounds=4, model=Model.NORMALIZED)
    path.write_text("rounds = 10\n")
    with pytest.raises(SettingsError, match=r"t.toml:1: rounds: expected a whole number, 1..9, got a number \(10\)"):
        _Later.from_toml(TomlFile.read(path))
    assert _Later(rounds=5).over(_Later(rounds=4, fast=True)) == _Later(rounds=5, fast=True)
    assert _Later().value("rounds") == 3 and _Later(fast=True).value("fast") is True

    seen: list[_Later] = []
    cli = typer.Typer()

    @cli.command()
    def play(
        ctx: typer.Context,
        rounds: typing.Annotated[int | None, options.option(_Later, "rounds")] = None,
        fast: typing.Annotated[bool | None, options.option(_Later, "fast")] = None,
        model: typing.Annotated[Model | None, options.option(_Later, "model")] = None,
    ) -> None:
        seen.append(_Later.from_options(ctx.params))

    runner = CliRunner()
    assert runner.invoke(cli, ["-R", "2", "--slow", "--model", "NORMALIZED"]).exit_code == 0
    assert seen == [_Later(rounds=2, fast=False, model=Model.NORMALIZED)]
    assert runner.invoke(cli, ["--rounds", "10"]).exit_code == 2  # the declared range
    shown = runner.invoke(cli, ["--help"], env={"COLUMNS": "300"}).output
    assert "Rounds to play (default: 3)." in shown and "Play fast (default: slow)." in shown
