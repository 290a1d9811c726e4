"""Builds on the server: a version's kit built by its own Makefile inside the bot sandbox, with no network.

A build is ``make`` in a copy of the version's files, run by ``buildrunner.py`` inside the sandbox that
bots play in (``referee.sandbox``: its own user, PID, network and mount namespaces, the machine's files
read-only, the club's folder covered), with:

- **no network**: the sandbox's network namespace has only its own loopback. What a build may use is what the
  server provides: the Debian packages of each kit's toolchain, and the caches ``arena club setup`` made once
  (the JS kit's pinned npm packages, the Go kit's build cache), handed in with the sources;
- **a disk**: the build writes only into its private /tmp (its folder is ``/tmp/build``), a tmpfs of
  ``disk_bytes``; what it made comes back as a tar on its stdout, unpacked with every path checked and the
  same limits into a store of frozen trees (``referee.frozen``): a build is frozen as a version is, by the
  hash of what it made;
- **a time limit** (``seconds``): the sandbox is killed at the limit, everything in it with it;
- **a memory limit** (``memory_bytes``, each process's address space) and **a process limit**
  (``processes``, counted in the sandbox's own user namespace). As root the limit of processes does not apply
  (the kernel exempts root), so a server run as root builds as another user (``user``, by default
  ``nobody``); such a build reaches the server's files only through its pipes. The build dies with the
  server (the parent-death signal, set after the change of user), however the server ends. While a build runs its
  processes are counted: one that reaches the limit (a fork without end) is stopped at once, with that reason.

Every outcome has one line for the member (``Outcome.reason``) and the build's own output (``Outcome.log``,
its last ``log_bytes``): built, the build failed (with its exit status, and a hint when its output says it
tried the network), ran over its time, forked without end, filled its disk, made something the server
refuses to take back.
"""

from __future__ import annotations

import contextlib
import json
import os
import signal
import subprocess
import sys
import tarfile
import threading
import time
from collections.abc import Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

from referee.bots import die_with_parent
from referee.frozen.archive import unpack_tar
from referee.frozen.store import Frozen, FrozenStore
from referee.frozen.tree import MIB, Limits, Tree, TreeError
from referee.kits import Language
from referee.sandbox import ResourceLimits, Sandbox, seccomp

RUNNER = Path(__file__).with_name("buildrunner.py")
BUILD_DIR = "/tmp/build"
CACHES = "/tmp/cache"
SYSTEM_PYTHON = "/usr/bin/python3"  # the runner's Python when the build runs as another user (see ``python``)
NOBODY = 65534
_NETWORK_HINTS = (
    "EAI_AGAIN",
    "ENOTFOUND",
    "ENOTCACHED",
    "Could not resolve host",
    "Temporary failure in name resolution",
    "Network is unreachable",
    "network is unreachable",
    "dial tcp",
    "getaddrinfo",
)


# what a shell, make or a runtime prints when it cannot start one more process
_FORK_HINTS = ("Cannot fork", "fork: Resource temporarily unavailable", "fork: retry", "can't fork", "vfork failed")


@dataclass(frozen=True)
class BuildLimits:
    """What one build may use; each is a club setting (``referee.club.settings``)."""

    seconds: float = 300.0
    memory_bytes: int = 2048 * MIB  # each process's address space
    disk_bytes: int = 512 * MIB  # its private /tmp: its build folder, caches and temporary files
    processes: int = 128  # at once, threads included
    log_bytes: int = 256 * 1024  # of its output, kept (the end)
    files: int = 20_000  # in what it made

    def as_tree_limits(self) -> Limits:
        return Limits(upload_bytes=1 << 62, unpacked_bytes=self.disk_bytes, files=self.files)


@dataclass(frozen=True)
class Recipe:
    """How the server builds one kit: ``make`` and its variables, the environment, the caches handed in."""

    command: tuple[str, ...]
    env: dict[str, str] = field(default_factory=dict)
    caches: tuple[tuple[str, Path], ...] = ()  # (name, folder on the server): unpacked at /tmp/cache/NAME


# what each kit's build needs beyond its Makefile. The JVM reserves more address space than the limit by
# default: its heap, class space and code cache are bounded as the Java bot's own launcher bounds them.
_JAVA_OPTIONS = "-Xmx512m -XX:CompressedClassSpaceSize=64m -XX:ReservedCodeCacheSize=64m -XX:+UseSerialGC"
NPM_CACHE, GO_CACHE = "npm", "go"


