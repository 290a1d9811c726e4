"""``arena play``'s own settings, declared once (``referee.setting``): the browser table, the level of the
computer players and the learning features of the browser table, each of which can be turned off.

``PlayGiven`` is what the command line named; ``Features`` is what the browser table's client is told (it
travels to the client's process as JSON, ``Features.record`` / ``Features.from_record``).
"""

from __future__ import annotations

import json
from dataclasses import asdict, dataclass
from enum import StrEnum
from typing import Any

from referee.play.levels import LEVELS
from referee.setting import Choice, Flag, Named, Whole, declare


class HintMode(StrEnum):
    """When the page shows the AI's choice (the best of the estimates, with its reason)."""

    OFF = "off"
    REQUEST = "request"  # when the person asks (the Hint button)
    ALWAYS = "always"  # at every decision
    DIFFERS = "differs"  # only when the person's choice differs from it: the page asks before sending it


@dataclass(frozen=True)
class PlayGiven(Named):
    """What ``arena play``'s options named (None: not named)."""

    browser: int | None = declare(
        Whole(0, 65535),
        "Play in the browser: the table is served on 127.0.0.1:PORT (--browser alone, or 0: a free port) at "
        "the address printed",
        flag="--browser",
    )
    level: int | None = declare(
        Whole(1, max(LEVELS)),
        "How strong the computer players are, 1 (random) to 6 (Monte Carlo); instead of --bot",
        default_text="6, or the --bot given",
        flag="--level",
    )
    hints: HintMode | None = declare(
        Choice(HintMode),
        "Browser table: the AI's choice and why (the best of the estimates), on request, always, only when yours "
        "differs, or off",
        default=HintMode.REQUEST,
        flag="--hints",
    )
    estimates: bool | None = declare(
        Flag(),
        "Browser table: each legal choice's expected tricks and points, on request",
        default=True,
        flag="--estimates/--no-estimates",
    )
    counter: bool | None = declare(
        Flag(), "Browser table: the card counter", default=True, flag="--counter/--no-counter"
    )
    bid_analysis: bool | None = declare(
        Flag(),
        "Browser table: the chance a bid you type makes",
        default=True,
        flag="--bid-analysis/--no-bid-analysis",
    )
    claim: bool | None = declare(Flag(), "Browser table: the Claim button", default=True, flag="--claim/--no-claim")


# The settings only the browser table uses: named without --browser, they are refused.
BROWSER_ONLY = ("hints", "estimates", "counter", "bid_analysis", "claim")


@dataclass(frozen=True)
class Features:
    """The learning features the browser table offers (each can still be turned off on the page)."""

    hints: HintMode = HintMode.REQUEST
    estimates: bool = True
    counter: bool = True
    bid_analysis: bool = True
    claim: bool = True

    @classmethod
    def from_given(cls, given: PlayGiven) -> Features:
        return cls(**{name: given.value(name) for name in BROWSER_ONLY})

    def record(self) -> dict[str, Any]:
        return {**asdict(self), "hints": self.hints.value}

    def to_json(self) -> str:
        return json.dumps(self.record(), separators=(",", ":"))

    @classmethod
    def from_json(cls, text: str) -> Features:
        """The features from ``to_json``; ValueError when the text is not theirs."""
        data = json.loads(text)
        if not isinstance(data, dict) or set(data) - set(BROWSER_ONLY):
            raise ValueError(f"not the browser table's features: {text!r}")
        values: dict[str, Any] = {k: bool(v) for k, v in data.items() if k != "hints"}
        if "hints" in data:
            values["hints"] = HintMode(data["hints"])
        return cls(**values)
