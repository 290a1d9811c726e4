"""A random bot that prints to stderr, at each game start, some rule options it was told
(``rules min_bid=N value_alone=N game_hands=N``), and at each bid the lowest trick bid it is offered
(``lowest bid N``)."""

from __future__ import annotations

import sys
from collections.abc import Sequence

from example_bots.random_bot import RandomBot
from sdk import Bid, SeatView, run

OPTIONS = ("min_bid", "value_alone", "game_hands")


class RulesEcho(RandomBot):
    name = "rules-echo"

    def game_start(self, view: SeatView) -> None:
        told = " ".join(f"{o}={getattr(view.rules, o)}" for o in OPTIONS)
        print(f"rules {told}", file=sys.stderr, flush=True)

    def bid(self, view: SeatView, legal: Sequence[Bid]) -> Bid:
        levels = [b.level for b in legal if b.kind == "level"]
        if levels:
            print(f"lowest bid {min(levels)}", file=sys.stderr, flush=True)
        return super().bid(view, legal)


if __name__ == "__main__":
    run(RulesEcho())
