"""``arena presets`` and ``arena presets NAME``, run through typer's CliRunner."""

from __future__ import annotations

import pytest
from typer.testing import CliRunner

from referee.cli.app import Status, app
from referee.engine.presets import PRESETS
from referee.engine.rules import OPTION_NAMES

WIDE = {"COLUMNS": "250"}  # so rich does not fold the tables


def run(*args: str):
    return CliRunner().invoke(app, ["presets", *args], env=WIDE)


def test_presets_lists_every_preset() -> None:
    result = run()
    assert result.exit_code == 0, result.output
    for name in PRESETS:
        assert name in result.output
    assert "neuralplay (default)" in result.output
    assert "6 players in 2 teams, double-48 deck, 8 cards each" in result.output  # bloomington's summary


def test_presets_name_shows_every_option_and_its_value() -> None:
    result = run("hammerwalt")
    assert result.exit_code == 0, result.output
    lines = result.output.splitlines()
    for option in OPTION_NAMES:
        assert any(f" {option} " in line for line in lines), option
    row = next(line for line in lines if " stuck_dealer_min_bid " in line)
    assert " 5 " in row
    row = next(line for line in lines if " bidding_rounds " in line)
    assert " two " in row and "single | two | multiple" in row


def test_presets_name_with_an_override_shows_the_new_value() -> None:
    result = run("hammerwalt", "--rule", "game_points=32", "-r", "game_over=points")
    assert result.exit_code == 0, result.output
    assert "with overrides" in result.output
    row = next(line for line in result.output.splitlines() if " game_points " in line)
    assert " 32 " in row


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["nope"], "unknown preset 'nope'"),
        (["Indiana"], "unknown preset 'Indiana'"),
        (["indiana", "--rule", "min_bid=lots"], "bad value 'lots' for rule option min_bid"),
        (["indiana", "--rule", "colour=red"], "unknown rule option 'colour'"),
        (["indiana", "--rule", "min_bid"], "bad rule override 'min_bid': expected name=value"),
        (["--rule", "players=5"], "bad value '5' for rule option players"),
        (["pagat", "-r", "deck=double-48"], "deal_packets 3,2,3 add up to 8, but each player gets 12 cards"),
    ],
)
def test_bad_names_and_overrides_are_one_line_errors(args: list[str], message: str) -> None:
    result = run(*args)
    assert result.exit_code == Status.BAD_INPUT
    lines = result.output.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("error:") and message in lines[0], result.output


def test_each_preset_has_its_own_line_saying_what_sets_it_apart() -> None:
    from referee.cli.presets import summary
    from referee.engine.presets import PRESET_NOTES

    assert set(PRESET_NOTES) == set(PRESETS)
    notes = list(PRESET_NOTES.values())
    assert len(set(notes)) == len(notes)
    rows = run().output.splitlines()
    for name, rules in PRESETS.items():
        row = next(r for r in rows if r.startswith(f"│ {name} "))
        assert PRESET_NOTES[name] in row and summary(rules) in row
        assert "(s)" not in row
    assert "3 players, each alone" in summary(PRESETS["double-deck-3p"])
    assert "up to two bids each" in summary(PRESETS["hammerwalt"])