def recipe(language: Language, toolchains: Path, python: str) -> Recipe:
    """The build of ``language``'s kit, with the caches ``arena club setup`` left in ``toolchains``."""
    make = ("make", "--no-print-directory", f"PYTHON={python}", "ARENA=arena")
    if language is Language.JS:
        env = {
            "npm_config_cache": f"{CACHES}/{NPM_CACHE}",
            "npm_config_offline": "true",
            "npm_config_update_notifier": "false",
            "npm_config_fund": "false",
            "npm_config_audit": "false",
        }
        return Recipe(make, env, ((NPM_CACHE, toolchains / NPM_CACHE),))
    if language is Language.GO:
        return Recipe(make, {"GOCACHE": f"{CACHES}/{GO_CACHE}"}, ((GO_CACHE, toolchains / GO_CACHE),))
    if language is Language.JAVA:
        return Recipe(make, {"JAVA_TOOL_OPTIONS": _JAVA_OPTIONS})
    return Recipe(make)


@dataclass(frozen=True)
class Outcome:
    """How a build ended: ``ok``, one line for the member, the build's output (its end), its time, what it made."""

    ok: bool
    reason: str
    log: str
    seconds: float
    made: Frozen | None = None  # what it made, frozen


@dataclass(frozen=True)
class Builder:
    """Builds versions in ``sandbox`` with ``limits``; ``user``: the user id builds run as (None: the server's)."""

    sandbox: Sandbox
    limits: BuildLimits
    user: int | None = None

    @property
    def python(self) -> str:
        """The Python the runner (and a Python kit's Makefile) uses: the system's when builds run as another user,
        who may not be able to read the arena's own (a virtualenv under /root)."""
        return SYSTEM_PYTHON if self.user is not None else sys.executable

    def build(self, source: Path, tree: Tree, made: Recipe, out: FrozenStore) -> Outcome:
        """Build the version whose files are ``source`` (its ``tree``) by ``made``; what it made is frozen in
        ``out``."""
        started = time.monotonic()
        limits = self.limits
        box = replace(
            self.sandbox,
            limits=ResourceLimits(
                memory_bytes=limits.memory_bytes,
                processes=limits.processes,
                output_bytes=limits.disk_bytes,
                tmp_bytes=limits.disk_bytes,
            ),
        )
        read_report, write_report = os.pipe()
        spec = {
            "dir": BUILD_DIR,
            "caches": CACHES,
            "command": list(made.command),
            "env": made.env,
            "report": write_report,
        }
        code = RUNNER.read_text(encoding="utf-8")
        filter_fd = seccomp.memfd() if box.kind == "bwrap" else None
        argv = box.wrap([self.python, "-I", "-S", "-c", code, json.dumps(spec)], cwd="/", seccomp_fd=filter_fd)
        passed = (write_report,) if filter_fd is None else (write_report, filter_fd)
        as_user: dict[str, Any] = {}
        if self.user is not None:
            as_user = {"user": self.user, "group": self.user, "extra_groups": []}
        resources = box.limits

        def in_child() -> None:  # after the change of user (so that the parent-death signal is kept)
            resources.apply()
            die_with_parent()

        try:
            child = subprocess.Popen(
                argv,
                stdin=subprocess.PIPE,
                stdout=subprocess.PIPE,
                stderr=subprocess.PIPE,
                pass_fds=passed,
                start_new_session=True,
                preexec_fn=in_child,
                **as_user,
            )
        finally:
            os.close(write_report)
            if filter_fd is not None:
                os.close(filter_fd)
        run = _Run(child, limits, out)
        threads = [
            threading.Thread(target=run.feed, args=(source, tree, made.caches), daemon=True),
            threading.Thread(target=run.read_log, daemon=True),
            threading.Thread(target=run.take_output, daemon=True),
            threading.Thread(target=run.read_report, args=(read_report,), daemon=True),
        ]
        for thread in threads:
            thread.start()
        run.watch(started)
        for thread in threads:
            thread.join(30)
        return run.outcome(time.monotonic() - started)


