"""The Bot base class: one method per decision kind.

Subclass it and override what you care about; every method has a default that
returns a legal action, so a minimal bot is a few lines::

    from sdk import Bot, card_power, run


    class Lowest(Bot):
        def play(self, view, legal):  # the weakest card it may play
            return min(legal, key=lambda card: card_power(card, view.trump))


    if __name__ == "__main__":
        run(Lowest())

Each method receives the seat's ``SeatView`` (hand, events of the hand so far,
contract, current trick, scores, rules) and the legal choices; docs/sdk.md
says what each holds.

A claim: ``play`` may return ``CLAIM`` (from ``sdk``) instead of a card, to
claim every remaining trick of the hand, the one in progress included, for
the seat's team. The referee checks it against every hand: it holds only if
the team takes each of those tricks whatever the others play. Accepted, the
hand ends (``hand_end`` sees the ``ClaimEvent`` and the result); refused,
nothing changes and ``play`` is called again for the same trick, with the
refused ``ClaimEvent`` last in ``view.events`` and ``view.may_claim`` false:
it must return a card then (a second claim at the same play is an illegal
answer). Claim only when ``view.may_claim`` is true. A bot that never
returns ``CLAIM`` plays exactly as before claims existed.
"""

from __future__ import annotations

import random
from collections.abc import Sequence

from referee.engine.bids import Bid
from referee.engine.cards import Card, Trump, card_power
from referee.engine.game import ClaimAnswer, DecisionKind
from referee.engine.view import SeatView


class Bot:
    """A bot: override ``bid``, ``trump``, ``give``, ``discard`` and ``play`` as needed (each has a legal default),
    and the hooks ``game_start``, ``hand_end`` and ``game_over`` to follow the game."""

    name: str = "bot"
    version: str = "0"

    def __init__(self, seed: int | None = None) -> None:
        # Randomness for bots that want it. The runner reseeds it from
        # ARENA_SEED when the referee gives one, so matches replay exactly.
        self.rng = random.Random(seed)
        # Time allowed for the current decision, in milliseconds (0: no
        # limit); the runner and the simulator set it before each call.
        self.time_limit_ms = 1000
        # What is left of the game's time bank, in milliseconds (0: none): an
        # answer may take this much longer than time_limit_ms, drawing it down.
        self.time_bank_ms = 0
        # What is left of this process's start-up allowance, in milliseconds:
        # time beyond time_limit_ms for its first decisions, drawn before the
        # time bank (0 after them, or when the match gives none).
        self.startup_allowance_ms = 0
        # Who sits where in the current game (the bot's name per seat); set
        # at game start.
        self.seat_names: tuple[str, ...] = ()

    def bid(self, view: SeatView, legal: Sequence[Bid]) -> Bid:
        """Bid or pass. Default: pass when allowed, else the lowest legal bid."""
        return next((b for b in legal if b.is_pass), legal[0])

    def trump(self, view: SeatView, legal: Sequence[Trump]) -> Trump:
        """Name trump after winning the auction. Default: the first choice."""
        return legal[0]

    def give(self, view: SeatView, count: int, to: int) -> list[Card]:
        """Choose ``count`` cards from ``view.hand`` to give to seat ``to``. Default: the weakest."""
        return self._weakest(view, count)

    def discard(self, view: SeatView, count: int) -> list[Card]:
        """Choose ``count`` cards from ``view.hand`` to discard. Default: the weakest."""
        return self._weakest(view, count)

    def play(self, view: SeatView, legal: Sequence[Card]) -> Card | ClaimAnswer:
        """Play a card, or claim every remaining trick with ``CLAIM`` (see the module docstring) when
        ``view.may_claim``. Default: the first legal card."""
        return legal[0]

    def game_start(self, view: SeatView) -> None:
        """Called when a game starts (``view`` has the rules and the seat, no cards yet)."""

    def hand_end(self, view: SeatView) -> None:
        """Called when a hand ends (thrown in too), with every event of it the seat may see, the last
        trick and the result (``view.hand_result``) included, and no cards held (``hand_end_view``). It
        comes before the next decision, or before ``game_over`` after the last hand."""

    def game_over(self, view: SeatView, winner: int | None, reason: str) -> None:
        """Called when a game ends, with the events of its last hand through the game's end, the final
        scores and no cards held (``game_over_view``)."""

    # ------------------------------------------------------------------ dispatch

    def decide(self, view: SeatView) -> object:
        """The action for ``view.decision``: calls the method for its kind."""
        decision = view.decision
        if decision is None:
            raise ValueError("the view has no decision to take")
        kind = decision.kind
        if kind is DecisionKind.PLAY:
            return self.play(view, decision.cards)
        if kind is DecisionKind.BID:
            return self.bid(view, decision.bids)
        if kind is DecisionKind.TRUMP:
            return self.trump(view, decision.trumps)
        if kind is DecisionKind.GIVE:
            assert decision.to is not None
            return list(self.give(view, decision.count, decision.to))
        return list(self.discard(view, decision.count))

    @staticmethod
    def _weakest(view: SeatView, count: int) -> list[Card]:
        trump = view.trump if view.trump is not None else Trump.HIGH
        return sorted(view.hand, key=lambda c: card_power(c, trump))[:count]
