"""``arena report FOLDER``: the tournament's report, one self-contained HTML page, and the replay pages it links.

Also ``write_folder_report``, which ``arena tournament`` and ``arena sprt`` call when a run ends.
"""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

from referee.cli.app import app, console, err_console, fail
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
    written = write_folder_report(folder, out=out, replays=replays)
    if written is None:
        raise typer.Exit(1)


def write_folder_report(
    folder: Path, *, out: Path | None = None, replays: bool = True, report: Report | None = None
) -> Path | None:
    """Write the report, print one line per problem met and then where it is; None (the reason printed) when
    there is no report to write."""
    try:
        written = write_report(folder, out=out, replays=replays, report=report)
    except ReportError as exc:
        fail(str(exc))
        return None
    except OSError as exc:
        fail(f"cannot write the report: {exc.strerror or exc}{f' ({exc.filename})' if exc.filename else ''}")
        return None
    for problem in written.problems:
        err_console.print(f"warning: {problem}", highlight=False, markup=False, soft_wrap=True)
    console.print(f"report: {written.path}", highlight=False, markup=False, soft_wrap=True)
    return written.path
