"""``random``: a uniformly random legal action at every decision (``python -m example_bots.random_bot``)."""

from __future__ import annotations

from collections.abc import Sequence

from sdk import Bid, Bot, Card, SeatView, Trump, run


class RandomBot(Bot):
    name = "random"
    version = "1"

    def bid(self, view: SeatView, legal: Sequence[Bid]) -> Bid:
        return self.rng.choice(legal)

    def trump(self, view: SeatView, legal: Sequence[Trump]) -> Trump:
        return self.rng.choice(legal)

    def give(self, view: SeatView, count: int, to: int) -> list[Card]:
        return self.rng.sample(view.hand, count)

    def discard(self, view: SeatView, count: int) -> list[Card]:
        return self.rng.sample(view.hand, count)

    def play(self, view: SeatView, legal: Sequence[Card]) -> Card:
        return self.rng.choice(legal)


if __name__ == "__main__":
    run(RandomBot())
