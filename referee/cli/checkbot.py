"""``arena check-bot``: one bot through every decision kind and protocol case; a table of what passed."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Annotated

import typer
from rich.markup import escape
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn
from rich.table import Table

from referee.bots import BotCommand
from referee.checkbot.positions import check_overrides, check_rules, situations
from referee.checkbot.session import Report, check_bot
from referee.cli import options as opt
from referee.cli.app import app, console, user_errors
from referee.cli.running import VerboseOpt, bot_sandbox, run_async
from referee.engine.errors import RulesError
from referee.engine.presets import PRESETS
from referee.engine.rules import Rules
from referee.runfolder import LOGS
from referee.tournament.settings import Given

BAD_OPTIONS = 2  # the exit status of a usage mistake: 1 says a check failed


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
    tcp: Annotated[
        bool,
        typer.Option(
            "--tcp", help="Give the bot a 127.0.0.1 host:port in ARENA_ADDRESS, not a unix: target (docs/protocol.md)."
        ),
    ] = False,
    verbose: VerboseOpt = False,
) -> None:
    """Put a bot through every kind of decision on every preset, and the protocol's Hello, Error, restart and
    Shutdown; exit status 0 only when every check passes, 1 when one fails, 2 on bad options."""
    with user_errors(code=BAD_OPTIONS):
        command = BotCommand.parse(bot).with_tcp(tcp)
        command.check_runnable()
        presets = list(dict.fromkeys(preset)) if preset else list(PRESETS)
        # a malformed or unknown override: a one-line error naming it
        given = Given.from_options({"rules": rules, "move_time": move_time, "sandbox": sandbox})
        overrides = dict(given.rules)
        check_overrides(overrides)
        # an unknown preset, or an override that does not fit one: a one-line error naming it
        played = {name: _preset_rules(name, overrides) for name in presets}
    box = bot_sandbox(given.value("sandbox"))
    total = 3 + sum(len(situations(r)) for r in played.values()) + 1
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
        print_report(report)
    raise typer.Exit(0 if report.passed else 1)


def _preset_rules(preset: str, overrides: dict[str, str]) -> Rules:
    try:
        return check_rules(preset, overrides)
    except RulesError as exc:
        if overrides and preset in PRESETS:
            raise RulesError(f"--rule on {preset}: {exc}") from None
        raise


def print_report(report: Report) -> None:
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
    for c in report.checks:
        mark = "[green]ok[/]" if c.passed else "[bold red]FAIL[/]"
        answered = f"{c.decisions}: {', '.join(c.kinds)}" if c.decisions else ""
        if c.passed:
            detail = escape(c.got)
        else:
            detail = f"[bold]{escape(c.rule)}[/]: expected {escape(c.expected)}; got {escape(c.got)}"
        table.add_row(mark, escape(c.group), escape(c.name), answered, detail)
    console.print(table)
    think = report.think_summary()
    if think:
        console.print(
            f"think time over {len(report.think_ms)} decisions ({', '.join(report.kinds())}): "
            f"median {think['median']:.1f} ms, p99 {think['p99']:.1f} ms, max {think['max']:.1f} ms",
            highlight=False,
        )
    failed = report.failures
    verdict = "[bold green]every check passed[/]" if not failed else f"[bold red]{len(failed)} check(s) failed[/]"
    console.print(
        f"{verdict}; the report: {escape(report.saved)}; the bot's output: {escape(report.output)}",
        highlight=False,
        soft_wrap=True,
    )
