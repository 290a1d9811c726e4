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

from referee.bots import BotCommand, with_tcp
from referee.checkbot.positions import check_overrides, check_rules, situations
from referee.checkbot.session import OTHER_CHECKS, Check, Report, check_bot
from referee.cli import options as opt
from referee.cli.app import Status, app, console, user_errors
from referee.cli.running import bot_sandbox, run_async
from referee.engine.errors import RulesError
from referee.engine.presets import PRESETS
from referee.engine.rules import Rules
from referee.runfolder import LOGS
from referee.tournament.settings import Given


@app.command("check-bot")
def check_bot_command(
    bot: Annotated[str, typer.Argument(help="NAME=COMMAND: the bot to check, as for --bot elsewhere.")],
    preset: Annotated[
        list[str] | None,
        typer.Option("--preset", "-p", help="Check on this preset only (repeatable; default: every preset)."),
    ] = None,
    rules: opt.Rules = None,
    move_time: opt.MoveTime = None,
    as_json: Annotated[
        bool, typer.Option("--json", help="Print the report as JSON (for scripts), not a table.")
    ] = False,
    log_dir: Annotated[
        Path, typer.Option("--log-dir", file_okay=False, help="Folder for the bot's output (stdout and stderr).")
    ] = LOGS,
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
        (command,) = with_tcp([BotCommand.parse(bot)], tcp or [])  # --tcp NAME, as in every other command
        command.check_runnable()
        presets = list(dict.fromkeys(preset)) if preset else list(PRESETS)
        # a malformed or unknown override: a one-line error naming it
        given = Given.from_options({"rules": rules, "move_time": move_time, "sandbox": sandbox})
        overrides = dict(given.rules)
        check_overrides(overrides)
        # an unknown preset, or an override that does not fit one: a one-line error naming it
        played = {name: _preset_rules(name, overrides) for name in presets}
    box = bot_sandbox(given.value("sandbox"))
    total = OTHER_CHECKS + sum(len(situations(r)) for r in played.values())
    progress = Progress(
        TextColumn(f"[bold]checking {escape(command.name)}"),
        BarColumn(),
        MofNCompleteColumn(),
        TextColumn("{task.description}"),
        console=console,
        transient=True,
        disable=as_json or not console.is_terminal,
    )
    with user_errors(OSError), progress:
        task = progress.add_task("", total=total)

        def advance(check: object) -> None:
            progress.update(task, advance=1, description=escape(getattr(check, "name", "")))

        report = run_async(
            check_bot(
                command,
                presets=presets,
                rules=overrides,
                move_time_ms=given.value("move_time"),
                output_dir=log_dir,
                on_check=advance,
                sandbox=box,
            ),
            verbose,
            interrupted="interrupted: the bot is shut down",
        )
    if as_json:
        print(json.dumps(report.record(), indent=2))
    else:
        print_report(report, every_check=verbose)
    raise typer.Exit(Status.OK if report.passed else Status.FAILED)


def _preset_rules(preset: str, overrides: dict[str, str]) -> Rules:
    try:
        return check_rules(preset, overrides)
    except RulesError as exc:
        if overrides and preset in PRESETS:
            raise RulesError(f"--rule on {preset}: {exc}") from None
        raise


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
