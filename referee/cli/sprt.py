"""``arena sprt``: duplicate pairs between a new bot and a base bot until the SPRT decides."""

from __future__ import annotations

from collections.abc import Callable, Coroutine
from typing import Any

import typer
from rich.live import Live
from rich.text import Text

from referee.cli import options as opt
from referee.cli.app import app, console, user_errors
from referee.cli.common import VerboseOpt, run_async, warn
from referee.cli.live import LiveOpt, watched
from referee.cli.report import write_folder_report
from referee.cli.scale import RayOpt, RayWorkingDirOpt
from referee.games.placement import Placement
from referee.opening.sprt import open_sprt
from referee.report.data import Report
from referee.sprt.playing import SprtRun, Status
from referee.stats.sprt import Verdict


@app.command("sprt")
def sprt_command(
    ctx: typer.Context,
    bots: opt.SprtBots = None,
    elo0: opt.Elo0 = None,
    elo1: opt.Elo1 = None,
    alpha: opt.Alpha = None,
    beta: opt.Beta = None,
    model: opt.EloModel = None,
    max_pairs: opt.MaxPairs = None,
    config: opt.Config = None,
    preset: opt.Preset = None,
    rules: opt.Rules = None,
    seed: opt.Seed = None,
    move_time: opt.MoveTime = None,
    time_bank: opt.TimeBank = None,
    on_fault: opt.OnFault = None,
    concurrency: opt.Concurrency = None,
    workers: opt.Workers = None,
    ray: RayOpt = None,
    ray_working_dir: RayWorkingDirOpt = None,
    sandbox: opt.RunSandbox = None,
    tcp: opt.Tcp = None,
    live: LiveOpt = None,
    name: opt.Name = None,
    out: opt.Out = None,
    resume: opt.Resume = False,
    verbose: VerboseOpt = False,
) -> None:
    """Play duplicate pairs between two bots until a sequential probability ratio test says which hypothesis holds."""
    with user_errors(OSError):
        chosen = opt.sprt_choices(ctx, config)
        run = open_sprt(chosen, resume=resume, place=Placement(ray, ray_working_dir, verbose), warn=warn)
    plan, settings, folder = run.plan, run.settings, run.folder
    new, base = settings.bot_names
    pending = 2 * plan.max_pairs - len(run.series.done)
    tables = min(run.series.concurrency, pending)
    where = run.series.backend.describe(tables)
    t = plan.test
    console.print(
        f"SPRT {new} vs {base}: H0 Elo {t.elo0:g}, H1 Elo {t.elo1:g} ({t.model}), alpha {t.alpha:g}, "
        f"beta {t.beta:g}; {settings.preset}, duplicate pairs (at most {plan.max_pairs}); "
        f"{tables} table(s){f' {where}' if where else ''}; folder {folder.path}",
        highlight=False,
        soft_wrap=True,
    )
    with user_errors(OSError):
        try:
            final, report = _play(run, verbose, live)
        finally:
            run.series.backend.release()
    decision = run.decided or final  # the status line and the verdict: the same pairs
    console.print(status_line(run, decision), highlight=False, soft_wrap=True)
    console.print(verdict_text(run, decision), highlight=False, soft_wrap=True)
    if final.games > decision.games:
        console.print(after_the_decision(run, decision, final), highlight=False, soft_wrap=True)
    console.print(f"results: {folder.sprt_result}; game logs: {folder.games}", highlight=False, soft_wrap=True)
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


def after_the_decision(run: SprtRun, decision: Status, final: Status) -> str:
    """The games that were at a table when the test decided, and finished after: kept, not in the decision."""
    extra = final.games - decision.games
    return (
        f"{extra} game{'s' if extra > 1 else ''} at a table when the test decided finished after it: kept, but not "
        f"in the decision (with them: {final.pairs} pairs, LLR {final.llr:+.2f}; {run.folder.sprt_result})"
    )


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
            return await watched(run.run, run.series, live, say)

        return play()

    if not console.is_terminal:
        last = [run.status().pairs]

        def every_ten(status: Status) -> None:
            if run.decided is not None and status is not run.decided:
                return  # the games still at a table after the decision: the summary says what they changed
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
