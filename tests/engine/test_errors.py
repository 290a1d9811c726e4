"""Bad actions: a rule breach raises IllegalActionError naming the rule, a malformed action
raises InvalidActionError, and either way the game is left exactly as it was."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace

import pytest

from referee.engine.bids import Bid, BidKind
from referee.engine.cards import Trump, deck_cards
from referee.engine.errors import EngineError, IllegalActionError, InvalidActionError
from referee.engine.game import Game
from referee.engine.presets import preset
from referee.engine.rules import Rules, TrumpTiming
from tests.support.engine import ONE_SUIT_EACH, SMALL, bids, cards, new_game, parse_action, snapshot


def fresh(name: str, hands: dict[int, str] | None = None) -> Callable[[], Game]:
    return lambda: new_game(preset(name), hands)


def after(name: str, bid_text: str, hands: dict[int, str] | None = None) -> Callable[[], Game]:
    def setup() -> Game:
        game = new_game(preset(name), hands)
        bids(game, bid_text)
        return game

    return setup


def won_at(rules: Rules, bid_text: str) -> Game:
    game = new_game(rules)
    bids(game, bid_text)
    return game


def small_play(*plays: str) -> Callable[[], Game]:
    def setup() -> Game:
        game = new_game(
            replace(SMALL, trump_timing=TrumpTiming.WITH_BID), {1: "AS KS QS JS TS 9H", 2: "9S TH JH QH KH AH"}
        )
        bids(game, "1 high, pass, pass, pass")
        for card in plays:
            game.apply(cards(card)[0])
        return game

    return setup


# (rule, how to get there, the action as text)
ILLEGAL = [
    ("stick-the-dealer", after("neuralplay", "pass, pass, pass"), "pass"),
    ("bid-not-higher", after("neuralplay", "4 H"), "4 S"),
    ("bid-too-low", fresh("indiana"), "2 S"),
    ("bid-too-high", fresh("neuralplay"), "9 S"),
    ("notrump-bid-too-low", lambda: new_game(replace(preset("indiana"), min_notrump_bid=5)), "4 high"),
    ("notrump-bid-too-low", lambda: won_at(replace(preset("hammerwalt"), min_bid=5), "5, pass, pass, pass"), "high"),
    ("trump-not-allowed", fresh("neuralplay"), "1 low"),
    ("trump-not-allowed", after("single-deck", "3, pass, pass, pass"), "high"),
    ("trump-with-bid", fresh("neuralplay"), "4"),
    ("trump-after-bid", fresh("hammerwalt"), "6 S"),
    ("special-not-allowed", fresh("neuralplay"), "best S"),
    ("big-pepper-needs-little", fresh("pepper"), "big-pepper"),
    ("right-bower-to-open", fresh("bid-euchre-project", {1: "QS KS AS QH KH AH QD KD"}), "2 S"),
    ("give-count", after("neuralplay", "call2 S, pass, pass, pass"), "AS"),
    ("card-not-in-hand", after("neuralplay", "call2 S, pass, pass, pass", {3: "JH JH QH QH KH KH AH AH"}), "JS JS"),
    ("discard-count", after("pagat", "call1 S, pass, pass, pass"), "JS JS"),
    ("card-not-in-hand", small_play(), "AH"),
    ("follow-suit", small_play("AS"), "TH"),
]


@pytest.mark.parametrize(("rule", "setup", "text"), ILLEGAL, ids=[f"{r}: {t}" for r, _, t in ILLEGAL])
def test_illegal_action_names_the_rule_and_changes_nothing(rule: str, setup: Callable[[], Game], text: str) -> None:
    game = setup()
    action = parse_action(game, text)
    before = snapshot(game)
    with pytest.raises(IllegalActionError) as err:
        game.apply(action)
    assert err.value.rule == rule
    assert f"[rule: {rule}]" in str(err.value) and "\n" not in str(err.value)
    assert snapshot(game) == before


def test_deal_errors() -> None:
    game = Game(SMALL)
    with pytest.raises(IllegalActionError) as err:
        game.apply(cards("AS")[0])
    assert err.value.rule == "deal-first"
    bad_decks = [
        list(deck_cards("single-24"))[:-1],
        [*list(deck_cards("single-24"))[:-1], cards("AS")[0]],
        list(deck_cards("single-32")),
        [str(c) for c in deck_cards("single-24")],
        [float(c) for c in deck_cards("single-24")],
    ]
    deal: Callable[..., object] = game.deal  # called with decks of the wrong type too, on purpose
    for deck in bad_decks:
        with pytest.raises(InvalidActionError, match="not a single-24 deck"):
            deal(deck)
        assert game.hand_number == 0 and game.events == []
    game.deal(list(deck_cards("single-24")))
    with pytest.raises(IllegalActionError) as err:
        game.deal(list(deck_cards("single-24")))
    assert err.value.rule == "deal-out-of-turn"


# Bid called with values past its types, on purpose: a kind as text (Bid takes it for the member), or a wrong one
bid_of_values: Callable[..., Bid] = Bid
MALFORMED_BIDS = [
    "4 S",  # text, not a Bid
    Bid(BidKind.LEVEL, 0, Trump.S),
    bid_of_values("level", 4, 0),  # an int, not a Trump
    Bid(BidKind.PASS, 0, Trump.S),
    Bid(BidKind.MOON, 3, Trump.S),
    Trump.S,
    None,
]


def test_a_bid_kind_given_as_text_is_its_member() -> None:
    bid = bid_of_values("level", 4, Trump.S)
    assert bid == Bid(BidKind.LEVEL, 4, Trump.S) and type(bid.kind) is BidKind


def test_a_bid_of_no_known_kind_cannot_be_made() -> None:
    with pytest.raises(InvalidActionError, match="bad bid kind 'raise'"):
        bid_of_values("raise")  # text that is no BidKind


@pytest.mark.parametrize("action", MALFORMED_BIDS, ids=repr)
def test_malformed_bids_are_invalid_and_change_nothing(action: object) -> None:
    game = new_game(preset("neuralplay"))
    before = snapshot(game)
    with pytest.raises(InvalidActionError):
        game.apply(action)
    assert snapshot(game) == before


@pytest.mark.parametrize("action", [Bid.parse("pass"), "high", 6, -1, True, None], ids=repr)
def test_malformed_trump_choices_are_invalid(action: object) -> None:
    game = new_game(preset("hammerwalt"))
    bids(game, "6, pass, pass, pass")
    before = snapshot(game)
    with pytest.raises(InvalidActionError):
        game.apply(action)
    assert snapshot(game) == before


@pytest.mark.parametrize("text", ["", "pass S", "0", "-2 S", "4 X", "4 S extra", "raise", "moon spades", "four S"])
def test_bad_bid_text_is_an_invalid_action(text: str) -> None:
    with pytest.raises(InvalidActionError, match=r"bad bid|unknown trump"):
        Bid.parse(text)


def test_both_error_kinds_are_engine_errors() -> None:
    assert issubclass(IllegalActionError, EngineError) and issubclass(InvalidActionError, EngineError)
    assert issubclass(InvalidActionError, ValueError)
    err = IllegalActionError("follow-suit", "TH does not follow")
    assert (err.rule, err.detail) == ("follow-suit", "TH does not follow")


def test_the_game_still_plays_after_a_refused_action() -> None:
    game = new_game(SMALL, ONE_SUIT_EACH)
    with pytest.raises(IllegalActionError):
        game.apply(Bid.parse("7 S"))
    bids(game, "1 high, pass, pass, pass")
    with pytest.raises(IllegalActionError):
        game.apply(cards("9H")[0])
    game.apply(cards("9S")[0])
    assert game.to_act == 2
