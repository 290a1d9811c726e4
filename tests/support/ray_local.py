"""Run by tests/tournament/test_ray.py in namespaces of its own (loopback only, its own process ids): Ctrl-C on a
local Ray.

    python -m tests.support.ray_local FOLDER AFTER -- TOURNAMENT ARGS...   (from the repository's root)

Starts ``arena tournament --ray`` into FOLDER, sends SIGINT to its whole
process group (as a terminal's Ctrl-C does) once AFTER games are recorded,
then resumes it with ``--resume --ray``. Prints one JSON line: the exit
codes, the last line of the interrupted run's stderr, the games recorded at
the interruption, and the processes left (bots, Ray) after each run.
"""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

from tests.support.arena import ARENA
from tests.support.netns import left_after


def run() -> None:
    folder, after = Path(sys.argv[1]), int(sys.argv[2])
    args = sys.argv[sys.argv.index("--") + 1 :]
    results = folder / "results.jsonl"
    proc = subprocess.Popen(
        [ARENA, "tournament", *args, "--ray", "--out", str(folder)],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        process_group=0,
    )
    deadline = time.monotonic() + 300
    while not results.exists() or results.read_bytes().count(b"\n") < after:
        if proc.poll() is not None or time.monotonic() > deadline:
            raise SystemExit(f"the tournament did not get going: {proc.communicate()}")
        time.sleep(0.02)
    os.killpg(proc.pid, signal.SIGINT)
    _, err = proc.communicate(timeout=120)
    recorded = results.read_bytes().count(b"\n")
    left_interrupted = left_after()
    resumed = subprocess.run(
        [ARENA, "tournament", "--resume", "--ray", "--out", str(folder)], capture_output=True, text=True, check=False
    )
    summary = {
        "interrupted": proc.returncode,
        "message": err.strip().splitlines()[-1],
        "recorded": recorded,
        "left_interrupted": left_interrupted,
        "resumed": resumed.returncode,
        "resumed_out": resumed.stdout.splitlines()[:1],
        "resumed_err": resumed.stderr[-2000:] if resumed.returncode else "",
        "left_resumed": left_after(),
    }
    print(json.dumps(summary), flush=True)


if __name__ == "__main__":
    run()
