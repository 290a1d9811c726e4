"""A Bid Euchre bot on the arena's Python SDK, started by ``arena new``: change it as you like.

Each method answers one kind of decision from the seat's view (``view.hand``, ``view.trump``,
``view.current_trick``, ``view.scores`` ...) and the legal choices; a method not written here keeps the
SDK's default (bid: pass when allowed; trump: the first choice; give and discard: the weakest cards).
The referee starts it as ``python bot.py`` with its address and token in the environment.
"""

from __future__ import annotations

from collections.abc import Sequence

from sdk import Bot, Card, SeatView, Trump, card_power, run, winning_index


class StarterBot(Bot):
    name = "starter"
    version = "0.1"

    def play(self, view: SeatView, legal: Sequence[Card]) -> Card:
        """Lead the strongest card; follow with the cheapest card that takes the trick, else the weakest."""
        trump = view.trump if view.trump is not None else Trump.HIGH
        trick = view.current_trick

        def power(card: Card) -> int:
            return card_power(card, trump)

        if not trick:
            return max(legal, key=power)
        played = [card for _, card in trick]
        winners = [c for c in legal if winning_index([*played, c], trump) == len(played)]
        return min(winners or legal, key=power)


if __name__ == "__main__":
    run(StarterBot())
