"""Issue 10, item 2: a bot in the sandbox cannot read the game logs or the tournament folder.

sbx_snoop reads every log it can reach from its own output file's folder,
./logs and the folder it is told, at its first decision. Bare (``--sandbox
off``) it reads the live log, which shows the probe works; in the sandbox it
reads none.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from .sandbox_helpers import RANDOM, hostile, match, match_log, output_of, results, tournament, verified, violations

READ = re.compile(r"sbx_snoop: read (\d+) log file")


def reads(text: str) -> list[int]:
    return [int(n) for n in READ.findall(text)]


@pytest.mark.parametrize("sandbox", ["required", "off"])
def test_a_bot_in_a_match_reads_no_log_in_the_sandbox(tmp_path: Path, sandbox: str) -> None:
    run = match(tmp_path, hostile("snoop", "sbx_snoop.py", str(tmp_path)), RANDOM, sandbox=sandbox)
    assert run.returncode == 0, run.stderr
    counts = reads(output_of(tmp_path, "*snoop.stderr"))
    assert len(counts) == 2  # both seats of its team looked
    if sandbox == "required":
        assert counts == [0, 0]
    else:
        assert min(counts) >= 1  # bare, the same bot reads the live game log
    assert violations(verified(match_log(tmp_path))) == []


def test_a_bot_in_a_tournament_reads_no_log_in_the_sandbox(tmp_path: Path) -> None:
    folder = tmp_path / "t"
    run = tournament(folder, hostile("snoop", "sbx_snoop.py", str(folder)), RANDOM, extra=("-n", "4"))
    assert run.returncode == 0, run.stderr
    counts = reads(output_of(folder / "bots", "*snoop*"))
    assert counts and set(counts) == {0}
    for record in results(folder):
        assert record["violations"] == []
        verified(folder / record["log"])
