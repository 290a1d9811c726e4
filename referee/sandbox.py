"""The sandbox a bot process runs in: namespaces made without root, and resource limits.

``resolve(mode, hidden=...)`` finds how to make a sandbox on this machine
(bubblewrap, else util-linux ``unshare``), checks once that the kernel really
lets this user make one, and returns a ``Sandbox`` (or None: ``off``, or
``auto`` where none can be made, with a one-line warning). ``BotProcess``
(referee/bots.py) puts ``sandbox.wrap(argv)`` in front of the bot's command and
``limits.apply()`` in the child before it runs.

Inside, a bot has its own user, PID, mount, IPC and UTS namespaces:

- everything it starts (``setsid``, double forks) lives in its PID namespace,
  which the kernel empties when its first process dies; that process dies
  with the launcher, and the launcher with the referee (PR_SET_PDEATHSIG), so
  nothing outlives the bot or the referee, even after kill -9;
- it sees and can signal only its own processes (a fresh /proc);
- the file system is read-only; the folders it must not read (the game logs,
  the tournament folder) are covered with an empty tmpfs, and /tmp is a
  private tmpfs of ``ResourceLimits.tmp_bytes``. Its stdout and stderr are a file the
  referee opened, so it needs no path to that folder;
- the network is shared: it reaches the referee on 127.0.0.1.

See docs/security.md for what each limit really bounds.
"""

from __future__ import annotations

import dataclasses
import enum
import os
import resource
import shutil
import subprocess
import sys
from collections.abc import Sequence
from dataclasses import dataclass
from functools import cache
from pathlib import Path

# Where the helpers of the ``unshare`` fallback are looked for after PATH.
_SYSTEM_DIRS = "/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin"

MIB = 1024 * 1024


class SandboxMode(str, enum.Enum):
    """``auto``: a sandbox where one can be made, else a warning; ``required``: refuse without; ``off``."""

    AUTO = "auto"
    REQUIRED = "required"
    OFF = "off"


class SandboxUnavailable(RuntimeError):
    """No sandbox can be made here and the mode requires one; the message says why."""


@dataclass(frozen=True)
class ResourceLimits:
    """Resource limits of one bot process (rlimits; see docs/security.md for what each bounds)."""

    memory_bytes: int = 2048 * MIB  # RLIMIT_AS of each of its processes
    processes: int = 256  # RLIMIT_NPROC, set inside the sandbox's own user namespace (threads count)
    output_bytes: int = 16 * MIB  # RLIMIT_FSIZE: its output file, and any file it writes
    tmp_bytes: int = 64 * MIB  # size of its private /tmp (sandbox only)

    def apply(self) -> None:
        """In the child before exec: limits that need no sandbox (memory, file size), never above a
        limit the referee itself was given."""
        for which, value in ((resource.RLIMIT_AS, self.memory_bytes), (resource.RLIMIT_FSIZE, self.output_bytes)):
            _, hard = resource.getrlimit(which)
            value = value if hard == resource.RLIM_INFINITY else min(value, hard)
            resource.setrlimit(which, (value, value))


@dataclass(frozen=True)
class Sandbox:
    """How to wrap a bot's command: ``tool`` is bwrap or unshare, ``hidden`` the folders to cover."""

    kind: str  # "bwrap" or "unshare"
    tool: str
    hidden: tuple[Path, ...] = ()
    limits: ResourceLimits = ResourceLimits()
    writable: tuple[Path, ...] = ()  # folders the bot may write in (none unless the arena's owner says so)

    def with_hidden(self, *folders: Path) -> Sandbox:
        """The same sandbox, covering these folders too."""
        extra = tuple(Path(os.path.abspath(f)) for f in folders)
        return dataclasses.replace(self, hidden=self.hidden + extra)

    def with_writable(self, *folders: Path) -> Sandbox:
        """The same sandbox, letting the bot write in these (existing) folders, even inside a hidden one."""
        extra = tuple(Path(os.path.abspath(f)) for f in folders)
        return dataclasses.replace(self, writable=self.writable + extra)

    def wrap(self, argv: Sequence[str], cwd: str | None = None) -> list[str]:
        """The command line that runs ``argv`` inside the sandbox (in ``cwd``, default the current folder).

        Besides ``hidden``, the arena's default log folder (``logs/`` where
        the bot runs) is covered: it holds the logs of other matches.
        """
        cwd = os.path.abspath(cwd or os.getcwd())
        default_logs = Path(cwd, "logs")
        if default_logs.is_dir() and default_logs not in self.hidden:
            self = dataclasses.replace(self, hidden=(*self.hidden, default_logs))
        if self.kind == "bwrap":
            return self._bwrap(argv, cwd)
        return self._unshare(argv, cwd)

    def _bwrap(self, argv: Sequence[str], cwd: str) -> list[str]:
        cmd = [
            self.tool,
            "--unshare-user", "--unshare-pid", "--unshare-ipc", "--unshare-uts", "--unshare-cgroup-try",
            "--die-with-parent",
            "--cap-drop", "ALL",
            "--ro-bind", "/", "/",
            "--dev", "/dev",
            "--proc", "/proc",
            "--size", str(self.limits.tmp_bytes), "--tmpfs", "/tmp",
        ]  # fmt: skip
        for folder in _kept(cwd):  # the private /tmp would hide these: give them back, read-only
            cmd += ["--ro-bind", folder, folder]
        for folder in self.hidden:
            if os.path.isdir(folder):  # bwrap cannot make a mount point in the read-only root
                cmd += ["--tmpfs", str(folder)]
        for folder in self.writable:
            cmd += ["--bind", str(folder), str(folder)]
        cmd += ["--chdir", cwd, "--", *_nproc(self.limits.processes), *argv]
        return cmd

    def _unshare(self, argv: Sequence[str], cwd: str) -> list[str]:
        # unshare maps the user to root of the new namespace, mounts, then drops every
        # capability for good before the bot runs, so it cannot undo the mounts.
        # the bot's own folder, or one it may write in, under /tmp: leave /tmp as it is
        private_tmp = not _kept(cwd) and not any(_under(str(p), "/tmp") for p in self.writable)
        covered = [
            f
            for f in self.hidden
            if not (private_tmp and _under(str(f), "/tmp"))
            and os.path.isdir(f)
            and not any(_under(str(w), str(f)) for w in self.writable)  # no bind-back here: leave it visible
        ]
        mount = _sh_quote(_helper("mount"))
        mounts = [f"{mount} -t tmpfs -o size=1m tmpfs {_sh_quote(str(f))}" for f in covered]
        if private_tmp:
            mounts.append(f"{mount} -t tmpfs -o size={self.limits.tmp_bytes} tmpfs /tmp")
        script = " && ".join([*mounts, 'cd "$0"', 'exec "$@"'])
        setpriv = [
            _helper("setpriv"),
            "--no-new-privs", "--inh-caps=-all", "--bounding-set=-all",
            "--securebits=+noroot,+noroot_locked,+no_setuid_fixup,+no_setuid_fixup_locked",
        ]  # fmt: skip
        return [
            self.tool,
            "--user", "--map-root-user", "--pid", "--fork", "--kill-child", "--mount", "--mount-proc",
            "--ipc", "--uts", "--propagation", "private",
            "--", _helper("sh"), "-c", script, cwd, *_nproc(self.limits.processes), *setpriv, "--", *argv,
        ]  # fmt: skip


