"""``arena`` imports a command's module only when that command runs: ``arena --help`` lists every command from
its declaration in ``referee.cli.app.COMMANDS``, which must name each command, its module and its summary line as
the module defines them."""

from __future__ import annotations

import importlib
import pkgutil
import subprocess
import sys

import typer.main
from typer.core import TyperGroup

import referee.cli
from referee.cli.app import COMMANDS, app, click

# what a command may need and the command line itself does not
HEAVY = {"grpc", "aiohttp", "networkx", "ray", "structlog", "playwright", "openskill"}


def test_every_command_is_declared_by_its_module_with_the_first_paragraph_of_its_help() -> None:
    for module in pkgutil.iter_modules(referee.cli.__path__):
        importlib.import_module(f"referee.cli.{module.name}")
    modules = {info.name: info.callback.__module__ for info in app.registered_commands if info.callback}
    for group in app.registered_groups:
        assert group.typer_instance is not None
        (modules[group.name],) = {info.callback.__module__ for info in group.typer_instance.registered_commands}
    assert modules == {name: declared.module for name, declared in COMMANDS.items()}
    arena = typer.main.get_command(app)
    assert isinstance(arena, TyperGroup)
    for name, declared in COMMANDS.items():
        command = arena.get_command(click.Context(arena), name)
        assert command is not None and command.help is not None, name
        assert declared.summary == " ".join(command.help.split("\n\n")[0].split()), name


def _imported_by(*args: str) -> set[str]:
    """The modules an ``arena ARGS`` process has imported when it ends (its ``main`` run in a fresh interpreter,
    as the console script runs it)."""
    script = (
        "import sys\nfrom referee.cli import main\ntry:\n    main(sys.argv[1:])\nexcept SystemExit:\n    pass\n"
        "print('\\n'.join(sorted(sys.modules)), file=sys.stderr)\n"
    )
    result = subprocess.run([sys.executable, "-c", script, *args], capture_output=True, text=True, timeout=60)
    return set(result.stderr.split())


def test_the_list_of_commands_imports_no_command() -> None:
    """``arena --help`` (and ``arena`` alone) list every command from its declaration (``COMMANDS``), with no
    command's module imported: the arena's own modules are the command line's frame and nothing more."""
    for args in (["--help"], []):
        imported = _imported_by(*args)
        assert "referee.cli.app" in imported, imported  # the script ran
        assert {m for m in imported if m.startswith("referee")} == {
            "referee",
            "referee.errors",
            "referee.cli",
            "referee.cli.app",
            "referee.cli.bare",
        }
        assert not {m.split(".")[0] for m in imported} & HEAVY


def test_a_command_imports_its_own_module_only() -> None:
    imported = _imported_by("presets", "pagat")
    assert {m for m in imported if m.startswith("referee.cli.")} == {
        "referee.cli.app",
        "referee.cli.bare",
        "referee.cli.presets",
    }
    assert not {m.split(".")[0] for m in imported} & HEAVY
