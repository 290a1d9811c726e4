"""``arena play``'s settings, declared once (``referee.setting``): a match's (``referee.games.matches``), the
person's seat, the browser table, the level of the computer players and the learning features of the
browser table, each of which can be turned off; and the opening of the match they describe (``open_play``).

``PlayChoices`` is what the command line named; ``Features`` is what the browser table's client is told (it
travels to the client's process as JSON, ``Features.record`` / ``Features.from_record``).
"""

from __future__ import annotations

import json
import secrets
from collections.abc import Sequence
from dataclasses import asdict, dataclass, replace
from enum import StrEnum
from typing import Any

from referee.bots import BotCommand
from referee.engine.rules import Rules
from referee.games.matches import MatchChoices, example_bot, open_match
from referee.games.placement import Warn
from referee.match import MatchConfig, SeatBot
from referee.play.levels import DEFAULT_LEVEL, LEVELS, level_bot
from referee.play.person import person_seat, seats_around
from referee.setting import Choice, Flag, SettingsError, WholeNumber, declare

# The bot at the other seats when no --bot is given: the strongest example bot, level DEFAULT_LEVEL's.
DEFAULT_BOT = "montecarlo"


class HintMode(StrEnum):
    """When the page shows the AI's choice (the best of the estimates, with its reason)."""

    OFF = "off"
    REQUEST = "request"  # when the person asks (the Hint button)
    ALWAYS = "always"  # at every decision
    DIFFERS = "differs"  # only when the person's choice differs from it: the page asks before sending it


@dataclass(frozen=True)
class PlayChoices(MatchChoices):
    """What ``arena play``'s options named (None: not named): a match's settings, the person's seat, the browser
    table and its features."""

    seat: int | None = declare(
        WholeNumber(low=0), "Your seat (seat s plays for team s % teams).", default=0, flag="--seat", short="-s"
    )
    browser: int | None = declare(
        WholeNumber(0, 65535),
        "Play in the browser: the table is served on 127.0.0.1:PORT (--browser alone, or 0: a free port) at "
        "the address printed",
        flag="--browser",
    )
    level: int | None = declare(
        WholeNumber(1, max(LEVELS)),
        "How strong the computer players are, instead of --bot: "
        + "; ".join(f"{number} {level.name} ({level.says})" for number, level in sorted(LEVELS.items())),
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
    def from_choices(cls, chosen: PlayChoices) -> Features:
        return cls(**{name: chosen.value(name) for name in BROWSER_ONLY})

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


@dataclass(frozen=True)
class PlayOpened:
    """A person's match, ready to play: the match, the person's seat, and the browser table's features and port
    (None: the terminal's table)."""

    config: MatchConfig
    seat: int
    browser: Features | None = None
    browser_port: int = 0
    others_level: int | None = None  # the level of the other seats' bots (None: bots of --bot)


def open_play(chosen: PlayChoices, *, warn: Warn) -> PlayOpened:
    """The match ``chosen`` describes, the person at its seat (a new seed each time unless one is named).
    Raises a one-line ``ArenaError`` for what cannot be played."""
    if chosen.seed is None:
        chosen = replace(chosen, seed=secrets.randbelow(2**31))
    seat = chosen.value("seat")

    def around(rules: Rules, bots: Sequence[BotCommand]) -> tuple[SeatBot, ...]:
        return seats_around(rules, seat, person_seat(), [SeatBot(c.name, c) for c in bots])

    config = open_match(replace(chosen, bots=other_bots(chosen)), around, example=None, warn=warn)
    if chosen.browser is None:
        return PlayOpened(config, seat)
    others = chosen.level if chosen.level is not None else None if chosen.bots else DEFAULT_LEVEL
    return PlayOpened(config, seat, Features.from_choices(chosen), chosen.browser, others)


def other_bots(chosen: PlayChoices) -> tuple[BotCommand, ...]:
    """The other seats' bots: --bot, or the --level's (not both), else the default; the browser table's
    switches without --browser are refused."""
    if chosen.bots and chosen.level is not None:
        raise SettingsError("--level and --bot both name the other seats' bots: give one of them")
    if chosen.browser is None:
        named = [name for name in BROWSER_ONLY if getattr(chosen, name) is not None]
        if named:
            flags = ", ".join((PlayChoices.declared()[n].flag or n).split("/")[0] for n in named)
            raise SettingsError(f"{flags}: for the browser table only; add --browser")
    if chosen.level is not None:
        return (level_bot(chosen.level),)
    return chosen.bots or (BotCommand.parse(example_bot(DEFAULT_BOT)),)
