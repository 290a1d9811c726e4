"""The Python SDK for Bid Euchre arena bots.

``Bot`` is the base class (one method per decision kind); ``run(bot)``
connects it to a referee. The card and trick helpers are the engine's own,
re-exported here so a bot needs only ``sdk``.

Claims: ``Bot.play`` may return ``CLAIM`` instead of a card when
``view.may_claim`` is true, to claim every remaining trick of the hand for
the seat's team (docs/protocol.md, "Claims"). Every seat sees each claim as
a ``ClaimEvent`` in ``view.events``: ``accepted`` true, the hand is over;
false, nothing changed, and the claimer is asked to play again.
"""

from __future__ import annotations

from collections.abc import Sequence

from referee.engine.bids import CALL_CARDS, PASS, Bid
from referee.engine.cards import (
    Card,
    Trump,
    card_power,
    card_rank,
    card_str,
    card_suit,
    cards_str,
    effective_suit,
    is_trump,
    parse_card,
    parse_cards,
    sort_hand,
    winning_index,
)
from referee.engine.events import ClaimEvent, Event, HandEndEvent, PlayEvent, TrickEvent
from referee.engine.game import CLAIM, ClaimAnswer, Contract, Decision, DecisionKind, Game
from referee.engine.rules import Rules
from referee.engine.view import SeatView
from sdk.bot import Bot


def run(bot: Bot, argv: Sequence[str] | None = None) -> None:
    """Connect ``bot`` to the referee (ARENA_ADDRESS / ARENA_TOKEN, or --address / --token) and play."""
    from sdk.runner import run as _run

    _run(bot, argv)


__all__ = [
    "CALL_CARDS",
    "CLAIM",
    "PASS",
    "Bid",
    "Bot",
    "Card",
    "ClaimAnswer",
    "ClaimEvent",
    "Contract",
    "Decision",
    "DecisionKind",
    "Event",
    "Game",
    "HandEndEvent",
    "PlayEvent",
    "Rules",
    "SeatView",
    "TrickEvent",
    "Trump",
    "card_power",
    "card_rank",
    "card_str",
    "card_suit",
    "cards_str",
    "effective_suit",
    "is_trump",
    "parse_card",
    "parse_cards",
    "run",
    "sort_hand",
    "winning_index",
]
