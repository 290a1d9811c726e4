"""The rules bot's heuristics on hand-made positions (built through the engine: the views are real)."""

from __future__ import annotations

from collections import Counter
from typing import ClassVar

import pytest

from example_bots.rules_bot import RulesBot, estimate_tricks, losers
from referee.engine.bids import BidKind, bid_rank
from referee.engine.cards import Card, Trump, card_str, cards_str, is_trump, parse_cards
from referee.engine.events import ClaimEvent
from referee.engine.game import CLAIM, Game
from referee.engine.presets import PRESETS, rules_for
from referee.engine.view import SeatView
from sdk import Bid
from sdk.simulator import simulate
from tests.support.positions import DEAL_B, DEAL_H, deciding, position, view_to_act

AUCTION_B = ["4 S", "pass", "pass", "pass"]
AUCTION_H = ["4 H", "pass", "pass", "pass"]


def decide(game: Game) -> object:
    return RulesBot(seed=1).decide(view_to_act(game))


def card_decided(game: Game) -> Card:
    """The card the rules bot plays in ``game``."""
    action = decide(game)
    assert isinstance(action, int)
    return action


def cards_decided(game: Game) -> list[Card]:
    """The cards the rules bot gives or discards in ``game``."""
    cards = decide(game)
    assert isinstance(cards, list)
    return cards


def test_leads_the_right_bower_as_declarer() -> None:
    game = position("neuralplay", DEAL_B, dealer=3, actions=AUCTION_B)
    assert card_str(card_decided(game)) == "JS"


def test_fourth_seat_plays_just_high_enough() -> None:
    # Opponent's QD leads, partner JD, opponent QD: KD and AD both win; KD is enough.
    game = position("neuralplay", DEAL_B, dealer=3, actions=[*AUCTION_B, "QD", "JD", "QD"])
    view = view_to_act(game)
    assert view.seat == 3 and set(cards_str(deciding(view).cards)) == {"KD", "AD"}
    assert card_str(card_decided(game)) == "KD"


def test_fourth_seat_does_not_trump_partners_winning_card() -> None:
    # Partner's AS wins the spade trick; seat 3 has no spades but three trumps (KH, AH and the left bower JD).
    game = position("neuralplay", DEAL_H, dealer=3, actions=[*AUCTION_H, "QS", "AS", "JS"])
    card = card_decided(game)
    assert not is_trump(card, Trump.H)
    assert card_str(card) == "KC"  # the loser of the shortest side suit


def test_third_seat_does_not_trump_partners_high_card() -> None:
    # Trick 1 as above (seat 3 throws KC); partner leads AS again, seat 3 is third to play.
    actions = [*AUCTION_H, "QS", "AS", "JS", "KC", "AS", "JS"]
    game = position("neuralplay", DEAL_H, dealer=3, actions=actions)
    view = view_to_act(game)
    assert view.seat == 3 and view.winning_seat() == 1
    assert not is_trump(card_decided(game), Trump.H)


def test_trumps_an_opponents_winning_card_when_last() -> None:
    # Opponent seat 0 leads AS and wins it so far (both others follow low): seat 3, last and out of spades, ruffs.
    deal = {
        0: "AS QS JH JH JD AH KH KD",
        1: "QS JS KS QH QD AD AC KC",
        2: "KS JS AS QH JC JC QC QC",
        3: "KH AH JD QD KD AD KC AC",
    }
    game = position("neuralplay", deal, dealer=3, actions=[*AUCTION_H, "AS", "JS", "JS"])
    card = card_decided(game)
    assert is_trump(card, Trump.H)
    assert card_str(card) == "KH"  # the cheapest trump that wins


def test_declarer_discards_from_short_side_suits() -> None:
    # Call 2 spades: partner (seat 2) gives KS and AC, seat 0 then discards two.
    game = position("neuralplay", DEAL_B, dealer=3, actions=["call2 S", "pass", "pass", "pass", "KS AC"])
    discarded = cards_decided(game)
    assert sorted(cards_str(discarded)) == ["QD", "QH"]  # the two singletons, not a trump or a master


def test_partner_gives_a_lone_declarer_its_best_trumps() -> None:
    game = position("neuralplay", DEAL_B, dealer=3, actions=["call2 S", "pass", "pass", "pass"])
    view = view_to_act(game)
    assert view.seat == 2 and deciding(view).count == 2
    given = cards_decided(game)
    assert all(is_trump(c, Trump.S) for c in given)
    assert "KS" in cards_str(given)


def test_declarer_going_alone_gives_away_its_losers() -> None:
    # Hammerwalt "alone": the declarer gives three cards to partner first.
    hands = {0: "JS JS JC JC AS AS KS KS QS QS 9H 9D"}
    game = position("hammerwalt", hands, dealer=3, actions=["alone", "S"])  # nothing outranks alone
    view = view_to_act(game)
    assert view.seat == 0 and deciding(view).count == 3
    given = cards_decided(game)
    assert {"9H", "9D"} <= set(cards_str(given))
    assert not {"JS", "JC", "AS"} & set(cards_str(given))


def bid_of(hand: str, preset: str = "neuralplay", actions: tuple[str, ...] = ()) -> Bid:
    game = position(preset, {(1 + len(actions)) % rules_for(preset).players: hand}, dealer=0, actions=actions)
    result = decide(game)
    assert isinstance(result, Bid)
    return result


