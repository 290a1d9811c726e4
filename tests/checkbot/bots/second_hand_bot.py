"""A bot with a bug only a second hand shows: ``python second_hand_bot.py``.

It notes the cards it was dealt, by hand, but does so only when its notes are empty, that is once a game; at
its first decision of hand 2 the lookup raises KeyError and the process dies with a traceback (status 1).
Every one-hand game passes.
"""

from __future__ import annotations

from sdk import Bot, Card, SeatView, run


class SecondHandBot(Bot):
    name = "secondhand"
    version = "1"

    def game_start(self, view: SeatView) -> None:
        self.dealt: dict[int, tuple[Card, ...]] = {}

    def decide(self, view: SeatView) -> object:
        if not self.dealt:
            self.dealt[view.hand_number] = tuple(view.hand)
        self.received = set(view.hand) - set(self.dealt[view.hand_number])  # KeyError from the second hand on
        return super().decide(view)


if __name__ == "__main__":
    run(SecondHandBot())
