"""``arena match``: one match between bots given as NAME=COMMAND, each seat its own process."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

from referee.cli import options as opt
from referee.cli.app import app, console, user_errors
from referee.cli.common import VerboseOpt, game_line, long_game_line, print_result, run_async, warn
from referee.games.matches import DEFAULT_BOTS, MatchChoices, open_match
from referee.match import GameResult, Match, MatchConfig, MatchResult
from referee.names import shown_name

MatchBots = Annotated[
    list[str] | None,
    opt.option(
        MatchChoices,
        "bots",
        help="Repeatable: team t is played by the t-th bot (one bot: it plays every team). "
        f"Default: {' vs '.join(DEFAULT_BOTS)} (example bots; {DEFAULT_BOTS[-1]} again for a third team)",
    ),
]


@app.command("match")
def match_command(
    ctx: typer.Context,
    bots: MatchBots = None,
    preset: opt.Preset = None,
    rules: opt.Rules = None,
    games: opt.MatchGames = None,
    seed: opt.Seed = None,
    move_time: opt.MoveTime = None,
    time_bank: opt.TimeBank = None,
    on_fault: opt.OnFault = None,
    log_dir: opt.LogDir = None,
    sandbox: opt.Sandbox = None,
    tcp: opt.Tcp = None,
    verbose: VerboseOpt = False,
) -> None:
    """Play a match between bots (each seat its own process) and print the result and the log path."""
    with user_errors():
        config = open_match(MatchChoices.from_options(ctx.params), warn=warn)
    progress = _Progress()
    with user_errors(OSError):  # cannot listen, cannot write the log, a bot cannot start
        result = run_async(_play(config, progress), verbose, interrupted=progress.interrupted)
    print_result(result)


class _Progress:
    """How far the match got: what an interrupted match says it kept."""

    def __init__(self) -> None:
        self.log_path: Path | None = None  # set once the log exists
        self.finished = 0

    def interrupted(self) -> str:
        if self.log_path is None:
            return "interrupted before the match started: nothing was played, nothing kept"
        return (
            f"interrupted: finished games kept in {self.log_path}: {self.finished}; a match does not resume, "
            "run it again to play them all (the same --seed deals the same games)"
        )


async def _play(config: MatchConfig, progress: _Progress) -> MatchResult:
    names = [s.name for s in config.seats]

    def finished(result: GameResult) -> None:
        progress.finished += 1
        console.print(game_line(result, names), soft_wrap=True)

    def hand(game_id: str, number: int, scores: tuple[int, ...]) -> None:
        line = long_game_line(f"game {int(game_id[1:])}", number, scores, config.rules)
        if line is not None:
            console.print(line, highlight=False, soft_wrap=True)

    def started(log_path: Path) -> None:
        progress.log_path = log_path
        teams = " vs ".join(shown_name(n) for n in names[: config.rules.teams])
        console.print(f"{config.preset}: {teams}, log {log_path}", highlight=False, soft_wrap=True)

    async with Match(config) as match:
        return await match.play(on_game=finished, on_hand=hand, start_required=True, on_start=started)
