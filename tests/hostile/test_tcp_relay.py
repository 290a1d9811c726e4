"""Issue 19: a bot whose gRPC library cannot dial a Unix socket still plays, given ``--tcp NAME``.

In the sandbox its ARENA_ADDRESS is 127.0.0.1:50051 in its own network
namespace, a relay there forwarding to its seat's socket; without the
sandbox, a port of its seat's own. Without ``--tcp`` such a bot cannot start,
which shows the check can fail.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from tests.support.arena import RANDOM, arena
from tests.support.logs import only_log, seat_kind_penalty
from tests.support.sandbox import hostile, output_of, verified

TCP_ONLY = hostile("tcponly", "tcp_only_bot.py")
QUICK = ["--preset", "double-deck", "--rule", "hand_limit=2", "--move-time", "2000"]


@pytest.mark.parametrize("sandbox", ["required", "off"])
def test_a_bot_that_needs_tcp_plays_through_its_own_port(tmp_path: Path, sandbox: str) -> None:
    run = arena("match", *QUICK, "--sandbox", sandbox, "--log-dir", str(tmp_path), "--bot", TCP_ONLY, "--bot", RANDOM,
                "--tcp", "tcponly")  # fmt: skip
    assert run.returncode == 0, run.stderr
    addresses = re.findall(r"tcp_only_bot: ARENA_ADDRESS=(\S+)", output_of(tmp_path, "*tcponly.stderr"))
    assert len(addresses) == 2
    if sandbox == "required":
        assert addresses == ["127.0.0.1:50051"] * 2  # each in a network of its own: one port serves all
    else:
        assert all(re.fullmatch(r"127\.0\.0\.1:\d+", a) for a in addresses) and len(set(addresses)) == 2
    records = verified(only_log(tmp_path))
    assert seat_kind_penalty(records) == []
    assert sum(r["event"] == "play" for r in records) > 0


def test_without_tcp_such_a_bot_cannot_start(tmp_path: Path) -> None:
    run = arena("match", *QUICK, "--log-dir", str(tmp_path), "--bot", TCP_ONLY, "--bot", RANDOM)
    assert run.returncode == 1
    assert "exited with code 3 before connecting" in run.stderr
    assert "cannot dial a unix: target" in run.stderr