def _nproc(processes: int) -> list[str]:
    """RLIMIT_NPROC set inside the sandbox: there it counts the processes of its own user namespace."""
    return [_helper("prlimit"), f"--nproc={processes}:{processes}", "--"]


# where the arena's own code lives: the folder holding the ``referee`` package (an editable install's
# project, or site-packages), which ``python -m example_bots...`` imports from
_ARENA_CODE = str(Path(__file__).resolve().parent.parent)


def _kept(cwd: str) -> list[str]:
    """What a bot needs that may lie under /tmp (a checkout or a Ray working folder there): its own
    folder, the arena's Python (its virtualenv) and the arena's code. Only those under /tmp are listed."""
    out: list[str] = []
    for folder in (cwd, sys.prefix, _ARENA_CODE):
        folder = os.path.abspath(folder)
        if _under(folder, "/tmp") and os.path.isdir(folder) and folder not in out:
            out.append(folder)
    return out


def _under(path: str, folder: str) -> bool:
    return path == folder or path.startswith(folder.rstrip("/") + "/")


def _sh_quote(text: str) -> str:
    return "'" + text.replace("'", "'\"'\"'") + "'"


def _helper(name: str) -> str:
    found = shutil.which(name, path=os.environ.get("PATH", "") + os.pathsep + _SYSTEM_DIRS)
    return found or name


def resolve(
    mode: SandboxMode, *, hidden: Sequence[Path] = (), limits: ResourceLimits = ResourceLimits()
) -> tuple[Sandbox | None, str]:
    """The sandbox for ``mode`` on this machine, and a warning ('' when none is due).

    ``required`` raises SandboxUnavailable where none can be made; ``auto``
    then returns None and the one-line warning to print.
    """
    mode = SandboxMode(mode)
    if mode is SandboxMode.OFF:
        return None, ""
    found, why = find()
    if found is None:
        if mode is SandboxMode.REQUIRED:
            raise SandboxUnavailable(f"--sandbox required: no sandbox can be made here: {why}")
        return None, f"warning: bots run without a sandbox ({why}); see docs/security.md"
    return Sandbox(found.kind, found.tool, limits=limits).with_hidden(*hidden), ""


def default_sandbox() -> Sandbox | None:
    """What ``auto`` gives, without the warning: the default of a ``Match`` or ``Tournament`` made in code."""
    return resolve(SandboxMode.AUTO)[0]


def find() -> tuple[Sandbox | None, str]:
    """The first tool on PATH that makes a working sandbox here, or None and why not."""
    found = candidates()
    for sandbox, problem in found:
        if sandbox is not None:
            return sandbox, ""
    reasons = [problem for _, problem in found]
    if all(r.endswith("not found") for r in reasons):
        reasons = ["neither bwrap (Debian package bubblewrap) nor unshare (util-linux) is on PATH"]
    return None, "; ".join(reasons)


def candidates() -> list[tuple[Sandbox | None, str]]:
    """Each way to make a sandbox, best first: the sandbox where it works here, else None and why not."""
    out: list[tuple[Sandbox | None, str]] = []
    for kind in ("bwrap", "unshare"):
        tool = shutil.which(kind)
        problem = "not found" if tool is None else _probe(kind, tool)
        works = tool is not None and not problem
        out.append((Sandbox(kind, tool) if works else None, problem and f"{kind}: {problem}"))
    return out


@cache
def _probe(kind: str, tool: str) -> str:
    """'' when ``tool`` makes a sandbox on this kernel for this user (tried once per process), else why not."""
    argv = Sandbox(kind, tool).wrap([_helper("true")], cwd="/")
    try:
        done = subprocess.run(argv, capture_output=True, timeout=20, stdin=subprocess.DEVNULL, check=False)
    except (OSError, subprocess.TimeoutExpired) as exc:
        return str(exc)
    if done.returncode == 0:
        return ""
    lines = done.stderr.decode(errors="replace").strip().splitlines()
    return lines[-1] if lines else f"exit status {done.returncode}"
