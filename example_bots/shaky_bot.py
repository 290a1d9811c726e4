"""``shaky``: the rules bot, but a random legal card some of the time (``python -m example_bots.shaky_bot``).

A bot that is known to be a little weaker than the rules bot, by a known
amount: ``arena analyze`` must tell the two apart (docs/analyze.md). It bids,
names trump and exchanges as the rules bot does; at each card it plays a
uniformly random legal card with probability ``--random-share`` (default
0.1), else the rules bot's card. Its random choices come from the SDK's
``self.rng``, reseeded by the referee at each game, so a match replays exactly.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence

from example_bots.rules_bot import RulesBot
from sdk import Card, SeatView, run

DEFAULT_RANDOM_SHARE = 0.1


class ShakyBot(RulesBot):
    """The rules bot, playing a random legal card with probability ``random_share``."""

    name = "shaky"
    version = "1"

    def __init__(self, seed: int | None = None, random_share: float = DEFAULT_RANDOM_SHARE) -> None:
        super().__init__(seed)
        if not 0 <= random_share <= 1:
            raise ValueError(f"random_share must be in [0, 1], got {random_share}")
        self.random_share = random_share

    def choose_card(self, view: SeatView, legal: Sequence[Card]) -> Card:
        # One draw per card, whether or not it is used, so the rules bot's part stays in step.
        if self.rng.random() < self.random_share:
            return self.rng.choice(legal)
        return super().choose_card(view, legal)


def main(argv: Sequence[str] | None = None) -> None:
    """``python -m example_bots.shaky_bot [--random-share F]`` plus the SDK's options."""
    bot, rest = from_args(sys.argv[1:] if argv is None else argv)
    run(bot, rest)


def from_args(argv: Sequence[str]) -> tuple[ShakyBot, list[str]]:
    """The bot its option in ``argv`` asks for, and the arguments left for the SDK."""
    parser = argparse.ArgumentParser(add_help=False)
    parser.add_argument("--random-share", type=float, default=DEFAULT_RANDOM_SHARE)
    args, rest = parser.parse_known_args(list(argv))
    if not 0 <= args.random_share <= 1:
        parser.error(f"--random-share must be in [0, 1], got {args.random_share}")
    return ShakyBot(random_share=args.random_share), rest


if __name__ == "__main__":
    main()
