"""What ``arena analyze`` prints agrees with itself and says what it counts (issue 31, item 6), and the worst
decision is opened from its seat's view (item 7).

On a real log (``conftest.py``): the start line counts every decision of the chosen seats and says how many
are rated; the tables count those rated; the "Open one" line is a command that runs and shows what that
seat knew.
"""

from __future__ import annotations

import re
import shlex
from pathlib import Path

from tests.support.arena import arena

QUICK = ("--samples", "8", "--workers", "1", "--worst", "3")
WIDE = 250  # columns: no table folded


def column(out: str, title: str, name: str, row: str) -> str:
    """The cell of column ``name`` in the row whose first cell is ``row``, of the table titled ``title``."""
    lines = out[out.index(title) :].splitlines()
    header = next(line for line in lines if f" {name} " in line and "┃" in line)
    names = [cell.strip() for cell in header.split("┃")]
    found = next(line for line in lines if line.startswith("│") and line.split("│")[1].strip() == row)
    return [cell.strip() for cell in found.split("│")][names.index(name)]


def test_the_start_line_and_the_tables_count_the_same_decisions(real_logs: dict[str, Path]) -> None:
    log = real_logs["neuralplay"]
    run = arena("analyze", log, "--bot", "shaky", *QUICK, columns=WIDE)
    assert run.returncode == 0, run.stderr
    start = run.stdout.splitlines()[0]
    found = re.search(r"(\d+) decisions of bot shaky: (\d+) to rate, (\d+) forced \(one legal choice\)[,;]", start)
    assert found is not None, start
    every, rated, forced = map(int, found.groups())
    assert forced > 0 and every >= rated + forced  # the rest: played by the referee, claims (said when there)
    assert int(column(run.stdout, "Loss per decision by bot", "decisions", "shaky")) == rated
    assert "decisions: those with a choice (forced ones are not rated)" in run.stdout
    per_seat = run.stdout[run.stdout.index("By game and seat") :]
    seats = [line for line in per_seat.splitlines() if line.startswith("│") and " shaky " in line]
    assert sum(int(line.split("│")[5]) for line in seats) == rated


def test_the_worst_decision_opens_from_its_seats_view(real_logs: dict[str, Path]) -> None:
    log = real_logs["neuralplay"]
    run = arena("analyze", log, "--bot", "shaky", *QUICK, columns=WIDE)
    assert run.returncode == 0, run.stderr
    hint = next(line for line in run.stdout.splitlines() if line.startswith("Open one: "))
    command = shlex.split(hint.removeprefix("Open one: ").split(" (")[0])
    worst = run.stdout[run.stdout.index("Worst decisions of shaky") :].splitlines()
    first = next(line for line in worst if line.startswith("│"))
    seat = [cell.strip() for cell in first.split("│")][6]
    assert command[-2:] == ["--seat", seat], hint
    assert "judged from its seat's knowledge, not from the cards as they lay" in run.stdout
    opened = arena(*command[1:])  # as a user pastes it: arena replay LOG --game G --at ADDRESS --seat S
    assert opened.returncode == 0, opened.stderr
    assert f"Seen from seat {seat} shaky: only what it knew at each point" in opened.stdout
    assert "(8 cards, hidden)" in opened.stdout  # the other seats' hands
