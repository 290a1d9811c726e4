"""Issue 10, item 2: a bot in the sandbox cannot read the game logs or the tournament folder.

sbx_snoop reads every log it can reach from its own output file's folder,
./logs and the folder it is told, at its first decision. Bare (``--sandbox
off``) it reads the live log, which shows the probe works; in the sandbox it
reads none.
"""

from __future__ import annotations

import os
import re
import shutil
import sys
from pathlib import Path

import pytest

from tests.support.arena import QUICK, RANDOM, start
from tests.support.logs import only_log, results, seat_kind_penalty
from tests.support.processes import wait_for, wait_marker_gone
from tests.support.sandbox import hostile, marked, match, new_marker, output_of, tournament, verified

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
    assert seat_kind_penalty(verified(only_log(tmp_path))) == []


def test_a_bot_in_a_tournament_reads_no_log_in_the_sandbox(tmp_path: Path) -> None:
    folder = tmp_path / "t"
    run = tournament(folder, hostile("snoop", "sbx_snoop.py", str(folder)), RANDOM, extra=("-n", "4"))
    assert run.returncode == 0, run.stderr
    counts = reads(output_of(folder / "bots", "*snoop*"))
    assert counts and set(counts) == {0}
    for record in results(folder):
        assert record["violations"] == []
        verified(folder / record["log"])


@pytest.mark.skipif(shutil.which("unshare") is None, reason="util-linux's unshare is not installed")
def test_the_unshare_fallback_hides_the_logs_and_ends_what_the_bot_started(tmp_path: Path) -> None:
    tools = tmp_path / "bin"  # a PATH with unshare but no bwrap
    tools.mkdir()
    (tools / "unshare").symlink_to(shutil.which("unshare") or "unshare")
    env = {**os.environ, "PATH": f"{tools}{os.pathsep}{Path(sys.executable).parent}"}
    logs, marker = tmp_path / "logs", new_marker()
    bots = ["--bot", hostile("snoop", "sbx_snoop.py", str(logs)), "--bot", hostile("forker", "sbx_forker.py", marker)]
    proc = start("match", *QUICK, "--sandbox", "required", "--log-dir", str(logs), *bots, env=env)
    try:
        wait_for(lambda: len(marked(marker)) >= 6 or proc.poll() is not None, "the sleepers of both forker seats")
        assert len(marked(marker)) == 6, proc.communicate()
        _, err = proc.communicate(timeout=240)
    finally:
        proc.kill()
    assert proc.returncode == 0, err
    wait_marker_gone(marker)
    first_lines = {p.read_text().splitlines()[0] for p in logs.glob("match-*/*.stderr")}
    assert len(first_lines) == 2 and all(line.endswith("(in a unshare sandbox)") for line in first_lines)
    assert reads(output_of(logs, "*snoop.stderr")) == [0, 0]
    assert seat_kind_penalty(verified(only_log(logs))) == []
