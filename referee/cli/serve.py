"""``arena serve``: a referee that launches no bots and waits for bots started by hand."""

from __future__ import annotations

from typing import Annotated

import typer

from referee.cli import options as opt
from referee.cli.app import app, console, user_errors
from referee.cli.common import VerboseOpt, game_line, print_result, run_async, warn
from referee.games.matches import ServeChoices, open_match, started_by_hand
from referee.match import Match, MatchConfig, MatchResult

Host = Annotated[str | None, opt.option(ServeChoices, "host")]
Port = Annotated[int | None, opt.option(ServeChoices, "port")]


@app.command("serve")
def serve_command(
    ctx: typer.Context,
    preset: opt.Preset = None,
    rules: opt.Rules = None,
    games: opt.MatchGames = None,
    seed: opt.Seed = None,
    move_time: opt.MoveTime = None,
    time_bank: opt.TimeBank = None,
    on_fault: opt.OnFault = None,
    log_dir: opt.LogDir = None,
    host: Host = None,
    port: Port = None,
    verbose: VerboseOpt = False,
) -> None:
    """Print the address and one token per seat, wait for bots started by hand (say, in a debugger), then play."""
    with user_errors():
        chosen = ServeChoices.from_options(ctx.params)
        config = open_match(chosen, started_by_hand, example=None, warn=warn, sandboxed=False)
    with user_errors(OSError):  # cannot listen, cannot write the log
        result = run_async(_serve(config), verbose)
    print_result(result)


async def _serve(config: MatchConfig) -> MatchResult:
    async with Match(config) as match:
        address = match.server.address
        console.print(f"referee listening on {address} ({config.preset}); start one bot per seat, for example:")
        for seat, player in enumerate(match.players):
            team = config.rules.team_of(seat)
            console.print(
                f"  seat {seat} (team {team}): ARENA_ADDRESS={address} ARENA_TOKEN={player.token} "
                "python -m example_bots.random_bot",
                highlight=False,
                soft_wrap=True,
            )
        console.print("(or pass --address and --token to a bot built on the SDK). Waiting for the bots; Ctrl-C stops.")
        result = await match.play(on_game=lambda r: console.print(game_line(r, [p.bot_name for p in match.players])))
        return result
