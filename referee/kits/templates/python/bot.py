"""A Bid Euchre bot on the arena's Python SDK, started by ``arena new``: change it as you like.

Each method answers one kind of decision from the seat's view and the legal choices; give and discard keep
the SDK's default (the weakest cards). The referee starts it as ``python bot.py``.
"""

from collections.abc import Sequence

from sdk import PASS, Bid, Bot, Card, SeatView, Trump, card_power, estimate_tricks, run, winning_index

SUITS = (Trump.S, Trump.H, Trump.D, Trump.C)


class MyBot(Bot):
    name = "$name"  # the folder's name
    version = "1"

    def bid(self, view: SeatView, legal: Sequence[Bid]) -> Bid:
        """Bid as many tricks as the hand's best suit is worth, else pass (a stuck dealer bids the least)."""
        worth = {suit: estimate_tricks(view.hand, suit, view.rules) for suit in SUITS}
        best = max(worth, key=lambda suit: worth[suit])
        wanted = [b for b in legal if b.kind == "level" and b.trump in (best, None) and b.level <= worth[best]]
        return max(wanted, key=lambda b: b.level) if wanted else (PASS if PASS in legal else legal[0])

    def trump(self, view: SeatView, legal: Sequence[Trump]) -> Trump:
        """Name the trump the hand is worth the most tricks in."""
        return max(legal, key=lambda trump: estimate_tricks(view.hand, trump, view.rules))

    def play(self, view: SeatView, legal: Sequence[Card]) -> Card:
        """Lead the strongest card; follow with the cheapest card that takes the trick, else the weakest."""
        trump = view.trump if view.trump is not None else Trump.HIGH

        def power(card: Card) -> int:
            return card_power(card, trump)

        played = [card for _, card in view.current_trick]
        if not played:
            return max(legal, key=power)
        winners = [card for card in legal if winning_index([*played, card], trump) == len(played)]
        return min(winners or legal, key=power)


if __name__ == "__main__":
    run(MyBot())
