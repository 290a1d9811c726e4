"""What the commands share: options, the async run, the result table, the run folder."""

from __future__ import annotations

import asyncio
import signal
import time
from collections.abc import Callable, Coroutine
from pathlib import Path
from typing import Annotated, Any, TypeVar

import typer
from rich.markup import escape
from rich.progress import Progress
from rich.table import Table

from referee.cli.app import console, err_console, fail
from referee.deadline import TimeControl
from referee.engine.presets import DEFAULT_PRESET, rules_for
from referee.engine.rules import Rules
from referee.logging import configure
from referee.match import FaultPolicy, GameResult, MatchConfig, MatchResult, SeatBot
from referee.names import shown_name
from referee.sandbox import Sandbox, SandboxMode, SandboxUnavailable, resolve
from referee.server import DEFAULT_HOST

T = TypeVar("T")

PresetOpt = Annotated[str, typer.Option("--preset", "-p", metavar="NAME", help="Rule preset (see `arena presets`).")]
RuleOpt = Annotated[
    list[str] | None, typer.Option("--rule", "-r", metavar="NAME=VALUE", help="Override a rule option (repeatable).")
]
GamesOpt = Annotated[int, typer.Option("--games", "-n", min=1, help="Games to play.")]
SeedOpt = Annotated[int, typer.Option("--seed", help="Seed of the deals (same seed and bots: same games).")]
MoveTimeOpt = Annotated[
    int, typer.Option("--move-time", min=1, max=3_600_000, help="Time per decision in ms (plus a small grace).")
]
TimeBankOpt = Annotated[
    int,
    typer.Option(
        "--time-bank",
        min=0,
        max=3_600_000,
        help="Time bank per bot per game in ms: an answer over --move-time draws on it before it is a timeout.",
    ),
]
FaultOpt = Annotated[
    FaultPolicy,
    typer.Option(
        "--on-fault",
        case_sensitive=False,
        help="A timeout, crash or illegal answer: the team forfeits the game, or a default action is played.",
    ),
]
LogDirOpt = Annotated[Path, typer.Option("--log-dir", file_okay=False, help="Folder for the game log.")]
VerboseOpt = Annotated[bool, typer.Option("--verbose", "-v", help="Log the referee's events to stderr.")]
SANDBOX_HELP = (
    "Contain each bot process (Linux namespaces via bubblewrap or unshare, see docs/security.md): "
    "auto uses it where it can be made and warns where not, required refuses to start without, off runs bots bare."
)
SandboxOpt = Annotated[SandboxMode, typer.Option("--sandbox", case_sensitive=False, help=SANDBOX_HELP)]
# tournament and sprt: None when not given, so that a --config file or the folder's saved settings decide
SavedSandboxOpt = Annotated[
    SandboxMode | None,
    typer.Option("--sandbox", case_sensitive=False, help=SANDBOX_HELP + " Default: auto (saved for --resume)."),
]
TCP_HELP = (
    "Repeatable: bot NAME gets a 127.0.0.1 host:port in ARENA_ADDRESS (a relay in its sandbox), not a unix: "
    "target, for gRPC libraries that cannot dial a Unix socket (docs/protocol.md)."
)
TcpOpt = Annotated[list[str] | None, typer.Option("--tcp", metavar="NAME", help=TCP_HELP)]
ConfigOpt = Annotated[
    Path | None,
    typer.Option(
        "--config", "-c", dir_okay=False, help="A TOML file of bots and settings; options given here override it."
    ),
]

DEFAULTS: dict[str, Any] = {
    "preset": DEFAULT_PRESET,
    "games": 1,
    "seed": 1,
    "move_time": 1000,
    "time_bank": 0,
    "on_fault": FaultPolicy.FORFEIT,
    "log_dir": Path("logs"),
    "sandbox": SandboxMode.AUTO,
}


def bot_sandbox(mode: SandboxMode) -> Sandbox | None:
    """The sandbox bots run in, for ``--sandbox mode``: refuses (one-line error) or warns once where none
    can be made."""
    try:
        sandbox, warning = resolve(mode)
    except SandboxUnavailable as exc:
        raise fail(str(exc)) from None
    if warning:
        err_console.print(warning, highlight=False, markup=False, soft_wrap=True)
    return sandbox


