"""``arena match``: one match between bots given as NAME=COMMAND, each seat its own process."""

from __future__ import annotations

from typing import Annotated

import typer

from referee.bots import BotCommand, BotSpecError
from referee.cli.app import app, console, user_errors
from referee.cli.running import (
    DEFAULTS,
    FaultOpt,
    GamesOpt,
    LogDirOpt,
    MoveTimeOpt,
    PresetOpt,
    RuleOpt,
    SeedOpt,
    TimeBankOpt,
    VerboseOpt,
    game_line,
    match_config,
    print_result,
    run_async,
)
from referee.match import Match, MatchConfig, MatchResult, SeatBot, seat_bots
from referee.names import shown_name

# The example bots `arena match` plays when no --bot is given (team 0 first).
DEFAULT_BOTS = ("rules", "random")


def example_bot(name: str) -> str:
    """The NAME=COMMAND of an example bot (example_bots/NAME_bot.py)."""
    return f"{name}=python -m example_bots.{name}_bot"


@app.command("match")
def match_command(
    bot: Annotated[
        list[str] | None,
        typer.Option(
            "--bot",
            "-b",
            help="NAME=COMMAND, repeatable: team t is played by the t-th bot (one bot: it plays every team). "
            f"Default: {' vs '.join(DEFAULT_BOTS)} (example bots).",
        ),
    ] = None,
    preset: PresetOpt = DEFAULTS["preset"],
    rule: RuleOpt = None,
    games: GamesOpt = DEFAULTS["games"],
    seed: SeedOpt = DEFAULTS["seed"],
    move_time: MoveTimeOpt = DEFAULTS["move_time"],
    time_bank: TimeBankOpt = DEFAULTS["time_bank"],
    on_fault: FaultOpt = DEFAULTS["on_fault"],
    log_dir: LogDirOpt = DEFAULTS["log_dir"],
    verbose: VerboseOpt = False,
) -> None:
    """Play a match between bots (each seat its own process) and print the result and the log path."""
    with user_errors(BotSpecError, ValueError):
        commands = [BotCommand.parse(spec) for spec in (bot or [example_bot(name) for name in DEFAULT_BOTS])]
        for command in commands:
            command.check_runnable()
        config = match_config(
            preset=preset,
            rule=rule,
            seats=lambda rules: seat_bots(rules, [SeatBot(c.name, c) for c in commands]),
            games=games,
            seed=seed,
            move_time=move_time,
            time_bank=time_bank,
            on_fault=on_fault,
            log_dir=log_dir,
        )
    with user_errors(OSError):  # cannot listen, cannot write the log
        result = run_async(_play(config), verbose)
    print_result(result)


async def _play(config: MatchConfig) -> MatchResult:
    async with Match(config) as match:
        names = [s.name for s in config.seats]
        teams = " vs ".join(shown_name(n) for n in names[: config.rules.teams])
        console.print(f"{config.preset}: {teams}, log {match.log_path}", soft_wrap=True)
        return await match.play(on_game=lambda r: console.print(game_line(r, names)))
