"""What the user named for an SPRT: the test (``SprtGiven``, each field declaring one setting) and, from a TOML
file, the games (``Given``).

An SPRT's TOML file holds a tournament file's settings, less those an SPRT
fixes itself (how many games, duplicate deals, seatings, a gauntlet), plus
the test's own (see docs/sprt.md)::

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
neither names comes from the folder's ``sprt.json``.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from referee.setting import Choice, Named, Number, TomlFile, Whole, declare
from referee.sprt.runner import SprtPlan
from referee.stats.sprt import Model, Sprt
from referee.tournament.settings import SETTINGS, Given

# tournament settings an SPRT decides itself: two bots, duplicate pairs, up to max_pairs deals
NOT_FOR_SPRT = ("games", "duplicate", "all_seatings", "gauntlet")
_TEST = Sprt()  # the test's defaults are those of the statistics


@dataclass(frozen=True)
class SprtGiven(Named):
    """The test's settings the user named; None where nothing was said."""

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
        Whole(low=1), "Stop undecided after this many pairs.", default=10_000, flag="--max-pairs"
    )

    def plan(self, saved: SprtPlan | None = None) -> SprtPlan:
        """The test: what was named, the rest from ``saved`` (resuming) or the defaults; SprtError when the
        hypotheses or error rates cannot be tested."""
        named = self if saved is None else self.over(SprtGiven.of_plan(saved))
        value = named.value
        test = Sprt(
            elo0=value("elo0"), elo1=value("elo1"), alpha=value("alpha"), beta=value("beta"), model=value("model")
        )
        return SprtPlan(test, value("max_pairs"))

    @classmethod
    def of_plan(cls, plan: SprtPlan) -> SprtGiven:
        """Every setting of a saved test named."""
        t = plan.test
        return cls(elo0=t.elo0, elo1=t.elo1, alpha=t.alpha, beta=t.beta, model=t.model, max_pairs=plan.max_pairs)


SPRT_SETTINGS = {**{k: s for k, s in SETTINGS.items() if k not in NOT_FOR_SPRT}, **SprtGiven.table()}


def read_sprt_toml(path: Path) -> tuple[Given, SprtGiven]:
    """The games' settings and the test's of an SPRT's TOML file; SettingsError names the file and line."""
    toml = TomlFile.read(path)
    toml.check_keys(SPRT_SETTINGS)
    return Given.from_toml(toml), SprtGiven.from_toml(toml)
