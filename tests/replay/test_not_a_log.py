"""A file that is no game log gets "not a game log" and where the game logs are (issue 31, item 10), from
``arena replay`` and ``arena analyze`` alike, with the exit status of bad input.

The files are those a tournament's folder holds beside its logs (docs/tournament.md): standings.json
(one JSON document), results.jsonl (JSON lines of another kind), a bot's output.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from referee.cli.app import Status
from tests.support.arena import invoke

RESULT = '{"game": 1, "teams": ["a", "b"], "log": "games/g0001.jsonl"}\n'


@pytest.fixture
def run_folder(tmp_path: Path) -> Path:
    folder = tmp_path / "t1"
    (folder / "games").mkdir(parents=True)
    (folder / "bots").mkdir()
    (folder / "settings.json").write_text('{\n  "format": 1\n}\n')
    (folder / "standings.json").write_text('{\n  "standings": [\n    {"bot": "a"}\n  ]\n}\n')
    (folder / "results.jsonl").write_text(RESULT)
    (folder / "bots" / "table1.a.0.stderr").write_text("--- python a.py\nTraceback (most recent call last):\n")
    return folder


@pytest.mark.parametrize("command", [["replay"], ["replay", "--verify"], ["analyze"]])
@pytest.mark.parametrize(
    ("name", "why"),
    [
        ("standings.json", "it holds one JSON document"),
        ("results.jsonl", "a log line must be a JSON object with an 'event' field"),
        ("bots/table1.a.0.stderr", "not valid JSON"),
    ],
)
def test_a_file_that_is_no_game_log_says_where_the_logs_are(
    run_folder: Path, command: list[str], name: str, why: str
) -> None:
    path = run_folder / name
    code, out, err = invoke(command[0], path, *command[1:])
    assert code == Status.BAD_INPUT, err
    (line,) = err.strip().splitlines()
    assert line.startswith(f"error: {path} is not a game log ({why}")
    assert line.endswith(f"the game logs of {run_folder} are in {run_folder / 'games'}/")
    assert out == ""


def test_away_from_a_run_it_says_where_logs_are_written(tmp_path: Path) -> None:
    notes = tmp_path / "notes.json"
    notes.write_text('{"a": 1}')
    code, _, err = invoke("replay", notes)
    assert code == Status.BAD_INPUT
    assert err.strip() == (
        f"error: {notes} is not a game log (it holds one JSON document): a game log has one JSON record per line, "
        "from match_start on; arena match writes them to logs/match-DATE-TIME/match.jsonl, a tournament to "
        "logs/NAME/games/"
    )
