"""Issue 10, item 3: a bot in the sandbox cannot see or signal other bots or the referee.

sbx_killer SIGKILLs, at its first decision, every process it can see of the
same referee (other bots by their ARENA_ADDRESS, the referee and launchers by
a marker in their command line). In the sandbox it sees none: the referee
stays up, no bot is charged, on any table. It only runs with ``--sandbox
required``: bare it would kill them.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from tests.support.arena import FIRST, RANDOM
from tests.support.logs import only_log, results, seat_kind_penalty
from tests.support.processes import wait_marker_gone
from tests.support.sandbox import POLICIES, hostile, match, new_marker, output_of, tournament, verified

KILLED = re.compile(r"sbx_killer: killed (\d+)")


@pytest.mark.parametrize("policy", POLICIES)
def test_a_bot_in_a_match_kills_nobody(tmp_path: Path, policy: str) -> None:
    marker = new_marker()
    run = match(tmp_path, hostile("killer", "sbx_killer.py", marker), RANDOM, policy=policy)
    assert run.returncode == 0, run.stderr
    assert KILLED.findall(output_of(tmp_path, "*killer.stderr")) == ["0", "0"]
    records = verified(only_log(tmp_path))
    assert seat_kind_penalty(records) == []
    assert "forfeit" not in [r["reason"] for r in records if r["event"] == "game_end"]
    wait_marker_gone(marker)


def test_a_bot_in_a_tournament_kills_nobody_at_any_table(tmp_path: Path) -> None:
    marker = new_marker()
    folder = tmp_path / "t"
    run = tournament(folder, hostile("killer", "sbx_killer.py", marker), RANDOM, FIRST, extra=("-n", "2"))
    assert run.returncode == 0, run.stderr
    kills = KILLED.findall(output_of(folder / "bots", "*killer*"))
    assert kills and set(kills) == {"0"}
    recs = results(folder)
    assert len(recs) == 6
    for record in recs:  # every table, every bot: nothing charged
        assert record["violations"] == [] and record["forfeit"] is None
        verified(folder / record["log"])
    wait_marker_gone(marker)
