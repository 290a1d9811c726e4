"""The live table's steps are the replay's: fed a finished game's records as a table sends them (every card
in place, no reveal records), ``LiveTable`` makes the steps ``arena replay --html`` makes from the log, line
numbers included; and it makes them one record at a time, as they come."""

from __future__ import annotations

from pathlib import Path

import pytest

from referee.live.feed import LiveTable
from referee.replay.html import game_data
from referee.replay.logfile import load_log, revealed_records
from tests.support.arena import RANDOM
from tests.support.report import FAULTY_BOT
from tests.support.tournament import tournament


@pytest.fixture(scope="module")
def played(tmp_path_factory: pytest.TempPathFactory) -> Path:
    folder = tmp_path_factory.mktemp("steps") / "t"
    # the faulty bot's illegal cards: violations whose detail the log withholds until the hand ends
    run = tournament(folder, "-n", "4", "--on-fault", "default", bots=(RANDOM, FAULTY_BOT))
    assert run.returncode == 0, run.stderr
    return folder


def table_records(log: Path) -> list[dict]:
    """What a table sends for the game of ``log``: its records with every card where it was dealt or passed."""
    return [r for r in revealed_records(log) if r["event"] != "match_end"]


def test_live_steps_are_the_replays(played: Path) -> None:
    logs = sorted((played / "games").glob("g*.jsonl"))
    assert len(logs) == 4
    for log in logs:
        records = table_records(log)
        table = LiveTable(1)
        for record in records:  # one at a time, asking for the steps after each, as a page watching would
            table.add([record])
            table.steps()
        want = game_data(load_log(log), load_log(log).games[0])
        assert table.error is None
        assert table.over
        assert table.steps() == want["steps"], log.name
        assert table.game_id == log.stem
    assert any(
        note
        for log in logs
        for step in game_data(load_log(log), load_log(log).games[0])["steps"]
        for note in step["notes"]
    )


def test_a_new_game_at_the_table_starts_over(played: Path) -> None:
    first, second = sorted((played / "games").glob("g*.jsonl"))[:2]
    table = LiveTable(2)
    table.add(table_records(first))
    assert table.steps()
    table.add(table_records(second)[:3])  # match_start, game_start, the deal
    assert table.game_id == second.stem and not table.over
    assert len(table.steps()) == 1 and table.steps()[0]["text"].startswith("Hand 1 dealt")
