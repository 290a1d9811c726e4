"""Cards: notation, decks, and who wins a trick under each kind of trump."""

from __future__ import annotations

import pytest

from referee.engine.cards import (
    DECKS,
    Trump,
    card_power,
    card_str,
    deck_cards,
    deck_size,
    effective_suit,
    is_trump,
    parse_card,
    sort_hand,
    winning_index,
)
from referee.engine.errors import InvalidActionError
from tests.support.engine import cards


@pytest.mark.parametrize(
    ("text", "expected"),
    [("JH", "JH"), ("TS", "TS"), ("10s", "TS"), (" 9c ", "9C"), ("ad", "AD"), ("7H", "7H")],
)
def test_card_text_is_rank_then_suit(text: str, expected: str) -> None:
    assert card_str(parse_card(text)) == expected


@pytest.mark.parametrize("text", ["", "J", "JHH", "1H", "XH", "JX", "H J", "11S"])
def test_bad_card_text_is_an_invalid_action_naming_the_text(text: str) -> None:
    with pytest.raises(InvalidActionError, match=repr(text)):
        parse_card(text)


def test_every_card_code_round_trips_through_its_text() -> None:
    texts = [card_str(code) for code in range(32)]
    assert len(set(texts)) == 32
    assert [parse_card(t) for t in texts] == list(range(32))


@pytest.mark.parametrize(
    ("deck", "size", "ranks", "copies"),
    [
        ("single-24", 24, "9TJQKA", 1),
        ("single-28", 28, "89TJQKA", 1),
        ("single-32", 32, "789TJQKA", 1),
        ("double-32", 32, "JQKA", 2),
        ("double-40", 40, "TJQKA", 2),
        ("double-48", 48, "9TJQKA", 2),
        ("triple-60", 60, "TJQKA", 3),
    ],
)
def test_decks_hold_each_rank_of_each_suit_the_right_number_of_times(
    deck: str, size: int, ranks: str, copies: int
) -> None:
    texts = [card_str(c) for c in deck_cards(deck)]
    assert len(texts) == deck_size(deck) == size
    expected = sorted(r + s for r in ranks for s in "SHDC" for _ in range(copies))
    assert sorted(texts) == expected


def test_the_deck_list_is_the_seven_decks_of_the_option_list() -> None:
    assert set(DECKS) == {"single-24", "single-28", "single-32", "double-32", "double-40", "double-48", "triple-60"}


# (trump, cards in play order, index of the winner, why)
TRICKS = [
    # bowers
    ("S", "AS JC", 1, "the left bower beats the ace of trump"),
    ("S", "JC JS", 1, "the right bower beats the left bower"),
    ("H", "AC JD AH", 1, "the left bower (JD under hearts) is the second-highest trump"),
    ("H", "AD JD", 1, "the left bower played to a diamond lead is a trump, not a diamond"),
    ("H", "JD AD", 0, "a led left bower leads trump; the ace of its printed suit is a plain card"),
    ("H", "JD AH", 0, "a led left bower beats the ace of trump"),
    ("H", "JD JH", 1, "the right bower beats a led left bower"),
    ("S", "JH AH", 1, "a jack of the other colour is a plain card of its own suit"),
    ("D", "KH JH", 1, "the left bower (JH under diamonds) trumps a heart lead"),
    # trumps and the suit led
    ("S", "AH 9S", 1, "the lowest trump beats a plain ace"),
    ("S", "KH AD AH", 2, "an off-suit ace cannot win; the highest card of the suit led does"),
    ("C", "9H TS", 0, "a card of another plain suit cannot win"),
    ("C", "9H TC JS", 2, "the highest trump wins: JS is the left bower under clubs"),
    # identical cards: the first played wins
    ("high", "AH AH", 0, "of two identical aces the first wins"),
    ("S", "JS JS", 0, "of two right bowers the first wins"),
    ("S", "JC JC", 0, "of two left bowers the first wins"),
    ("S", "KH 9S 9S", 1, "of two identical trumps the first wins"),
    ("high", "KH AH AH", 1, "a later identical card does not take the trick from the first"),
    ("low", "KH 9H 9H", 1, "identical cards in low: the first wins"),
    # no trump, high: normal order, no bowers
    ("high", "AS JS JC", 0, "no bowers in high: the jacks are plain"),
    ("high", "QS JS", 0, "in high the jack ranks between ten and queen"),
    ("high", "JH QH", 1, "with J-A decks the order is J < Q < K < A"),
    ("high", "9S AH", 0, "only the suit led can win in high"),
    # no trump, low: reversed order, no bowers
    ("low", "AH 9H", 1, "in low the nine beats the ace"),
    ("low", "9H TH", 0, "in low the nine beats the ten"),
    ("low", "KH JH", 1, "in low the jack beats the king: no bowers"),
    ("low", "QS JS JC", 1, "in low the jack of the same colour does not count"),
    ("low", "8H 7H", 1, "with a 32-card single deck the seven is the best card in low"),
    ("low", "AS 9C", 0, "only the suit led can win in low"),
]


