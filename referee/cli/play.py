"""``arena play``: a person takes a seat in the terminal, or in the browser (``--browser``); bots play the other
seats."""

from __future__ import annotations

from typing import Annotated

import typer
from rich.table import Table

from referee.cli import options as opt
from referee.cli.app import Status, app, console, fail, user_errors
from referee.cli.common import VerboseOpt, run_async, warn
from referee.match import Match, MatchResult
from referee.play.person import PersonLeft, browser_client, play_with_person
from referee.play.settings import DEFAULT_BOT, HintMode, PlayChoices, PlayOpened, open_play

PlayBots = Annotated[
    list[str] | None,
    opt.option(
        PlayChoices,
        "bots",
        help="NAME=COMMAND, repeatable: one bot plays every other seat, or give one per other seat, clockwise from "
        f"your left. Default: {DEFAULT_BOT} (example bot)",
    ),
]
Seat = Annotated[int | None, opt.option(PlayChoices, "seat")]
PlaySeed = Annotated[int | None, opt.option(PlayChoices, "seed", default="a new one each time, printed")]
Browser = Annotated[int | None, opt.option(PlayChoices, "browser")]
Level = Annotated[int | None, opt.option(PlayChoices, "level")]
Hints = Annotated[HintMode | None, opt.option(PlayChoices, "hints")]
Estimates = Annotated[bool | None, opt.option(PlayChoices, "estimates")]
Counter = Annotated[bool | None, opt.option(PlayChoices, "counter")]
BidAnalysis = Annotated[bool | None, opt.option(PlayChoices, "bid_analysis")]
Claim = Annotated[bool | None, opt.option(PlayChoices, "claim")]


@app.command("play")
def play_command(
    ctx: typer.Context,
    bots: PlayBots = None,
    seat: Seat = None,
    preset: opt.Preset = None,
    rules: opt.Rules = None,
    games: opt.MatchGames = None,
    seed: PlaySeed = None,
    move_time: opt.MoveTime = None,
    on_fault: opt.OnFault = None,
    log_dir: opt.LogDir = None,
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
    with user_errors():
        opened = open_play(PlayChoices.from_options(ctx.params), warn=warn)
    with user_errors(OSError):  # cannot listen, cannot write the log
        try:
            result = run_async(_play(opened), verbose, interrupted="interrupted: the log holds every complete game")
        except PersonLeft as exc:
            raise fail(str(exc), Status.FAILED) from None
    print_standing(result, opened.seat)
    console.print(f"log: {result.log_path}", highlight=False, soft_wrap=True)
    console.print(f"see it again: arena replay {result.log_path} --seat {opened.seat}", highlight=False, soft_wrap=True)


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


async def _play(opened: PlayOpened) -> MatchResult:
    config, seat = opened.config, opened.seat

    def started(match: Match) -> None:
        others = ", ".join(f"{s} {b.name}" for s, b in enumerate(config.seats) if s != seat)
        console.print(
            f"{config.preset} (seed {config.seed}): you are seat {seat}, bots at {others}; log {match.log_path}",
            highlight=False,
            soft_wrap=True,
        )

    if opened.browser is None:
        return await play_with_person(config, seat, on_start=started)
    client = browser_client(opened.browser_port, opened.browser.to_json(), opened.others_level)
    return await play_with_person(config, seat, on_start=started, client=client, linger=True)
