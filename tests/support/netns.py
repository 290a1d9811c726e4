"""Commands in namespaces of their own, where Ray runs in the tests: a user and network namespace with
only loopback up (and, with ``NETNS_PIDS``, process ids of its own, so what is left behind can be counted)."""

from __future__ import annotations

import subprocess

# a shell in a fresh user and network namespace: loopback up, then the command
NETNS = ["unshare", "--user", "--map-root-user", "--net", "sh", "-c", 'ip link set lo up && exec "$@"', "netns"]
# the same, with process ids of its own too
NETNS_PIDS = [*NETNS[:4], "--pid", "--fork", "--mount-proc", *NETNS[4:]]


def in_netns(
    *argv: str, timeout: float = 400, namespaces: list[str] = NETNS, cwd: str | None = None
) -> subprocess.CompletedProcess[str]:
    """Run ``argv`` in ``namespaces`` to its end."""
    return subprocess.run([*namespaces, *argv], capture_output=True, text=True, timeout=timeout, check=False, cwd=cwd)
