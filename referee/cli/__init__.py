"""The ``arena`` command line. Each command lives in its own module."""

from __future__ import annotations

import sys
from collections.abc import Sequence

import typer

from referee.cli import (  # noqa: F401  (registers the commands)
    analyze,
    checkbot,
    club,
    ladder,
    match,
    new,
    play,
    presets,
    replay,
    report,
    serve,
    sprt,
    tournament,
)
from referee.cli.app import Status, app, click, err_console, fail
from referee.cli.live import bare_live
from referee.cli.scale import bare_ray


def main(argv: Sequence[str] | None = None) -> None:
    """Run the CLI; a usage mistake is one line on stderr and exit status 2."""
    try:
        args = bare_live(bare_ray(sys.argv[1:] if argv is None else argv))
        code = app(args=args, prog_name="arena", standalone_mode=False)
    except click.exceptions.NoArgsIsHelpError:
        sys.exit(0)  # the help text has been printed
    except click.exceptions.UsageError as exc:
        where = exc.ctx.command_path if exc.ctx is not None else "arena"
        message = exc.format_message().rstrip(".")
        raise SystemExit(fail(f"{message} (see '{where} --help')", Status.BAD_INPUT).exit_code) from None
    except click.exceptions.ClickException as exc:
        raise SystemExit(fail(exc.format_message(), Status.BAD_INPUT).exit_code) from None  # a file it cannot open
    except typer.Abort:
        err_console.print("aborted", highlight=False)
        sys.exit(Status.INTERRUPTED)
    sys.exit(code if isinstance(code, int) else 0)
