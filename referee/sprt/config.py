"""What the user named for an SPRT: the test (``SprtGiven``) and, from a TOML file, the games (``Given``).

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

from dataclasses import dataclass, fields, replace
from pathlib import Path
from typing import Any

from referee.sprt.runner import SprtPlan
from referee.stats.sprt import Model, Sprt
from referee.tournament.settings import KEYS, Given, TomlFile, given_from_toml, is_whole

DEFAULT_MAX_PAIRS = 10_000
# tournament settings an SPRT decides itself: two bots, duplicate pairs, up to max_pairs deals
NOT_FOR_SPRT = ("games", "duplicate", "all_seatings", "gauntlet")
SPRT_KEYS = {
    **{key: what for key, what in KEYS.items() if key not in NOT_FOR_SPRT},
    "elo0": "a number (Elo)",
    "elo1": "a number (Elo) above elo0",
    "alpha": "a number between 0 and 1",
    "beta": "a number between 0 and 1",
    "model": "'logistic' or 'normalized'",
    "max_pairs": "a whole number >= 1",
}


@dataclass(frozen=True)
class SprtGiven:
    """The test's settings the user named; None where nothing was said."""

    elo0: float | None = None
    elo1: float | None = None
    alpha: float | None = None
    beta: float | None = None
    model: Model | None = None
    max_pairs: int | None = None

    def over(self, base: SprtGiven) -> SprtGiven:
        """These settings laid over ``base``."""
        return replace(
            base, **{f.name: getattr(self, f.name) for f in fields(self) if getattr(self, f.name) is not None}
        )

    def plan(self, saved: SprtPlan | None = None) -> SprtPlan:
        """The test: what was named, the rest from ``saved`` (resuming) or the defaults; SprtError when the
        hypotheses or error rates cannot be tested."""
        base = saved.test if saved is not None else Sprt()
        test = Sprt(
            elo0=_pick(self.elo0, base.elo0),
            elo1=_pick(self.elo1, base.elo1),
            alpha=_pick(self.alpha, base.alpha),
            beta=_pick(self.beta, base.beta),
            model=_pick(self.model, base.model),
        )
        return SprtPlan(test, _pick(self.max_pairs, saved.max_pairs if saved is not None else DEFAULT_MAX_PAIRS))


def _pick(given: Any, default: Any) -> Any:
    return default if given is None else given


def read_sprt_toml(path: Path) -> tuple[Given, SprtGiven]:
    """The games' settings and the test's of an SPRT's TOML file; SettingsError names the file and line."""
    toml = TomlFile.read(path)
    toml.check_keys(SPRT_KEYS)
    data = toml.data
    values: dict[str, Any] = {}
    for key in ("elo0", "elo1", "alpha", "beta"):
        if key in data:
            number = isinstance(data[key], int | float) and not isinstance(data[key], bool)
            if key in ("alpha", "beta"):
                number = number and 0 < data[key] < 1
            toml.want(key, number, SPRT_KEYS[key])
            values[key] = float(data[key])
    if "model" in data:
        toml.want("model", data["model"] in {m.value for m in Model}, SPRT_KEYS["model"])
        values["model"] = Model(data["model"])
    if "max_pairs" in data:
        toml.want("max_pairs", is_whole(data["max_pairs"]) and data["max_pairs"] >= 1, SPRT_KEYS["max_pairs"])
        values["max_pairs"] = data["max_pairs"]
    return given_from_toml(toml), SprtGiven(**values)