def match_config(
    *,
    preset: str,
    rule: list[str] | None,
    seats: Callable[[Rules], tuple[SeatBot, ...]],
    games: int,
    seed: int,
    move_time: int,
    on_fault: FaultPolicy,
    time_bank: int = 0,
    log_dir: Path,
    host: str = DEFAULT_HOST,
    port: int = 0,
    sandbox: Sandbox | None = None,
) -> MatchConfig:
    """The match the options describe; bad values raise RulesError / ValueError with a one-line message."""
    rules = rules_for(preset, rule or [])
    return MatchConfig(
        preset=preset,
        rules=rules,
        seats=seats(rules),
        games=games,
        seed=seed,
        clock=TimeControl(move_time_ms=move_time, time_bank_ms=time_bank),
        policy=FaultPolicy(on_fault),
        log_dir=log_dir,
        host=host,
        port=port,
        sandbox=sandbox,
    )


def run_async(
    main: Coroutine[Any, Any, T],
    verbose: bool,
    interrupted: str | Callable[[], str] = "interrupted: bots shut down, the log holds every complete game",
    live: Progress | None = None,
) -> T:
    """Run ``main``; Ctrl-C and SIGTERM cancel it (its cleanup runs: bots are shut down), then the one line
    ``interrupted`` (what was kept, how to go on; a callable is asked then) and exit status 130. A ``live``
    display (a progress bar) is stopped first, so the line stands on its own."""
    configure("info" if verbose else "warning")

    async def guarded() -> T:
        task = asyncio.current_task()
        assert task is not None
        loop = asyncio.get_running_loop()
        loop.add_signal_handler(signal.SIGTERM, task.cancel)
        try:
            return await main
        finally:
            loop.remove_signal_handler(signal.SIGTERM)

    try:
        return asyncio.run(guarded())
    except (KeyboardInterrupt, asyncio.CancelledError):
        if live is not None:
            live.stop()
        message = interrupted() if callable(interrupted) else interrupted
        err_console.print(escape(message), highlight=False, soft_wrap=True)
        raise typer.Exit(130) from None


# A game still going at these hands is said to run long (then every LONG_GAME hands).
LONG_GAME = 200


def long_game_line(game: str, hand: int, scores: tuple[int, ...], rules: Rules) -> str | None:
    """A line for the live output when a game runs long (at hand 200, 400, ...), else None."""
    if hand < LONG_GAME or hand % LONG_GAME or hand >= rules.hand_limit:
        return None
    return (
        f"{game} runs long: hand {hand}, scores {' / '.join(map(str, scores))}; bots that bid badly can keep "
        f"a game going to the safety stop at hand {rules.hand_limit} (rule hand_limit)"
    )


def game_line(result: GameResult, names: list[str]) -> str:
    winner = "draw" if result.winner is None else f"team {result.winner} ({shown_name(names[result.winner])}) wins"
    faults = f", {len(result.violations)} violation(s)" if result.violations else ""
    return (
        f"game {result.game}: {winner}, scores {' / '.join(map(str, result.scores))} "
        f"({result.reason}, {result.hands} hands{faults})"
        + ("; stopped by the hand limit, no team reached the target" if result.reason == "hand-limit" else "")
    )


def print_result(result: MatchResult) -> None:
    names = result.team_names()
    table = Table(title=f"{result.config.preset}: {len(result.games)} game(s), seed {result.config.seed}")
    for col in ("team", "bot", "wins", "points", "violations"):
        table.add_column(col, justify="right" if col not in ("bot",) else "left")
    wins, points = result.wins(), result.points()
    faults = [0] * len(names)
    for game in result.games:
        for v in game.violations:
            faults[result.config.rules.team_of(v.seat)] += 1
    for team, name in enumerate(names):
        table.add_row(str(team), shown_name(name), str(wins[team]), str(points[team]), str(faults[team]))
    console.print(table)
    if result.draws():
        console.print(f"draws: {result.draws()}")
    console.print(f"log: {result.log_path}")


def run_folder(out: Path | None, name: str | None, *, resume: bool, kind: str, resume_hint: str) -> Path:
    """The folder of a tournament or SPRT run: ``--out``, else ``logs/NAME``, else a new
    ``logs/KIND-DATE-TIME`` (a ``--resume`` must say which; ``resume_hint`` tells how)."""
    if out is not None:
        return out
    if name is not None:
        return Path("logs") / name
    if resume:
        raise fail(f"--resume needs {resume_hint}")
    base = Path("logs") / time.strftime(f"{kind}-%Y%m%d-%H%M%S")
    path, k = base, 1
    while path.exists():
        k += 1
        path = base.with_name(f"{base.name}-{k}")
    return path
