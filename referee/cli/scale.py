"""Where ``arena tournament`` and ``arena sprt`` run their tables: in the arena process, in worker processes
(``--workers``) or on Ray (``--ray``); the options, and the backend they choose."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import Annotated

import typer
from rich.markup import escape

from referee.cli.app import fail
from referee.tournament.backends import Backend
from referee.tournament.backends.cluster import INSTALL as RAY_INSTALL
from referee.tournament.backends.cluster import LOCAL, RayBackend, connect
from referee.tournament.backends.local import cpu_count
from referee.tournament.backends.workers import WorkerBackend, default_workers

WorkersOpt = Annotated[
    int | None,
    typer.Option(
        "--workers",
        "-w",
        min=1,
        help="Referee processes on this machine to spread the tables over (default: one per two CPUs, "
        "at most one per table).",
    ),
]
RayOpt = Annotated[
    str | None,
    typer.Option(
        "--ray",
        metavar="[ADDRESS]",
        # escaped: typer's help goes through rich, which would take "[ray]" for markup and drop it
        help="Run the tables on the Ray cluster at ADDRESS (host:port, or auto); --ray alone starts Ray "
        f"on this machine. Needs Ray: {escape(RAY_INSTALL)}.",
    ),
]
RayWorkingDirOpt = Annotated[
    Path | None,
    typer.Option(
        "--ray-working-dir",
        file_okay=False,
        help="With --ray: a folder Ray copies to every node, where the bot commands run "
        "(default: the bots are at the same path on every node).",
    ),
]


def table_backend(
    *, ray: str | None, ray_working_dir: Path | None, workers: int | None, concurrency: int | None, verbose: bool
) -> tuple[Backend | None, int]:
    """The backend the options choose (None: every table in this process) and the number of tables.

    Joins (or starts) Ray for ``--ray``: call ``release`` when done. A bad combination is a one-line error;
    so is a Ray that cannot be reached (SettingsError).
    """
    if ray is not None and workers is not None:
        raise fail("--ray and --workers: choose one (on Ray, each table is a process of its own)")
    if ray_working_dir is not None and ray is None:
        raise fail("--ray-working-dir goes with --ray")
    backend: Backend | None = connect(ray, working_dir=ray_working_dir, verbose=verbose) if ray is not None else None
    tables = concurrency or (backend.default_tables() if backend is not None else cpu_count())
    processes = min(workers or default_workers(tables), tables)
    if backend is None and processes > 1:
        backend = WorkerBackend(processes, log_level="info" if verbose else "warning")
    return backend, tables


def release(backend: Backend | None) -> None:
    """Leave the Ray cluster ``table_backend`` joined (other backends close with their tables)."""
    if isinstance(backend, RayBackend):
        backend.disconnect()


def bare_ray(args: Sequence[str]) -> list[str]:
    """The command line with ``--ray`` given no address read as ``--ray local`` (an option's value is optional
    nowhere else in typer): ``--ray`` is bare when it ends the line or another option follows it."""
    out = list(args)
    for i, arg in enumerate(args):
        if arg == "--":
            break
        if arg == "--ray" and (i + 1 == len(args) or args[i + 1].startswith("-")):
            out.insert(i + 1 + (len(out) - len(args)), LOCAL)
    return out


def where(backend: Backend | None, tables: int, pending: int) -> str:
    """How the start line says where the tables run."""
    if isinstance(backend, RayBackend):
        return f" on {backend.describe()}"
    if isinstance(backend, WorkerBackend):
        return f" in {min(backend.workers, tables, pending)} worker processes"
    return ""
