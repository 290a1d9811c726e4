"""``arena check-bot``: one bot through every decision kind and protocol case.

It ends with one line, the verdict; the table of checks comes only for what
failed (every check with ``--verbose``), so a bot that passes is told so in a
line and a bot that fails sees only its failures.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Annotated

import typer
from rich.markup import escape
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn
from rich.table import Table

from referee.checkbot.positions import situations
from referee.checkbot.session import OTHER_CHECKS, Check, Report, check_bot
from referee.checkbot.settings import CheckChoices, CheckOpened, open_check
from referee.cli import options as opt
from referee.cli.app import Status, app, console, user_errors
from referee.cli.common import run_async, warn
from referee.games.settings import GameChoices

Presets = Annotated[list[str] | None, opt.option(CheckChoices, "presets")]
AsJson = Annotated[bool | None, opt.option(CheckChoices, "as_json")]
CheckLogDir = Annotated[Path | None, opt.option(CheckChoices, "log_dir")]


@app.command("check-bot")
def check_bot_command(
    ctx: typer.Context,
    bot: Annotated[str, typer.Argument(help="NAME=COMMAND: the bot to check, as for --bot elsewhere.")],
    presets: Presets = None,
    rules: opt.Rules = None,
    move_time: opt.MoveTime = None,
    as_json: AsJson = None,
    log_dir: CheckLogDir = None,
    sandbox: opt.Sandbox = None,
    tcp: opt.Tcp = None,
    verbose: Annotated[
        bool,
        typer.Option(
            "--verbose", "-v", help="Show every check in a table, not only those that failed; log the referee's events."
        ),
    ] = False,
) -> None:
    """Put a bot through every kind of decision on every preset, and the protocol's Hello, Error, restart and
    Shutdown; exit status 0 only when every check passes, 1 when one fails, 2 on bad options."""
    with user_errors():
        chosen = CheckChoices.from_options(ctx.params)
        check = open_check(bot, GameChoices.from_options(ctx.params), chosen, warn=warn)
    report = _run(check, quiet=bool(chosen.as_json), verbose=verbose)
    if chosen.as_json:
        print(json.dumps(report.record(), indent=2))
    else:
        print_report(report, every_check=verbose)
    raise typer.Exit(Status.OK if report.passed else Status.FAILED)


def _run(check: CheckOpened, *, quiet: bool, verbose: bool) -> Report:
    """Run the checks, with a progress bar on a terminal (``quiet``: none)."""
    total = OTHER_CHECKS + sum(len(situations(r)) for r in check.played.values())
    progress = Progress(
        TextColumn(f"[bold]checking {escape(check.command.name)}"),
        BarColumn(),
        MofNCompleteColumn(),
        TextColumn("{task.description}"),
        console=console,
        transient=True,
        disable=quiet or not console.is_terminal,
    )
    with user_errors(OSError), progress:
        task = progress.add_task("", total=total)

        def advance(done: object) -> None:
            progress.update(task, advance=1, description=escape(getattr(done, "name", "")))

        return run_async(
            check_bot(
                check.command,
                presets=check.presets,
                rules=check.overrides,
                move_time_ms=check.move_time_ms,
                output_dir=check.log_dir,
                on_check=advance,
                sandbox=check.sandbox,
            ),
            verbose,
            interrupted="interrupted: the bot is shut down",
        )


def print_report(report: Report, every_check: bool = False) -> None:
    """The checks that failed (``every_check``: all of them) in a table, then the verdict in one line."""
    failed = report.failures
    shown = report.checks if every_check else failed
    if shown:
        console.print(checks_table(report, shown))
    console.print(verdict_line(report), highlight=False, soft_wrap=True)


def checks_table(report: Report, checks: list[Check]) -> Table:
    hello = f" (Hello: {report.bot_name!r} {report.bot_version!r})" if report.bot_name else ""
    rules = "".join(f", {k}={v}" for k, v in report.rules.items())
    table = Table(
        title=f"check-bot {report.bot}{hello}: {len(report.presets)} preset(s){rules}, {report.move_time_ms} ms"
    )
    table.add_column("")
    table.add_column("group", no_wrap=True)
    table.add_column("check")
    table.add_column("answered")
    table.add_column("detail: on failure, the rule broken, what was expected and what came", overflow="fold")
    for c in checks:
        mark = "[green]ok[/]" if c.passed else "[bold red]FAIL[/]"
        answered = f"{c.decisions}: {', '.join(c.kinds)}" if c.decisions else ""
        if c.passed:
            detail = escape(c.got)
        else:
            detail = f"[bold]{escape(c.rule)}[/]: expected {escape(c.expected)}; got {escape(c.got)}"
        table.add_row(mark, escape(c.group), escape(c.name), answered, detail)
    return table


def verdict_line(report: Report) -> str:
    """One line (rich markup): passed or how many failed, what was checked, the think time, and where the report
    and the bot's output are."""
    failed = report.failures
    total = len(report.checks)
    if failed:
        verdict = f"[bold red]{len(failed)} of {total} checks failed[/] (the table above; --verbose shows every check)"
    else:
        verdict = f"[bold green]every check passed[/]: {total} checks"
    rules = "".join(f", {k}={v}" for k, v in report.rules.items())
    think = report.think_summary()
    timing = (
        f"; {len(report.think_ms)} decisions (median {think['median']:.1f} ms, p99 {think['p99']:.1f} ms, "
        f"max {think['max']:.1f} ms)"
        if think
        else ""
    )
    return (
        f"check-bot {escape(report.bot)}: {verdict} on {len(report.presets)} preset(s){escape(rules)}{timing}; "
        f"the report: {escape(report.saved)}; the bot's output: {escape(report.output)}"
    )
