"""The run folder (referee.runfolder): its file names, and the one way a file is written into it (whole or not at
all)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

import referee
from referee.runfolder import PART, RunFolder, write_atomically, write_json


def test_a_file_is_written_whole_and_replaces_the_old_one(tmp_path: Path) -> None:
    path = tmp_path / "standings.json"
    path.write_text("old\n")
    write_json(path, {"a": [1, 2]})
    assert path.read_text() == '{\n  "a": [\n    1,\n    2\n  ]\n}\n'
    write_atomically(path, b"bytes", sync=True, suffix=PART)
    assert path.read_bytes() == b"bytes"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["standings.json"]  # no temporary file left


def test_a_write_that_fails_leaves_the_old_file(tmp_path: Path) -> None:
    path = tmp_path / "report.html"
    path.write_text("the old report")
    (tmp_path / "report.html.tmp").mkdir()  # the temporary file cannot be made
    with pytest.raises(IsADirectoryError):
        write_atomically(path, "the new report")
    assert path.read_text() == "the old report"


def test_the_folder_names_its_files(tmp_path: Path) -> None:
    folder = RunFolder(tmp_path)
    assert folder.log("g0007") == tmp_path / "games" / "g0007.jsonl"
    assert folder.replay("g0007") == tmp_path / "replays" / "g0007.html"
    names = [folder.settings, folder.results, folder.sprt, folder.sprt_result, folder.analysis, folder.report]
    assert [p.name for p in names] == [
        "settings.json",
        "results.jsonl",
        "sprt.json",
        "sprt-result.json",
        "analysis.json",
        "report.html",
    ]
    assert not folder.holds_run()
    folder.create({"settings_format": 1})
    assert folder.holds_run() and folder.saved_settings() == {"settings_format": 1}


def test_only_the_run_folder_puts_files_in_place() -> None:
    """One atomic write: nothing else in the arena renames a file over another (the game log writer appends)."""
    source = Path(referee.__file__).parent
    renames = re.compile(r"\bos\.(replace|rename)\(|\.replace\(\s*(page_path|path|final|out)\b|shutil\.move\(")
    found = sorted(
        str(p.relative_to(source)) for p in source.rglob("*.py") if renames.search(p.read_text(encoding="utf-8"))
    )
    # and the store of frozen versions, which renames a whole new folder into its place (never over another)
    assert found == ["frozen/store.py", "runfolder.py"]


def test_a_players_output_files_are_its_own_and_not_those_of_a_name_that_holds_its_own(tmp_path: Path) -> None:
    folder = RunFolder(tmp_path)
    folder.bots.mkdir(parents=True)
    names = [
        "table1.x.v1.0.stderr",  # x.v1 itself
        "table2.x.v1.c2.1.stderr",  # a copy of it (its validation game)
        "table1.y.x.v1.0.stderr",  # the bot y.x: another member's
        "table1.x.v1.z.v1.0.stderr",  # the bot x.v1.z
        "table1.x.v10.0.stderr",  # another version
    ]
    for name in names:
        (folder.bots / name).write_text(name)
    assert {p.name for p in folder.outputs("x.v1")} == {names[0]}
    assert {p.name for p in folder.outputs("x.v1", copies=True)} == set(names[:2])
    assert folder.last_output("x.v1") == folder.bots / names[0]
