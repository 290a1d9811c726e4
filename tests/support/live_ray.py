"""Run by tests/report/test_live.py in namespaces of its own (loopback only, its own process ids): ``arena tournament
--ray --live 0`` into FOLDER, watched over HTTP as a page would watch it.

    python -m tests.support.live_ray FOLDER -- TOURNAMENT ARGS...   (from the repository's root)

Reads table 1's events (the game in play, from a Ray actor) and the report's (games as they end) until
the run ends, then prints one JSON line: the exit code, the events seen, the steps received and the
processes left in the namespace.
"""

from __future__ import annotations

import json
import re
import subprocess
import sys
import threading
import time
import urllib.error
import urllib.request
from pathlib import Path

from tests.support.arena import ARENA
from tests.support.netns import left_after


def events(url: str, seen: dict[str, int], counts: dict[str, int]) -> None:
    """Read a Server-Sent Events stream until it ends, counting events by name."""
    try:
        with urllib.request.urlopen(url, timeout=300) as stream:
            name = ""
            for raw in stream:
                line = raw.decode().rstrip("\n")
                if line.startswith("event: "):
                    name = line[7:]
                    seen[name] = seen.get(name, 0) + 1
                elif line.startswith("data: ") and name in ("game", "more"):
                    data = json.loads(line[6:])
                    counts["steps"] += len(data["steps"]) if name == "game" else len(data)
                elif line.startswith("data: ") and name == "games":
                    counts["report_games"] += len(json.loads(line[6:])["rows"])
                if name == "over":
                    return
    except (OSError, urllib.error.URLError):
        return


def main() -> None:
    folder = Path(sys.argv[1])
    args = sys.argv[sys.argv.index("--") + 1 :]
    proc = subprocess.Popen(
        [ARENA, "tournament", *args, "--ray", "--live", "0", "--out", str(folder)],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    assert proc.stdout is not None
    url = None
    for line in proc.stdout:
        found = re.search(r"live view: (\S+)", line)
        if found:
            url = found.group(1)
            break
    if url is None:
        raise SystemExit(f"no live view: {proc.communicate()}")
    seen_table: dict[str, int] = {}
    seen_report: dict[str, int] = {}
    counts = {"steps": 0, "report_games": 0}
    deadline = time.monotonic() + 200
    while True:  # table 1 has a page once its actor has sent the first records
        try:
            urllib.request.urlopen(url + "tables/1", timeout=5).close()
            break
        except urllib.error.HTTPError:
            if time.monotonic() > deadline or proc.poll() is not None:
                raise SystemExit("table 1 never began") from None
            time.sleep(0.2)
    readers = [
        threading.Thread(target=events, args=(url + "tables/1/events?game=x&steps=0", seen_table, counts)),
        threading.Thread(target=events, args=(url + "events?games=0", seen_report, counts)),
    ]
    for r in readers:
        r.start()
    _, err = proc.communicate(timeout=300)
    for r in readers:
        r.join(30)
    rest = left_after()
    print(
        json.dumps(
            {
                "exit": proc.returncode,
                "err": err[-1500:] if proc.returncode else "",
                "table_events": seen_table,
                "report_events": seen_report,
                **counts,
                "left": rest,
            }
        ),
        flush=True,
    )


if __name__ == "__main__":
    main()
