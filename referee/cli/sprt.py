"""``arena sprt``: duplicate pairs between a new bot and a base bot until the SPRT decides."""

from __future__ import annotations

from collections.abc import Callable, Coroutine
from dataclasses import replace
from pathlib import Path
from typing import Annotated, Any

import typer
from rich.live import Live
from rich.text import Text

from referee.cli.app import app, console, fail, user_errors
from referee.cli.live import LiveOpt, watched
from referee.cli.report import write_folder_report
from referee.cli.running import (
    ConfigOpt,
    SavedSandboxOpt,
    TcpOpt,
    VerboseOpt,
    bot_sandbox,
    run_async,
    run_folder,
)
from referee.cli.scale import RayOpt, RayWorkingDirOpt, WorkersOpt, release, table_backend, where
from referee.engine.presets import rules_for
from referee.match import FaultPolicy
from referee.report.data import Report
from referee.sprt.config import SprtGiven, read_sprt_toml
from referee.sprt.runner import (
    SPRT_FILE,
    SUMMARY_FILE,
    SprtRun,
    Status,
    check_bot_count,
    check_teams,
    check_two_bots,
    read_plan,
    write_json,
)
from referee.stats.sprt import Model, Verdict
from referee.tournament.runner import TournamentFolder
from referee.tournament.settings import MOVE_TIME_MS, Given, check_name, parse_bots, parse_rules, resolve


@app.command("sprt")
def sprt_command(
    bot: Annotated[
        list[str] | None,
        typer.Option("--bot", "-b", help="NAME=COMMAND, twice: the new bot first, then the base it is tested against."),
    ] = None,
    elo0: Annotated[
        float | None, typer.Option("--elo0", help="H0: the new bot is this much better (Elo; default 0).")
    ] = None,
    elo1: Annotated[
        float | None, typer.Option("--elo1", help="H1: the new bot is this much better (Elo; default 10).")
    ] = None,
    alpha: Annotated[
        float | None, typer.Option("--alpha", help="Chance of accepting H1 when H0 holds (default 0.05).")
    ] = None,
    beta: Annotated[
        float | None, typer.Option("--beta", help="Chance of accepting H0 when H1 holds (default 0.05).")
    ] = None,
    model: Annotated[
        Model | None,
        typer.Option(
            "--model", case_sensitive=False, help="Elo model of elo0/elo1: logistic or normalized (default: logistic)."
        ),
    ] = None,
    max_pairs: Annotated[
        int | None, typer.Option("--max-pairs", min=1, help="Stop undecided after this many pairs (default 10000).")
    ] = None,
    config: ConfigOpt = None,
    preset: Annotated[str | None, typer.Option("--preset", "-p", help="Rule preset (default: neuralplay).")] = None,
    rule: Annotated[
        list[str] | None, typer.Option("--rule", "-r", help="Override a rule option, name=value (repeatable).")
    ] = None,
    seed: Annotated[int | None, typer.Option("--seed", help="Seed of the deals (default: 1).")] = None,
    move_time: Annotated[
        int | None,
        typer.Option(
            "--move-time", min=MOVE_TIME_MS[0], max=MOVE_TIME_MS[1], help="Time per decision in ms (default: 1000)."
        ),
    ] = None,
    on_fault: Annotated[
        FaultPolicy | None,
        typer.Option(
            "--on-fault", case_sensitive=False, help="forfeit the game, or play a default action (default: forfeit)."
        ),
    ] = None,
    concurrency: Annotated[
        int | None, typer.Option("--concurrency", "-j", min=1, help="Tables playing at once (default: the CPUs).")
    ] = None,
    workers: WorkersOpt = None,
    ray: RayOpt = None,
    ray_working_dir: RayWorkingDirOpt = None,
    sandbox: SavedSandboxOpt = None,
    tcp: TcpOpt = None,
    live: LiveOpt = None,
    name: Annotated[str | None, typer.Option("--name", help="The test's name; its folder is logs/NAME/.")] = None,
    out: Annotated[
        Path | None, typer.Option("--out", "-o", file_okay=False, help="The folder (default: logs/NAME/).")
    ] = None,
    resume: Annotated[
        bool, typer.Option("--resume", help="Continue the test in the folder: finished games are kept.")
    ] = False,
    verbose: VerboseOpt = False,
) -> None:
    """Play duplicate pairs between two bots until a sequential probability ratio test says which hypothesis holds."""
    with user_errors(OSError):
        cli = Given(
            bots=parse_bots(bot) if bot else None,
            tcp=tuple(tcp) if tcp else None,
            preset=preset,
            rules=parse_rules(rule or []),
            seed=seed,
            move_time=move_time,
            on_fault=on_fault,
            name=check_name(name) if name is not None else None,
            out=out,
            concurrency=concurrency,
            sandbox=sandbox,
            workers=workers,
        )
        cli_test = SprtGiven(elo0=elo0, elo1=elo1, alpha=alpha, beta=beta, model=model, max_pairs=max_pairs)
        if config is not None:
            toml, toml_test = read_sprt_toml(config)
            cli, cli_test = cli.over(toml), cli_test.over(toml_test)
        folder = TournamentFolder(
            run_folder(
                cli.out,
                cli.name,
                resume=resume,
                kind="sprt",
                resume_hint="--name or --out (or a --config naming them): the SPRT to continue",
            )
        )
        saved_plan = read_plan(folder) if resume else None
        plan = cli_test.plan(saved_plan)
        test = plan.test
        given = replace(cli, games=2 * plan.max_pairs, duplicate=True, name=cli.name or folder.path.name)
        if given.bots is not None:
            check_bot_count(len(given.bots))
        if given.preset is not None:
            check_teams(given.preset, rules_for(given.preset, dict(given.rules)).teams)
        if resume:
            assert saved_plan is not None
            saved = folder.saved_settings()
            settings = resolve(replace(given, name=saved.name), saved)
            if plan.max_pairs < saved_plan.max_pairs:
                raise fail(f"--resume: --max-pairs may grow, not shrink (it was {saved_plan.max_pairs})")
            # more pairs extend the schedule (deal n is the same whatever the length): not a difference
            changed = [d for d in settings.differences(saved) if not d.startswith("games ")]
            changed += [d for d in plan.differences(saved_plan) if not d.startswith("max_pairs ")]
            if changed:
                raise fail(
                    f"--resume: these settings differ from those {folder.path} was started with (here / there): "
                    f"{'; '.join(changed)}. Give the same settings, or leave them out to use the saved ones"
                )
        else:
            settings = resolve(given)
        check_two_bots(settings)
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
        if not resume or plan != saved_plan:
            write_json(folder.path / SPRT_FILE, plan.record())
            write_json(folder.settings_path, settings.record())
        run = SprtRun(settings, plan, folder, concurrency=tables, sandbox=box, backend=backend)
    new, base = settings.bot_names
    pending = 2 * plan.max_pairs - len(run.tournament.done)
    console.print(
        f"SPRT {new} vs {base}: H0 Elo {test.elo0:g}, H1 Elo {test.elo1:g} ({test.model}), alpha {test.alpha:g}, "
        f"beta {test.beta:g}; {settings.preset}, duplicate pairs (at most {plan.max_pairs}); "
        f"{min(tables, pending)} table(s){where(backend, tables, pending)}; folder {folder.path}",
        highlight=False,
        soft_wrap=True,
    )
    with user_errors(OSError):
        try:
            final, report = _play(run, verbose, live)
        finally:
            release(run.tournament.backend)
    decided = run.decided or final
    console.print(status_line(run, final), highlight=False, soft_wrap=True)
    console.print(verdict_text(run, decided), highlight=False, soft_wrap=True)
    console.print(f"results: {folder.path / SUMMARY_FILE}; game logs: {folder.games}", highlight=False, soft_wrap=True)
    write_folder_report(folder.path, report=report)


