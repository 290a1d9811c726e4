"""What ``arena tournament`` needs to run its tables elsewhere: worker processes (``--workers``) or Ray (``--ray``)."""

from __future__ import annotations

from collections.abc import Sequence

from referee.tournament.backends import Backend
from referee.tournament.backends.cluster import LOCAL, RayBackend
from referee.tournament.backends.workers import WorkerBackend


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
