"""``arena replay LOG``: show a logged game, verify a log, write an HTML viewer, re-ask a bot.

Numbers given on the command line are checked here so that a bad one gets the
same one-line error (exit status 1) as a broken log.
"""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer
from rich.console import Console

from referee.cli.app import app, console, fail, user_errors
from referee.gamelog import LogError
from referee.replay.html import viewer_page
from referee.replay.logfile import MatchLog, load_log
from referee.replay.text import Selection, render_match
from referee.replay.verify import verify_log


def _number(option: str, text: str | None, low: int, high: int | None = None) -> int | None:
    """A whole number from the command line, or a one-line error naming the option."""
    if text is None:
        return None
    try:
        value = int(text)
    except ValueError:
        raise fail(f"{option} needs a whole number, got {text!r}") from None
    if value < low or (high is not None and value > high):
        bounds = f"{low}..{high}" if high is not None else f"at least {low}"
        raise fail(f"{option} must be {bounds}, got {value}")
    return value


def _load(path: Path) -> MatchLog:
    if not path.exists():
        raise fail(f"{path}: no such file")
    if not path.is_file():
        raise fail(f"{path}: not a file")
    return load_log(path)


def _output() -> Console:
    """The console for the replay: the terminal's, or a wide plain one so lines are not wrapped."""
    return console if console.is_terminal else Console(width=200, highlight=False)


@app.command("replay")
def replay_command(
    log: Annotated[Path, typer.Argument(help="A game log (JSONL), as written by `arena match`.", show_default=False)],
    game: Annotated[
        str | None, typer.Option("--game", "-g", metavar="G", help="Only game G of a log holding several (1-based).")
    ] = None,
    hand: Annotated[str | None, typer.Option("--hand", "-n", metavar="N", help="Only hand N (1-based).")] = None,
    trick: Annotated[
        str | None,
        typer.Option("--trick", "-t", metavar="T", help="With --hand: start at trick T, showing who held what."),
    ] = None,
    seat: Annotated[
        str | None, typer.Option("--seat", "-s", metavar="S", help="Show only what seat S knew at each point.")
    ] = None,
    verify: Annotated[
        bool, typer.Option("--verify", help="Re-run the engine over the log and check every record.")
    ] = False,
    html: Annotated[
        Path | None,
        typer.Option(
            "--html",
            metavar="OUT.html",
            help="Write a self-contained page that steps through the game on a card table "
            "(--hand and --seat choose where it opens).",
        ),
    ] = None,
) -> None:
    """Show a logged game hand by hand, check it against the engine (--verify), or write it as a web page (--html)."""
    with user_errors(LogError, OSError):
        match = _load(log)
        rules = match.rules
        selection = Selection(
            game=_number("--game", game, 1),
            hand=_number("--hand", hand, 1),
            trick=_number("--trick", trick, 1, rules.cards_each),
            seat=_number("--seat", seat, 0, rules.players - 1),
        )
        if selection.trick is not None and selection.hand is None:
            raise fail("--trick needs --hand (the hand the trick belongs to)")
        if verify and html is not None:
            raise fail("choose one of --verify and --html")
        if verify:
            if selection.hand is not None or selection.seat is not None:
                raise fail("--verify checks whole games: drop --hand, --trick and --seat")
            console.print(verify_log(match, selection.game).summary(), highlight=False, soft_wrap=True)
            return
        if html is not None:
            if selection.trick is not None:
                raise fail("--html opens at the start of a hand: drop --trick")
            page = viewer_page(match, selection.game, start_hand=selection.hand, start_seat=selection.seat)
            html.write_text(page, encoding="utf-8")
            console.print(f"wrote {html}", highlight=False, soft_wrap=True)
            return
        out = _output()
        render_match(out, match, selection, fancy=out.is_terminal and out.encoding.lower().startswith("utf"))
