"""``arena ladder``: a standing ladder (``referee.ladder``): init, add, retire, list, run, standings, history,
games, serve, check, recover."""

from __future__ import annotations

import json
import shlex
import sys
import time
from pathlib import Path
from typing import Annotated, Any

import typer
from rich import box
from rich.table import Table

from referee.bots import BotCommand
from referee.cli import options as opt
from referee.cli.app import ArenaGroup, Status, app, console, fail, user_errors
from referee.cli.common import VerboseOpt, run_async, warn
from referee.cli.live import LiveOpt
from referee.cli.scale import RayOpt, RayWorkingDirOpt
from referee.games.placement import Placement
from referee.ladder import policy, setup
from referee.ladder.board import board, games_csv, rating_history
from referee.ladder.check import check
from referee.ladder.database import LadderDatabase, LadderError
from referee.ladder.page import LadderView, serve_ladder
from referee.ladder.playing import LadderRun, Stop, run_lock
from referee.ladder.recover import recover
from referee.ladder.settings import BoardChoices, LadderChoices, LadderRunChoices, read_ladder_toml
from referee.opening.ladder import open_ladder
from referee.runfolder import RunFolder

ladder_app = typer.Typer(
    cls=ArenaGroup,
    name="ladder",
    help="A standing ladder: bots and their versions, rated (openskill) as they play; a page shows the ratings.",
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
)
app.add_typer(ladder_app, name="ladder")

FolderArg = Annotated[Path, typer.Argument(metavar="FOLDER", file_okay=False, help="The ladder's folder.")]


def _database(folder: Path) -> LadderDatabase:
    return LadderDatabase.open(RunFolder(folder))


@ladder_app.command("init")
def init_command(
    ctx: typer.Context,
    folder: FolderArg,
    config: opt.Config = None,
    preset: opt.Preset = None,
    rules: opt.Rules = None,
    seed: opt.Seed = None,
    move_time: opt.MoveTime = None,
    time_bank: opt.TimeBank = None,
    startup_allowance: opt.StartupAllowance = None,
    on_fault: opt.OnFault = None,
    all_seatings: opt.AllSeatings = None,
    sandbox: opt.Sandbox = None,
    all_versions: Annotated[bool | None, opt.option(LadderChoices, "all_versions")] = None,
) -> None:
    """Make a ladder in FOLDER: its rules, clock, fault policy and sandbox, fixed for all its games."""
    with user_errors(OSError):
        chosen = LadderChoices.from_options(ctx.params)
        if config is not None:
            chosen = chosen.over(read_ladder_toml(config))
        db, added = setup.init(RunFolder(folder), chosen)
    settings = db.settings()
    db.close()
    console.print(
        f"ladder {folder}: {settings.preset} ({settings.rules.teams} teams), sets of {settings.set_size} games, "
        f"{settings.move_time_ms} ms a move, seed {settings.seed}",
        highlight=False,
        soft_wrap=True,
    )
    for a in added:
        console.print(a.line(), highlight=False, soft_wrap=True)


@ladder_app.command("add")
def add_command(
    folder: FolderArg,
    bot: Annotated[str, typer.Argument(metavar="NAME=COMMAND", help="The bot: a new name, or a new version.")],
    tcp: Annotated[
        bool, typer.Option("--tcp", help="Its gRPC library cannot dial a Unix socket: give it a TCP address.")
    ] = False,
) -> None:
    """Add a bot, or a new version of a bot in the ladder: a frozen copy of its files, which plays once it passes
    its validation game."""
    with user_errors(OSError):
        command = BotCommand.parse(bot).with_tcp(tcp)
        db = _database(folder)
        try:
            added = setup.add(db, command)
        finally:
            db.close()
    console.print(added.line(), highlight=False, soft_wrap=True)


@ladder_app.command("retire")
def retire_command(folder: FolderArg, name: Annotated[str, typer.Argument(metavar="NAME")]) -> None:
    """Take a bot out of play; its versions keep their ratings."""
    with user_errors(OSError):
        db = _database(folder)
        try:
            retired = setup.retire(db, name)
        finally:
            db.close()
    console.print(f"retired {', '.join(v.label for v in retired)}", highlight=False)


