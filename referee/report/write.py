"""Writing a folder's report: ``report.html`` and the replay pages it links to."""

from __future__ import annotations

import os
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

from referee.report.data import Report, read_folder
from referee.report.page import report_page
from referee.report.replays import write_replays
from referee.runfolder import RunFolder, write_atomically


@dataclass
class Written:
    """What ``write_report`` wrote, and what it could not read (one line each)."""

    path: Path
    problems: list[str] = field(default_factory=list)
    games: int = 0


def write_report(
    folder: Path,
    *,
    out: Path | None = None,
    replays: bool = True,
    report: Report | None = None,
    progress: Callable[[int, int], None] | None = None,
) -> Written:
    """Write the folder's report (to ``out``, default ``FOLDER/report.html``) and, with ``replays``, a replay
    page for each game whose log is there. ``report``: one already built (the live view's), else the folder is
    read. ReportError when the folder is not a tournament's."""
    report = report if report is not None else read_folder(folder)
    run = RunFolder(folder)
    path = out if out is not None else run.report
    replay_dir = run.replays
    problems: list[str] = []
    if replays:
        logs = [(folder / g.record.log, g.record.game_id) for g in report.games.values() if not g.log_problem]
        problems += write_replays(logs, replay_dir, progress=progress)
    document = report.document()
    links = os.path.relpath(replay_dir, path.parent).replace(os.sep, "/") + "/" if replays else None
    page = report_page(document, replays=links)
    write_atomically(path, page)
    return Written(path, [*document["problems"], *problems], len(report.games))
