"""The auction: who bids when, which bids are legal, and when it ends.

Bids are written in the text form of docs/rules.md (``pass``, ``4 S``, ``6``,
``call2 H``, ``alone``). Hands do not matter here except for the right bower
rule, so most scenarios deal the deck in its fixed order.
"""

from __future__ import annotations

from dataclasses import replace

import pytest

from referee.engine.bids import Bid
from referee.engine.errors import IllegalActionError
from referee.engine.events import BidEvent, ContractEvent, DealEvent, HandEndEvent
from referee.engine.game import DecisionKind, Game, Phase
from referee.engine.presets import preset
from referee.engine.rules import DealerSteal, Rules
from tests.support.engine import act, bids, deal_next, new_game, of_type

NEURALPLAY = preset("neuralplay")
INDIANA = preset("indiana")
HAMMERWALT = preset("hammerwalt")
PEPPER = preset("pepper")
PAGAT = preset("pagat")
BLOOMINGTON = preset("bloomington")
DOUBLE_DECK = preset("double-deck")


def legal(game: Game) -> set[str]:
    return {b.text() for b in game.legal_bids()}


def bidders(game: Game) -> list[int]:
    return [ev.seat for ev in of_type(game.events, BidEvent)]


# (id, rules, dealer, bids, expected end: (declarer, bid text) or None for a thrown-in hand)
ENDINGS: list[tuple[str, Rules, int, str, tuple[int, str] | None]] = [
    ("single round: dealer bids last", NEURALPLAY, 0, "1 S, 2 H, pass, 3 D", (0, "3 D")),
    ("single round: bid, then three passes", NEURALPLAY, 0, "4 S, pass, pass, pass", (1, "4 S")),
    ("single round from another dealer", NEURALPLAY, 2, "pass, 5 H, pass, pass", (0, "5 H")),
    ("single round: stuck dealer bids", NEURALPLAY, 0, "pass, pass, pass, 1 C", (0, "1 C")),
    ("single round: all pass, no stuck dealer", PAGAT, 0, "pass, pass, pass, pass", None),
    ("double deck: dealer stuck with 6", DOUBLE_DECK, 3, "pass, pass, pass, 6", (3, "6")),
    ("two rounds: ends when all others pass after the bid", HAMMERWALT, 0, "pass, 6, pass, pass, pass", (2, "6")),
    (
        "two rounds: a pass in round one may bid in round two",
        HAMMERWALT,
        0,
        "pass, 6, pass, pass, 7, pass, pass, pass",
        (1, "7"),
    ),
    (
        "two rounds: the auction stops after two rounds",
        HAMMERWALT,
        0,
        "pass, pass, pass, pass, 6, 7, pass, pass",
        (2, "7"),
    ),
    (
        "two rounds: the stuck dealer may bid 5 after eight passes' worth of turns",
        HAMMERWALT,
        0,
        "pass, pass, pass, pass, pass, pass, pass, 5",
        (0, "5"),
    ),
    ("two rounds: going alone ends the auction at once", HAMMERWALT, 0, "6, alone", (2, "alone")),
    ("multiple rounds: bid then three passes", INDIANA, 0, "3 S, pass, pass, pass", (1, "3 S")),
    ("multiple rounds: ends three passes after the last bid", INDIANA, 0, "3 S, 4 H, pass, pass, pass", (2, "4 H")),
    (
        "multiple rounds: a player who passed bids again",
        INDIANA,
        0,
        "3 S, 4 H, pass, pass, 5 S, pass, 6 S, pass, pass, pass",
        (3, "6 S"),
    ),
    (
        "multiple rounds: a stuck dealer's bid reopens the auction",
        INDIANA,
        0,
        "pass, pass, pass, 3 C, 4 C, pass, pass, pass",
        (1, "4 C"),
    ),
    ("multiple rounds: all pass, no stuck dealer", PEPPER, 0, "pass, pass, pass, pass", None),
    ("top bid ends the auction: moon", NEURALPLAY, 0, "moon S", (1, "moon S")),
    ("top bid ends the auction: best", BLOOMINGTON, 0, "2 S, 8 low, best H", (3, "best H")),
    ("top bid ends the auction: big pepper", PEPPER, 0, "little-pepper, big-pepper", (2, "big-pepper")),
    ("little pepper does not end the auction", PEPPER, 0, "little-pepper, pass, pass, pass", (1, "little-pepper")),
    ("six players: the dealer may pass and all pass", BLOOMINGTON, 5, "pass, pass, pass, pass, pass, pass", None),
    ("six players: one round", BLOOMINGTON, 5, "pass, 3 H, pass, 4 low, pass, pass", (3, "4 low")),
]


