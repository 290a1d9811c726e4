"""The 12 presets: names exactly as in rules/PRESETS.md, and each one's key options as PRESETS.md and 001 give them.

The expected values below were written from PRESETS.md (and 001's preset
lists where PRESETS.md points to them), not from presets.py.
"""

from __future__ import annotations

import pytest

from referee.engine.errors import RulesError
from referee.engine.presets import DEFAULT_PRESET, PRESETS, preset, rules_for
from referee.engine.rules import Rules

# PRESETS.md table: preset, players, deck, cards each
TABLE = [
    ("neuralplay", 4, "double-32", 8),
    ("indiana", 4, "double-48", 12),
    ("bid-euchre-project", 4, "double-32", 8),
    ("single-deck", 4, "single-24", 6),
    ("single-deck-hilo", 4, "single-24", 6),
    ("pepper", 4, "single-24", 6),
    ("triple-deck", 4, "triple-60", 15),
    ("double-deck", 4, "double-48", 12),
    ("double-deck-3p", 3, "double-48", 16),
    ("bloomington", 6, "double-48", 8),
    ("hammerwalt", 4, "double-48", 12),
    ("pagat", 4, "double-32", 8),
]

SUITS_HIGH = "high"
SUITS_ONLY = "none"
HIGH_LOW = "high-low"

# The options each source names, per preset.
KEY_OPTIONS: dict[str, dict[str, object]] = {
    "neuralplay": {
        "teams": 2,
        "bidding_rounds": "single",
        "trump_timing": "with-bid",
        "special_trump_timing": "with-bid",
        "notrump": SUITS_HIGH,
        "min_bid": 1,
        "special_bids": {"call2", "call1", "moon"},
        "call_exchange_order": "give-first",
        "stick_the_dealer": True,
        "initial_leader": "declarer",
        "overtricks": True,
        "defenders_score": True,
        "set_penalty": None,
        "made_bonus": 0,
        "value_call2": 12,
        "value_call1": 18,
        "value_moon": 24,
        "game_over": "points",
        "game_points": 52,
        "tie_rule": "draw",
    },
    "indiana": {
        "bidding_rounds": "multiple",
        "notrump": SUITS_HIGH,
        "min_bid": 3,
        "special_bids": set(),
        "dealer_can_steal": "no",
        "stick_the_dealer": True,
        "right_bower_to_open": False,
        "notrump_ranks_lower": True,
        "initial_leader": "declarer",
        "defenders_score": True,
        "overtricks": False,
        "game_over": "points",
        "game_points": 50,
        "tie_rule": "bidders",
    },
    "bid-euchre-project": {
        "bidding_rounds": "single",
        "notrump": SUITS_HIGH,
        "min_bid": 1,
        "special_bids": {"call2", "call1", "moon"},
        "special_trump_timing": "with-bid",
        "dealer_can_steal": "no",
        "stick_the_dealer": True,
        "right_bower_to_open": True,
        "notrump_ranks_lower": False,
        "initial_leader": "declarer",
        "defenders_score": True,
        "overtricks": True,
        "value_call2": 12,
        "value_call1": 18,
        "value_moon": 24,
        "game_over": "hands",
        "game_hands": 48,
        "tie_rule": "draw",
    },
    "single-deck": {
        "bidding_rounds": "single",
        "notrump": SUITS_ONLY,
        "min_bid": 3,
        "special_bids": {"call1", "moon"},
        "special_trump_timing": "after-bid",
        "trump_timing": "after-bid",
        "dealer_can_steal": "no",
        "stick_the_dealer": True,
        "right_bower_to_open": False,
        "notrump_ranks_lower": False,
        "initial_leader": "declarer",
        "defenders_score": True,
        "overtricks": True,
        "value_call1": 12,
        "value_moon": 24,
        "game_over": "points",
        "game_points": 32,
        "tie_rule": "draw",
    },
    "pepper": {
        "bidding_rounds": "multiple",
        "notrump": SUITS_HIGH,
        "min_bid": 1,
        "special_bids": {"pepper"},
        "special_trump_timing": "after-bid",
        "trump_timing": "after-bid",
        "dealer_can_steal": "no",
        "stick_the_dealer": False,
        "right_bower_to_open": False,
        "notrump_ranks_lower": False,
        "initial_leader": "declarer",
        "defenders_score": True,
        "overtricks": True,
        "set_penalty": 6,
        "value_little_pepper": 6,
        "value_big_pepper": 12,
        "game_over": "points",
        "game_points": 30,
        "tie_rule": "draw",
    },
    "triple-deck": {
        "bidding_rounds": "multiple",
        "notrump": HIGH_LOW,
        "min_bid": 3,
        "special_bids": {"call3", "moon"},
        "special_trump_timing": "with-bid",
        "dealer_can_steal": "no",
        "stick_the_dealer": True,
        "right_bower_to_open": False,
        "notrump_ranks_lower": False,
        "initial_leader": "declarer",
        "defenders_score": True,
        "overtricks": True,
        "value_call3": 15,
        "value_moon": 30,
        "game_over": "hands",
        "game_hands": 8,
        "tie_rule": "last-made",
    },
    "double-deck": {
        "deal_packets": (1, 1, 2, 3, 5),
        "bidding_rounds": "single",
        "trump_timing": "after-bid",
        "notrump": HIGH_LOW,
        "min_bid": 6,
        "special_bids": set(),
        "stick_the_dealer": True,
        "stuck_dealer_min_bid": 6,
        "initial_leader": "declarer",
        "overtricks": True,
        "made_bonus": 2,
        "set_penalty": None,
        "defenders_score": False,
        "game_over": "points",
        "game_points": 50,
        "tie_rule": "declarers",
        "mercy_loss": -50,
        "mercy_all_below": -25,
    },
    "double-deck-3p": {
        "teams": 3,
        "bidding_rounds": "single",
        "trump_timing": "after-bid",
        "notrump": HIGH_LOW,
        "min_bid": 6,
        "stuck_dealer_min_bid": 6,
        "made_bonus": 2,
        "defenders_score": False,
        "game_points": 50,
        "tie_rule": "declarers",
        "mercy_loss": -50,
        "mercy_all_below": -25,
    },
    "bloomington": {
        "teams": 2,
        "deal_packets": (3, 3, 2),
        "bidding_rounds": "single",
        "trump_timing": "with-bid",
        "special_trump_timing": "with-bid",
        "notrump": HIGH_LOW,
        "min_bid": 1,
        "notrump_ranks_lower": False,
        "special_bids": {"best"},
        "stick_the_dealer": False,
        "initial_leader": "declarer",
        "overtricks": True,
        "defenders_score": True,
        "set_penalty": None,
        "value_best": 16,
        "game_over": "points",
        "game_points": 54,
        "tie_rule": "bidders",
        "mercy_loss": -54,
    },
    "hammerwalt": {
        "bidding_rounds": "two",
        "trump_timing": "after-bid",
        "special_trump_timing": "after-bid",
        "notrump": HIGH_LOW,
        "min_bid": 6,
        "stick_the_dealer": True,
        "stuck_dealer_min_bid": 5,
        "special_bids": {"alone"},
        "alone_exchange_cards": 3,
        "initial_leader": "declarer",
        "overtricks": True,
        "defenders_score": True,
        "set_penalty": None,
        "value_alone": 24,
        "game_over": "points",
        "game_points": 64,
        "tie_rule": "declarers",
        "mercy_loss": -64,
    },
    "pagat": {
        "bidding_rounds": "single",
        "trump_timing": "with-bid",
        "special_trump_timing": "with-bid",
        "notrump": SUITS_HIGH,
        "min_bid": 3,
        "special_bids": {"call2", "call1", "moon"},
        "call_exchange_order": "discard-first",
        "stick_the_dealer": False,
        "initial_leader": "declarer",
        "overtricks": True,
        "defenders_score": True,
        "set_penalty": None,
        "value_call2": 12,
        "value_call1": 18,
        "value_moon": 24,
        "game_over": "points",
        "game_points": 52,
        "tie_rule": "draw",
    },
}
# single-deck-hilo: single-deck with high and low no-trump added.
KEY_OPTIONS["single-deck-hilo"] = {**KEY_OPTIONS["single-deck"], "notrump": HIGH_LOW}


