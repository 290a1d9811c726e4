"""One match (``arena match``, ``arena serve``, ``arena play``): its settings, declared once, and its opening.

A match's settings are the games' (``referee.games.settings``), how many games it plays and the folder
its own folder goes in (``MatchChoices``); ``arena serve``'s add where it listens (``ServeChoices``).
``open_match`` resolves them where every command's games' settings are resolved, checks that the bots
can run, picks their sandbox and gives the ``referee.match.MatchConfig`` to play: the command line only
reads the options and prints.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace
from pathlib import Path

from referee.bots import BotCommand
from referee.engine.rules import Rules
from referee.games.placement import Warn, bot_sandbox
from referee.games.settings import GameChoices, resolve_games
from referee.match import MatchConfig, SeatBot, seat_bots
from referee.runfolder import LOGS
from referee.server import DEFAULT_HOST
from referee.setting import Folder, Text, WholeNumber, declare

# The example bots `arena match` plays when no --bot is given (team 0 first); presets with more teams give the
# last one to each further team.
DEFAULT_BOTS = ("rules", "random")

# Who sits where, given the rules and the match's bots.
Seating = Callable[[Rules, Sequence[BotCommand]], tuple[SeatBot, ...]]


def example_bot(name: str) -> str:
    """The NAME=COMMAND of an example bot (example_bots/NAME_bot.py)."""
    return f"{name}=python -m example_bots.{name}_bot"


def default_bots(teams: int) -> tuple[BotCommand, ...]:
    """One example bot per team: rules, then random for every other team (three-team presets too)."""
    names = [*DEFAULT_BOTS, *[DEFAULT_BOTS[-1]] * (teams - len(DEFAULT_BOTS))][:teams]
    return tuple(BotCommand.parse(example_bot(name)) for name in names)


@dataclass(frozen=True)
class MatchChoices(GameChoices):
    """A match's settings the user named: the games', how many games and where its folder goes."""

    games: int | None = declare(WholeNumber(low=1), "Games to play.", default=1, flag="--games", short="-n")
    log_dir: Path | None = declare(
        Folder(),
        "Where the match's folder goes: DIR/match-DATE-TIME/ holds its log and the bots' output.",
        default=LOGS,
        flag="--log-dir",
    )


@dataclass(frozen=True)
class ServeChoices(MatchChoices):
    """``arena serve``'s settings: a match's, and where its referee listens for the bots started by hand."""

    host: str | None = declare(Text("an address"), "Address to listen on.", default=DEFAULT_HOST, flag="--host")
    port: int | None = declare(
        WholeNumber(0, 65535), "Port to listen on.", default=0, default_text="{}: any free port", flag="--port"
    )


def team_seats(rules: Rules, bots: Sequence[BotCommand]) -> tuple[SeatBot, ...]:
    """``arena match``'s seats: team t played by the t-th bot (one bot: every team)."""
    return seat_bots(rules, [SeatBot(c.name, c) for c in bots])


def started_by_hand(rules: Rules, bots: Sequence[BotCommand]) -> tuple[SeatBot, ...]:
    """``arena serve``'s seats: each waits for a bot started by hand."""
    return tuple(SeatBot(f"seat{s}") for s in range(rules.players))


def open_match(
    chosen: MatchChoices,
    seats: Seating = team_seats,
    *,
    example: Callable[[int], tuple[BotCommand, ...]] | None = default_bots,
    warn: Warn,
    sandboxed: bool = True,
) -> MatchConfig:
    """The match ``chosen`` describes: its games' settings resolved (the declared defaults where it names none),
    its bots (``example(teams)`` where it names none) seated by ``seats``, checked runnable, in their sandbox
    (``sandboxed``: bots the referee starts; else the seats wait for bots started by hand). Raises a one-line
    ``ArenaError`` (SettingsError, RulesError, BotSpecError, ConfigError, SandboxUnavailable)."""
    if chosen.bots is None and example is not None:  # the example bots, for as many teams as the rules have
        teams = resolve_games(replace(chosen, tcp=None)).rules.teams
        chosen = replace(chosen, bots=example(teams))
    settings = resolve_games(chosen)
    for command in settings.bots:
        command.check_runnable()
    listen = {"host": chosen.value("host"), "port": chosen.value("port")} if isinstance(chosen, ServeChoices) else {}
    return settings.match_config(
        seats=seats(settings.rules, settings.bots),
        games=chosen.value("games"),
        log_dir=chosen.value("log_dir"),
        sandbox=bot_sandbox(settings.sandbox, warn) if sandboxed else None,
        **listen,
    )
