"""``arena tournament``: a round-robin between bots, with a live progress bar and a standings table."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import replace
from pathlib import Path
from typing import Annotated, Any

import typer
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn, TimeRemainingColumn
from rich.table import Table

from referee.cli.app import app, console, err_console, fail, user_errors
from referee.cli.live import LiveOpt, watched
from referee.cli.report import write_folder_report
from referee.cli.running import (
    ConfigOpt,
    SavedSandboxOpt,
    TcpOpt,
    VerboseOpt,
    bot_sandbox,
    long_game_line,
    run_async,
    run_folder,
)
from referee.cli.scale import RayOpt, RayWorkingDirOpt, WorkersOpt, release, table_backend, where
from referee.cli.standings import standings_table
from referee.match import FaultPolicy
from referee.names import shown_name
from referee.report.data import Report
from referee.tournament.backends.local import cpu_count
from referee.tournament.gauntlet import Matchup, head_to_head
from referee.tournament.results import GameRecord
from referee.tournament.runner import Tournament, TournamentFolder
from referee.tournament.settings import (
    MOVE_TIME_MS,
    TIME_BANK_MS,
    Given,
    TournamentSettings,
    check_name,
    parse_bots,
    parse_rules,
    read_toml,
    resolve,
)
from referee.tournament.standings import Standing


@app.command("tournament")
def tournament_command(
    bot: Annotated[
        list[str] | None,
        typer.Option(
            "--bot", "-b", help="NAME=COMMAND, repeatable: the bots of the round-robin (at least one per team)."
        ),
    ] = None,
    config: ConfigOpt = None,
    preset: Annotated[str | None, typer.Option("--preset", "-p", help="Rule preset (default: neuralplay).")] = None,
    rule: Annotated[
        list[str] | None, typer.Option("--rule", "-r", help="Override a rule option, name=value (repeatable).")
    ] = None,
    games: Annotated[
        int | None,
        typer.Option(
            "--games", "-n", min=1, help="Games per pairing (default: one per seating: 2, or 3 for three teams)."
        ),
    ] = None,
    seed: Annotated[int | None, typer.Option("--seed", help="Seed of the deals (default: 1).")] = None,
    move_time: Annotated[
        int | None,
        typer.Option(
            "--move-time",
            min=MOVE_TIME_MS[0],
            max=MOVE_TIME_MS[1],
            help="Time per decision in ms, plus a small grace (default: 1000).",
        ),
    ] = None,
    time_bank: Annotated[
        int | None,
        typer.Option(
            "--time-bank",
            min=TIME_BANK_MS[0],
            max=TIME_BANK_MS[1],
            help="Time bank per bot per game in ms: an answer over --move-time draws on it before it is a timeout "
            "(default: 0, none).",
        ),
    ] = None,
    on_fault: Annotated[
        FaultPolicy | None,
        typer.Option(
            "--on-fault",
            case_sensitive=False,
            help="A timeout, crash or illegal answer: the team forfeits the game, or a default action is played "
            "(default: forfeit).",
        ),
    ] = None,
    duplicate: Annotated[
        bool | None,
        typer.Option(
            "--duplicate/--no-duplicate",
            help="Play each deal once per seating, so the luck of the cards cancels out (default: duplicate).",
            show_default=False,
        ),
    ] = None,
    all_seatings: Annotated[
        bool | None,
        typer.Option(
            "--all-seatings",
            help="Three teams: play all 6 orders round the table, not only the 3 rotations, so each bot also "
            "sits on either side of each other (twice the games per duplicate set).",
            show_default=False,
        ),
    ] = None,
    concurrency: Annotated[
        int | None, typer.Option("--concurrency", "-j", min=1, help="Tables playing at once (default: the CPUs).")
    ] = None,
    workers: WorkersOpt = None,
    ray: RayOpt = None,
    ray_working_dir: RayWorkingDirOpt = None,
    name: Annotated[str | None, typer.Option("--name", help="The tournament's name; its folder is logs/NAME/.")] = None,
    out: Annotated[
        Path | None, typer.Option("--out", "-o", file_okay=False, help="The tournament folder (default: logs/NAME/).")
    ] = None,
    sandbox: SavedSandboxOpt = None,
    tcp: TcpOpt = None,
    resume: Annotated[
        bool, typer.Option("--resume", help="Continue the tournament in the folder: finished games are kept.")
    ] = False,
    live: LiveOpt = None,
    gauntlet: Annotated[
        str | None,
        typer.Option(
            "--gauntlet",
            help="A gauntlet instead of a round-robin: this bot plays every other bot; the others do not meet.",
        ),
    ] = None,
    verbose: VerboseOpt = False,
) -> None:
    """Play a round-robin between bots and print the standings (wins, points per hand, Elo)."""
    with user_errors(OSError):
        cli = Given(
            bots=parse_bots(bot) if bot else None,
            tcp=tuple(tcp) if tcp else None,
            preset=preset,
            rules=parse_rules(rule or []),
            games=games,
            seed=seed,
            move_time=move_time,
            time_bank=time_bank,
            on_fault=on_fault,
            duplicate=duplicate,
            all_seatings=all_seatings,
            name=check_name(name) if name is not None else None,
            out=out,
            concurrency=concurrency,
            gauntlet=gauntlet,
            sandbox=sandbox,
            workers=workers,
        )
        given = cli.over(read_toml(config)) if config is not None else cli
        folder = TournamentFolder(
            run_folder(
                given.out,
                given.name,
                resume=resume,
                kind="tournament",
                resume_hint="--name or --out (or a --config naming them): the tournament to continue",
            )
        )
        if resume:
            saved = folder.saved_settings()
            settings = resolve(given, saved)
            changed = settings.differences(saved)
            if changed:
                raise fail(
                    f"--resume: these settings differ from those {folder.path} was started with (here / there): "
                    f"{'; '.join(changed)}. Give the same settings, or leave them out to use the saved ones"
                )
        else:
            settings = resolve(replace(given, name=given.name or folder.path.name))
        for command in settings.bots:
            command.check_runnable()
        box = bot_sandbox(settings.sandbox)  # before the folder is made: `required` may refuse
        backend, tables = table_backend(
            ray=ray,
            ray_working_dir=ray_working_dir,
            workers=given.workers,
            concurrency=given.concurrency,
            verbose=verbose,
        )
        if not resume:
            folder.start(settings)
        tournament = Tournament(settings, folder, concurrency=tables, sandbox=box, backend=backend)
    total, done = len(tournament.schedule), len(tournament.done)
    pending = total - done
    console.print(
        f"{settings.name}: {len(settings.bots)} bots, {settings.preset}, {total} games"
        + (f" ({done} done)" if done else "")
        + (f", {min(tables, pending)} table(s)" if pending else "")
        + (where(tournament.backend, tables, pending) if pending else "")
        + f"; folder {folder.path}",
        highlight=False,
        soft_wrap=True,
    )
    if pending and ray is None and tables > cpu_count():
        err_console.print(
            f"warning: {tables} tables on {cpu_count()} CPUs: the games run slower; a bot kept waiting for a CPU "
            "gets that time back at its deadline, up to one more move time",
            highlight=False,
        )
    report: Report | None = None
    with user_errors(OSError):
        try:
            if pending:
                report = _play(tournament, verbose, live)
        finally:
            release(tournament.backend)
        rows = tournament.standings()
        csv_path, json_path = folder.write_standings(rows, _summary(settings, tournament))
    print_standings(settings, rows, done=len(tournament.done), total=total)
    if settings.gauntlet is not None:
        print_head_to_head(settings.gauntlet, _head_to_head(settings, tournament))
    print_start_failures(tournament.done.values())
    console.print(f"standings: {csv_path}, {json_path}; game logs: {folder.games}", highlight=False, soft_wrap=True)
    write_folder_report(folder.path, report=report)


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
            shown_name(tournament.settings.name), total=len(tournament.schedule), completed=len(tournament.done)
        )
        tournament.on_game = lambda _record: progress.advance(task)
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


def _summary(settings: TournamentSettings, tournament: Tournament) -> dict[str, Any]:
    return {
        "name": settings.name,
        "preset": settings.preset,
        "seed": settings.seed,
        "games_per_pairing": settings.games,
        "duplicate": settings.duplicate,
        "all_seatings": settings.all_seatings,
        "games_played": len(tournament.done),
        "games_scheduled": len(tournament.schedule),
        "complete": tournament.complete,
        "elo": "Bradley-Terry maximum likelihood, draws as half points, one virtual draw per pair, mean 0; "
        "elo_error_95 is 1.96 standard errors",
        **(
            {"gauntlet": settings.gauntlet, "head_to_head": [m.as_dict() for m in _head_to_head(settings, tournament)]}
            if settings.gauntlet is not None
            else {}
        ),
    }


def _head_to_head(settings: TournamentSettings, tournament: Tournament) -> list[Matchup]:
    assert settings.gauntlet is not None
    return head_to_head(settings.gauntlet, settings.bot_names, [r.outcome() for r in tournament.done.values()])


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


def print_standings(settings: TournamentSettings, rows: list[Standing], *, done: int, total: int) -> None:
    dup = ", duplicate" if settings.duplicate else ""
    title = f"{settings.name}: {settings.preset}, {done}/{total} games, seed {settings.seed}{dup}"
    console.print(standings_table(title, rows, console))


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
