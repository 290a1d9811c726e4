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
from collections.abc import Iterable
from pathlib import Path
from typing import Annotated, Any

import typer
from rich.console import Console
from rich.markup import escape
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn, TimeRemainingColumn
from rich.table import Table

from referee.analyze.driver import AnalyzeError, Planned, analyse
from referee.analyze.grades import THRESHOLDS, Grade
from referee.analyze.html import page_analysis
from referee.analyze.settings import AnalysisOpened, AnalyzeChoices, open_analysis
from referee.analyze.summary import PHASES, Analysis, DecisionRecord, Mean, Stats
from referee.cli import options as opt
from referee.cli.app import Status, app, console, err_console, fail, status_of, user_errors
from referee.cli.scale import RayOpt
from referee.gamelog import LogError
from referee.games.placement import Placement
from referee.names import shown_name
from referee.replay.html import viewer_page
from referee.replay.logfile import MatchLog
from referee.runfolder import MATCH_LOG, RunFolder, write_json
from referee.setting import SettingsError

# Per-game rows are printed up to this many games (all of them are in --json).
GAMES_SHOWN = 24

Seat = Annotated[int | None, opt.option(AnalyzeChoices, "seat")]
Bot = Annotated[str | None, opt.option(AnalyzeChoices, "bot")]
Game = Annotated[int | None, opt.option(AnalyzeChoices, "game")]
Samples = Annotated[int | None, opt.option(AnalyzeChoices, "samples")]
Solver = Annotated[bool | None, opt.option(AnalyzeChoices, "solver")]
Seed = Annotated[int | None, opt.option(AnalyzeChoices, "seed")]
Worst = Annotated[int | None, opt.option(AnalyzeChoices, "worst")]
Workers = Annotated[int | None, opt.option(AnalyzeChoices, "workers")]
AsJson = Annotated[bool | None, opt.option(AnalyzeChoices, "as_json")]
Html = Annotated[Path | None, opt.option(AnalyzeChoices, "html")]


@app.command("analyze")
def analyze_command(
    ctx: typer.Context,
    path: Annotated[
        Path,
        typer.Argument(
            metavar="LOG|FOLDER",
            help="A game log, or a folder of them: a tournament's or SPRT's folder (its games/), or match logs.",
            show_default=False,
        ),
    ],
    seat: Seat = None,
    bot: Bot = None,
    game: Game = None,
    samples: Samples = None,
    solver: Solver = None,
    seed: Seed = None,
    worst: Worst = None,
    workers: Workers = None,
    ray: RayOpt = None,
    as_json: AsJson = None,
    html: Html = None,
) -> None:
    """Rate every decision of the chosen seats by the points it gave up, from that seat's information only,
    with the luck of each hand's cards; per game and per bot, with the worst decisions."""
    with user_errors():
        chosen = AnalyzeChoices.from_options(ctx.params)
    try:
        opened = open_analysis(path, chosen, Placement(ray))
    except (AnalyzeError, LogError, OSError) as exc:
        raise fail(str(exc), Status.BAD_INPUT) from None
    except SettingsError as exc:
        raise fail(str(exc), status_of(exc)) from None
    try:
        analysis = _run(opened)
    except KeyboardInterrupt:
        err_console.print("interrupted: nothing was written", highlight=False)
        raise typer.Exit(Status.INTERRUPTED) from None
    finally:
        opened.processes.release()
    _print(opened, analysis)


def _print(opened: AnalysisOpened, analysis: Analysis) -> None:
    """The analysis on the terminal (or as JSON), saved for the report in a run's folder, and its pages."""
    chosen, path = opened.chosen, opened.path
    worst, as_json, html = chosen.value("worst"), bool(chosen.as_json), chosen.html
    record = analysis.record(worst)
    if as_json:
        print(json.dumps(record, indent=1, ensure_ascii=False))
    else:
        print_analysis(console, analysis, worst)
    notes = err_console if as_json else console
    if path.is_dir() and RunFolder(path).settings.is_file():
        notes.print(_save_for_report(RunFolder(path), record), highlight=False, soft_wrap=True)
    for line in analysis.cut_off:
        err_console.print(f"note: {escape(line)}", highlight=False, soft_wrap=True)
    if html is not None:
        try:
            pages = _write_pages(opened.logs, analysis, html, path.is_dir())
        except OSError as exc:
            raise fail(f"--html {html}: {exc.strerror or exc}", Status.FAILED) from None
        for page in pages:
            notes.print(f"wrote {page}", highlight=False, soft_wrap=True)


def _save_for_report(folder: RunFolder, record: dict[str, Any]) -> str:
    """Save the analysis of a tournament's folder in it (``analysis.json``, as ``--json`` prints it), where the
    folder's report finds it; the line that says so (or why it could not)."""
    path = folder.analysis
    try:
        write_json(path, record, indent=1, ensure_ascii=False)
    except OSError as exc:
        return f"note: could not save {escape(str(path))}: {escape(exc.strerror or str(exc))}"
    return f"wrote {escape(str(path))} (arena report {escape(str(folder.path))} shows it)"


# What each status of a decision the analysis does not rate is, in the start line.
_NOT_RATED = {
    "forced": "forced (one legal choice)",
    "referee": "played by the referee after a fault",
    "claim": "accepted claims",
}


def _start_line(path: Path, planned: Planned, opened: AnalysisOpened) -> str:
    """What is analysed: the decisions of the chosen seats, and how many of them are rated (the tables'
    "decisions") and why the others are not."""
    budget, seed, choice, where = (
        opened.chosen.budget,
        opened.chosen.value("seed"),
        opened.choice,
        opened.processes.describe(),
    )
    statuses = planned.statuses()
    others = "".join(f", {statuses[s]} {words}" for s, words in _NOT_RATED.items() if statuses[s])
    return (
        f"{path}: {_count(len(planned.games), 'game')}, {_count(len(planned.hands), 'complete hand')}, "
        f"{_count(planned.decisions, 'decision')} of {choice.describe()}: {statuses['rate']} to rate{others}; "
        f"{budget.samples} worlds per choice{' solved' if budget.solve else ''} (screen {budget.screen}), seed {seed}; "
        f"{where}"
    )


def _count(n: int, thing: str) -> str:
    return f"{n} {thing}{'' if n == 1 else 's'}"


def _run(opened: AnalysisOpened) -> Analysis:
    """Analyse the hands, the start line first (not with --json) and a progress bar on a terminal."""
    chosen, planned, where = opened.chosen, opened.planned, opened.processes.describe()
    budget, seed = chosen.budget, chosen.value("seed")
    if not chosen.as_json:
        console.print(_start_line(opened.path, planned, opened), highlight=False, soft_wrap=True)
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
            source=str(opened.path),
            budget=budget,
            seed=seed,
            choice=opened.choice,
            runner=opened.runner,
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
