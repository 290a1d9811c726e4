"""The command line's options for the declared settings (``referee.setting``): one typed alias per setting.

Each alias is ``Annotated[T | None, option(Choices, "name")]``: the flag, the
short flag, the range or choices and the help text, whose default is the
declaration's. Every option is None when not given, so that a ``--config``
file, a resumed run's saved settings or the declared default decide. A
command names its parameters as the settings are named, and reads them from
``ctx.params`` (``Choices.from_options``): options -> choices -> open -> run
-> print. The options every command that plays games shares are here; a
command's own are beside it, from its own declarations (``MatchChoices``,
``AnalyzeChoices`` ...).

The command line's own switches, which are no settings (``--config``,
``--resume``, ``--live``, ``--ray``, ``--verbose``), are declared with the
commands.
"""

from __future__ import annotations

from pathlib import Path
from typing import Annotated, Any

import typer
from rich.markup import escape

from referee.games.matches import MatchChoices
from referee.games.settings import FolderChoices, GameChoices, SeatingChoices, TableChoices
from referee.match import FaultPolicy
from referee.sandbox import SandboxMode
from referee.setting import Choices
from referee.sprt.config import SprtChoices, read_sprt_toml
from referee.stats.sprt import Model
from referee.tournament.schedule import FormatName
from referee.tournament.settings import TournamentChoices, read_toml


def option(
    choices: type[Choices], name: str, *, help: str | None = None, default: str | None = None, saved: bool = False
) -> Any:
    """The typer option of setting ``name`` of ``choices``; ``help``/``default``: a command's own words for it;
    ``saved``: the help says a run's folder keeps it for --resume."""
    setting = choices.declared()[name]
    assert setting.flag is not None, f"{name} is not a command-line setting"
    words = default if default is not None else setting.default_words()
    if saved:
        words = f"{words}; saved for --resume"
    text = (help or setting.help).rstrip(".") + (f" (default: {words})" if words else "") + "."
    # escaped: typer's help goes through rich, which would take "[...]" for markup and drop it
    flags = [setting.flag, *([setting.short] if setting.short else [])]
    return typer.Option(*flags, help=escape(text), show_default=False, **setting.kind.typer_options())


# what the bots play: every command that plays games
Preset = Annotated[str | None, option(GameChoices, "preset")]
Rules = Annotated[list[str] | None, option(GameChoices, "rules")]
Seed = Annotated[int | None, option(GameChoices, "seed")]
MoveTime = Annotated[int | None, option(GameChoices, "move_time")]
TimeBank = Annotated[int | None, option(GameChoices, "time_bank")]
OnFault = Annotated[FaultPolicy | None, option(GameChoices, "on_fault")]
Sandbox = Annotated[SandboxMode | None, option(GameChoices, "sandbox")]
Tcp = Annotated[list[str] | None, option(GameChoices, "tcp")]

# a run: tournament, sprt (and what is saved, the folder's settings.json keeps for --resume)
Bots = Annotated[list[str] | None, option(GameChoices, "bots")]
Name = Annotated[str | None, option(FolderChoices, "name")]
Out = Annotated[Path | None, option(FolderChoices, "out")]
Games = Annotated[int | None, option(TournamentChoices, "games")]
Duplicate = Annotated[bool | None, option(TournamentChoices, "duplicate")]
AllSeatings = Annotated[bool | None, option(SeatingChoices, "all_seatings")]
Gauntlet = Annotated[str | None, option(TournamentChoices, "gauntlet")]
Format = Annotated[FormatName | None, option(TournamentChoices, "format")]
Rounds = Annotated[int | None, option(TournamentChoices, "rounds")]
TieSets = Annotated[int | None, option(TournamentChoices, "tie_sets")]
Seeding = Annotated[tuple[str, str] | None, option(TournamentChoices, "seeding")]
Concurrency = Annotated[int | None, option(TableChoices, "concurrency")]
Workers = Annotated[int | None, option(TableChoices, "workers")]
RunSandbox = Annotated[SandboxMode | None, option(GameChoices, "sandbox", saved=True)]
Config = Annotated[
    Path | None,
    typer.Option(
        "--config", "-c", dir_okay=False, help="A TOML file of bots and settings; options given here override it."
    ),
]
Resume = Annotated[bool, typer.Option("--resume", help="Continue the run in the folder: finished games are kept.")]

# an SPRT's test
SprtBots = Annotated[
    list[str] | None,
    option(SprtChoices, "bots", help="Twice: the new bot first, then the base it is tested against."),
]
Elo0 = Annotated[float | None, option(SprtChoices, "elo0")]
Elo1 = Annotated[float | None, option(SprtChoices, "elo1")]
Alpha = Annotated[float | None, option(SprtChoices, "alpha")]
Beta = Annotated[float | None, option(SprtChoices, "beta")]
EloModel = Annotated[Model | None, option(SprtChoices, "model")]
MaxPairs = Annotated[int | None, option(SprtChoices, "max_pairs")]

# one match at a time (match, play, serve)
MatchGames = Annotated[int | None, option(MatchChoices, "games")]
LogDir = Annotated[Path | None, option(MatchChoices, "log_dir")]


def tournament_choices(ctx: typer.Context, config: Path | None) -> TournamentChoices:
    """The settings the command's options name (its parameters, by setting name), over the ``--config`` file's."""
    chosen = TournamentChoices.from_options(ctx.params)
    return chosen if config is None else chosen.over(read_toml(config))


def sprt_choices(ctx: typer.Context, config: Path | None) -> SprtChoices:
    """An SPRT's settings (the games', the test's) its options name, over the ``--config`` file's."""
    chosen = SprtChoices.from_options(ctx.params)
    return chosen if config is None else chosen.over(read_sprt_toml(config))
