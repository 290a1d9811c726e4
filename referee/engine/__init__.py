"""The pure rules engine of Bid Euchre: no I/O, no clock, no global random.

Public API: cards and trump (``cards``), the rules object and presets, bids,
events, the ``Game`` state machine (with claims, ``claim``) and the per-seat ``SeatView``.
"""

from referee.engine.bids import PASS, Bid, bid_rank, enabled_specials, tricks_needed
from referee.engine.cards import (
    Card,
    Trump,
    card_power,
    card_str,
    cards_str,
    deck_cards,
    effective_suit,
    is_trump,
    parse_card,
    parse_cards,
    playable,
    sort_hand,
    winning_index,
)
from referee.engine.claim import SEARCH_LIMIT, ClaimSearch, claim_card
from referee.engine.errors import EngineError, IllegalActionError, InvalidActionError, RulesError
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
    visible_to,
)
from referee.engine.game import CLAIM, Answer, ClaimAnswer, Contract, Decision, DecisionKind, Game, Phase
from referee.engine.presets import DEFAULT_PRESET, PRESETS, preset, rules_for
from referee.engine.rules import OPTION_NAMES, Rules
from referee.engine.view import SeatView, game_over_view, hand_end_view, seat_view

__all__ = [
    "CLAIM",
    "DEFAULT_PRESET",
    "OPTION_NAMES",
    "PASS",
    "PRESETS",
    "SEARCH_LIMIT",
    "Answer",
    "Bid",
    "BidEvent",
    "Card",
    "ClaimAnswer",
    "ClaimEvent",
    "ClaimSearch",
    "Contract",
    "ContractEvent",
    "DealEvent",
    "Decision",
    "DecisionKind",
    "EngineError",
    "Event",
    "ExchangeEvent",
    "Game",
    "GameEndEvent",
    "HandEndEvent",
    "IllegalActionError",
    "InvalidActionError",
    "Phase",
    "PlayEvent",
    "Rules",
    "RulesError",
    "SeatView",
    "TrickEvent",
    "Trump",
    "bid_rank",
    "card_power",
    "card_str",
    "cards_str",
    "claim_card",
    "deck_cards",
    "effective_suit",
    "enabled_specials",
    "game_over_view",
    "hand_end_view",
    "is_trump",
    "parse_card",
    "parse_cards",
    "playable",
    "preset",
    "rules_for",
    "seat_view",
    "sort_hand",
    "tricks_needed",
    "visible_to",
    "winning_index",
]
