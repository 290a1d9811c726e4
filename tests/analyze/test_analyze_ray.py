"""``arena analyze --ray``: the hands as tasks on a real Ray, started here on loopback only.

Ray runs in a network namespace of its own (``unshare --net``, loopback up),
as the tournament's Ray tests run it, so nothing reaches any address but
127.0.0.1. The analysis must be the one a single process gives.
"""

from __future__ import annotations

import json
import subprocess
from pathlib import Path

import pytest

from referee.cli.app import Status
from tests.support.analyze import analyze_json
from tests.support.arena import ARENA

pytestmark = pytest.mark.slow

# a shell in a fresh user and network namespace: loopback up, then the command
NETNS = ["unshare", "--user", "--map-root-user", "--net", "sh", "-c", 'ip link set lo up && exec "$@"', "netns"]


def test_a_local_ray_gives_the_analysis_of_one_process(real_logs: dict[str, Path]) -> None:
    log = real_logs["hammerwalt"]
    args = [str(log), "--samples", "8", "--json"]
    run = subprocess.run(
        [*NETNS, str(ARENA), "analyze", *args, "--ray"], capture_output=True, text=True, timeout=600, check=False
    )
    assert run.returncode == 0, run.stderr
    on_ray = json.loads(run.stdout)
    here = analyze_json(*args, "--workers", "1")
    assert on_ray["where"].startswith("on Ray, 1 node(s), ")
    drop = ("seconds", "where")
    assert {k: v for k, v in on_ray.items() if k not in drop} == {k: v for k, v in here.items() if k not in drop}


def test_a_ray_that_is_not_there_is_one_line(real_logs: dict[str, Path]) -> None:
    run = subprocess.run(
        [*NETNS, str(ARENA), "analyze", str(real_logs["hammerwalt"]), "--ray", "127.0.0.1:9"],
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert run.returncode == Status.BAD_INPUT
    expected = (
        "error: --ray 127.0.0.1:9: no Ray head answers there (Connection refused); start one with `ray start --head`, "
        "or give --ray alone for a Ray on this machine"
    )
    assert run.stderr.strip().splitlines() == [expected]
