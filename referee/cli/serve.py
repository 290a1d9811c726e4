"""``arena serve``: a referee that launches no bots and waits for bots started by hand."""

from __future__ import annotations

from typing import Annotated

import typer

from referee.cli import options as opt
from referee.cli.app import app, console, user_errors
from referee.cli.running import VerboseOpt, game_line, match_config, print_result, run_async
from referee.match import Match, MatchConfig, MatchResult, SeatBot
from referee.runfolder import LOGS
from referee.server import DEFAULT_HOST
from referee.tournament.settings import Given


@app.command("serve")
def serve_command(
    preset: opt.Preset = None,
    rules: opt.Rules = None,
    games: opt.MatchGames = opt.MATCH_GAMES,
    seed: opt.Seed = None,
    move_time: opt.MoveTime = None,
    time_bank: opt.TimeBank = None,
    on_fault: opt.OnFault = None,
    log_dir: opt.LogDir = LOGS,
    host: Annotated[str, typer.Option(help="Address to listen on.")] = DEFAULT_HOST,
    port: Annotated[int, typer.Option(min=0, max=65535, help="Port to listen on (0: any free port).")] = 0,
    verbose: VerboseOpt = False,
) -> None:
    """Print the address and one token per seat, wait for bots started by hand (say, in a debugger), then play."""
    with user_errors():
        named = {"preset": preset, "rules": rules, "seed": seed, "move_time": move_time, "time_bank": time_bank}
        config = match_config(
            Given.from_options({**named, "on_fault": on_fault}),
            seats=lambda rules: tuple(SeatBot(f"seat{s}") for s in range(rules.players)),
            games=games,
            log_dir=log_dir,
            host=host,
            port=port,
        )
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
