"""Options whose value may be left out, read before typer parses the command line (typer gives an option's
value as optional nowhere): ``--live`` and ``--browser`` alone mean a free port, ``--ray`` alone a Ray started
on this machine.

Imported by every ``arena`` command line, so it imports nothing heavy: the Ray backend's module only when a
bare ``--ray`` is met.
"""

from __future__ import annotations

from collections.abc import Sequence


def bare_live(args: Sequence[str], flags: Sequence[str] = ("--live", "--browser")) -> list[str]:
    """The command line with ``--live`` (or ``arena play --browser``) given no port read as ``--live 0`` (a
    free port): such an option is bare when it ends the line or another option follows it."""
    out: list[str] = []
    for i, arg in enumerate(args):
        out.append(arg)
        if arg == "--":
            out.extend(args[i + 1 :])
            break
        if arg in flags and (i + 1 == len(args) or args[i + 1].startswith("-")):
            out.append("0")
    return out


def bare_ray(args: Sequence[str]) -> list[str]:
    """The command line with ``--ray`` given no address read as ``--ray local`` (Ray's own name for a Ray
    started here): ``--ray`` is bare when it ends the line or another option follows it."""
    out = list(args)
    for i, arg in enumerate(args):
        if arg == "--":
            break
        if arg == "--ray" and (i + 1 == len(args) or args[i + 1].startswith("-")):
            from referee.games.backends.cluster import LOCAL

            out.insert(i + 1 + (len(out) - len(args)), LOCAL)
    return out