@pytest.mark.parametrize(("rules", "dealer", "bid_texts", "end"), [e[1:] for e in ENDINGS], ids=[e[0] for e in ENDINGS])
def test_auction_ends(rules: Rules, dealer: int, bid_texts: str, end: tuple[int, str] | None) -> None:
    game = new_game(rules, dealer=dealer)
    events = bids(game, bid_texts)
    texts = [t.strip() for t in bid_texts.split(",")]
    n = rules.players
    assert [(ev.seat, ev.bid.text()) for ev in of_type(events, BidEvent)] == [
        ((dealer + 1 + i) % n, t) for i, t in enumerate(texts)
    ]
    assert game.phase is not Phase.BID, "the auction should be over"
    if end is None:
        (hand_end,) = of_type(events, HandEndEvent)
        assert hand_end.passed_out and hand_end.points == (0,) * rules.teams
        assert game.phase is Phase.DEAL
        return
    declarer, bid_text = end
    assert game.high_seat == declarer and game.high_bid == Bid.parse(bid_text)
    if game.high_bid.trump is None:  # named after the auction, by the declarer
        decision = game.decision()
        assert decision is not None and decision.kind is DecisionKind.TRUMP and decision.seat == declarer
    else:
        (contract,) = of_type(events, ContractEvent)
        assert (contract.declarer, contract.bid.text(), contract.trump) == (declarer, bid_text, game.high_bid.trump)


def test_thrown_in_hand_moves_the_deal_on() -> None:
    game = new_game(PAGAT, dealer=1)
    bids(game, "pass, pass, pass, pass")
    assert game.phase is Phase.DEAL and game.hand_number == 1
    (deal,) = deal_next(game)
    assert isinstance(deal, DealEvent) and (deal.hand, deal.dealer) == (2, 2)
    assert game.dealer == 2 and game.to_act == 3


def test_stuck_dealer_may_not_pass_and_may_bid_from_the_stuck_level() -> None:
    game = new_game(HAMMERWALT)
    bids(game, "pass, pass, pass")
    assert legal(game) == {"pass", "6", "7", "8", "9", "10", "11", "12", "alone"}  # round one: no 5 yet
    bids(game, "pass, pass, pass, pass")
    assert game.to_act == 0  # the dealer, at the last turn of round two
    assert legal(game) == {"5", "6", "7", "8", "9", "10", "11", "12", "alone"}
    with pytest.raises(IllegalActionError) as err:
        act(game, "pass")
    assert err.value.rule == "stick-the-dealer"
    with pytest.raises(IllegalActionError) as err:
        act(game, "4")
    assert err.value.rule == "bid-too-low"


def test_stuck_dealer_at_five_may_name_no_trump() -> None:
    game = new_game(HAMMERWALT)
    bids(game, "pass, pass, pass, pass, pass, pass, pass, 5")
    assert set(game.legal_actions()) == set(HAMMERWALT.trump_choices)
    act(game, "low")
    (contract,) = of_type(game.events, ContractEvent)
    assert contract.bid.text() == "5" and contract.trump.text() == "low"


def test_double_deck_stuck_dealer_bids_exactly_six() -> None:
    """000: "the dealer is stuck with a bid of 6" (stuck_dealer_exact): not 7, not a pass."""
    game = new_game(DOUBLE_DECK)
    bids(game, "pass, pass, pass")
    assert legal(game) == {"6"}
    with pytest.raises(IllegalActionError) as err:
        act(game, "7")
    assert err.value.rule == "stuck-bid-exact" and "exactly 6" in str(err.value)
    # the dealer bidding after someone else has bid is not stuck: any higher level
    game = new_game(DOUBLE_DECK)
    bids(game, "pass, 6, pass")
    assert legal(game) == {"pass", "7", "8", "9", "10", "11", "12"}
    # without the option, a stuck dealer bids 6 or more
    game = new_game(replace(DOUBLE_DECK, stuck_dealer_exact=False))
    bids(game, "pass, pass, pass")
    assert legal(game) == {"6", "7", "8", "9", "10", "11", "12"}


def test_a_stuck_dealer_bidding_exactly_may_not_make_a_special_bid() -> None:
    rules = replace(HAMMERWALT, stuck_dealer_exact=True)
    game = new_game(rules)
    bids(game, "pass, pass, pass, pass, pass, pass, pass")
    assert legal(game) == {"5"}
    with pytest.raises(IllegalActionError) as err:
        act(game, "alone")
    assert err.value.rule == "stuck-bid-exact"


