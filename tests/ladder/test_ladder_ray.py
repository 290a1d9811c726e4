"""``arena ladder run --ray``: the tables on a local Ray started in a network namespace of its own (loopback
only, as tests/tournament/test_ray.py does); the coordinator alone writes the database; a frozen version
travels to the node in Ray's object store, and the node runs its own unpacked copy."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest

from tests.support.arena import ARENA, FIRST, RANDOM, RULES
from tests.support.ladder import ladder, make_ladder, marks, my_bot, rows, standings
from tests.support.netns import in_netns

pytestmark = pytest.mark.slow


def test_a_ladder_on_a_local_ray(tmp_path: Path) -> None:
    folder = tmp_path / "l"
    author = my_bot(tmp_path / "mybot", "shipped")
    make_ladder(folder, RANDOM, FIRST, RULES, f"mine={sys.executable} {author / 'bot.py'}")
    (frozen,) = rows(folder, "SELECT frozen FROM versions WHERE bot = 'mine'")[0]
    run = in_netns(ARENA, "ladder", "run", str(folder), "--ray", "--games", "10", "-j", "2")
    assert run.returncode == 0, run.stderr[-3000:]
    assert "2 table(s) on Ray, 1 node(s)" in run.stdout
    assert rows(folder, "SELECT COUNT(*) FROM games") == [(10,)]
    # the logs and the bots' output came back from the tables' scratch folders
    for (log,) in rows(folder, "SELECT log FROM games"):
        assert json.loads((folder / log).read_text().splitlines()[-1])["event"] == "match_end"
    assert any(p.name.startswith("table") for p in (folder / "bots").iterdir())
    data = standings(folder)
    assert data["meta"]["rated_sets"] == 3 and all(r["status"] == "active" for r in data["standings"])
    ran = {line.rsplit(" from ", 1)[1] for line in marks(folder)}  # where its bot.py was, on the node
    assert ran and all(f"/arena-frozen/{frozen}/files/bot.py" in path for path in ran), ran
    assert ladder("check", folder).returncode == 0
