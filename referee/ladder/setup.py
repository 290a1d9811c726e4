"""Making a ladder and changing its field: ``init``, ``add``, ``retire``.

A ladder's settings are the tournament's declarations (``referee.tournament.settings.Given``), the ones
that make sense for a ladder (``SETTINGS``): the rules (preset, overrides, all seatings for three
teams), the time per move and the time bank, the fault policy, the seed of its deals and pairings, the
sandbox; and from a TOML file the same keys, with a ``[bots]`` table of first versions. They are fixed
when the ladder is made: every game of a ladder is played under the same rules, or its ratings would
not compare.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace
from pathlib import Path

from referee.bots import BotCommand
from referee.games.scheduled import set_size
from referee.games.settings import resolve_games
from referee.ladder.store import LadderError, Store, Version
from referee.runfolder import RunFolder
from referee.setting import SettingsError, TomlFile
from referee.tournament.settings import SETTINGS as TOURNAMENT_SETTINGS
from referee.tournament.settings import Given, TournamentSettings

# the tournament's settings a ladder takes (the others, such as games per pairing or a gauntlet, are a
# tournament's schedule)
SETTINGS = ("preset", "rules", "seed", "move_time", "time_bank", "on_fault", "all_seatings", "sandbox", "bots")
NAME_LENGTH = 22  # a bot's name, so that "NAME.vN" (and a validation copy's "NAME.vN.c3") fit a bot name


def read_ladder_toml(path: Path) -> Given:
    """A ladder's TOML file: the keys of ``SETTINGS``; SettingsError names the file and line of the first other."""
    toml = TomlFile.read(path)
    toml.check_keys({k: v for k, v in TOURNAMENT_SETTINGS.items() if k in SETTINGS})
    return Given.from_toml(toml)


def ladder_settings(given: Given, name: str) -> TournamentSettings:
    """The settings a ladder's games are played under: what ``given`` names, the declared defaults for the rest
    (its bots are its versions, added one by one)."""
    games = resolve_games(replace(given, bots=None, tcp=None))
    all_seatings = bool(given.value("all_seatings"))
    return games.extended(
        TournamentSettings,
        name=name,
        games=set_size(games.rules, all_seatings),
        duplicate=True,
        all_seatings=all_seatings,
        gauntlet=None,
    )


@dataclass(frozen=True)
class Added:
    version: Version
    previous: Version | None

    def line(self) -> str:
        v = self.version
        if self.previous is None:
            return f"added {v.bot}, version {v.version} ({v.label}): it plays once it passes its validation game"
        return (
            f"added {v.bot} version {v.version} ({v.label}), after version {self.previous.version} "
            f"({self.previous.status}): it plays once it passes its validation game, and then version "
            f"{self.previous.version} is superseded (its rating kept)"
        )


def check_bot(command: BotCommand) -> None:
    """LadderError or BotSpecError (one line) for a bot the ladder cannot take."""
    if len(command.name) > NAME_LENGTH:
        raise LadderError(f"bot name {command.name!r} is too long for a ladder: at most {NAME_LENGTH} characters")
    command.check_runnable()


def init(folder: RunFolder, given: Given, *, all_versions: bool = False) -> tuple[Store, list[Added]]:
    """Make the ladder (its settings fixed now) and add the bots ``given`` names as their first versions.
    Nothing is written when something is wrong."""
    named = [k for k, s in TOURNAMENT_SETTINGS.items() if k not in SETTINGS and getattr(given, k) not in (None, {})]
    if named and named != ["name"]:
        raise SettingsError(f"a ladder has no setting {named[0]!r}; its settings: {', '.join(SETTINGS)}")
    settings = ladder_settings(given, folder.path.name)
    bots = given.bots or ()
    for command in bots:
        check_bot(command)
    store = Store.create(folder, settings, {"all_versions": all_versions})
    return store, [add(store, command) for command in bots]


def add(store: Store, command: BotCommand) -> Added:
    """A new version of ``command.name`` (its first, or the next)."""
    check_bot(command)
    version, previous = store.add_version(command.name, command.argv)
    return Added(version, previous)


def retire(store: Store, name: str) -> Sequence[Version]:
    return store.retire(name)
