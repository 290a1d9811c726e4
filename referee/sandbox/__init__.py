"""The sandbox a bot process runs in: namespaces made without root, and resource limits.

``resolve(mode, hidden=...)`` finds how to make a sandbox on this machine
(bubblewrap, else util-linux ``unshare`` with this package's launcher), checks
once that it really works here for this user, and returns a ``Sandbox`` (or
None: ``off``, or ``auto`` where none can be made, with a one-line warning).
``BotProcess`` (referee/bots.py) puts ``sandbox.wrap(argv, socket=...)`` in
front of the bot's command and ``limits.apply()`` in the child before it runs.

Inside, a bot has its own user, PID, mount, network, IPC and UTS namespaces:

- everything it starts (``setsid``, double forks) lives in its PID namespace,
  which the kernel empties when its first process dies; that process dies
  with the launcher, and the launcher with the referee (PR_SET_PDEATHSIG), so
  nothing outlives the bot or the referee, even after kill -9;
- it sees and can signal only its own processes (a fresh /proc);
- its network has only a loopback of its own: no socket of any kind (TCP,
  UDP, abstract Unix) reaches another bot or the machine; the referee is
  reached through the seat's Unix socket, bound into the sandbox
  (``referee.server``), or through a relay on 127.0.0.1 inside (``relay.py``);
- the file system is read-only; /tmp, /var/tmp, /dev/shm and /run are empty
  private tmpfs; the folders it must not read (the game logs, the tournament
  folder, the other seats' sockets) are covered; the files its command line
  names are visible wherever they lie (``layout.py`` has the whole plan). Its
  stdout and stderr are a file the referee opened, so it needs no path to it.

See docs/security.md for what each limit really bounds, and what is left.
"""

from __future__ import annotations

import atexit
import dataclasses
import enum
import json
import os
import resource
import shutil
import socket as _socket
import subprocess
import sys
import tempfile
from collections.abc import Sequence
from dataclasses import dataclass
from functools import cache
from pathlib import Path

from referee.errors import ArenaError
from referee.sandbox import layout, seccomp

# Where the helpers of the ``unshare`` fallback are looked for after PATH.
_SYSTEM_DIRS = "/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin"

MIB = 1024 * 1024


class SandboxMode(enum.StrEnum):
    """``auto``: a sandbox where one can be made, else a warning; ``required``: refuse without; ``off``."""

    AUTO = "auto"
    REQUIRED = "required"
    OFF = "off"


class SandboxUnavailable(ArenaError, RuntimeError):
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
    readable: tuple[Path, ...] = ()  # folders given back read-only, even inside a hidden one (its frozen copy)

    def with_hidden(self, *folders: Path) -> Sandbox:
        """The same sandbox, covering these folders too."""
        extra = tuple(Path(os.path.abspath(f)) for f in folders)
        return dataclasses.replace(self, hidden=self.hidden + extra)

    def with_writable(self, *folders: Path) -> Sandbox:
        """The same sandbox, letting the bot write in these (existing) folders, even inside a hidden one."""
        extra = tuple(Path(os.path.abspath(f)) for f in folders)
        return dataclasses.replace(self, writable=self.writable + extra)

    def with_readable(self, *folders: Path) -> Sandbox:
        """The same sandbox, letting the bot read these folders, even inside a hidden one (a ladder's frozen
        copy of the bot's own version, in the ladder's folder)."""
        extra = tuple(Path(os.path.abspath(f)) for f in folders)
        return dataclasses.replace(self, readable=self.readable + extra)

    def wrap(
        self,
        argv: Sequence[str],
        cwd: str | None = None,
        *,
        socket: str | None = None,
        relay_port: int | None = None,
        search_path: str | None = None,
        seccomp_fd: int | None = None,
    ) -> list[str]:
        """The command line that runs ``argv`` inside the sandbox (in ``cwd``, default the current folder).

        ``socket``: the seat's Unix socket, the bot's one way to the referee,
        bound at the same path. ``relay_port``: a relay listens on
        127.0.0.1:PORT inside and forwards to ``socket`` (for gRPC libraries
        that cannot dial a Unix socket). ``search_path``: the PATH the bot's
        program is found on (its file is then kept visible wherever it lies).
        ``seccomp_fd``: for bubblewrap, a descriptor the child inherits holding
        the filter of ``seccomp.program()`` (``seccomp.memfd()``); the unshare
        launcher is given the filter on its command line.
        """
        cwd = os.path.abspath(cwd or os.getcwd())
        inner = _nproc(self.limits.processes)
        if self.kind == "unshare":
            inner += [*_setpriv(), "--"]
        helpers = [inner[0]] + ([_setpriv()[0]] if self.kind == "unshare" else [])
        if relay_port is not None:
            if socket is None:
                raise ValueError("a relay needs the seat's socket")
            inner += [sys.executable, "-I", "-S", str(_HERE / "relay.py"), str(relay_port), socket]
            helpers += [sys.executable]
        plan = layout.plan(
            argv,
            cwd,
            hidden=self.hidden,
            writable=self.writable,
            readable=self.readable,
            socket=socket,
            helpers=helpers,
            search_path=search_path,
            masks=_still_proc(),
        )
        if self.kind == "bwrap":
            return [*_bwrap(self.tool, plan, self.limits, seccomp_fd), *inner, *argv]
        return [*_unshare(self.tool, plan, self.limits, loopback=relay_port is not None), *inner, *argv]


