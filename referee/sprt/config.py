"""An SPRT's settings: the games' settings (``referee.games.settings``) and its test, declared once
(``SprtChoices``), from a TOML file and the command line; ``SprtSettings`` once resolved.

An SPRT takes the games' settings, where its tables play, its name and
folder, and its test; it decides the rest itself (two bots, duplicate pairs,
one deal per pair, up to ``max_pairs`` deals), so its file has no format, no
games per pairing and no duplicate switch: such a key is an unknown setting
there, named with its file and line (see docs/sprt.md)::

    name = "rules-v2"
    preset = "neuralplay"
    move_time = 200
    workers = 2
    elo0 = 0
    elo1 = 10
    alpha = 0.05
    beta = 0.05
    model = "logistic"            # or "normalized"
    max_pairs = 2000

    [bots]                        # the new bot first, then the base
    new = "python mybot.py"
    base = "python -m example_bots.rules_bot"

Options given on the command line override the file; on ``--resume``, what
neither names comes from the folder's ``sprt.json`` and ``settings.json``.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path
from typing import Any, ClassVar

from referee.games.settings import (
    FolderChoices,
    GameChoices,
    GameSettings,
    TableChoices,
    named_or_saved,
    own_settings,
    require_bots,
    resolve_games,
)
from referee.runfolder import SPRT, RunFolder
from referee.setting import Choice, Choices, Number, SettingsError, TomlFile, WholeNumber, declare
from referee.stats.sprt import Model, Sprt, SprtError

SPRT_FORMAT = 1  # of sprt.json
_TEST = Sprt()  # the test's defaults are those of the statistics


@dataclass(frozen=True)
class SprtPlan:
    """The test and how many pairs it may play at most."""

    test: Sprt
    max_pairs: int

    def record(self) -> dict[str, Any]:
        return {"sprt_format": SPRT_FORMAT, **self.test.record(), "max_pairs": self.max_pairs}

    @classmethod
    def from_record(cls, data: Any, where: str) -> SprtPlan:
        try:
            if not isinstance(data, dict) or data.get("sprt_format") != SPRT_FORMAT:
                raise SprtError(f"not SPRT settings of format {SPRT_FORMAT}")
            test = Sprt(
                elo0=float(data["elo0"]),
                elo1=float(data["elo1"]),
                alpha=float(data["alpha"]),
                beta=float(data["beta"]),
                model=Model(data["model"]),
            )
            return cls(test, int(data["max_pairs"]))
        except KeyError as exc:
            raise SettingsError(f"{where}: missing {exc}") from None
        except (SprtError, TypeError, ValueError) as exc:
            raise SettingsError(f"{where}: {exc}") from None

    @classmethod
    def load(cls, folder: RunFolder) -> SprtPlan:
        """The test saved in the folder's sprt.json; SettingsError when there is none to resume."""
        if not folder.sprt.exists():
            raise SettingsError(f"{folder.path} holds no SPRT to resume (no {SPRT})")
        return cls.from_record(folder.read_json(folder.sprt), str(folder.sprt))

    def differences(self, other: SprtPlan, *, but: Iterable[str] = ()) -> list[str]:
        """What differs from ``other`` (as 'what this / other'), less the settings named in ``but``."""
        mine, theirs = self.record(), other.record()
        return [f"{k} {mine[k]!r} / {theirs[k]!r}" for k in mine if mine[k] != theirs[k] and k not in but]


@dataclass(frozen=True)
class SprtChoices(TableChoices, GameChoices, FolderChoices):
    """An SPRT's settings the user named: its name and folder, the games', where its tables play, and its
    test's; None where nothing was said."""

    elo0: float | None = declare(
        Number("a number (Elo)"), "H0: the new bot is this much better, in Elo.", default=_TEST.elo0, flag="--elo0"
    )
    elo1: float | None = declare(
        Number("a number (Elo) above elo0"),
        "H1: the new bot is this much better, in Elo.",
        default=_TEST.elo1,
        flag="--elo1",
    )
    alpha: float | None = declare(
        Number("a number between 0 and 1", above=0, below=1),
        "Chance of accepting H1 when H0 holds.",
        default=_TEST.alpha,
        flag="--alpha",
    )
    beta: float | None = declare(
        Number("a number between 0 and 1", above=0, below=1),
        "Chance of accepting H0 when H1 holds.",
        default=_TEST.beta,
        flag="--beta",
    )
    model: Model | None = declare(
        Choice(Model), "Elo model of elo0/elo1: logistic or normalized.", default=_TEST.model, flag="--model"
    )
    max_pairs: int | None = declare(
        WholeNumber(low=1), "Stop undecided after this many pairs.", default=10_000, flag="--max-pairs"
    )

    def plan(self, saved: SprtPlan | None = None) -> SprtPlan:
        """The test: what was named, the rest from ``saved`` (resuming) or the defaults; SprtError when the
        hypotheses or error rates cannot be tested."""
        named = self if saved is None else self.over(SprtChoices.of_plan(saved))
        value = named.value
        test = Sprt(
            elo0=value("elo0"), elo1=value("elo1"), alpha=value("alpha"), beta=value("beta"), model=value("model")
        )
        return SprtPlan(test, value("max_pairs"))

    @classmethod
    def of_plan(cls, plan: SprtPlan) -> SprtChoices:
        """Every setting of a saved test named."""
        t = plan.test
        return cls(elo0=t.elo0, elo1=t.elo1, alpha=t.alpha, beta=t.beta, model=t.model, max_pairs=plan.max_pairs)


@dataclass(frozen=True)
class SprtSettings(GameSettings):
    """What decides an SPRT's games: the games' settings and its name (the test is its ``SprtPlan``, saved in
    sprt.json)."""

    CHOICES: ClassVar[type[Choices]] = SprtChoices

    name: str  # a label; not part of what must match on resume

    @property
    def new(self) -> str:
        return self.bots[0].name

    @property
    def base(self) -> str:
        return self.bots[1].name


def resolve_sprt(chosen: SprtChoices, saved: SprtSettings | None = None) -> SprtSettings:
    """The SPRT's settings: what was named, the rest from ``saved`` (resuming) or the defaults. SettingsError
    (one line) for what is no SPRT: two bots, two teams."""
    if chosen.bots is not None:
        check_bot_count(len(chosen.bots))
    games = resolve_games(chosen, saved)
    require_bots(games)
    check_bot_count(len(games.bots))
    check_teams(games.preset, games.rules.teams)
    return games.extended(SprtSettings, **named_or_saved(chosen, saved, own_settings(SprtChoices)))


def check_bot_count(count: int) -> None:
    if count != 2:
        raise SettingsError(f"an SPRT compares two bots (--bot NEW=... --bot BASE=...), got {count}")


def check_teams(preset: str, teams: int) -> None:
    if teams != 2:
        raise SettingsError(f"an SPRT plays pairs of games between two teams; {preset} has {teams} teams")


def read_sprt_toml(path: Path) -> SprtChoices:
    """The settings of an SPRT's TOML file; SettingsError names the file and line of the first problem, such
    as a key that is no SPRT's setting (a tournament's format: an SPRT has none)."""
    toml = TomlFile.read(path)
    toml.check_keys(SprtChoices.declared())
    return SprtChoices.from_toml(toml)
