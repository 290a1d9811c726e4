"""``arena analyze LOG|FOLDER``: what each decision cost, and the luck of the cards, per game and per bot.

On a tournament's folder (one with ``settings.json``) the analysis is also saved there as ``analysis.json``,
the record ``--json`` prints, for ``arena report`` to show.

Bad input (a path that is no log or holds none, a log that is not a log or
disagrees with the engine, an unknown seat or bot, a bad option) is one line
and exit status 2, as in every command (docs/cli.md). A log cut off inside a hand is analysed up to its last
complete hand, and the output says so. Docs: docs/analyze.md.
"""

from __future__ import annotations

import json
import math
from collections.abc import Callable, Iterable, Iterator
from pathlib import Path
from typing import Annotated, Any

import typer
from rich.console import Console
from rich.markup import escape
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn, TimeRemainingColumn
from rich.table import Table

from referee.analyze.driver import AnalyzeError, Planned, SeatChoice, analyse, choose_seats, find_logs, plan_logs
from referee.analyze.evaluate import Budget
from referee.analyze.grades import THRESHOLDS, Grade
from referee.analyze.html import page_analysis
from referee.analyze.plan import HandPlan
from referee.analyze.run import HandResult, Runner, run_here, run_on_ray, run_on_workers
from referee.analyze.summary import PHASES, Analysis, DecisionRecord, Mean, Stats
from referee.cli.app import Status, app, console, err_console, fail, status_of
from referee.cli.scale import RayOpt
from referee.gamelog import LogError
from referee.names import shown_name
from referee.replay.html import viewer_page
from referee.replay.logfile import MatchLog
from referee.runfolder import MATCH_LOG, RunFolder, write_json
from referee.setting import SettingsError
from referee.tournament.backends.cluster import connect
from referee.tournament.backends.local import cpu_count

# Per-game rows are printed up to this many games (all of them are in --json).
GAMES_SHOWN = 24