@pytest.mark.parametrize(("trump", "played", "winner", "why"), TRICKS, ids=[t[3] for t in TRICKS])
def test_trick_winner(trump: str, played: str, winner: int, why: str) -> None:
    assert winning_index(cards(played), Trump.parse(trump)) == winner, why


@pytest.mark.parametrize("trump", ["S", "H", "D", "C"])
def test_bower_order_then_ace_down_to_the_lowest(trump: str) -> None:
    t = Trump.parse(trump)
    left_suit = {"S": "C", "C": "S", "H": "D", "D": "H"}[trump]
    expected = ["J" + trump, "J" + left_suit] + [r + trump for r in "AKQT987"]
    strongest_first = sorted(cards(" ".join(expected)), key=lambda c: -card_power(c, t))
    assert [card_str(c) for c in strongest_first] == expected
    # and every trump beats every plain card
    plain = [c for c in range(32) if not is_trump(c, t)]
    assert min(card_power(c, t) for c in cards(" ".join(expected))) > max(card_power(c, t) for c in plain)


@pytest.mark.parametrize("trump", ["S", "H", "D", "C"])
def test_the_left_bower_belongs_to_the_trump_suit(trump: str) -> None:
    t = Trump.parse(trump)
    left = parse_card("J" + {"S": "C", "C": "S", "H": "D", "D": "H"}[trump])
    assert effective_suit(left, t) == t
    assert is_trump(left, t)
    other_colour_jacks = [parse_card("J" + s) for s in "SHDC" if s not in (trump, card_str(left)[1])]
    for jack in other_colour_jacks:
        assert effective_suit(jack, t) == jack >> 3  # its printed suit
        assert not is_trump(jack, t)


@pytest.mark.parametrize("trump", ["high", "low"])
def test_no_trump_cards_keep_their_printed_suit(trump: str) -> None:
    t = Trump.parse(trump)
    assert all(effective_suit(c, t) == c >> 3 and not is_trump(c, t) for c in range(32))


def test_sort_hand_groups_trumps_first_with_the_left_bower_among_them() -> None:
    hand = cards("9D AH JD QC JH 9H")
    assert [card_str(c) for c in sort_hand(hand, Trump.H)] == ["JH", "JD", "AH", "9H", "9D", "QC"]
    assert [card_str(c) for c in sort_hand(hand)] == ["AH", "JH", "9H", "JD", "9D", "QC"]


@pytest.mark.parametrize(("text", "trump"), [("S", 0), ("h", 1), ("D", 2), ("c", 3), ("high", 4), ("LOW", 5)])
def test_trump_text(text: str, trump: int) -> None:
    assert Trump.parse(text) == trump
    assert Trump.parse(Trump(trump).text()) == trump


@pytest.mark.parametrize("text", ["", "NT", "spades", "hi", "X"])
def test_bad_trump_text_is_an_invalid_action(text: str) -> None:
    with pytest.raises(InvalidActionError, match="unknown trump"):
        Trump.parse(text)
