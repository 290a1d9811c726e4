"""Where work runs and what bots run in: the one place a command's ``--ray`` and ``--workers`` are turned into a
backend, and ``--sandbox`` into a sandbox.

Tables (``choose_backend``): ``--ray ADDRESS`` runs each table in a Ray actor
(``RayBackend``), ``--workers N`` (or, by default, one worker process per two
CPUs, when more than one table plays) spreads the tables over worker
processes (``WorkerBackend``), and otherwise every table is in this process
(``LocalBackend``). The command line names none of them: it asks the backend
to describe itself and to release what it holds when the run is over.

Other work, such as the analysis's hands (``choose_processes``): the Ray
cluster, joined the same way, or N processes on this machine (by default
one per CPU, no more than there are jobs), or this process alone.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from referee.games.backends import Backend
from referee.games.backends.cluster import RayBackend, connect
from referee.games.backends.local import LocalBackend, cpu_count
from referee.games.backends.workers import WorkerBackend, default_workers
from referee.sandbox import Sandbox, SandboxMode, resolve
from referee.setting import SettingsError

Warn = Callable[[str], None]  # says a one-line warning to the user (the command line prints it on stderr)


def unwarned(warning: str) -> None:
    """A ``Warn`` that says nothing (a run opened in code)."""


@dataclass(frozen=True)
class Placement:
    """Where the tables are to run: on the Ray cluster at ``ray`` (with a ``ray_working_dir`` shipped to its
    nodes), else here; ``verbose``: worker processes and Ray log at info level, not warnings only."""

    ray: str | None = None
    ray_working_dir: Path | None = None
    verbose: bool = False


HERE = Placement()  # on this machine, in worker processes or not as the settings say


def bot_sandbox(mode: SandboxMode, warn: Warn) -> Sandbox | None:
    """The sandbox bots run in, for ``--sandbox mode``: SandboxUnavailable (one line) for ``required`` where
    none can be made; for ``auto``, a warning once and none."""
    sandbox, warning = resolve(mode)
    if warning:
        warn(warning)
    return sandbox


def choose_backend(
    place: Placement, *, workers: int | None, concurrency: int | None, sandbox: Sandbox | None
) -> tuple[Backend, int]:
    """The backend and the number of tables (``concurrency``, else as many as the backend has CPUs for).

    Joins (or starts) Ray for ``--ray``: the backend's ``release`` leaves it. A bad combination is a one-line
    SettingsError; so is a Ray that cannot be reached.
    """
    ray = _ray(place, workers, "table")
    if ray is not None:
        return ray, concurrency or ray.default_tables()
    tables = concurrency or cpu_count()
    processes = min(workers or default_workers(tables), tables)
    if processes > 1:
        return WorkerBackend(processes, log_level="info" if place.verbose else "warning"), tables
    return LocalBackend(sandbox=sandbox), tables


def _ray(place: Placement, workers: int | None, unit: str) -> RayBackend | None:
    """The Ray cluster joined (or started) for ``--ray``, else None; SettingsError for options that do not go
    together (each ``unit`` of work is a process of its own on Ray), or a Ray that cannot be reached."""
    if place.ray is not None and workers is not None:
        raise SettingsError(f"--ray and --workers: choose one (on Ray, each {unit} is a process of its own)")
    if place.ray_working_dir is not None and place.ray is None:
        raise SettingsError("--ray-working-dir goes with --ray")
    if place.ray is None:
        return None
    return connect(place.ray, working_dir=place.ray_working_dir, verbose=place.verbose)


@dataclass(frozen=True)
class Processes:
    """Where a run of independent jobs goes: the Ray cluster (``ray``, with ``count`` CPUs), else ``count``
    processes on this machine (1: this process)."""

    count: int
    ray: RayBackend | None = None

    def describe(self) -> str:
        """Where the jobs run, as a start line says it: "in this process", "on 2 worker processes", "on Ray ..."."""
        if self.ray is not None:
            return self.ray.describe(self.count)
        return "in this process" if self.count <= 1 else f"on {self.count} worker processes"

    def release(self) -> None:
        """Leave the Ray cluster joined for the run (nothing to do here otherwise)."""
        if self.ray is not None:
            self.ray.release()


def choose_processes(place: Placement, *, workers: int | None, jobs: int, unit: str = "job") -> Processes:
    """Where ``jobs`` independent jobs (each a ``unit``: "hand") run: on Ray for ``--ray``, else over ``workers``
    processes (default: one per CPU, no more than there are jobs). SettingsError as ``choose_backend``'s."""
    ray = _ray(place, workers, unit)
    if ray is not None:
        return Processes(ray.default_tables(), ray)
    return Processes(min(workers if workers is not None else cpu_count(), max(1, jobs)))


def crowding(place: Placement, tables: int, pending: int) -> str | None:
    """The warning for more tables playing than this machine has CPUs (their bots wait for one), else None."""
    playing = min(tables, pending)
    if place.ray is not None or playing <= cpu_count():
        return None
    return (
        f"warning: {playing} tables on {cpu_count()} CPUs: the games run slower; a bot kept waiting for a CPU "
        "gets that time back at its deadline, up to one more move time"
    )
