"""What the commands share: the async run, the result table, warnings."""

from __future__ import annotations

import asyncio
import signal
from collections.abc import Callable, Coroutine
from typing import Annotated, Any, TypeVar

import typer
from rich.markup import escape
from rich.progress import Progress
from rich.table import Table

from referee.cli.app import console, err_console
from referee.engine.rules import Rules
from referee.logging import configure
from referee.match import GameResult, MatchResult
from referee.names import shown_name

T = TypeVar("T")

VerboseOpt = Annotated[bool, typer.Option("--verbose", "-v", help="Log the referee's events to stderr.")]


def warn(line: str) -> None:
    """A warning, one line on stderr (the ``Warn`` a run is opened with)."""
    err_console.print(line, highlight=False, markup=False, soft_wrap=True)


def run_async(
    main: Coroutine[Any, Any, T],
    verbose: bool,
    interrupted: str | Callable[[], str] = "interrupted: bots shut down, the log holds every complete game",
    live: Progress | None = None,
) -> T:
    """Run ``main``; Ctrl-C and SIGTERM cancel it (its cleanup runs: bots are shut down), then the one line
    ``interrupted`` (what was kept, how to go on; a callable is asked then) and exit status 130. A ``live``
    display (a progress bar) is stopped first, so the line stands on its own."""
    configure("info" if verbose else "warning")

    async def guarded() -> T:
        task = asyncio.current_task()
        assert task is not None
        loop = asyncio.get_running_loop()
        loop.add_signal_handler(signal.SIGTERM, task.cancel)
        try:
            return await main
        finally:
            loop.remove_signal_handler(signal.SIGTERM)

    try:
        return asyncio.run(guarded())
    except (KeyboardInterrupt, asyncio.CancelledError):
        if live is not None:
            live.stop()
        message = interrupted() if callable(interrupted) else interrupted
        err_console.print(escape(message), highlight=False, soft_wrap=True)
        raise typer.Exit(130) from None


# A game still going at these hands is said to run long (then every LONG_GAME hands).
LONG_GAME = 200


def long_game_line(game: str, hand: int, scores: tuple[int, ...], rules: Rules) -> str | None:
    """A line for the live output when a game runs long (at hand 200, 400, ...), else None."""
    if hand < LONG_GAME or hand % LONG_GAME or hand >= rules.hand_limit:
        return None
    return (
        f"{game} runs long: hand {hand}, scores {' / '.join(map(str, scores))}; bots that bid badly can keep "
        f"a game going to the safety stop at hand {rules.hand_limit} (rule hand_limit)"
    )


def game_line(result: GameResult, names: list[str]) -> str:
    winner = "draw" if result.winner is None else f"team {result.winner} ({shown_name(names[result.winner])}) wins"
    faults = f", {len(result.violations)} violation(s)" if result.violations else ""
    return (
        f"game {result.game}: {winner}, scores {' / '.join(map(str, result.scores))} "
        f"({result.reason}, {result.hands} hands{faults})"
        + ("; stopped by the hand limit, no team reached the target" if result.reason == "hand-limit" else "")
    )


def print_result(result: MatchResult) -> None:
    names = result.team_names()
    table = Table(title=f"{result.config.preset}: {len(result.games)} game(s), seed {result.config.seed}")
    for col in ("team", "bot", "wins", "pts/hand", "violations"):
        table.add_column(col, justify="right" if col not in ("bot",) else "left")
    wins, points = result.wins(), result.points_per_hand()
    faults = [0] * len(names)
    for game in result.games:
        for v in game.violations:
            faults[result.config.rules.team_of(v.seat)] += 1
    for team, name in enumerate(names):
        table.add_row(str(team), shown_name(name), str(wins[team]), f"{points[team]:.2f}", str(faults[team]))
    console.print(table)
    if result.draws():
        console.print(f"draws: {result.draws()}")
    console.print(f"log: {result.log_path}", highlight=False, soft_wrap=True)  # a path is never broken
