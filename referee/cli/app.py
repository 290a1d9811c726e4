"""The ``arena`` typer application and the error handling shared by its commands."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager

import typer
from rich.console import Console
from rich.markup import escape

app = typer.Typer(
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
def user_errors(*types: type[Exception]) -> Iterator[None]:
    """Turn expected errors into a one-line message and exit status 1."""
    from referee.engine.errors import EngineError

    try:
        yield
    except (EngineError, *types) as exc:
        raise fail(str(exc)) from None
