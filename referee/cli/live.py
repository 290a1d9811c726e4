"""``--live [PORT]`` of ``arena tournament`` and ``arena sprt``: the live view (``referee.live``) around a run."""

from __future__ import annotations

import asyncio
from collections.abc import Callable, Coroutine, Sequence
from typing import Annotated, Any, TypeVar

import typer

from referee.games.results import GameRecord
from referee.games.series import Series
from referee.live.server import LiveView
from referee.report.data import Report, read_extras, read_folder

T = TypeVar("T")

LiveOpt = Annotated[
    int | None,
    typer.Option(
        "--live",
        metavar="[PORT]",
        min=0,
        max=65535,
        help="Watch it in a browser: the report, updated as each game ends, and each table's game in play, served "
        "on 127.0.0.1:PORT (--live alone, or 0: a free port) at the address printed; it stops with the run.",
    ),
]


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


async def watched(
    run: Callable[[], Coroutine[Any, Any, T]],
    series: Series,
    port: int,
    announce: Callable[[str], None],
) -> tuple[T, Report]:
    """``run()`` with the live view serving the folder of ``series`` (a tournament's, an SPRT's) on ``port``;
    its result and the report (every game taken in, for the report written at the end)."""
    report = await asyncio.to_thread(read_folder, series.folder.path)
    async with LiveView(report, port) as live:
        announce(f"live view: {live.url}")
        finished = series.on_game

        def game_over(record: GameRecord) -> None:
            if finished is not None:
                finished(record)
            live.game_over(record)

        series.on_game = game_over
        series.on_records = live.table_records
        result = await run()
        await live.settled()
    report.problems = []  # those met when the run began (a results line cut off) are mended by now
    await asyncio.to_thread(read_extras, report)
    return result, report
