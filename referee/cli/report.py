"""``arena report FOLDER``: the tournament's report, one self-contained HTML page, and the replay pages it links.

Also ``write_folder_report``, which ``arena tournament`` and ``arena sprt`` call when a run ends.
"""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

from referee.cli.app import app, console, err_console, fail, status_of
from referee.report.data import Report, ReportError
from referee.report.write import write_report
from referee.runfolder import REPORT


@app.command("report")
def report_command(
    folder: Annotated[Path, typer.Argument(help="A tournament or SPRT folder (logs/NAME).")],
    out: Annotated[
        Path | None,
        typer.Option("--out", "-o", dir_okay=False, help=f"Where to write it (default: FOLDER/{REPORT})."),
    ] = None,
    replays: Annotated[
        bool,
        typer.Option(
            "--replays/--no-replays",
            help="Write a replay page per game (FOLDER/replays/), which the report's game and violation links open.",
        ),
    ] = True,
) -> None:
    """Write a tournament's report: standings, crosstable, per-bot charts, every game with a replay link."""
    write_folder_report(folder, out=out, replays=replays, exit_on_error=True)


def write_folder_report(
    folder: Path,
    *,
    out: Path | None = None,
    replays: bool = True,
    report: Report | None = None,
    exit_on_error: bool = False,
) -> Path | None:
    """Write the report, print one line per problem met and then where it is; None (the reason printed) when
    there is no report to write, or with ``exit_on_error`` the exit of that kind of error (``arena report``'s
    own: a run that ends writes its report last, and its exit status is the run's)."""
    try:
        written = write_report(folder, out=out, replays=replays, report=report)
    except (ReportError, OSError) as exc:
        message = str(exc)
        if isinstance(exc, OSError):
            message = f"cannot write the report: {exc.strerror or exc}{f' ({exc.filename})' if exc.filename else ''}"
        stop = fail(message, status_of(exc))
        if exit_on_error:
            raise stop from None
        return None
    for problem in written.problems:
        err_console.print(f"warning: {problem}", highlight=False, markup=False, soft_wrap=True)
    console.print(f"report: {written.path}", highlight=False, markup=False, soft_wrap=True)
    return written.path
