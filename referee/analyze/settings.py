"""``arena analyze``'s settings, declared once (``AnalyzeChoices``), and the opening of an analysis.

``open_analysis`` reads the logs, chooses the seats and the games, plans the hands and picks where they are
analysed (``referee.games.placement.choose_processes``: this process, worker processes, or Ray): what is
left to the command line is to run it and print.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from pathlib import Path

from referee.analyze.driver import AnalyzeError, Planned, SeatChoice, choose_seats, find_logs, plan_logs
from referee.analyze.evaluate import Budget
from referee.analyze.plan import HandPlan
from referee.analyze.spread import HandResult, Runner, run_here, run_on_ray, run_on_workers
from referee.games.placement import Placement, Processes, choose_processes
from referee.replay.logfile import MatchLog
from referee.setting import Choices, Flag, OutputPath, Text, WholeNumber, declare

_BUDGET = Budget()  # the analysis's defaults


@dataclass(frozen=True)
class AnalyzeChoices(Choices):
    """What ``arena analyze``'s options named (None: not named)."""

    seat: int | None = declare(
        WholeNumber(metavar="S"), "Analyse only seat S.", default_text="every seat", flag="--seat", short="-s"
    )
    bot: str | None = declare(
        Text("a bot's name", metavar="NAME"), "Analyse only the seats bot NAME played.", flag="--bot", short="-b"
    )
    game: int | None = declare(
        WholeNumber(low=1, metavar="G"), "Only game G of each log (1-based).", flag="--game", short="-g"
    )
    samples: int | None = declare(
        WholeNumber(8, 10_000),
        "Worlds each finalist choice is played out in (a quarter as many screen every choice first).",
        default=_BUDGET.samples,
        flag="--samples",
        short="-n",
    )
    solver: bool | None = declare(
        Flag(),
        "Solve each world double-dummy (every seat's best play, exactly), not play it out by the reference policy.",
        default=False,
        flag="--solver",
    )
    seed: int | None = declare(
        WholeNumber(), "Seed of the worlds: the same seed, the same analysis.", default=1, flag="--seed"
    )
    worst: int | None = declare(WholeNumber(0, 1000), "Worst decisions listed per bot.", default=5, flag="--worst")
    workers: int | None = declare(
        WholeNumber(low=1),
        "Processes on this machine to spread the hands over",
        default_text="one per CPU; 1: this process",
        flag="--workers",
        short="-w",
    )
    as_json: bool | None = declare(
        Flag(),
        "Print the whole analysis as JSON (every decision and hand) instead of tables.",
        default=False,
        flag="--json",
    )
    html: Path | None = declare(
        OutputPath("OUT"),
        "Write the replay page with the analysis in it: OUT.html for a log, a folder of pages for a folder.",
        flag="--html",
    )

    @property
    def budget(self) -> Budget:
        """The budget for ``--samples N``: N final worlds per choice, a quarter of that (at least 8) to screen."""
        samples = self.value("samples")
        solve = bool(self.value("solver"))
        return Budget(samples=samples, screen=max(8, samples // 4), luck_samples=samples, solve=solve)


@dataclass(frozen=True)
class AnalysisOpened:
    """An analysis, ready to run: the logs, the hands planned, what is analysed, and where."""

    path: Path
    logs: list[MatchLog]
    planned: Planned
    choice: SeatChoice
    chosen: AnalyzeChoices
    processes: Processes

    @property
    def runner(self) -> Runner:
        """What analyses the hands, where ``processes`` says."""
        processes = self.processes
        if processes.ray is not None:

            def on_ray(plans: Iterable[HandPlan], budget: Budget, seed: int) -> Iterator[tuple[HandPlan, HandResult]]:
                return run_on_ray(plans, budget, seed, processes.count)

            return on_ray
        if processes.count <= 1:
            return run_here

        def on_workers(plans: Iterable[HandPlan], budget: Budget, seed: int) -> Iterator[tuple[HandPlan, HandResult]]:
            return run_on_workers(plans, budget, seed, processes.count)

        return on_workers


def open_analysis(path: Path, chosen: AnalyzeChoices, place: Placement) -> AnalysisOpened:
    """The analysis of the logs at ``path`` that ``chosen`` describes. AnalyzeError or LogError (one line) for
    bad input; SettingsError for options that do not go together or a Ray that cannot be reached."""
    if chosen.seat is not None and chosen.bot is not None:
        raise AnalyzeError("choose --seat or --bot, not both")
    logs = find_logs(path)
    if chosen.html is not None and path.is_dir() and chosen.html.suffix == ".html":
        raise AnalyzeError(f"--html {chosen.html}: for a folder of logs, --html names a folder (a page per log)")
    choice = SeatChoice(seat=chosen.seat, bot=chosen.bot)
    planned = plan_logs(logs, choose_seats(logs, choice), chosen.game)
    processes = choose_processes(place, workers=chosen.workers, jobs=len(planned.hands), unit="hand")
    return AnalysisOpened(path, logs, planned, choice, chosen, processes)
