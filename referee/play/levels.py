"""``arena play --level 1..6``: how strong the computer players are, as the arena's own bots and budgets.

Each level is one example bot with its arguments, from the weakest to the strongest, each measured clearly
stronger than the one below on neuralplay. Level 6 is the bot ``arena play`` seats when nothing is asked for
(the Monte Carlo bot at its default budget, solving its worlds double-dummy); level 5 is the same bot searching
its cards only, bidding as the rules bot (level 4) does; levels 2 and 3 are the rules bot with a share of
random cards. The strength of each level, measured by ``bench/levels.py`` (duplicate games, each level against
the one below), is in docs/play.md. ``level_factory`` builds a level's bot in this process, as its command line
builds it (the benchmark and the browser seat's duplicate play use it).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from example_bots import montecarlo_bot, shaky_bot
from example_bots.random_bot import RandomBot
from example_bots.rules_bot import RulesBot
from referee.bots import BotCommand
from sdk.bot import Bot


@dataclass(frozen=True, slots=True)
class Level:
    """One level: the bot's name at the table and the arguments of ``python -m example_bots.BOT``."""

    name: str
    module: str
    args: tuple[str, ...] = ()
    says: str = ""  # what the level is, in a few words (``arena play --help``, docs/play.md)

    def command_line(self) -> str:
        """NAME=COMMAND, as ``--bot`` takes it."""
        return f"{self.name}=python -m example_bots.{self.module} {' '.join(self.args)}".rstrip()

    def command(self) -> BotCommand:
        return BotCommand.parse(self.command_line())


LEVELS: dict[int, Level] = {
    1: Level("random", "random_bot", (), "a random legal choice"),
    2: Level("wobbly", "shaky_bot", ("--random-share", "0.3"), "the rules bot, a random card 30% of the time"),
    3: Level("shaky", "shaky_bot", ("--random-share", "0.1"), "the rules bot, a random card 10% of the time"),
    4: Level("rules", "rules_bot", (), "the rules bot: counts tricks in hand, plays by rules of thumb"),
    5: Level(
        "mccards",
        "montecarlo_bot",
        ("--cards-only",),
        "Monte Carlo at each card, 100 worlds solved exactly; bids as the rules bot does",
    ),
    6: Level("montecarlo", "montecarlo_bot", (), "Monte Carlo at every decision, up to 100 worlds solved exactly"),
}
DEFAULT_LEVEL = 6


def level_bot(level: int) -> BotCommand:
    """The bot of ``level`` (1..6); ValueError for another number."""
    if level not in LEVELS:
        raise ValueError(f"level {level} is not one of 1..{max(LEVELS)}")
    return LEVELS[level].command()


def level_factory(level: int) -> Callable[[], Bot]:
    """The level's bot built in this process, as its command line builds it (``LEVELS[level].args``)."""
    if level not in LEVELS:
        raise ValueError(f"level {level} is not one of 1..{max(LEVELS)}")
    spec = LEVELS[level]
    if spec.module == "random_bot":
        return RandomBot
    if spec.module == "rules_bot":
        return RulesBot
    from_args = shaky_bot.from_args if spec.module == "shaky_bot" else montecarlo_bot.from_args
    return lambda: from_args(spec.args)[0]