def _budget(samples: int) -> Budget:
    """The budget for ``--samples N``: N final worlds per choice, a quarter of that (at least 8) to screen."""
    return Budget(samples=samples, screen=max(8, samples // 4), luck_samples=samples)


@app.command("analyze")
def analyze_command(
    path: Annotated[
        Path,
        typer.Argument(
            metavar="LOG|FOLDER",
            help="A game log, or a folder of them: a tournament's or SPRT's folder (its games/), or match logs.",
            show_default=False,
        ),
    ],
    seat: Annotated[
        int | None, typer.Option("--seat", "-s", metavar="S", help="Analyse only seat S (default: every seat).")
    ] = None,
    bot: Annotated[
        str | None, typer.Option("--bot", "-b", metavar="NAME", help="Analyse only the seats bot NAME played.")
    ] = None,
    game: Annotated[
        int | None, typer.Option("--game", "-g", metavar="G", min=1, help="Only game G of each log (1-based).")
    ] = None,
    samples: Annotated[
        int,
        typer.Option(
            "--samples",
            "-n",
            min=8,
            max=10_000,
            help="Worlds each finalist choice is played out in (a quarter as many screen every choice first).",
        ),
    ] = Budget().samples,
    seed: Annotated[int, typer.Option("--seed", help="Seed of the worlds: the same seed, the same analysis.")] = 1,
    worst: Annotated[int, typer.Option("--worst", min=0, max=1000, help="Worst decisions listed per bot.")] = 5,
    workers: Annotated[
        int | None,
        typer.Option(
            "--workers",
            "-w",
            min=1,
            help="Processes on this machine to spread the hands over (default: one per CPU; 1: this process).",
        ),
    ] = None,
    ray: RayOpt = None,
    json_out: Annotated[
        bool,
        typer.Option("--json", help="Print the whole analysis as JSON (every decision and hand) instead of tables."),
    ] = False,
    html: Annotated[
        Path | None,
        typer.Option(
            "--html",
            metavar="OUT",
            help="Write the replay page with the analysis in it: OUT.html for a log, a folder of pages for a folder.",
        ),
    ] = None,
) -> None:
    """Rate every decision of the chosen seats by the points it gave up, from that seat's information only,
    with the luck of each hand's cards; per game and per bot, with the worst decisions."""
    if seat is not None and bot is not None:
        raise fail("choose --seat or --bot, not both", Status.BAD_INPUT)
    if ray is not None and workers is not None:
        raise fail("--ray and --workers: choose one", Status.BAD_INPUT)
    try:
        _analyze(
            path, SeatChoice(seat=seat, bot=bot), game, _budget(samples), seed, worst, workers, ray, json_out, html
        )
    except KeyboardInterrupt:
        err_console.print("interrupted: nothing was written", highlight=False)
        raise typer.Exit(Status.INTERRUPTED) from None


def _analyze(
    path: Path,
    choice: SeatChoice,
    game: int | None,
    budget: Budget,
    seed: int,
    worst: int,
    workers: int | None,
    ray: str | None,
    json_out: bool,
    html: Path | None,
) -> None:
    try:
        logs = find_logs(path)
        if html is not None and path.is_dir() and html.suffix == ".html":
            raise AnalyzeError(f"--html {html}: for a folder of logs, --html names a folder (a page per log)")
        seats = choose_seats(logs, choice)
        planned = plan_logs(logs, seats, game)
    except (AnalyzeError, LogError, OSError) as exc:
        raise fail(str(exc), Status.BAD_INPUT) from None
    runner, where, release = _runner(workers, ray, len(planned.hands))
    if not json_out:
        console.print(_start_line(path, planned, budget, seed, choice, where), highlight=False, soft_wrap=True)
    try:
        analysis = _run(planned, path, budget, seed, choice, runner, where)
    finally:
        release()
    record = analysis.record(worst)
    if json_out:
        print(json.dumps(record, indent=1, ensure_ascii=False))
    else:
        print_analysis(console, analysis, worst)
    if path.is_dir() and RunFolder(path).settings.is_file():
        saved = _save_for_report(RunFolder(path), record)
        (err_console if json_out else console).print(saved, highlight=False, soft_wrap=True)
    for line in analysis.cut_off:
        err_console.print(f"note: {escape(line)}", highlight=False, soft_wrap=True)
    if html is not None:
        try:
            pages = _write_pages(logs, analysis, html, path.is_dir())
        except OSError as exc:
            raise fail(f"--html {html}: {exc.strerror or exc}", Status.FAILED) from None
        for page in pages:
            (err_console if json_out else console).print(f"wrote {page}", highlight=False, soft_wrap=True)


def _save_for_report(folder: RunFolder, record: dict[str, Any]) -> str:
    """Save the analysis of a tournament's folder in it (``analysis.json``, as ``--json`` prints it), where the
    folder's report finds it; the line that says so (or why it could not)."""
    path = folder.analysis
    try:
        write_json(path, record, indent=1, ensure_ascii=False)
    except OSError as exc:
        return f"note: could not save {escape(str(path))}: {escape(exc.strerror or str(exc))}"
    return f"wrote {escape(str(path))} (arena report {escape(str(folder.path))} shows it)"


def _runner(workers: int | None, ray: str | None, hands: int) -> tuple[Runner, str, Callable[[], None]]:
    """Where the hands run: the runner, how the start line says it, and what to call when done."""
    if ray is not None:
        try:
            backend = connect(ray)
        except SettingsError as exc:
            raise fail(str(exc), status_of(exc)) from None
        cpus = backend.default_tables()

        def on_ray(plans: Iterable[HandPlan], budget: Budget, seed: int) -> Iterator[tuple[HandPlan, HandResult]]:
            return run_on_ray(plans, budget, seed, cpus)

        return on_ray, backend.describe(cpus), backend.release
    count = min(workers if workers is not None else cpu_count(), max(1, hands))
    if count <= 1:
        return run_here, "in this process", _nothing

    def on_workers(plans: Iterable[HandPlan], budget: Budget, seed: int) -> Iterator[tuple[HandPlan, HandResult]]:
        return run_on_workers(plans, budget, seed, count)

    return on_workers, f"on {count} worker processes", _nothing


def _nothing() -> None:
    return None


# What each status of a decision the analysis does not rate is, in the start line.
_NOT_RATED = {
    "forced": "forced (one legal choice)",
    "referee": "played by the referee after a fault",
    "claim": "accepted claims",
}


def _start_line(path: Path, planned: Planned, budget: Budget, seed: int, choice: SeatChoice, where: str) -> str:
    """What is analysed: the decisions of the chosen seats, and how many of them are rated (the tables'
    "decisions") and why the others are not."""
    statuses = planned.statuses()
    others = "".join(f", {statuses[s]} {words}" for s, words in _NOT_RATED.items() if statuses[s])
    return (
        f"{path}: {_count(len(planned.games), 'game')}, {_count(len(planned.hands), 'complete hand')}, "
        f"{_count(planned.decisions, 'decision')} of {choice.describe()}: {statuses['rate']} to rate{others}; "
        f"{budget.samples} worlds per choice (screen {budget.screen}), seed {seed}; {where}"
    )


def _count(n: int, thing: str) -> str:
    return f"{n} {thing}{'' if n == 1 else 's'}"


def _run(
    planned: Planned, path: Path, budget: Budget, seed: int, choice: SeatChoice, runner: Runner, where: str
) -> Analysis:
    progress = Progress(
        TextColumn("[bold]analysing"),
        BarColumn(),
        MofNCompleteColumn(),
        TextColumn("decisions"),
        TimeElapsedColumn(),
        TextColumn("eta"),
        TimeRemainingColumn(),
        console=err_console,
        transient=True,
        disable=not err_console.is_terminal,
    )
    with progress:
        task = progress.add_task("analyse", total=planned.decisions)
        return analyse(
            planned,
            source=str(path),
            budget=budget,
            seed=seed,
            choice=choice,
            runner=runner,
            where=where,
            on_hand=lambda done: progress.advance(task, done),
        )


# ------------------------------------------------------------------ the tables


def _mean(m: Mean, sign: str = "") -> str:
    """``0.22±0.05`` (``+1.3±2.0`` with sign "+"); ``-`` when there is nothing to average."""
    if m.count == 0 or math.isnan(m.mean):
        return "-"
    half = "" if math.isnan(m.half_width) else f"±{m.half_width:.2f}"
    return f"{m.mean:{sign}.2f}{half}"


def _grades(stats: Stats) -> list[str]:
    return [str(stats.grades[g.value]) for g in (Grade.INACCURACY, Grade.MISTAKE, Grade.BLUNDER)]


def _log_name(log: str) -> str:
    """A log as the tables name it: its file's name (``g0001.jsonl``), with its folder's for a match's log,
    whose file names are all ``match.jsonl``."""
    path = Path(log)
    return f"{path.parent.name}/{path.name}" if path.name == MATCH_LOG else path.name


def bots_table(analysis: Analysis, stats: dict[str, Stats]) -> Table:
    table = Table(
        title="Loss per decision by bot (points of hand margin, ±95%), grades, luck per hand",
        caption="decisions: those with a choice (forced ones are not rated); exch: gives and discards; "
        "inacc/mist/blund: grades",
    )
    table.add_column("bot")
    for col in ("decisions", "loss", "bid", "trump", "exch", "play", "inacc", "mist", "blund", "luck/hand"):
        table.add_column(col, justify="right")
    for bot, st in stats.items():
        table.add_row(
            shown_name(bot),
            str(st.decisions),
            _mean(st.loss),
            *(_mean(st.phases[p]) for p in PHASES),
            *_grades(st),
            _mean(st.luck, "+"),
        )
    return table


def games_table(analysis: Analysis, worst: int) -> Table:
    table = Table(
        title="By game and seat: loss per decision, total loss and total luck (points)",
        caption="decisions: those with a choice",
    )
    for col in ("game", "seat", "bot", "hands", "decisions", "loss", "total", "inacc", "mist", "blund", "luck"):
        table.add_column(col, justify="left" if col in ("game", "bot") else "right")
    several = len({g.log for g in analysis.games}) > 1
    for g in analysis.games:
        where = f"{_log_name(g.log)}:{g.number}" if several else str(g.number)
        for s, st in analysis.seat_stats(g, worst).items():
            table.add_row(
                escape(where),
                str(s),
                shown_name(g.seat_names[s]),
                str(st.hands),
                str(st.decisions),
                _mean(st.loss),
                f"{st.total_loss:.1f}",
                *_grades(st),
                f"{st.total_luck:+.1f}",
            )
    return table


def worst_table(bot: str, rows: Iterable[DecisionRecord], several_logs: bool) -> Table:
    table = Table(title=f"Worst decisions of {shown_name(bot)} (points, 95% interval)")
    for col in ("loss", "interval", "grade", "game", "--at", "seat", "taken", "best"):
        table.add_column(col, justify="right" if col in ("loss", "interval", "seat") else "left")
    for d in rows:
        assert d.loss is not None and d.low is not None and d.high is not None
        game = f"{_log_name(d.log)}:{d.game}" if several_logs else str(d.game)
        table.add_row(
            f"{d.loss:.2f}",
            f"{d.low:.1f}..{d.high:.1f}",
            "" if d.grade == Grade.NONE.value else d.grade,
            escape(game),
            d.address,
            str(d.seat),
            escape(d.taken),
            escape(d.best or ""),
        )
    return table


def print_analysis(out: Console, analysis: Analysis, worst: int) -> None:
    """The tables on the terminal: per bot, per game and seat, then each bot's worst decisions."""
    stats = analysis.bot_stats(worst)
    out.print(bots_table(analysis, stats))
    if len(analysis.games) <= GAMES_SHOWN:
        out.print(games_table(analysis, worst))
    else:
        out.print(f"{len(analysis.games)} games: the rows per game and seat are in --json", highlight=False)
    several = len({g.log for g in analysis.games}) > 1
    for bot, st in stats.items():
        if worst and st.worst:
            out.print(worst_table(bot, st.worst, several))
    example = next((d for st in stats.values() for d in st.worst), None)
    if example is not None:
        out.print(
            f"Open one: arena replay {escape(example.log)} --game {example.game} --at {example.address} "
            f"--seat {example.seat} (what that seat knew; without --seat every hand shows; add --ask COMMAND to "
            "put it to a bot again)",
            highlight=False,
            soft_wrap=True,
        )
    unjudged = sum(st.unjudged for st in stats.values())
    if unjudged:
        out.print(
            f"{_count(unjudged, 'decision')} to rate could not be judged: no deal of the hidden cards fit what the "
            "seat knew",
            highlight=False,
        )
    thresholds = ", ".join(f"{g.value} {t:g}" for g, t in reversed(THRESHOLDS.items()))
    out.print(
        "Each decision is judged from its seat's knowledge, not from the cards as they lay: the hidden cards "
        "are dealt as the seat could know them, so a contract that was made can still be a blunder when, for "
        f"all the seat knew, it was likely to fail. Grades by the low end of the 95% interval of the loss "
        f"({thresholds} points); luck: the seat's cards' worth less an average hand's. "
        f"{analysis.seconds:.0f} s {analysis.where}.",
        highlight=False,
        soft_wrap=True,
    )


# ------------------------------------------------------------------ the pages


def _write_pages(logs: list[MatchLog], analysis: Analysis, out: Path, folder: bool) -> list[Path]:
    """The replay page of each log with its analysis: ``out`` itself for a log, ``out/NAME.html`` for a folder."""
    written = []
    if folder:
        out.mkdir(parents=True, exist_ok=True)
    for match in logs:
        games = {g.number: g for g in analysis.games if g.log == str(match.path)}
        if not games:
            continue
        page = viewer_page(match, analysis=page_analysis(analysis, games))
        target = out / f"{match.path.stem}.html" if folder else out
        target.write_text(page, encoding="utf-8")
        written.append(target)
    return written