@dataclass
class _Run:
    """One build in flight: its pipes, read by threads, and what went wrong first."""

    child: subprocess.Popen[bytes]
    limits: BuildLimits
    out: FrozenStore
    stopped: str = ""  # why the build was stopped from outside
    report: dict[str, int] = field(default_factory=dict)
    made: Frozen | None = None
    refused: str = ""  # why what it made was refused
    _log: bytearray = field(default_factory=bytearray)
    _log_total: int = 0
    _lock: threading.Lock = field(default_factory=threading.Lock)

    def feed(self, source: Path, tree: Tree, caches: Sequence[tuple[str, Path]]) -> None:
        """Write the sources (and the caches) into the build's stdin, as a tar."""
        stdin = self.child.stdin
        assert stdin is not None
        try:
            with tarfile.open(fileobj=stdin, mode="w|") as tar:
                for entry in tree.entries:
                    tar.add(source / entry.path, arcname=f"src/{entry.path}", recursive=False)
                for name, folder in caches:
                    if folder.is_dir():
                        tar.add(folder, arcname=f"cache/{name}")
        except (BrokenPipeError, OSError, ValueError):
            pass  # the build ended (or was stopped) before it read everything: its outcome says why
        finally:
            with contextlib.suppress(OSError):
                stdin.close()

    def read_log(self) -> None:
        stderr = self.child.stderr
        assert stderr is not None
        while chunk := os.read(stderr.fileno(), 65536):
            with self._lock:
                self._log_total += len(chunk)
                self._log += chunk
                if len(self._log) > 2 * self.limits.log_bytes:
                    del self._log[: len(self._log) - self.limits.log_bytes]

    def read_report(self, fd: int) -> None:
        with os.fdopen(fd, "rb") as f:
            line = f.readline()
        try:
            self.report = json.loads(line) if line else {}
        except ValueError:
            self.report = {}

    def take_output(self) -> None:
        """Unpack what the build sends back (only once make succeeded), checked as any upload is."""
        stdout = self.child.stdout
        assert stdout is not None
        try:
            self.made = self.out.put(
                lambda writer: unpack_tar(stdout, writer),  # type: ignore[arg-type]
                self.limits.as_tree_limits(),
            )
        except TreeError as exc:
            self.refused = str(exc)
        finally:
            stdout.read()  # whatever is left: the runner must not block on a full pipe

    def watch(self, started: float) -> None:
        """Until the build ends: stop it at its time limit, or when its processes reach their limit."""
        namespace: str | None = None
        while self.child.poll() is None:
            elapsed = time.monotonic() - started
            if elapsed > self.limits.seconds:
                self.stop(f"ran over its {self.limits.seconds:g} s and was stopped")
                break
            namespace = namespace or _pid_namespace(self.child.pid)
            if namespace is not None and _tasks_in(namespace) >= self.limits.processes * 0.9:
                self.stop(
                    f"started {self.limits.processes} processes at once, its limit (a fork without end?), and was "
                    "stopped"
                )
                break
            time.sleep(0.1)
        self.child.wait()

    def stop(self, why: str) -> None:
        self.stopped = why
        with contextlib.suppress(ProcessLookupError):
            os.killpg(self.child.pid, signal.SIGKILL)  # the launcher: the kernel then empties its PID namespace

    def log(self) -> str:
        with self._lock:
            text = bytes(self._log[-self.limits.log_bytes :]).decode("utf-8", errors="replace")
            cut = self._log_total > self.limits.log_bytes
        return (f"[... the first {self._log_total - self.limits.log_bytes} bytes left out ...]\n" if cut else "") + text

    def outcome(self, seconds: float) -> Outcome:
        log = self.log()
        if self.stopped:
            return Outcome(False, f"the build {self.stopped}", log, seconds)
        status = self.report.get("status")
        used, size = self.report.get("used", 0), self.report.get("size", 0)
        full = bool(size) and used >= size - 4 * MIB
        if status is None:
            last = log.strip().splitlines()[-1:] or ["(no output)"]
            return Outcome(False, f"the build could not run in the sandbox: {last[0][:200]}", log, seconds)
        if status != 0:
            if full:
                why = f"the build filled its {self.limits.disk_bytes // MIB} MiB of disk and failed"
            elif any(hint in log for hint in _FORK_HINTS):
                why = (
                    f"the build failed (exit status {status}): it reached its limit of {self.limits.processes} "
                    "processes at once (a fork without end?)"
                )
            elif any(hint in log for hint in _NETWORK_HINTS):
                why = (
                    f"the build failed (exit status {status}); its output says it tried the network, which builds "
                    "do not have: they use only what the server provides (arena club info)"
                )
            else:
                why = f"the build failed (exit status {status}): its output says why"
            return Outcome(False, why, log, seconds)
        if self.refused or self.made is None:
            why = f"what the build made cannot be taken: {self.refused or 'nothing came back'}"
            return Outcome(False, why, log, seconds)
        return Outcome(True, f"built in {seconds:.1f} s", log, seconds, self.made)


def _pid_namespace(launcher: int) -> str | None:
    """The PID namespace of the build (that of the launcher's first child), or None while it has none yet."""
    try:
        children = Path(f"/proc/{launcher}/task/{launcher}/children").read_text().split()
        for child in children:
            space = os.readlink(f"/proc/{child}/ns/pid")
            if space != os.readlink(f"/proc/{launcher}/ns/pid"):
                return space
    except OSError:
        return None
    return None


def _tasks_in(namespace: str) -> int:
    """Threads of every process in the PID namespace ``namespace``."""
    count = 0
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            if os.readlink(f"/proc/{entry}/ns/pid") == namespace:
                count += len(os.listdir(f"/proc/{entry}/task"))
        except OSError:
            continue
    return count