def test_each_bid_must_outrank_the_last() -> None:
    game = new_game(NEURALPLAY)
    bids(game, "4 H")
    assert "4 S" not in legal(game) and "4 high" not in legal(game) and "5 S" in legal(game)
    with pytest.raises(IllegalActionError) as err:
        act(game, "4 S")
    assert err.value.rule == "bid-not-higher"


def test_special_bids_rank_call2_call1_moon_above_eight() -> None:
    game = new_game(NEURALPLAY)
    bids(game, "8 S")
    assert {"call2 S", "call1 H", "moon high"} <= legal(game)
    bids(game, "call2 S")
    assert legal(game) == {"pass"} | {f"{s} {t}" for s in ("call1", "moon") for t in ("S", "H", "D", "C", "high")}
    bids(game, "call1 D")
    assert legal(game) == {"pass"} | {f"moon {t}" for t in ("S", "H", "D", "C", "high")}
    with pytest.raises(IllegalActionError) as err:
        act(game, "call2 H")
    assert err.value.rule == "bid-not-higher"


def test_no_seat_may_repeat_or_undercut_a_standing_special_bid() -> None:
    game = new_game(NEURALPLAY)
    bids(game, "call1 S")
    for _ in range(3):
        assert not any(b.kind in ("call2", "call1") for b in game.legal_bids())
        act(game, "pass")


def test_notrump_ranks_lower_at_the_same_level() -> None:
    game = new_game(INDIANA)
    bids(game, "4 high")
    assert "4 S" in legal(game) and "4 high" not in legal(game)
    bids(game, "4 S")
    assert "4 H" not in legal(game) and "4 high" not in legal(game) and "5 high" in legal(game)


def test_without_notrump_ranking_lower_a_suit_cannot_follow_notrump_at_the_same_level() -> None:
    game = new_game(NEURALPLAY)
    bids(game, "4 high")
    assert "4 S" not in legal(game)


def test_dealer_can_steal_any_bid_at_the_same_level() -> None:
    rules = replace(NEURALPLAY, dealer_can_steal=DealerSteal.ANY)
    game = new_game(rules)
    bids(game, "3 S")
    assert "3 H" not in legal(game)  # only the dealer may steal
    bids(game, "pass, 4 H")
    assert {"4 S", "4 H", "4 high"} <= legal(game) and "3 C" not in legal(game)
    bids(game, "4 H")
    (contract,) = of_type(game.events, ContractEvent)
    assert (contract.declarer, contract.bid.text()) == (0, "4 H")


def test_dealer_can_steal_special_bids_only() -> None:
    rules = replace(NEURALPLAY, dealer_can_steal=DealerSteal.SPECIAL)
    game = new_game(rules)
    bids(game, "4 S, pass, pass")
    assert "4 H" not in legal(game)
    game = new_game(rules)
    bids(game, "call2 S, pass, pass")
    assert {"call2 S", "call2 H", "call1 S", "moon C"} <= legal(game) and "8 S" not in legal(game)
    bids(game, "call2 H")
    (contract,) = of_type(game.events, ContractEvent)
    assert (contract.declarer, contract.bid.text()) == (0, "call2 H")


def test_a_top_bid_that_the_dealer_may_steal_does_not_end_the_auction() -> None:
    rules = replace(NEURALPLAY, dealer_can_steal=DealerSteal.SPECIAL)
    game = new_game(rules)
    bids(game, "moon S")
    assert game.phase is Phase.BID and legal(game) == {"pass"}
    bids(game, "pass, pass")
    assert legal(game) == {"pass"} | {f"moon {t}" for t in ("S", "H", "D", "C", "high")}
    bids(game, "moon high")
    (contract,) = of_type(game.events, ContractEvent)
    assert (contract.declarer, contract.bid.text()) == (0, "moon high")


@pytest.mark.parametrize("seat_offset", [1, 2])
def test_right_bower_to_open_in_first_and_second_seat(seat_offset: int) -> None:
    rules = preset("bid-euchre-project")
    holder = seat_offset % 4
    game = new_game(rules, {holder: "JH QS KS AS QD KD AD QC"}, dealer=0)
    if seat_offset == 2:
        bids(game, "pass")
    assert "1 H" in legal(game)
    assert "1 S" not in legal(game) and "1 high" in legal(game) and "call2 S" not in legal(game)
    with pytest.raises(IllegalActionError) as err:
        act(game, "2 S")
    assert err.value.rule == "right-bower-to-open"
    bids(game, "2 H")
    assert game.high_bid == Bid.parse("2 H")