@ladder_app.command("list")
def list_command(folder: FolderArg) -> None:
    """Every bot and version: status (and why), when added, command."""
    with user_errors(OSError):
        db = _database(folder)
        try:
            versions = db.versions()
        finally:
            db.close()
    table = Table(title=f"{folder}: {len(versions)} version(s)")
    for col in ("bot", "version", "status", "added", "frozen", "command", "why"):
        table.add_column(col, overflow="fold")
    for v in versions:
        why = v.reason + (f" (output: {v.output})" if v.output else "")
        added = time.strftime("%Y-%m-%d %H:%M", time.localtime(v.added_at))
        table.add_row(v.bot, str(v.version), v.status, added, v.code.shown, shlex.join(v.argv), why)
    console.print(table)


@ladder_app.command("retry")
def retry_command(
    folder: FolderArg,
    label: Annotated[str, typer.Argument(metavar="NAME@VERSION", help="A version in error.")],
) -> None:
    """Validate a version in error again, its files unchanged: it plays a new validation game (on another deal),
    and plays on the ladder once it passes."""
    with user_errors(OSError):
        name, at, number = label.partition("@")
        if not at or not number.isdigit():
            raise LadderError(f"{label!r}: name a version as NAME@VERSION (arena ladder list shows them)")
        db = _database(folder)
        try:
            version = policy.retry(db, name, int(number))
        finally:
            db.close()
    console.print(
        f"{version.label} waits for its validation game again (its files unchanged, frozen as {version.code.shown})",
        highlight=False,
        soft_wrap=True,
    )


RunGames = Annotated[int | None, opt.option(LadderRunChoices, "games")]
Hours = Annotated[float | None, opt.option(LadderRunChoices, "hours")]
RunConcurrency = Annotated[int | None, opt.option(LadderRunChoices, "concurrency")]
RunWorkers = Annotated[int | None, opt.option(LadderRunChoices, "workers")]


@ladder_app.command("run")
def run_command(
    ctx: typer.Context,
    folder: FolderArg,
    games: RunGames = None,
    hours: Hours = None,
    concurrency: RunConcurrency = None,
    workers: RunWorkers = None,
    ray: RayOpt = None,
    ray_working_dir: RayWorkingDirOpt = None,
    live: LiveOpt = None,
    verbose: VerboseOpt = False,
) -> None:
    """Play the ladder until Ctrl-C, --games or --hours; a stopped run goes on where it was."""
    run_folder = RunFolder(folder)
    with user_errors(OSError), run_lock(run_folder):
        chosen = LadderRunChoices.from_options(ctx.params)
        place = Placement(ray, ray_working_dir, verbose)
        ladder, stop = open_ladder(run_folder, chosen, place=place, warn=warn, say=_say)
        where = ladder.backend.describe(ladder.tables)
        console.print(
            f"ladder {folder}: {ladder.settings.preset}, {ladder.tables} table(s)" + (f" {where}" if where else ""),
            highlight=False,
            soft_wrap=True,
        )
        try:
            recorded = run_async(
                _play(ladder, stop, live),
                verbose,
                interrupted=lambda: (
                    f"interrupted: {ladder.recorded} game(s) recorded by this run, every one committed; "
                    f"`arena ladder run {folder}` goes on"
                ),
            )
        finally:
            ladder.backend.release()
    console.print(f"{recorded} game(s) recorded", highlight=False)
    _print_standings(folder)


async def _play(ladder: LadderRun, stop: Stop, live: int | None) -> int:
    if live is None:
        return await ladder.run(stop)
    async with LadderView(ladder.folder, live) as view:
        _say(f"live view: {view.url}")
        ladder.on_game = view.changed
        ladder.on_records = view.table_records
        return await ladder.run(stop)


def _say(line: str) -> None:
    console.print(line, highlight=False, markup=False, soft_wrap=True)


@ladder_app.command("standings")
def standings_command(
    folder: FolderArg,
    as_json: Annotated[bool | None, opt.option(BoardChoices, "as_json")] = None,
) -> None:
    """The leaderboard: versions that play ranked by mu - 3 sigma, then the others with their status."""
    if as_json:
        with user_errors(OSError):
            data = _board(folder)
        print(json.dumps({"meta": data["meta"], "standings": data["standings"]}, indent=2))
        return
    _print_standings(folder)


def _board(folder: Path) -> dict[str, Any]:
    db = _database(folder)
    try:
        return board(db)
    finally:
        db.close()


