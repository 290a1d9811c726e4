"""``arena tournament``: a round-robin between bots, with a live progress bar and a standings table."""

from __future__ import annotations

from collections.abc import Iterable

import typer
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn, TimeRemainingColumn
from rich.table import Table

from referee.cli import options as opt
from referee.cli.app import app, console, err_console, user_errors
from referee.cli.common import VerboseOpt, long_game_line, run_async, warn
from referee.cli.live import LiveOpt, watched
from referee.cli.report import write_folder_report
from referee.cli.scale import RayOpt, RayWorkingDirOpt
from referee.cli.standings import standings_table
from referee.games.placement import Placement
from referee.games.results import GameRecord
from referee.games.standings import RANKING, Standing
from referee.names import shown_name
from referee.opening.tournament import open_tournament
from referee.report.data import Report
from referee.tournament.gauntlet import Matchup
from referee.tournament.playing import Tournament
from referee.tournament.schedule import FormatName
from referee.tournament.settings import TournamentSettings


@app.command("tournament")
def tournament_command(
    ctx: typer.Context,
    bots: opt.Bots = None,
    config: opt.Config = None,
    preset: opt.Preset = None,
    rules: opt.Rules = None,
    games: opt.Games = None,
    seed: opt.Seed = None,
    move_time: opt.MoveTime = None,
    time_bank: opt.TimeBank = None,
    on_fault: opt.OnFault = None,
    duplicate: opt.Duplicate = None,
    all_seatings: opt.AllSeatings = None,
    concurrency: opt.Concurrency = None,
    workers: opt.Workers = None,
    ray: RayOpt = None,
    ray_working_dir: RayWorkingDirOpt = None,
    name: opt.Name = None,
    out: opt.Out = None,
    sandbox: opt.RunSandbox = None,
    tcp: opt.Tcp = None,
    resume: opt.Resume = False,
    live: LiveOpt = None,
    gauntlet: opt.Gauntlet = None,
    format: opt.Format = None,
    rounds: opt.Rounds = None,
    tie_sets: opt.TieSets = None,
    seeding: opt.Seeding = None,
    verbose: VerboseOpt = False,
) -> None:
    """Play a tournament between bots (a round-robin, a gauntlet, a Swiss or a knockout) and print the standings
    (wins, points per hand, Elo)."""
    with user_errors(OSError):
        place = Placement(ray, ray_working_dir, verbose)
        tournament = open_tournament(opt.tournament_choices(ctx, config), resume=resume, place=place, warn=warn)
    settings, folder = tournament.settings, tournament.folder
    console.print(start_line(tournament), highlight=False, soft_wrap=True)
    report: Report | None = None
    with user_errors(OSError):
        try:
            if tournament.pending:
                report = _play(tournament, verbose, live)
        finally:
            tournament.backend.release()
        rows = tournament.write_standings()
    print_standings(settings, rows, done=len(tournament.done), total=tournament.expected, caption=tournament.ranking)
    if settings.gauntlet is not None:
        print_head_to_head(settings.gauntlet, tournament.head_to_head())
    print_start_failures(tournament.done.values())
    paths = f"{folder.standings_csv}, {folder.standings_json}"
    console.print(f"standings: {paths}; game logs: {folder.games}", highlight=False, soft_wrap=True)
    write_folder_report(folder.path, report=report)


def start_line(tournament: Tournament) -> str:
    """What the tournament is, how far it got and where its tables run."""
    settings, total, done = tournament.settings, tournament.expected, len(tournament.done)
    tables = min(tournament.concurrency, total - done)
    where = tournament.backend.describe(tables) if tables else ""
    plan = tournament.plan
    rounds = f", round {plan.round} of {plan.rounds}" if plan.rounds > 1 else ""
    kind = "" if settings.format_name is FormatName.ROUND_ROBIN else f" ({settings.format_name}{rounds})"
    return (
        f"{settings.name}{kind}: {len(settings.bots)} bots, {settings.preset}, {total} games"
        + (f" ({done} done)" if done else "")
        + (f", {tables} table(s)" if tables else "")
        + (f" {where}" if where else "")
        + f"; folder {tournament.folder.path}"
    )


def _play(tournament: Tournament, verbose: bool, live: int | None) -> Report | None:
    """Play the games, with a progress bar on a terminal and, with ``live``, the live view; its report."""
    progress = Progress(
        TextColumn("[bold]{task.description}"),
        BarColumn(),
        MofNCompleteColumn(),
        TextColumn("games"),
        TimeElapsedColumn(),
        TextColumn("eta"),
        TimeRemainingColumn(),
        console=console,
        disable=not console.is_terminal,
    )
    with progress:
        task = progress.add_task(
            shown_name(tournament.settings.name), total=tournament.expected, completed=len(tournament.done)
        )

        def advance(_record: GameRecord) -> None:  # a knockout's tie-break sets add games as it goes
            progress.update(task, total=tournament.expected, completed=len(tournament.done))

        tournament.on_game = advance
        rules = tournament.settings.rules

        def hand(game_id: str, number: int, scores: tuple[int, ...]) -> None:
            line = long_game_line(f"game {game_id}", number, scores, rules)
            if line is not None:  # printed above the progress bar
                progress.console.print(line, highlight=False, soft_wrap=True)

        tournament.on_hand = hand
        folder = tournament.folder.path

        def say(line: str) -> None:
            progress.console.print(line, highlight=False, markup=False, soft_wrap=True)

        async def play() -> Report | None:
            if live is None:
                await tournament.run()
                return None
            _, report = await watched(tournament.run, tournament, live, say)
            return report

        return run_async(
            play(),
            verbose,
            interrupted=lambda: (
                f"interrupted: finished games kept in {folder}: {len(tournament.done)}; "
                f"continue with `arena tournament --resume --out {folder}`"
            ),
            live=progress,
        )


def print_head_to_head(candidate: str, rows: list[Matchup]) -> None:
    title = f"gauntlet: {candidate} against each opponent (its Elo over each, 95% interval, one virtual draw)"
    table = Table(title=title)
    for col in ("opponent", "games", "W", "D", "L", "score", "Elo", "95% interval"):
        table.add_column(col, justify="left" if col == "opponent" else "right")
    for m in rows:
        e = m.elo
        table.add_row(
            m.opponent,
            str(m.games),
            str(m.wins),
            str(m.draws),
            str(m.losses),
            f"{e.score:.1%}" if m.games else "",
            f"{e.elo:+.0f}" if m.games else "",
            f"{e.elo_low:+.0f} .. {e.elo_high:+.0f}" if m.games else "",
        )
    console.print(table)


def print_standings(
    settings: TournamentSettings, rows: list[Standing], *, done: int, total: int, caption: str = RANKING
) -> None:
    dup = ", duplicate" if settings.duplicate else ""
    kind = "" if settings.format_name is FormatName.ROUND_ROBIN else f" {settings.format_name},"
    title = f"{settings.name}:{kind} {settings.preset}, {done}/{total} games, seed {settings.seed}{dup}"
    console.print(standings_table(title, rows, console, caption))


def print_start_failures(records: Iterable[GameRecord]) -> None:
    """One line per bot that could not start for some of its games: how many, and the last reason."""
    failures: dict[str, list[str]] = {}
    for record in sorted(records, key=lambda r: r.game):
        for v in record.violations:
            if v.not_started:
                failures.setdefault(v.bot, []).append(v.detail)
    for bot, reasons in sorted(failures.items()):
        err_console.print(
            f"bot {bot} could not start for {len(reasons)} game(s), forfeited: {reasons[-1]}",
            highlight=False,
            markup=False,
            soft_wrap=True,
        )
