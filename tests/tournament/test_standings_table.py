"""The standings table fits the width it is printed at: no bot name cut, no header wrapped, at 80 columns."""

from __future__ import annotations

import io
import sys

import pytest

from referee.cli.standings import LAYOUTS, standings_table
from referee.games.standings import Standing
from referee.thinktime import ThinkTime
from tests.support.tournament import tournament

NAMES = ("montecarlo", "rules", "random", "montecarlo-2")  # the last: 12 characters
HEADERS = ("#", "bot", "games", "pts/hand", "Elo", "±95%", "faults", "ms mean/max")


def row(bot: str, k: int) -> Standing:
    """A row with wide figures: four-digit games and Elo, think times in the thousands of ms."""
    return Standing(
        bot=bot,
        games=1200,
        wins=800 - k,
        draws=10,
        losses=390 + k,
        points=-5000 * k,
        hands=4000,
        score=600.0,
        encounters=1200,
        elo=-1234.4 + k,
        elo_error=145.0,
        violations=13,
        think=ThinkTime(answers=40, total_ms=40 * 812, max_ms=10031),
    )


def render(width: int) -> list[str]:
    from rich.console import Console

    buffer = io.StringIO()
    console = Console(width=width, file=buffer, color_system=None)
    table = standings_table(
        "weekly: neuralplay, 4800/4800 games, seed 1, duplicate", [row(n, k) for k, n in enumerate(NAMES)], console
    )
    console.print(table)
    out = buffer.getvalue()
    assert isinstance(out, str)
    return out.splitlines()


def header_line(lines: list[str]) -> str:
    (line,) = [line for line in lines if " bot " in line or "│bot" in line or "┃bot" in line]
    return line


@pytest.mark.parametrize("width", [80, 76])
def test_at_80_columns_every_name_is_whole_and_no_header_wraps(width: int) -> None:
    lines = render(width)
    assert max(len(line) for line in lines) <= width
    assert not any("…" in line for line in lines)
    for name in NAMES:
        assert sum(f" {name} " in f" {line.replace('│', ' ')} " for line in lines) == 1, name
    heads = header_line(lines)
    for head in HEADERS:
        assert head in heads, head
    assert "W-D-L" in heads  # wins, draws and losses share a column to make room
    assert any("800-10-390" in line for line in lines)
    assert any("812/10031" in line for line in lines)


def test_a_wide_console_gets_the_full_table() -> None:
    lines = render(160)
    heads = header_line(lines)
    assert "W-D-L" not in heads and " W " in heads and " D " in heads and " L " in heads
    assert lines[1].startswith("┏")  # the outer border is kept: the first layout
    assert len(LAYOUTS) > 1


def test_a_tournament_printed_at_80_columns_shows_whole_names(tmp_path, monkeypatch) -> None:
    bots = [f"{name}={sys.executable} -m example_bots.random_bot" for name in ("montecarlo", "rules", "random")]
    monkeypatch.setenv("COLUMNS", "80")  # an 80-column terminal (on a pipe the table is printed whole)
    run = tournament(tmp_path / "t", "--seed", "3", bots=bots)
    assert run.returncode == 0, run.stderr
    table = [line for line in run.stdout.splitlines() if "│" in line or "┃" in line]
    assert table and max(len(line) for line in table) <= 80
    assert not any("…" in line for line in table)
    for name in ("montecarlo", "rules", "random"):
        assert any(f" {name} " in line for line in table), name
    assert "ms mean/max" in header_line(table)