def test_a_stronger_hand_bids_higher() -> None:
    weak = bid_of("QD KH QC KC QH QS KS KD")  # no jack, no ace
    fair = bid_of("JS JC AS KS QS AH QD QC")
    strong = bid_of("JS JS JC AS AS KS AH AD")
    assert weak.is_pass
    assert fair.level >= 1 and fair.trump == Trump.S
    rules = rules_for("neuralplay")
    assert bid_rank(strong, rules) > bid_rank(fair, rules)


def test_partners_bid_adds_to_the_count() -> None:
    # The dealer bids last over an opponent's 5 H: alone it is too weak for 6 S;
    # after partner opened 4 S (four tricks of its own), 6 S is there.
    hand = "JS JC AS KS AH AH QD KD"
    assert bid_of(hand, actions=("pass", "pass", "5 H")).is_pass
    assert bid_of(hand, actions=("pass", "4 S", "5 H")) == Bid(BidKind.LEVEL, 6, Trump.S)


def test_moon_only_with_a_hand_that_cannot_lose_a_trick() -> None:
    assert bid_of("JS JS JC JC AS AS KS KS") == Bid(BidKind.MOON, 0, Trump.S)
    strong = bid_of("JS JS JC AS AS KS AH QD")
    assert not strong.is_lone


def test_stuck_dealer_bids_the_minimum_in_its_best_trump() -> None:
    game = position("neuralplay", {0: "JH JH JD AH KH QS QC KD"}, dealer=0, actions=["pass", "pass", "pass"])
    view = view_to_act(game)
    assert view.seat == 0 and not any(b.is_pass for b in deciding(view).bids)
    assert decide(game) == Bid(BidKind.LEVEL, 1, Trump.H)


def test_names_the_trump_it_is_strongest_in() -> None:
    # Single deck: trick bids name no trump; the winner names it afterwards.
    game = position("single-deck", {1: "JD JH AD KD 9S TC"}, dealer=0, actions=["4", "pass", "pass", "pass"])
    assert decide(game) == Trump.D


@pytest.mark.parametrize(
    ("weaker", "stronger"),
    [
        ("QS KS AH QD QC KC JD KD", "QS KS AS AH QD QC JD KD"),  # an ace more
        ("JS QS KS AH QD QC JD KD", "JS JS QS KS AH QD QC JD"),  # a right bower more
    ],
)
def test_the_trick_count_grows_with_the_hand(weaker: str, stronger: str) -> None:
    rules = rules_for("neuralplay")
    assert estimate_tricks(parse_cards(stronger.split()), Trump.S, rules) > estimate_tricks(
        parse_cards(weaker.split()), Trump.S, rules
    )


def test_losers_counts_the_cards_that_may_lose() -> None:
    rules = rules_for("neuralplay")
    assert losers(parse_cards(["JS", "JS", "JC", "JC", "AS", "AS", "KS", "KS"]), Trump.S, rules) == 0
    # All trumps drawn with six masters, then the two aces of hearts win: no loser.
    assert losers(parse_cards(["JS", "JS", "JC", "JC", "AS", "AS", "AH", "AH"]), Trump.S, rules) == 0
    # A queen of diamonds with both aces and kings out loses.
    assert losers(parse_cards(["JS", "JS", "JC", "JC", "AS", "AS", "AH", "QD"]), Trump.S, rules) == 1
    # Three masters cannot draw four outstanding trumps: only the masters are sure.
    assert losers(parse_cards(["JS", "JS", "JC", "AS", "AS", "KS", "AH", "QD"]), Trump.S, rules) == 5


def test_little_pepper_over_a_five_only_with_every_trick() -> None:
    # Pepper (24 cards, six each): an opponent opened 5, the highest trick level; only the peppers are left.
    perfect = bid_of("JS JC AS KS QS TS", preset="pepper", actions=("5",))
    fair = bid_of("JS JC AS KS 9H 9D", preset="pepper", actions=("5",))
    assert perfect == Bid(BidKind.LITTLE_PEPPER)
    assert fair.is_pass


# ------------------------------------------------------------------ claims


def test_claims_on_lead_with_nothing_but_sure_winners() -> None:
    # Seat 0 holds every trump but the two queens of spades, the trump suit: no lead of it can lose.
    game = position("neuralplay", {0: "JS JS JC JC AS AS KS KS"}, dealer=3, actions=AUCTION_B)
    assert decide(game) is CLAIM
    (claim, *_) = game.answer(CLAIM)
    assert isinstance(claim, ClaimEvent) and claim.accepted and claim.tricks == 8


def test_plays_on_when_one_card_could_lose() -> None:
    # The same hand with a queen of diamonds for a king of spades: the others hold higher diamonds (and trumps).
    game = position("neuralplay", {0: "JS JS JC JC AS AS KS QD"}, dealer=3, actions=AUCTION_B)
    assert isinstance(decide(game), int)
    assert game.claim_search(0).holds() is False  # and indeed a claim would have failed


class CountingClaims(RulesBot):
    """The rules bot, counting the claims of the hands it sees end, by outcome."""

    seen: ClassVar[Counter[bool]] = Counter()

    def hand_end(self, view: SeatView) -> None:
        if view.seat == 0:  # every seat sees every claim: count them once
            CountingClaims.seen.update(ev.accepted for ev in view.events if isinstance(ev, ClaimEvent))


def test_its_claims_are_always_accepted_on_every_preset() -> None:
    """What the rules bot claims from its own view (``sdk.knowledge.sure_claim``) the engine, seeing every
    hand, always accepts."""
    CountingClaims.seen.clear()
    for preset in PRESETS:
        simulate([CountingClaims] * PRESETS[preset].teams, preset, deals=4, seed=5)
    assert CountingClaims.seen[False] == 0 and CountingClaims.seen[True] >= 10, CountingClaims.seen