def _print_standings(folder: Path) -> None:
    with user_errors(OSError):
        data = _board(folder)
    meta = data["meta"]
    table = Table(
        title=f"{meta['name']}: {meta['preset']}, {meta['ladder_games']} ladder games, {meta['rated_sets']} sets",
        caption="ranked by mu - 3 sigma; versions that do not play follow",
        box=box.SIMPLE_HEAD,
        padding=(0, 1, 0, 0),
    )
    for col in ("#", "bot", "v", "mu-3s", "mu ± s", "games", "W-D-L", "pts/hand", "faults", "last", "status"):
        left = col in ("bot", "status", "last")
        table.add_column(col, justify="left" if left else "right", no_wrap=True, min_width=5 if col == "bot" else None)
    reasons = []
    for r in data["standings"]:
        status = r["status"]
        if r["reason"] and status != "active":
            reasons.append(f"{r['label']}: {status}: {r['reason']}")
        table.add_row(
            str(r["rank"] or ""),
            r["bot"],
            str(r["version"]),
            f"{r['ordinal']:.2f}",
            f"{r['mu']:.1f}±{r['sigma']:.1f}",
            str(r["games"]),
            f"{r['wins']}-{r['draws']}-{r['losses']}",
            f"{r['points_per_hand']:.2f}",
            str(r["faults"]),
            r["last_game"] or "",
            status,
        )
    console.print(table)
    for line in reasons:
        console.print(line, highlight=False, markup=False, soft_wrap=True)


@ladder_app.command("history")
def history_command(
    folder: FolderArg,
    as_json: Annotated[bool | None, opt.option(BoardChoices, "as_json")] = None,
) -> None:
    """Every rating update, set by set: each version's rating before and after, and the change of mu - 3 sigma."""
    with user_errors(OSError):
        db = _database(folder)
        try:
            updates = rating_history(db)
        finally:
            db.close()
    if as_json:
        print(json.dumps(updates, indent=2))
        return
    table = Table(caption="mu - 3 sigma before and after each rated set", box=box.SIMPLE_HEAD, padding=(0, 1, 0, 0))
    for col in ("update", "set", "version", "before", "after", "change", "rated at"):
        table.add_column(col, justify="left" if col in ("version", "rated at") else "right", no_wrap=True)
    for u in updates:
        table.add_row(
            str(u["update"]),
            str(u["set"]),
            u["version"],
            f"{u['before']['ordinal']:.2f}",
            f"{u['after']['ordinal']:.2f}",
            f"{u['change']:+.2f}",
            u["rated_at"] or "",
        )
    console.print(table)


@ladder_app.command("games")
def games_command(folder: FolderArg) -> None:
    """The recorded games as CSV on stdout, a row each (validation games too, with their kind)."""
    with user_errors(OSError):
        db = _database(folder)
        try:
            games_csv(db, sys.stdout)
        finally:
            db.close()


@ladder_app.command("serve")
def serve_command(
    folder: FolderArg,
    port: Annotated[int, typer.Argument(metavar="[PORT]", min=0, max=65535, help="0: a free port.")] = 0,
) -> None:
    """Serve the ladder's page on 127.0.0.1 (refreshed as games end) until Ctrl-C."""
    with user_errors(OSError):
        _database(folder).close()  # one line for a folder that is no ladder, before anything listens
        run_async(
            serve_ladder(RunFolder(folder), port, _say),
            verbose=False,
            interrupted="stopped serving",
        )


@ladder_app.command("check")
def check_command(folder: FolderArg) -> None:
    """Recompute every rating from the games table, in order, and compare with the stored ones."""
    with user_errors(OSError):
        db = _database(folder)
        try:
            problems, summary = check(db)
        finally:
            db.close()
    if problems:
        for line in problems[:20]:
            console.print(line, highlight=False, markup=False, soft_wrap=True)
        raise fail(
            f"{len(problems)} problem(s): the stored ratings are not those of the games, or a game's result is not "
            "the same in its row and its record",
            Status.FAILED,
        )
    console.print(summary, highlight=False)


@ladder_app.command("recover")
def recover_command(folder: FolderArg) -> None:
    """Rebuild a damaged or lost ladder.db from ladder.json and the games' logs (the old file is kept)."""
    with user_errors(OSError):
        lines = recover(RunFolder(folder))
    for line in lines:
        console.print(line, highlight=False, markup=False, soft_wrap=True)
