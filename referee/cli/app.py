"""The ``arena`` typer application and the error handling shared by its commands.

Every command ends with one of the exit statuses of ``Status``, one per kind
of outcome, the same in every command (docs/cli.md has the table): errors
become exits here only, in ``fail`` and ``user_errors``, which take the
status from the kind of error (``referee.errors.InputError``: 2).
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from enum import IntEnum
from typing import TYPE_CHECKING, Any

import typer
from rich.console import Console, ConsoleDimensions
from rich.markup import escape
from typer.core import TyperArgument, TyperGroup, TyperOption

from referee.errors import ArenaError, InputError

if TYPE_CHECKING:  # the typer the arena is developed with vendors click
    from typer import _click as click
else:
    try:  # typer >= 0.20 vendors click; older releases depend on it
        from typer import _click as click
    except ImportError:  # pragma: no cover - depends on the installed typer
        import click


class _PlainArgument(TyperArgument):
    """An argument shown in usage lines the usual way: LOG, not typer's {log}."""

    def get_usage_pieces(self, ctx: click.Context) -> list[str]:
        name = self.metavar or (self.name or "").upper()
        return [name if self.required else f"[{name}]"]


def plain_help(command: Any, ctx: click.Context) -> None:
    """Help as people read it: arguments named in capitals, and no type after a flag (``--verify``, not
    ``--verify <bool>``)."""
    for param in [*command.params, command.get_help_option(ctx)]:
        if isinstance(param, TyperArgument) and not isinstance(param, _PlainArgument):
            param.metavar = param.metavar or (param.name or "").upper()
            param.__class__ = _PlainArgument
        elif isinstance(param, TyperOption) and param.is_flag:
            param.metavar = ""
        elif isinstance(param, TyperOption) and param.multiple and param.metavar is None:
            param.metavar = (param.name or "").upper()  # --bot BOT, not --bot <list[str]>


class ArenaGroup(TyperGroup):
    """The ``arena`` group: every command's help goes through ``plain_help``."""

    def get_command(self, ctx: click.Context, cmd_name: str) -> click.Command | None:
        command = super().get_command(ctx, cmd_name)
        if command is not None:
            plain_help(command, ctx)
            if command.short_help is None and command.help:
                # the list of commands shows a docstring's first paragraph as one line, not broken where the
                # source line ends
                command.short_help = " ".join(command.help.split("\n\n")[0].split())
        return command

    def format_help(self, ctx: click.Context, formatter: click.HelpFormatter) -> None:
        plain_help(self, ctx)
        super().format_help(ctx, formatter)


app = typer.Typer(
    cls=ArenaGroup,
    name="arena",
    help="Bid Euchre bot arena: run matches and tournaments between bots, replay and verify game logs.",
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
)

# Columns of output that goes to a pipe or a file: as wide as what is printed (a cut table loses its cells).
PIPED_WIDTH = 10_000


class ArenaConsole(Console):
    """The commands' console: as wide as the terminal; on a pipe or a file (``arena ... | less``, a script
    reading it), as wide as each line printed, so that no table is cut to fit 80 columns. COLUMNS, when set,
    is the width everywhere (the tests set it)."""

    @property
    def size(self) -> ConsoleDimensions:
        size = super().size
        if self._width is None and "COLUMNS" not in self._environ and not self.is_terminal:
            return ConsoleDimensions(PIPED_WIDTH, size.height)
        return size

    @size.setter
    def size(self, new_size: tuple[int, int]) -> None:
        self._width, self._height = new_size


# emoji=False: rich would turn ":100:" in "file.jsonl:100: ..." (or in a bot's name) into an emoji
console = ArenaConsole(emoji=False)
err_console = ArenaConsole(stderr=True, emoji=False)


class Status(IntEnum):
    """How a command ended: one exit status per kind of outcome, the same for every command."""

    OK = 0
    FAILED = 1  # it ran, and what it ran failed: a check, a verification, a bot, the machine (cannot listen...)
    BAD_INPUT = 2  # what was typed or named cannot be used, so nothing ran (typer's usage errors are 2 too)
    INTERRUPTED = 130  # Ctrl-C or SIGTERM: stopped cleanly, what was kept is said


def status_of(error: Exception) -> Status:
    """The exit status of an error: bad input (``InputError``) or a failure (anything else)."""
    return Status.BAD_INPUT if isinstance(error, InputError) else Status.FAILED


def fail(message: str, status: Status) -> typer.Exit:
    """Print a one-line error and return the Exit to raise, with the status of the kind of mistake."""
    # escape: messages quote user input and engine text like "[rule: follow-suit]", which is not markup
    err_console.print(f"[bold red]error:[/] {escape(message)}", highlight=False, soft_wrap=True)
    return typer.Exit(status)


@contextmanager
def user_errors(*types: type[Exception]) -> Iterator[None]:
    """Turn what the user got wrong (an ``ArenaError``) and the other ``types`` named (OSError: cannot listen,
    cannot write) into a one-line message and the exit status of its kind (``status_of``). Anything else is a
    bug: it propagates, with its traceback."""
    caught: tuple[type[Exception], ...] = (ArenaError, *types)
    try:
        yield
    except caught as exc:
        raise fail(str(exc), status_of(exc)) from None
