"""``arena ladder run --ray``: the tables on a local Ray started in a network namespace of its own (loopback
only, as tests/tournament/test_ray.py does); the coordinator alone writes the database."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tests.support.arena import ARENA, FIRST, RANDOM, RULES
from tests.support.ladder import ladder, make_ladder, rows, standings
from tests.support.netns import in_netns

pytestmark = pytest.mark.slow


def test_a_ladder_on_a_local_ray(tmp_path: Path) -> None:
    folder = tmp_path / "l"
    make_ladder(folder, RANDOM, FIRST, RULES)
    run = in_netns(ARENA, "ladder", "run", str(folder), "--ray", "--games", "9", "-j", "2")
    assert run.returncode == 0, run.stderr[-3000:]
    assert "2 table(s) on Ray, 1 node(s)" in run.stdout
    assert rows(folder, "SELECT COUNT(*) FROM games") == [(9,)]
    # the logs and the bots' output came back from the tables' scratch folders
    for (log,) in rows(folder, "SELECT log FROM games"):
        assert json.loads((folder / log).read_text().splitlines()[-1])["event"] == "match_end"
    assert any(p.name.startswith("table") for p in (folder / "bots").iterdir())
    data = standings(folder)
    assert data["meta"]["rated_sets"] == 3 and all(r["status"] == "active" for r in data["standings"])
    assert ladder("check", folder).returncode == 0