def status_line(run: SprtRun, s: Status) -> str:
    test = run.plan.test
    e = s.elo
    elo = f"Elo {e.elo:+.1f} [{e.elo_low:+.1f}, {e.elo_high:+.1f}]" if s.pairs else "Elo -"
    return (
        f"games {s.games} ({s.pairs} pairs, {'-'.join(map(str, s.penta.counts))}), score {e.score:.1%}, {elo}, "
        f"LLR {s.llr:+.2f} ({test.lower:+.2f}, {test.upper:+.2f})"
    )


def verdict_text(run: SprtRun, s: Status) -> str:
    test, new, base = run.plan.test, run.new, run.base
    if s.verdict is Verdict.H1:
        return (
            f"H1 accepted (LLR {s.llr:+.2f} >= {test.upper:+.2f}) after {s.pairs} pairs: {new} is stronger than "
            f"{base} (closer to {test.elo1:+g} Elo than to {test.elo0:+g})"
        )
    if s.verdict is Verdict.H0:
        return (
            f"H0 accepted (LLR {s.llr:+.2f} <= {test.lower:+.2f}) after {s.pairs} pairs: {new} is not stronger than "
            f"{base} by {test.elo1:+g} Elo (closer to {test.elo0:+g})"
        )
    return f"no decision: {s.pairs} of at most {run.plan.max_pairs} pairs played, LLR {s.llr:+.2f} within the bounds"


def _play(run: SprtRun, verbose: bool, live: int | None) -> tuple[Status, Report | None]:
    """Run the test, its status line updated as games end and, with ``live``, the live view; the final status
    and the live view's report."""
    folder = run.folder.path
    interrupted = (
        f"interrupted: the finished games are kept in {folder}; continue with `arena sprt --resume --out {folder}`"
    )

    def played(say: Callable[[str], None]) -> Coroutine[Any, Any, tuple[Status, Report | None]]:
        async def play() -> tuple[Status, Report | None]:
            if live is None:
                return await run.run(), None
            return await watched(run.run, run.tournament, live, say)

        return play()

    if not console.is_terminal:
        last = [run.status().pairs]

        def every_ten(status: Status) -> None:
            if status.pairs >= last[0] + 10:
                last[0] = status.pairs
                console.print(status_line(run, status), highlight=False, soft_wrap=True)

        run.on_game = every_ten
        return run_async(played(_plain), verbose, interrupted=interrupted)
    with Live(Text(status_line(run, run.status())), console=console, transient=True) as shown:
        run.on_game = lambda status: shown.update(Text(status_line(run, status)))

        def say(line: str) -> None:
            shown.console.print(line, highlight=False, markup=False, soft_wrap=True)

        return run_async(played(say), verbose, interrupted=interrupted)


def _plain(line: str) -> None:
    console.print(line, highlight=False, markup=False, soft_wrap=True)
