"""The TOML settings file, command-line options over it, and bad input: one-line errors naming the key and line."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest
from typer.testing import CliRunner

from referee.cli.app import Status, app
from referee.match import FaultPolicy
from referee.tournament.settings import TournamentChoices, TournamentSettings, parse_bots, read_toml, resolve

PY = sys.executable

GOOD = f"""\
# a weekly round-robin
name = "weekly"
preset = "pagat"
games = 4
seed = 7
move_time = 250
on_fault = "default"
duplicate = true
concurrency = 3

[rules]
hand_limit = 20
stick_the_dealer = true

[bots]
random = "{PY} -m example_bots.random_bot"
first = ["{PY}", "-m", "example_bots.first_bot"]
"""


def test_a_settings_file(tmp_path: Path) -> None:
    path = tmp_path / "t.toml"
    path.write_text(GOOD)
    given = read_toml(path)
    assert given.concurrency == 3 and given.name == "weekly" and given.out is None
    settings = resolve(given)
    assert settings.bot_names == ("random", "first")
    assert settings.bots[1].argv == (PY, "-m", "example_bots.first_bot")
    assert settings.preset == "pagat" and settings.games == 4 and settings.seed == 7
    assert settings.move_time_ms == 250 and settings.on_fault is FaultPolicy.DEFAULT and settings.duplicate
    assert settings.rules.hand_limit == 20 and settings.rules.stick_the_dealer is True
    assert settings.rules.min_bid == 3  # the rest is pagat's
    assert len(settings.format().plan({}).games) == 4


def test_the_command_line_goes_over_the_file(tmp_path: Path) -> None:
    path = tmp_path / "t.toml"
    path.write_text(GOOD)
    cli = TournamentChoices(
        games=2,
        rules={"hand_limit": "5"},
        bots=parse_bots([f"solo={PY} -m example_bots.random_bot", f"duo={PY} -m example_bots.random_bot"]),
    )
    settings = resolve(cli.over(read_toml(path)))
    assert settings.games == 2 and settings.seed == 7  # given here / kept from the file
    assert settings.rules.hand_limit == 5 and settings.rules.stick_the_dealer is True  # overrides merge
    assert settings.bot_names == ("solo", "duo")  # --bot replaces the file's bots


def test_defaults_with_bots_only() -> None:
    settings = resolve(TournamentChoices(bots=parse_bots([f"a={PY}", f"b={PY}", f"c={PY}"])))
    assert (settings.preset, settings.games, settings.seed, settings.move_time_ms) == ("neuralplay", 2, 1, 1000)
    assert settings.duplicate and settings.on_fault is FaultPolicy.FORFEIT
    assert len(settings.format().plan({}).games) == 3 * 2
    three = resolve(TournamentChoices(bots=parse_bots([f"a={PY}", f"b={PY}", f"c={PY}"]), preset="double-deck-3p"))
    assert three.games == 3  # one per seating


BOTS = f'[bots]\na = "{PY} -m example_bots.random_bot"\nb = "{PY} -m example_bots.random_bot"\n'


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("seed = 1\ngamez = 4\n" + BOTS, "t.toml:2: gamez: unknown setting; known: name, out, preset"),
        ('games = "4"\n' + BOTS, "t.toml:1: games: expected a whole number >= 1, got a string ('4')"),
        ("games = 0\n" + BOTS, "t.toml:1: games: expected a whole number >= 1, got a number (0)"),
        ("duplicate = 1\n" + BOTS, "t.toml:1: duplicate: expected true or false, got a number (1)"),
        ('on_fault = "sometimes"\n' + BOTS, "t.toml:1: on_fault: expected 'forfeit' or 'default'"),
        ("move_time = 0\n" + BOTS, "t.toml:1: move_time: expected a whole number of ms, 1..3600000"),
        ('preset = "nope"\n' + BOTS, "t.toml:1: preset: unknown preset 'nope'"),
        ('name = "no/slashes"\n' + BOTS, "t.toml:1: name: bad tournament name 'no/slashes'"),
        ("seed = 1\n", "no bots: give --bot NAME=COMMAND"),
        ("[bots]\n", "t.toml:1: bots: the table lists no bots"),
        ('[bots]\na = "x"\na = "y"\n', "t.toml: not valid TOML: Cannot overwrite a value (at line 3"),
        ("[bots]\na = 5\n", "t.toml:2: bots.a: expected a command (a string, or a list of strings), got a number (5)"),
        ('[bots]\n"bad name" = "python"\n', "t.toml:2: bots.bad name: bad bot name 'bad name'"),
        (
            '[bots]\nnope = "no-such-program-anywhere --x"\nb = "python"\n',
            "program 'no-such-program-anywhere' not found",
        ),
        (
            '[rules]\nhand_limit = 5\nmin_bid = "lots"\n' + BOTS,
            "t.toml:3: rules.min_bid: bad value 'lots' for rule option min_bid",
        ),
        ("[rules]\nnonsense = 1\n" + BOTS, "t.toml:2: rules.nonsense: unknown rule option 'nonsense'"),
        ("rules = 3\n" + BOTS, "t.toml:1: rules: expected a table of rule options, got a number (3)"),
        ("games = 3\n" + BOTS, "3 is not a multiple of 2"),
        ('[bots]\na = "python"\n', "needs at least 2 bots, got 1"),
        ("games = \n", "t.toml: not valid TOML: Invalid value (at line 1, column 9)"),
    ],
)
def test_bad_settings_files_are_one_line_errors(
    text: str, message: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    Path("t.toml").write_text(text)
    result = CliRunner().invoke(app, ["tournament", "--config", "t.toml"])
    assert result.exit_code == Status.BAD_INPUT, result.output
    lines = result.output.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("error:") and message in lines[0], result.output
    assert sorted(p.name for p in tmp_path.iterdir()) == ["t.toml"]  # nothing started, nothing written


def test_a_missing_settings_file(tmp_path: Path) -> None:
    result = CliRunner().invoke(app, ["tournament", "--config", str(tmp_path / "none.toml")])
    assert result.exit_code == Status.BAD_INPUT and "none.toml: no such file" in result.output


def test_all_seatings_from_a_file_and_kept_on_resume(tmp_path: Path) -> None:
    path = tmp_path / "t.toml"
    path.write_text('preset = "double-deck-3p"\nall_seatings = true\n[bots]\na = "x"\nb = "x"\nc = "x"\n')
    settings = resolve(read_toml(path))
    assert settings.all_seatings and settings.games == 6  # one per seating, six of them
    assert len(settings.format().plan({}).games) == 6
    saved = TournamentSettings.from_record(settings.record(), "settings.json")
    assert saved.all_seatings
    assert resolve(TournamentChoices(), saved).all_seatings  # resumed: kept
    assert resolve(TournamentChoices(all_seatings=False, games=6), saved).differences(saved) == [
        "all_seatings False / True"
    ]
    # a folder from before the option: the rotations, as then
    old = settings.record()
    del old["all_seatings"]
    assert not TournamentSettings.from_record(old, "settings.json").all_seatings


def test_tcp_bots_from_the_file_and_the_command_line_are_saved_for_resume(tmp_path: Path) -> None:
    """``tcp = [...]`` / ``--tcp NAME``: how a bot connects (docs/protocol.md), kept in settings.json."""
    path = tmp_path / "t.toml"
    path.write_text(GOOD.replace("concurrency = 3\n", 'concurrency = 3\ntcp = ["first"]\n'))
    settings = resolve(read_toml(path))
    assert [(b.name, b.tcp) for b in settings.bots] == [("random", False), ("first", True)]
    saved = TournamentSettings.from_record(settings.record(), "settings.json")
    assert saved == settings and settings.record()["tcp"] == ["first"]
    assert resolve(TournamentChoices(), saved).bots == settings.bots  # resumed: kept
    assert [b.tcp for b in resolve(TournamentChoices(tcp=("random",)), saved).bots] == [
        True,
        False,
    ]  # given again: replaced
    assert not settings.differences(resolve(TournamentChoices(tcp=()), saved))  # how bots connect decides no game


@pytest.mark.parametrize(
    ("line", "says"),
    [
        ('tcp = "first"', "tcp: expected a list of bot names"),
        ('tcp = ["nobody"]', "--tcp 'nobody': no bot has that name (the bots: random, first)"),
    ],
)
def test_bad_tcp_settings_are_one_line_errors(tmp_path: Path, line: str, says: str) -> None:
    path = tmp_path / "t.toml"
    path.write_text(GOOD.replace("concurrency = 3\n", f"concurrency = 3\n{line}\n"))
    run = CliRunner().invoke(app, ["tournament", "--config", str(path), "--out", str(tmp_path / "out")])
    assert run.exit_code == Status.BAD_INPUT
    (message,) = run.output.strip().splitlines()
    assert says in message, message
