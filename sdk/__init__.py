"""The Python SDK for Bid Euchre arena bots: everything a bot needs, importable from ``sdk``.

``Bot`` is the base class (one method per decision kind); ``run(bot)``
connects it to a referee. The cards, bids, events, views and rules are the
engine's own types, re-exported here; the helpers count tricks and cards
(``estimate_tricks``, ``weakest``, ``knowledge_of``), deal the cards a seat
cannot see (``Determinizer``) and play bots against each other in one
process (``simulate``). docs/sdk.md is the reference, with an example of each.

Claims: ``Bot.play`` may return ``CLAIM`` instead of a card when
``view.may_claim`` is true, to claim every remaining trick of the hand for
the seat's team (docs/protocol.md, "Claims"). Every seat sees each claim as
a ``ClaimEvent`` in ``view.events``: ``accepted`` true, the hand is over;
false, nothing changed, and the claimer is asked to play again.
"""

from __future__ import annotations

from collections.abc import Sequence

from referee.engine.bids import CALL_CARDS, PASS, Bid, BidKind, tricks_needed
from referee.engine.cards import (
    Card,
    Trump,
    card_power,
    card_rank,
    card_str,
    card_suit,
    cards_str,
    deck_cards,
    effective_suit,
    is_trump,
    make_card,
    parse_card,
    parse_cards,
    sort_hand,
    winning_index,
)
from referee.engine.events import (
    BidEvent,
    ClaimEvent,
    ContractEvent,
    DealEvent,
    Event,
    ExchangeEvent,
    GameEndEvent,
    HandEndEvent,
    PlayEvent,
    TrickEvent,
)
from referee.engine.game import CLAIM, ClaimAnswer, Contract, Decision, DecisionKind, Game
from referee.engine.presets import rules_for
from referee.engine.rules import Rules
from referee.engine.simulate import shuffled_deck
from referee.engine.view import SeatView, seat_view
from sdk.bot import Bot
from sdk.handvalue import estimate_tricks, keep_value, weakest
from sdk.knowledge import Knowledge, knowledge_of
from sdk.simulator import SimulationResult, simulate
from sdk.worlds import Determinizer, World


def run(bot: Bot, argv: Sequence[str] | None = None) -> None:
    """Connect ``bot`` to the referee (ARENA_ADDRESS / ARENA_TOKEN, or --address / --token) and play until the
    referee shuts the session down; then exit the process (status 0, or 1 when the session failed)."""
    from sdk.runner import run as _run

    _run(bot, argv)


__all__ = [
    "CALL_CARDS",
    "CLAIM",
    "PASS",
    "Bid",
    "BidEvent",
    "BidKind",
    "Bot",
    "Card",
    "ClaimAnswer",
    "ClaimEvent",
    "Contract",
    "ContractEvent",
    "DealEvent",
    "Decision",
    "DecisionKind",
    "Determinizer",
    "Event",
    "ExchangeEvent",
    "Game",
    "GameEndEvent",
    "HandEndEvent",
    "Knowledge",
    "PlayEvent",
    "Rules",
    "SeatView",
    "SimulationResult",
    "TrickEvent",
    "Trump",
    "World",
    "card_power",
    "card_rank",
    "card_str",
    "card_suit",
    "cards_str",
    "deck_cards",
    "effective_suit",
    "estimate_tricks",
    "is_trump",
    "keep_value",
    "knowledge_of",
    "make_card",
    "parse_card",
    "parse_cards",
    "rules_for",
    "run",
    "seat_view",
    "shuffled_deck",
    "simulate",
    "sort_hand",
    "tricks_needed",
    "weakest",
    "winning_index",
]
