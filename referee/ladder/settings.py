"""A ladder's settings: the games' settings (``referee.games.settings``) and its policy, declared once
(``LadderChoices``); ``LadderSettings`` once resolved, fixed when the ladder is made.

A ladder takes the games' settings (the rules, the clock, the fault policy, the seed of its deals and
pairings, the sandbox, its first versions as ``bots``), the seatings of three teams (a set is one deal
played once per seating), and its policy: whether every version plays or only each bot's newest. They
are fixed when the ladder is made: every game of a ladder is played under the same rules, or its ratings
would not compare. Where its tables play is each run's choice (``arena ladder run --workers``), and its
bots connect over Unix sockets: ``tcp`` is a tournament's or an SPRT's.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any, ClassVar

from referee.games.scheduled import set_size
from referee.games.settings import (
    GameChoices,
    GameSettings,
    SeatingChoices,
    TableChoices,
    named_or_saved,
    own_settings,
    resolve_games,
)
from referee.setting import Choices, Flag, Number, TomlFile, WholeNumber, declare


@dataclass(frozen=True)
class LadderChoices(SeatingChoices, GameChoices):
    """A ladder's settings the user named: the games', the seatings and its policy; None where nothing was
    said."""

    all_versions: bool | None = declare(
        Flag(),
        "Every version plays, not only each bot's newest.",
        default=False,
        default_text="newest",
        flag="--all-versions",
    )


@dataclass(frozen=True)
class LadderSettings(GameSettings):
    """What decides a ladder's games: the games' settings (without bots: a run adds the versions that play),
    the seatings, and its name (its folder's)."""

    CHOICES: ClassVar[type[Choices]] = LadderChoices

    name: str
    all_seatings: bool  # three teams: every order round the table, not only the rotations

    @property
    def set_size(self) -> int:
        """Games in one set: one per seating."""
        return set_size(self.rules, self.all_seatings)

    def record(self) -> dict[str, Any]:
        return {**super().record(), "name": self.name}

    @classmethod
    def completed(cls, plain: dict[str, Any], data: dict[str, Any]) -> dict[str, Any]:
        return {**plain, "name": str(data["name"])}


def ladder_settings(chosen: LadderChoices, name: str) -> LadderSettings:
    """The settings a ladder's games are played under: what ``chosen`` names, the declared defaults for the rest
    (its bots are its versions, added one by one)."""
    games = resolve_games(replace(chosen, bots=None, tcp=None))
    return games.extended(LadderSettings, name=name, **named_or_saved(chosen, None, own_settings(LadderChoices)))


def read_ladder_toml(path: Path) -> LadderChoices:
    """A ladder's TOML file; SettingsError names the file and line of the first key that is no ladder's
    setting."""
    toml = TomlFile.read(path)
    toml.check_keys(LadderChoices.declared())
    if "tcp" in toml.data:
        raise toml.bad(None, "tcp", "a ladder's bots connect over Unix sockets; tcp is for a tournament's or an SPRT's")
    return LadderChoices.from_toml(toml)


@dataclass(frozen=True)
class LadderRunChoices(TableChoices):
    """What ``arena ladder run``'s options named: where its tables play, and when it stops by itself."""

    games: int | None = declare(
        WholeNumber(low=1), "Stop after this many games", default_text="play on", flag="--games", short="-n"
    )
    hours: float | None = declare(
        Number("a number of hours", low=0.0), "Stop after this many hours", default_text="play on", flag="--hours"
    )


@dataclass(frozen=True)
class BoardChoices(Choices):
    """What ``arena ladder standings``'s options named."""

    as_json: bool | None = declare(Flag(), "As JSON, on stdout.", default=False, flag="--json")
