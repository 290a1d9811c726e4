"""The named rule systems (see docs/rules.md for where each comes from).

A preset is a ``Rules`` value; ``preset(name)`` raises on unknown names and
``rules_for(name, overrides)`` applies ``name=value`` overrides on top.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import replace

from referee.engine.errors import RulesError
from referee.engine.rules import (
    BiddingRounds,
    CallExchangeOrder,
    Deck,
    GameOver,
    NoTrump,
    Rules,
    SpecialFamily,
    TieRule,
    TrumpTiming,
)
from referee.errors import did_you_mean

DEFAULT_PRESET = "neuralplay"

_SINGLE_DECK = Rules(
    deck=Deck.SINGLE_24,
    deal_packets=(3, 3),
    trump_timing=TrumpTiming.AFTER_BID,
    special_trump_timing=TrumpTiming.AFTER_BID,
    notrump=NoTrump.NONE,
    min_bid=3,
    min_notrump_bid=3,
    special_bids=(SpecialFamily.CALL1, SpecialFamily.MOON),
    value_call1=12,
    value_moon=24,
    game_points=32,
)

_DOUBLE_DECK = Rules(
    deck=Deck.DOUBLE_48,
    deal_packets=(1, 1, 2, 3, 5),
    trump_timing=TrumpTiming.AFTER_BID,
    special_trump_timing=TrumpTiming.AFTER_BID,
    notrump=NoTrump.HIGH_LOW,
    min_bid=6,
    min_notrump_bid=6,
    special_bids=(),
    stick_the_dealer=True,
    stuck_dealer_min_bid=6,
    stuck_dealer_exact=True,  # 000: "the dealer is stuck with a bid of 6" (its author's own program agrees)
    defenders_score=False,
    made_bonus=2,
    game_points=50,
    tie_rule=TieRule.DECLARERS,
    mercy_loss=-50,
    mercy_all_below=-25,
)

PRESETS: dict[str, Rules] = {
    # NeuralPlay's default rules.
    "neuralplay": Rules(),
    "indiana": Rules(
        deck=Deck.DOUBLE_48,
        deal_packets=(4, 4, 4),
        bidding_rounds=BiddingRounds.MULTIPLE,
        min_bid=3,
        min_notrump_bid=3,
        special_bids=(),
        notrump_ranks_lower=True,
        overtricks=False,
        game_points=50,
        tie_rule=TieRule.BIDDERS,
    ),
    "bid-euchre-project": Rules(
        right_bower_to_open=True,
        game_over=GameOver.HANDS,
        game_hands=48,
    ),
    "single-deck": _SINGLE_DECK,
    "single-deck-hilo": replace(_SINGLE_DECK, notrump=NoTrump.HIGH_LOW),
    "pepper": Rules(
        deck=Deck.SINGLE_24,
        deal_packets=(3, 3),
        bidding_rounds=BiddingRounds.MULTIPLE,
        trump_timing=TrumpTiming.AFTER_BID,
        special_trump_timing=TrumpTiming.AFTER_BID,
        special_bids=(SpecialFamily.PEPPER,),
        stick_the_dealer=False,
        set_penalty=6,
        value_little_pepper=6,
        value_big_pepper=12,
        game_points=30,
    ),
    "triple-deck": Rules(
        deck=Deck.TRIPLE_60,
        deal_packets=(5, 5, 5),
        bidding_rounds=BiddingRounds.MULTIPLE,
        notrump=NoTrump.HIGH_LOW,
        min_bid=3,
        min_notrump_bid=3,
        special_bids=(SpecialFamily.CALL3, SpecialFamily.MOON),
        value_call3=15,
        value_moon=30,
        game_over=GameOver.HANDS,
        game_hands=8,
        tie_rule=TieRule.LAST_MADE,
    ),
    "double-deck": _DOUBLE_DECK,
    "double-deck-3p": replace(_DOUBLE_DECK, players=3, teams=3, deal_packets=(1, 2, 3, 5, 5)),
    "bloomington": Rules(
        players=6,
        teams=2,
        deck=Deck.DOUBLE_48,
        deal_packets=(3, 3, 2),
        notrump=NoTrump.HIGH_LOW,
        special_bids=(SpecialFamily.BEST,),
        stick_the_dealer=False,
        value_best=16,
        game_points=54,
        tie_rule=TieRule.BIDDERS,
        mercy_loss=-54,
    ),
    "hammerwalt": Rules(
        deck=Deck.DOUBLE_48,
        deal_packets=(4, 4, 4),
        bidding_rounds=BiddingRounds.TWO,
        trump_timing=TrumpTiming.AFTER_BID,
        special_trump_timing=TrumpTiming.AFTER_BID,
        notrump=NoTrump.HIGH_LOW,
        min_bid=6,
        min_notrump_bid=6,
        special_bids=(SpecialFamily.ALONE,),
        stuck_dealer_min_bid=5,
        alone_exchange_cards=3,
        value_alone=24,
        game_points=64,
        tie_rule=TieRule.DECLARERS,
        mercy_loss=-64,
    ),
    "pagat": Rules(
        min_bid=3,
        min_notrump_bid=3,
        call_exchange_order=CallExchangeOrder.DISCARD_FIRST,
        stick_the_dealer=False,
    ),
}


# What sets each preset apart from the others, in a line (`arena presets`).
PRESET_NOTES: dict[str, str] = {
    "neuralplay": "NeuralPlay's rules: bids from 1 trick, trump named with the bid, the dealer is stuck when all pass",
    "indiana": "bidding goes round until all pass; a made bid scores only its level; no-trump ranks below a suit",
    "bid-euchre-project": "as neuralplay, but the 1st and 2nd bidders need the jack of the suit they name; 48 hands",
    "single-deck": "the 24-card euchre deck, trump named after the auction, no no-trump",
    "single-deck-hilo": "as single-deck, with high and low no-trump",
    "pepper": "pepper bids (every trick, with partner); a set costs 6; a hand all pass is thrown in",
    "triple-deck": "three 20-card decks; call3: the partner gives three cards, then sits out",
    "double-deck": "bids from 6; only the declarers score (+2 when made); mercy rule at -50",
    "double-deck-3p": "double-deck for three players, each playing alone",
    "bloomington": "six players in two teams of three; best: each partner gives the bidder a card",
    "hammerwalt": "up to two bidding turns each; going alone swaps three cards with partner",
    "pagat": "pagat.com's rules: bids from 3 tricks, a hand all pass is thrown in, a caller discards first",
}


def preset(name: str) -> Rules:
    try:
        return PRESETS[name]
    except KeyError:
        raise RulesError(
            f"unknown preset {name!r}{did_you_mean(name, PRESETS)}; presets: {', '.join(PRESETS)}"
        ) from None


def rules_for(name: str, overrides: Mapping[str, str] | Iterable[str] = ()) -> Rules:
    """A preset with ``name=value`` overrides applied (errors name the bad part)."""
    base = preset(name)
    return base.with_overrides(overrides) if overrides else base
