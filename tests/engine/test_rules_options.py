"""Rule options: text forms, round trips, errors that name the problem, cross-field checks."""

from __future__ import annotations

import dataclasses
import json
from collections.abc import Callable

import pytest

from referee.engine.errors import RulesError
from referee.engine.presets import PRESETS, preset, rules_for
from referee.engine.rules import (
    OPTION_NAMES,
    TIE_RULES,
    Deck,
    Rules,
    SpecialFamily,
    TieRule,
    format_value,
    option_values,
    parse_value,
)

# Rules called with values past its types, on purpose: a choice as its text (Rules takes it for the member),
# or a value of the wrong type (refused)
rules_of_values: Callable[..., Rules] = Rules

FIELDS = {f.name: f for f in dataclasses.fields(Rules)}


def sample_texts(name: str) -> list[str]:
    """Valid text forms of an option's values, read from the option's own description."""
    meta = FIELDS[name].metadata
    kind = meta["kind"]
    if kind == "bool":
        return ["true", "false", "yes", "no", "on", "off", "1", "0"]
    if kind == "choice":
        return [str(c) for c in meta["choices"]]
    if kind == "int":
        return [str(meta["min"]), str(meta["max"])]
    if kind == "optint":
        return [meta["none_word"], str(meta["min"]), str(meta["max"])]
    if kind == "ints":
        return ["3,2,3", "12", "1,1,2,3,5"]
    if kind == "set":
        return ["none", *meta["choices"], ",".join(meta["choices"][:3])]
    raise AssertionError(kind)


OPTION_TEXTS = [(name, text) for name in OPTION_NAMES for text in sample_texts(name)]


@pytest.mark.parametrize(("name", "text"), OPTION_TEXTS)
def test_option_text_round_trips(name: str, text: str) -> None:
    value = parse_value(name, text)
    shown = format_value(name, value)
    assert parse_value(name, shown) == value
    assert format_value(name, parse_value(name, shown)) == shown


@pytest.mark.parametrize("name", OPTION_NAMES)
def test_every_option_has_help_and_a_description_of_its_values(name: str) -> None:
    assert FIELDS[name].metadata["help"]
    assert option_values(name)


@pytest.mark.parametrize("name", list(PRESETS))
def test_preset_values_round_trip_through_text_and_dict(name: str) -> None:
    rules = preset(name)
    as_text = {option: text for option, text, _ in rules.describe()}
    assert set(as_text) == set(OPTION_NAMES)
    assert Rules().with_overrides(as_text) == rules
    assert Rules().with_overrides([f"{k}={v}" for k, v in as_text.items()]) == rules
    data = rules.as_dict()
    assert Rules.from_dict(json.loads(json.dumps(data))) == rules


def test_text_forms_of_a_few_options() -> None:
    rules = Rules().with_overrides(
        [
            "stick_the_dealer = no",
            "special_bids=call2, moon",
            "deal_packets=2,3,3",
            "set_penalty=bid",
            "mercy_loss=-50",
            "players=4",
        ]
    )
    assert rules.stick_the_dealer is False
    assert rules.special_bids == ("call2", "moon")
    assert rules.deal_packets == (2, 3, 3)
    assert rules.set_penalty is None and rules.mercy_loss == -50
    assert format_value("special_bids", ()) == "none" and parse_value("special_bids", "none") == ()
    assert parse_value("special_bids", "moon,moon") == ("moon",)


@pytest.mark.parametrize(
    ("override", "message"),
    [
        ("nope=1", "unknown rule option 'nope'"),
        ("min-bid=3", "did you mean 'min_bid'"),
        ("min_bid", "expected name=value"),
        ("=3", "expected name=value"),
        ("min_bid=x", "bad value 'x' for rule option min_bid: expected an integer 1..16"),
        ("min_bid=0", "bad value 0 for rule option min_bid"),
        ("players=5", "bad value '5' for rule option players: expected 3 | 4 | 6"),
        ("deck=double-50", "bad value 'double-50' for rule option deck"),
        ("stick_the_dealer=maybe", "bad value 'maybe' for rule option stick_the_dealer: expected true or false"),
        ("special_bids=call9", "bad value call9 for rule option special_bids"),
        ("special_bids=", "for rule option special_bids"),
        ("deal_packets=3,,5", "bad value '3,,5' for rule option deal_packets"),
        ("deal_packets=0,8", "bad value 0,8 for rule option deal_packets"),
        ("mercy_loss=5", "bad value 5 for rule option mercy_loss"),
        ("set_penalty=some", "expected 'bid' or an integer"),
        ("tie_rule=coin-toss", "expected " + " | ".join(TIE_RULES)),
    ],
)
def test_bad_overrides_say_what_is_wrong(override: str, message: str) -> None:
    with pytest.raises(RulesError) as err:
        rules_for("neuralplay", [override])
    assert message in str(err.value)
    assert "\n" not in str(err.value)


def test_a_choice_given_as_text_is_its_member() -> None:
    rules = rules_of_values(deck="double-48", deal_packets=(4, 4, 4), special_bids=("moon",), tie_rule="last-made")
    assert rules == Rules(
        deck=Deck.DOUBLE_48, deal_packets=(4, 4, 4), special_bids=(SpecialFamily.MOON,), tie_rule=TieRule.LAST_MADE
    )
    assert type(rules.deck) is Deck and type(rules.special_bids[0]) is SpecialFamily


