"""``arena play``: a person takes a seat in the terminal, or in the browser (``--browser``); bots play the other
seats."""

from __future__ import annotations

import secrets
import sys
from collections.abc import Callable, Sequence
from typing import Annotated

import typer
from rich.table import Table

from referee.bots import BotCommand, with_tcp
from referee.cli import options as opt
from referee.cli.app import Status, app, console, fail, user_errors
from referee.cli.match import example_bot
from referee.cli.running import VerboseOpt, bot_sandbox, match_config, run_async
from referee.match import Match, MatchConfig, MatchResult, SeatBot
from referee.play.levels import DEFAULT_LEVEL, level_bot
from referee.play.settings import BROWSER_ONLY, Features, HintMode, PlayGiven
from referee.play.table import PersonLeft, person_seat, play_with_person, seats_around
from referee.runfolder import LOGS
from referee.setting import SettingsError
from referee.tournament.settings import Given

# The bot at the other seats when no --bot is given: the strongest example bot, level DEFAULT_LEVEL's.
DEFAULT_BOT = "montecarlo"
PlaySeed = Annotated[int | None, opt.option(Given, "seed", default="a new one each time, printed")]
Browser = Annotated[int | None, opt.option(PlayGiven, "browser")]
Level = Annotated[int | None, opt.option(PlayGiven, "level")]
Hints = Annotated[HintMode | None, opt.option(PlayGiven, "hints")]
Estimates = Annotated[bool | None, opt.option(PlayGiven, "estimates")]
Counter = Annotated[bool | None, opt.option(PlayGiven, "counter")]
BidAnalysis = Annotated[bool | None, opt.option(PlayGiven, "bid_analysis")]
Claim = Annotated[bool | None, opt.option(PlayGiven, "claim")]


@app.command("play")
def play_command(
    bot: Annotated[
        list[str] | None,
        typer.Option(
            "--bot",
            "-b",
            help="NAME=COMMAND, repeatable: one bot plays every other seat, or give one per other seat, "
            f"clockwise from your left. Default: {DEFAULT_BOT} (example bot).",
        ),
    ] = None,
    seat: Annotated[int, typer.Option("--seat", "-s", min=0, help="Your seat (seat s plays for team s % teams).")] = 0,
    preset: opt.Preset = None,
    rules: opt.Rules = None,
    games: opt.MatchGames = opt.MATCH_GAMES,
    seed: PlaySeed = None,
    move_time: opt.MoveTime = None,
    on_fault: opt.OnFault = None,
    log_dir: opt.LogDir = LOGS,
    sandbox: opt.Sandbox = None,
    tcp: opt.Tcp = None,
    browser: Browser = None,
    level: Level = None,
    hints: Hints = None,
    estimates: Estimates = None,
    counter: Counter = None,
    bid_analysis: BidAnalysis = None,
    claim: Claim = None,
    verbose: VerboseOpt = False,
) -> None:
    """Take a seat at the table in this terminal, or in the browser with --browser; bots play the other seats.
    You have no time limit (--move-time is the bots')."""
    if seed is None:
        seed = secrets.randbelow(2**31)
    with user_errors():
        named = {"preset": preset, "rules": rules, "seed": seed, "move_time": move_time, "on_fault": on_fault}
        given = Given.from_options({**named, "sandbox": sandbox})
        mine = PlayGiven.from_options(
            {
                "browser": browser,
                "level": level,
                "hints": hints,
                "estimates": estimates,
                "counter": counter,
                "bid_analysis": bid_analysis,
                "claim": claim,
            }
        )
        commands = with_tcp(_bots(bot, mine), tcp or [])
        for command in commands:
            command.check_runnable()
        you = person_seat()
        config = match_config(
            given,
            seats=lambda rules: seats_around(rules, seat, you, [SeatBot(c.name, c) for c in commands]),
            games=games,
            log_dir=log_dir,
            sandbox=bot_sandbox(given.value("sandbox")),
        )
    client = (
        None if mine.browser is None else _browser_client(mine.browser, Features.from_given(mine), _level(bot, mine))
    )
    with user_errors(OSError):  # cannot listen, cannot write the log
        try:
            result = run_async(
                _play(config, seat, client), verbose, interrupted="interrupted: the log holds every complete game"
            )
        except PersonLeft as exc:
            raise fail(str(exc), Status.FAILED) from None
    print_standing(result, seat)
    console.print(f"log: {result.log_path}", highlight=False, soft_wrap=True)
    console.print(f"see it again: arena replay {result.log_path} --seat {seat}", highlight=False, soft_wrap=True)


def print_standing(result: MatchResult, seat: int) -> None:
    """Games won and points per hand per team, each team named by who sat in it."""
    rules = result.config.rules
    table = Table(title=f"{result.config.preset}: {len(result.games)} game(s), seed {result.config.seed}")
    for col in ("team", "seats", "wins", "pts/hand"):
        table.add_column(col, justify="left" if col == "seats" else "right")
    wins, points = result.wins(), result.points_per_hand()
    for team in range(rules.teams):
        members = [
            f"{s} you" if s == seat else f"{s} {result.seat_names[s]}"
            for s in range(rules.players)
            if rules.team_of(s) == team
        ]
        table.add_row(str(team), ", ".join(members), str(wins[team]), f"{points[team]:.2f}")
    console.print(table)
    if result.draws():
        console.print(f"draws: {result.draws()}")


def _bots(specs: list[str] | None, mine: PlayGiven) -> list[BotCommand]:
    """The other seats' bots: --bot, or the --level's (not both), else the default; the browser table's
    switches without --browser are refused."""
    if specs and mine.level is not None:
        raise SettingsError("--level and --bot both name the other seats' bots: give one of them")
    if mine.browser is None:
        named = [name for name in BROWSER_ONLY if getattr(mine, name) is not None]
        if named:
            flags = ", ".join((PlayGiven.table()[n].flag or n).split("/")[0] for n in named)
            raise SettingsError(f"{flags}: for the browser table only; add --browser")
    if mine.level is not None:
        return [level_bot(mine.level)]
    return [BotCommand.parse(spec) for spec in (specs or [example_bot(DEFAULT_BOT)])]


def _level(specs: list[str] | None, mine: PlayGiven) -> int | None:
    """The level of the other seats' bots: --level's, the default bot's, or None for bots given by --bot."""
    if mine.level is not None:
        return mine.level
    return None if specs else DEFAULT_LEVEL


def _browser_client(port: int, features: Features, others: int | None) -> Callable[[Match], Sequence[str]]:
    """The browser table's client command for a match (it reads the log after each hand and game)."""

    def command(match: Match) -> Sequence[str]:
        argv = [sys.executable, "-m", "referee.browserseat", "--port", str(port), "--features", features.to_json()]
        return [*argv, "--log", str(match.log_path), *(["--others", str(others)] if others is not None else [])]

    return command


async def _play(config: MatchConfig, seat: int, client: Callable[[Match], Sequence[str]] | None = None) -> MatchResult:
    def started(match: Match) -> None:
        others = ", ".join(f"{s} {b.name}" for s, b in enumerate(config.seats) if s != seat)
        console.print(
            f"{config.preset} (seed {config.seed}): you are seat {seat}, bots at {others}; log {match.log_path}",
            highlight=False,
            soft_wrap=True,
        )

    if client is None:
        return await play_with_person(config, seat, on_start=started)
    return await play_with_person(config, seat, on_start=started, client=client, linger=True)
