"""The view of one seat: what it may know, and nothing more."""

from __future__ import annotations

import pytest

from referee.engine.bids import PASS, Bid
from referee.engine.cards import Trump, card_str
from referee.engine.events import (
    BidEvent,
    ContractEvent,
    DealEvent,
    Event,
    ExchangeEvent,
    GameEndEvent,
    HandEndEvent,
    PlayEvent,
    visible_to,
)
from referee.engine.game import DecisionKind, Game
from referee.engine.presets import preset
from referee.engine.view import game_over_view, hand_end_view, seat_view
from tests.support.engine import FOUR_TWO_HANDS, FOUR_TWO_TRICKS, SMALL, act, bids, cards, new_game, play_tricks


def texts(cs: tuple[int, ...] | list[int]) -> list[str]:
    return [card_str(c) for c in cs]


def test_view_before_the_first_deal() -> None:
    view = seat_view(Game(SMALL, 2), 1)
    assert (view.hand_number, view.dealer, view.hand, view.events, view.decision) == (0, 2, (), (), None)
    assert view.scores == (0, 0) and view.contract is None and view.trick_number == 0


def test_view_during_the_auction() -> None:
    game = new_game(SMALL, FOUR_TWO_HANDS)
    bids(game, "2 S")
    view = seat_view(game, 2)
    assert view.seat == 2 and view.team == 0 and view.partners == (0,)
    assert texts(view.hand) == ["AH", "KH", "QH", "JH", "TH", "9D"]  # sorted by suit, strongest first
    assert texts(view.dealt) == texts(cards(FOUR_TWO_HANDS[2]))
    (deal,) = [ev for ev in view.events if isinstance(ev, DealEvent)]
    assert [h is not None for h in deal.hands] == [False, False, True, False]
    assert view.bids == ((1, Bid.parse("2 S")),)
    assert view.decision is not None and view.decision.kind is DecisionKind.BID
    assert seat_view(game, 3).decision is None


def test_view_during_play() -> None:
    game = new_game(SMALL, FOUR_TWO_HANDS)
    bids(game, "3 high, pass, pass, pass")
    play_tricks(game, FOUR_TWO_TRICKS[:4])
    act(game, "9H", "AH")
    view = seat_view(game, 0)
    assert view.contract is not None and view.contract.declarer == 1 and view.trump == Trump.HIGH
    assert view.trick_number == 5
    assert [(s, card_str(c)) for s, c in view.current_trick] == [(1, "9H"), (2, "AH")]
    assert view.winning_seat() == 2
    assert view.tricks_won == (0, 4)
    assert len(view.plays) == 18 and view.hand_result is None


def test_view_at_the_end_of_a_hand() -> None:
    game = new_game(SMALL, FOUR_TWO_HANDS)
    bids(game, "3 high, pass, pass, pass")
    play_tricks(game, FOUR_TWO_TRICKS)
    view = seat_view(game, 3)
    assert view.hand == () and view.decision is None
    assert view.hand_result is not None and view.hand_result.points == (2, 4) and view.scores == (2, 4)


def test_view_of_a_seat_sitting_out_and_of_an_exchange() -> None:
    game = new_game(preset("neuralplay"))
    bids(game, "call1 C, pass, pass, pass")
    act(game, card_str(game.hands[3][0]))
    view_out, view_opponent = seat_view(game, 3), seat_view(game, 0)
    assert view_out.contract is not None and 3 not in view_out.contract.active
    (give_seen,) = view_out.exchanges
    (give_hidden,) = view_opponent.exchanges
    assert give_seen.cards is not None and give_hidden.cards is None and give_hidden.count == 1
    decision = seat_view(game, 1).decision
    assert decision is not None and decision.kind is DecisionKind.DISCARD


def test_visible_to_hides_only_hidden_cards() -> None:
    deal = DealEvent(1, 0, (tuple(cards("AS")), tuple(cards("KS")), tuple(cards("QS"))))
    assert visible_to(deal, 1) == DealEvent(1, 0, (None, tuple(cards("KS")), None))
    discard = ExchangeEvent(1, 2, None, tuple(cards("QS")), 1)
    assert visible_to(discard, 2) == discard and visible_to(discard, 0) == ExchangeEvent(1, 2, None, None, 1)
    give = ExchangeEvent(1, 2, 0, tuple(cards("QS")), 1)
    hidden = visible_to(give, 1)
    assert visible_to(give, 0) == give and isinstance(hidden, ExchangeEvent) and hidden.cards is None
    public: list[Event] = [
        BidEvent(1, 0, PASS),
        ContractEvent(1, 0, Bid.parse("moon S"), Trump.S, True, (0, 1, 2)),
        PlayEvent(1, 1, 0, cards("AS")[0]),
        HandEndEvent(1, (1, 2), (1, 2), (1, 2), False, 0, True),
    ]
    for ev in public:
        assert all(visible_to(ev, seat) == ev for seat in range(3))


def test_view_of_a_seat_that_does_not_exist() -> None:
    with pytest.raises(ValueError, match="seat 4"):
        seat_view(Game(SMALL), 4)


def test_the_view_of_a_hand_just_over_keeps_its_events_to_the_result_and_holds_no_cards() -> None:
    game = new_game(SMALL, FOUR_TWO_HANDS, dealer=3)
    bids(game, "pass, 3 high, pass, pass")
    play_tricks(game, FOUR_TWO_TRICKS)
    events = list(seat_view(game, 1).events)
    view = hand_end_view(SMALL, 1, [*events, GameEndEvent((2, 4), 1, "target")])  # the game's end is left out
    assert (view.seat, view.hand_number, view.dealer, view.scores, view.hand, view.decision) == (
        1,
        1,
        3,
        (2, 4),
        (),
        None,
    )
    assert view.events == tuple(events) and view.hand_result == events[-1]
    with pytest.raises(ValueError, match="no HandEndEvent: the hand has not ended"):
        hand_end_view(SMALL, 1, events[:-1])
    with pytest.raises(ValueError, match="the events of hand 1 must start with its deal"):
        hand_end_view(SMALL, 1, events[1:])


def test_the_view_of_a_game_over_ends_with_its_end() -> None:
    game = new_game(SMALL, FOUR_TWO_HANDS, dealer=3)
    bids(game, "3 high")
    end = game.forfeit(1, "seat 1 timed out")
    view = game_over_view(SMALL, 2, 3, seat_view(game, 2).events)
    assert (view.hand_number, view.dealer, view.scores, view.hand, view.decision) == (1, 3, end.scores, (), None)
    assert view.events[-1] == end and isinstance(view.events[0], DealEvent)
    before = game_over_view(SMALL, 2, 3, [end])  # over before its first deal
    assert (before.hand_number, before.dealer, before.events) == (0, 3, (end,))
    with pytest.raises(ValueError, match="must end with the GameEndEvent"):
        game_over_view(SMALL, 2, 3, seat_view(game, 2).events[:-1])
    with pytest.raises(ValueError, match="must end with the GameEndEvent"):
        game_over_view(SMALL, 2, 3, [])