def test_preset_names_are_exactly_those_of_presets_md() -> None:
    assert list(PRESETS) == [name for name, *_ in TABLE]
    assert DEFAULT_PRESET == "neuralplay"


@pytest.mark.parametrize(("name", "players", "deck", "cards_each"), TABLE)
def test_preset_table(name: str, players: int, deck: str, cards_each: int) -> None:
    rules = preset(name)
    assert (rules.players, rules.deck, rules.cards_each) == (players, deck, cards_each)
    assert sum(rules.deal_packets) == cards_each


@pytest.mark.parametrize("name", [name for name, *_ in TABLE])
def test_preset_key_options(name: str) -> None:
    rules = preset(name)
    for option, expected in KEY_OPTIONS[name].items():
        value = getattr(rules, option)
        if isinstance(expected, set):
            value = set(value)
        assert value == expected, f"{name}: {option} is {value!r}, PRESETS.md says {expected!r}"


def test_every_preset_is_a_valid_rules_value() -> None:
    for name, rules in PRESETS.items():
        assert isinstance(rules, Rules)
        assert Rules.from_dict(rules.as_dict()) == rules, name


def test_unknown_preset_names_the_known_ones() -> None:
    with pytest.raises(RulesError) as err:
        preset("Indiana")
    assert "unknown preset 'Indiana'" in str(err.value) and "indiana" in str(err.value)


def test_rules_for_applies_overrides_on_top_of_the_preset() -> None:
    rules = rules_for("hammerwalt", ["game_points=32", "game_over=points"])
    assert rules.game_points == 32 and rules.bidding_rounds == "two"
    assert rules_for("hammerwalt") is preset("hammerwalt")