def test_right_bower_to_open_does_not_bind_third_and_fourth_seat() -> None:
    game = new_game(preset("bid-euchre-project"), {3: "QS KS AS QD KD AD QC KC"}, dealer=0)
    bids(game, "pass, pass")
    assert {"1 S", "1 H", "call2 D"} <= legal(game)


def test_trump_named_after_the_bid() -> None:
    game = new_game(preset("single-deck"))
    assert all(b.trump is None for b in game.legal_bids())
    with pytest.raises(IllegalActionError) as err:
        act(game, "3 S")
    assert err.value.rule == "trump-after-bid"
    bids(game, "3, pass, pass, pass")
    decision = game.decision()
    assert decision is not None and decision.kind is DecisionKind.TRUMP and decision.seat == 1
    assert [t.text() for t in decision.trumps] == ["S", "H", "D", "C"]  # single-deck: suits only
    with pytest.raises(IllegalActionError) as err:
        act(game, "high")
    assert err.value.rule == "trump-not-allowed"
    act(game, "D")
    (contract,) = of_type(game.events, ContractEvent)
    assert (contract.declarer, contract.bid.text(), contract.trump.text()) == (1, "3", "D")


def test_trump_named_with_the_bid_must_be_named() -> None:
    game = new_game(NEURALPLAY)
    with pytest.raises(IllegalActionError) as err:
        act(game, "3")
    assert err.value.rule == "trump-with-bid"
    with pytest.raises(IllegalActionError) as err:
        act(game, "3 low")
    assert err.value.rule == "trump-not-allowed"


def test_minimum_notrump_bid_with_trump_in_the_bid() -> None:
    game = new_game(replace(INDIANA, min_notrump_bid=5))
    assert "4 S" in legal(game) and "4 high" not in legal(game) and "5 high" in legal(game)
    with pytest.raises(IllegalActionError) as err:
        act(game, "4 high")
    assert err.value.rule == "notrump-bid-too-low"


@pytest.mark.parametrize(
    ("level", "choices"), [("5", ["S", "H", "D", "C"]), ("6", ["S", "H", "D", "C", "high", "low"])]
)
def test_minimum_notrump_bid_with_trump_named_after(level: str, choices: list[str]) -> None:
    rules = replace(HAMMERWALT, min_bid=5, min_notrump_bid=6, stuck_dealer_min_bid=None)
    game = new_game(rules)
    bids(game, f"{level}, pass, pass, pass")
    decision = game.decision()
    assert decision is not None and [t.text() for t in decision.trumps] == choices
    if "high" not in choices:
        with pytest.raises(IllegalActionError) as err:
            act(game, "high")
        assert err.value.rule == "notrump-bid-too-low"


def test_minimum_bid() -> None:
    game = new_game(INDIANA)
    assert min(b.level for b in game.legal_bids() if b.kind == "level") == 3
    with pytest.raises(IllegalActionError) as err:
        act(game, "2 S")
    assert err.value.rule == "bid-too-low"
    with pytest.raises(IllegalActionError) as err:
        act(game, "13 S")
    assert err.value.rule == "bid-too-high"


def test_pepper_bids() -> None:
    game = new_game(PEPPER)
    assert legal(game) == {"pass", "1", "2", "3", "4", "5", "little-pepper"}
    with pytest.raises(IllegalActionError) as err:
        act(game, "big-pepper")
    assert err.value.rule == "big-pepper-needs-little"
    with pytest.raises(IllegalActionError) as err:
        act(game, "6")
    assert err.value.rule == "bid-too-high"
    bids(game, "5")
    assert legal(game) == {"pass", "little-pepper"}
    bids(game, "little-pepper")
    assert legal(game) == {"pass", "big-pepper"}


def test_special_bid_not_in_the_rules() -> None:
    game = new_game(INDIANA)
    with pytest.raises(IllegalActionError) as err:
        act(game, "moon S")
    assert err.value.rule == "special-not-allowed"


def test_bloomington_best_outranks_eight_and_bids_must_raise_the_number() -> None:
    game = new_game(BLOOMINGTON)
    bids(game, "3 S")
    assert "3 H" not in legal(game) and "3 low" not in legal(game) and "4 low" in legal(game)
    bids(game, "8 S")
    assert legal(game) == {"pass"} | {f"best {t}" for t in ("S", "H", "D", "C", "high", "low")}


def test_bidding_order_is_clockwise_from_the_dealers_left() -> None:
    game = new_game(BLOOMINGTON, dealer=4)
    bids(game, "pass, pass, pass, pass, pass, pass")
    assert bidders(game) == [5, 0, 1, 2, 3, 4]