_HERE = Path(__file__).resolve().parent


def _bwrap(tool: str, plan: layout.Layout, limits: ResourceLimits, seccomp_fd: int | None) -> list[str]:
    """bubblewrap's options for ``plan`` (see referee/sandbox/layout.py), up to the ``--`` before the command."""
    cmd = [
        tool,
        "--unshare-user", "--unshare-pid", "--unshare-ipc", "--unshare-uts", "--unshare-net", "--unshare-cgroup-try",
        "--die-with-parent",
        "--cap-drop", "ALL",
        "--ro-bind", "/", "/",
        "--dev", "/dev",
        "--proc", "/proc",
    ]  # fmt: skip
    for place in plan.private:
        cmd += ["--size", str(limits.tmp_bytes), "--tmpfs", place]
    for folder in plan.keep:
        cmd += ["--ro-bind", folder, folder]
    for folder in plan.hide:
        cmd += ["--size", "65536", "--tmpfs", folder]
    for path in plan.files:
        cmd += ["--ro-bind", path, path]
    for folder in plan.readable:
        cmd += ["--ro-bind", folder, folder]
    if plan.socket is not None:
        cmd += ["--bind", plan.socket, plan.socket]
    for folder in plan.writable:
        cmd += ["--bind", folder, folder]
    for folder in plan.hide:
        cmd += ["--remount-ro", folder]
    for target, copy in plan.masks:
        cmd += ["--ro-bind", copy, target]
    if seccomp_fd is not None:
        cmd += ["--seccomp", str(seccomp_fd)]
    return [*cmd, "--chdir", plan.cwd, "--"]


def _unshare(tool: str, plan: layout.Layout, limits: ResourceLimits, *, loopback: bool) -> list[str]:
    """util-linux unshare makes the namespaces; the launcher (as root of the new user namespace) mounts
    ``plan``, then the command drops every capability for good (setpriv) before the bot runs, so it
    cannot undo the mounts."""
    spec = {
        **dataclasses.asdict(plan),
        "tmp_bytes": limits.tmp_bytes,
        "loopback": loopback,
        "seccomp": (seccomp.program() or b"").hex(),
    }
    return [
        tool,
        "--user", "--map-root-user", "--pid", "--fork", "--kill-child", "--mount", "--mount-proc",
        "--net", "--ipc", "--uts", "--propagation", "private",
        "--", sys.executable, "-I", "-S", str(_HERE / "launcher.py"), json.dumps(spec),
    ]  # fmt: skip


@cache
def _still_proc() -> tuple[tuple[str, str], ...]:
    """The still copies of the /proc files every sandbox of this process shows (``layout.MASKED_PROC``),
    taken at the first call, in a folder removed at exit."""
    folder = tempfile.mkdtemp(prefix="arena-proc-")
    os.chmod(folder, 0o755)  # what /proc shows every user (the launcher may run as another: tests do)
    atexit.register(shutil.rmtree, folder, True)
    return layout.still_copies(folder)


def _setpriv() -> list[str]:
    return [
        _helper("setpriv"),
        "--no-new-privs", "--inh-caps=-all", "--bounding-set=-all",
        "--securebits=+noroot,+noroot_locked,+no_setuid_fixup,+no_setuid_fixup_locked",
    ]  # fmt: skip


def _nproc(processes: int) -> list[str]:
    """RLIMIT_NPROC set inside the sandbox: there it counts the processes of its own user namespace."""
    return [_helper("prlimit"), f"--nproc={processes}:{processes}", "--"]


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
    for sandbox, _ in found:
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
        sandbox = Sandbox(kind, tool) if tool is not None and not problem else None
        out.append((sandbox, problem and f"{kind}: {problem}"))
    return out


@cache
def _probe(kind: str, tool: str) -> str:
    """'' when ``tool`` makes a whole sandbox here, for this user (tried once per process), else why not.

    The trial runs a shell in the sandbox with a seat socket bound in: the
    socket must be there, the root read-only, and a file beside the socket
    (in a hidden or private place) out of sight.
    """
    with tempfile.TemporaryDirectory(prefix="arena-probe-") as folder, _socket.socket(_socket.AF_UNIX) as sock:
        path = os.path.join(folder, "seat.sock")
        sock.bind(path)
        sock.listen(1)
        marker = os.path.join(folder, "marker")
        Path(marker).touch()
        check = 'test -S "$ARENA_PROBE_SOCKET" && ! test -w / && ! test -e "$ARENA_PROBE_MARKER"'
        fd = seccomp.memfd() if kind == "bwrap" else None
        argv = Sandbox(kind, tool).wrap([_helper("sh"), "-c", check], cwd="/", socket=path, seccomp_fd=fd)
        env = {**os.environ, "ARENA_PROBE_SOCKET": path, "ARENA_PROBE_MARKER": marker}
        try:
            done = subprocess.run(
                argv, capture_output=True, timeout=20, stdin=subprocess.DEVNULL, check=False, env=env,
                pass_fds=() if fd is None else (fd,),
            )  # fmt: skip
        except (OSError, subprocess.TimeoutExpired) as exc:
            return str(exc)
        finally:
            if fd is not None:
                os.close(fd)
    if done.returncode == 0:
        return ""
    lines = done.stderr.decode(errors="replace").strip().splitlines()
    return lines[-1] if lines else f"the sandbox it made failed its check (exit status {done.returncode})"
