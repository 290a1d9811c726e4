"""Commands in namespaces of their own, where Ray runs in the tests: a user and network namespace with
only loopback up (and, with ``NETNS_PIDS``, process ids of its own, so what is left behind can be counted)."""

from __future__ import annotations

import os
import subprocess
import time
from pathlib import Path

# a shell in a fresh user and network namespace: loopback up, then the command
NETNS = ["unshare", "--user", "--map-root-user", "--net", "sh", "-c", 'ip link set lo up && exec "$@"', "netns"]
# the same, with process ids of its own too
NETNS_PIDS = [*NETNS[:4], "--pid", "--fork", "--mount-proc", *NETNS[4:]]


def in_netns(
    *argv: str, timeout: float = 400, namespaces: list[str] = NETNS, cwd: str | None = None
) -> subprocess.CompletedProcess[str]:
    """Run ``argv`` in ``namespaces`` to its end."""
    return subprocess.run([*namespaces, *argv], capture_output=True, text=True, timeout=timeout, check=False, cwd=cwd)


def others_here() -> list[str]:
    """The command lines of every other process in this process's pid namespace (but its init): run inside
    ``NETNS_PIDS``, what is left once the arena has exited."""
    mine = {os.getpid(), 1}
    out = []
    for entry in os.listdir("/proc"):
        if entry.isdigit() and int(entry) not in mine:
            try:
                out.append(Path(f"/proc/{entry}/cmdline").read_bytes().replace(b"\0", b" ").decode()[:120])
            except OSError:
                continue
    return [c for c in out if c.strip()]


def left_after(within_s: float = 20) -> list[str]:
    """``others_here()`` once it is empty, or as it is after ``within_s`` (exiting processes take a moment)."""
    deadline = time.monotonic() + within_s
    while (rest := others_here()) and time.monotonic() < deadline:
        time.sleep(0.2)
    return rest
