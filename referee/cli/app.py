"""The ``arena`` typer application and the error handling shared by its commands."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from typing import TYPE_CHECKING, Any

import typer
from rich.console import Console
from rich.markup import escape
from typer.core import TyperArgument, TyperGroup, TyperOption

from referee.errors import ArenaError

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

console = Console()
err_console = Console(stderr=True)


def fail(message: str, code: int = 1) -> typer.Exit:
    """Print a one-line error and return the Exit to raise."""
    # escape: messages quote user input and engine text like "[rule: follow-suit]", which is not markup
    err_console.print(f"[bold red]error:[/] {escape(message)}", highlight=False, soft_wrap=True)
    return typer.Exit(code)


@contextmanager
def user_errors(*types: type[Exception], code: int = 1) -> Iterator[None]:
    """Turn what the user got wrong (an ``ArenaError``) and the other ``types`` named (OSError: cannot listen,
    cannot write) into a one-line message and exit status ``code``. Anything else is a bug: it propagates,
    with its traceback."""
    caught: tuple[type[Exception], ...] = (ArenaError, *types)
    try:
        yield
    except caught as exc:
        raise fail(str(exc), code) from None
