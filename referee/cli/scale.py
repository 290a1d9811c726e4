"""Where ``arena tournament`` and ``arena sprt`` run their tables: the ``--ray`` options.

The backend they choose is picked where a run is opened (``referee.games.placement``); ``--workers`` is a
setting (``referee.cli.options``).
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import Annotated

import typer
from rich.markup import escape

from referee.games.backends.cluster import INSTALL as RAY_INSTALL
from referee.games.backends.cluster import LOCAL

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