@pytest.mark.parametrize(
    ("changes", "message"),
    [
        ({"players": 4, "teams": 3}, "teams=3 does not divide players=4"),
        ({"players": 3, "teams": 2, "deck": "single-24", "deal_packets": (8,)}, "teams=2 does not divide players=3"),
        ({"players": 6, "teams": 2, "deck": "single-28"}, "cannot be dealt evenly to 6 players"),
        ({"deal_packets": (3, 3)}, "deal_packets 3,3 add up to 6, but each player gets 8 cards"),
        ({"min_bid": 9}, "min_bid=9 is above the highest trick bid (8)"),
        ({"min_notrump_bid": 9}, "min_notrump_bid=9 is above the highest trick bid (8)"),
        ({"stuck_dealer_min_bid": 9}, "stuck_dealer_min_bid=9 is above the highest trick bid (8)"),
        (
            {"players": 6, "deck": "double-48", "deal_packets": (8,), "special_bids": ("call2",)},
            "special bid call2 needs teams of two",
        ),
        (
            {"players": 6, "deck": "double-48", "deal_packets": (8,), "special_bids": ("alone",)},
            "special bid alone needs teams of two",
        ),
        ({"players": 4, "teams": 4, "special_bids": ("best",)}, "special bid best needs partners"),
        (
            {"special_bids": ("alone",), "alone_exchange_cards": 9},
            "alone_exchange_cards=9 is more than a hand (8 cards)",
        ),
        ({"special_bids": ("pepper",), "min_bid": 8}, "min_bid=8 is above the highest trick bid (7)"),
    ],
)
def test_cross_field_checks(changes: dict[str, object], message: str) -> None:
    with pytest.raises(RulesError) as err:
        rules_of_values(**changes)
    assert message in str(err.value)


def test_the_same_checks_apply_to_overrides() -> None:
    with pytest.raises(RulesError, match="deal_packets 3,2,3 add up to 8, but each player gets 12 cards"):
        rules_for("neuralplay", ["deck=double-48"])
    rules = rules_for("neuralplay", ["deck=double-48", "deal_packets=4,4,4"])
    assert rules.cards_each == 12 and rules.max_level == 12


@pytest.mark.parametrize(
    ("changes", "message"),
    [
        ({"min_bid": "3"}, "bad value '3' for rule option min_bid"),
        ({"stick_the_dealer": 1}, "bad value 1 for rule option stick_the_dealer"),
        ({"deal_packets": [3, 2, 3]}, "for rule option deal_packets"),
        ({"players": True}, "for rule option players"),
    ],
)
def test_values_of_the_wrong_type_are_refused(changes: dict[str, object], message: str) -> None:
    with pytest.raises(RulesError, match=message):
        rules_of_values(**changes)


def test_from_dict_refuses_unknown_names() -> None:
    data = Rules().as_dict()
    data["colour"] = "red"
    with pytest.raises(RulesError, match="unknown rule option 'colour'"):
        Rules.from_dict(data)


def test_from_dict_fills_in_defaults() -> None:
    assert Rules.from_dict({"min_bid": 2}) == dataclasses.replace(Rules(), min_bid=2)


def test_every_option_of_the_neuralplay_list_is_an_option() -> None:
    """001's rule options, and the options PRESETS.md adds, each have a name here."""
    from_001 = {
        "deck",
        "bidding_rounds",
        "notrump",
        "min_bid",
        "min_notrump_bid",
        "special_bids",
        "special_trump_timing",
        "trump_timing",
        "dealer_can_steal",
        "stick_the_dealer",
        "right_bower_to_open",
        "notrump_ranks_lower",
        "initial_leader",
        "defenders_score",
        "overtricks",
        "value_call3",
        "value_call2",
        "value_call1",
        "value_moon",
        "game_over",
        "game_points",
        "game_hands",
        "tie_rule",
    }
    from_presets_md = {
        "players",
        "teams",
        "deal_packets",
        "stuck_dealer_min_bid",
        "call_exchange_order",
        "alone_exchange_cards",
        "made_bonus",
        "set_penalty",
        "value_best",
        "value_alone",
        "value_little_pepper",
        "value_big_pepper",
        "mercy_loss",
        "mercy_all_below",
    }
    assert from_001 | from_presets_md <= set(OPTION_NAMES)
    assert set(FIELDS["special_bids"].metadata["choices"]) == {
        "call3",
        "call2",
        "call1",
        "best",
        "moon",
        "alone",
        "pepper",
    }
    assert set(TIE_RULES) == {
        "draw",
        "last-contract",
        "last-made",
        "declarers",
        "bidders",
        "must-bid",
        "must-bid-or-set",
    }


def test_rules_are_frozen_values() -> None:
    rules = Rules()
    for name, value in (("min_bid", 3), ("deck", Deck.DOUBLE_48)):
        with pytest.raises(dataclasses.FrozenInstanceError):
            setattr(rules, name, value)
    assert rules == Rules() and hash(rules) == hash(Rules())
