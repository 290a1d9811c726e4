"""Building engine scenarios by hand: arranged decks, actions from text, scripted tricks.

Scenarios state the cards each seat holds and the actions taken, in the card
and bid notation of docs/rules.md, and run them through a real ``Game``:

    game = new_game(SMALL, {1: "AS KS QS JS TS 9H"})
    act(game, "3 high", "pass", "pass", "pass")
    play_tricks(game, ["1:AS 2:9D 3:9S 0:9C", ...])

Seats not given cards get the rest of the deck in its fixed order.
"""

from __future__ import annotations

import random
from collections.abc import Iterable, Mapping, Sequence

from referee.engine.bids import Bid
from referee.engine.cards import Card, Trump, deck_cards, parse_cards
from referee.engine.deal import deck_for_hands
from referee.engine.events import Event, TrickEvent
from referee.engine.game import DecisionKind, Game, Phase
from referee.engine.rules import Deck, NoTrump, Rules

# A compact rule system for scenarios: 4 players, 24 cards, 6 each, one packet,
# trump named with the bid, high no-trump, no special bids, no stuck dealer.
SMALL = Rules(
    deck=Deck.SINGLE_24,
    deal_packets=(6,),
    notrump=NoTrump.HIGH,
    min_bid=1,
    min_notrump_bid=1,
    special_bids=(),
    stick_the_dealer=False,
    game_points=100,
)

HandSpec = str | Sequence[Card]

# Every seat holds one suit: whoever leads wins every trick in high or low.
ONE_SUIT_EACH = {0: "9C TC JC QC KC AC", 1: "9S TS JS QS KS AS", 2: "9H TH JH QH KH AH", 3: "9D TD JD QD KD AD"}

# Seat 1 leads and the declaring team (seats 1 and 3) takes 4 tricks, seat 2 takes 2.
FOUR_TWO_HANDS = {0: "9C TC JC QC KC AC", 1: "AS KS QS JS TS 9H", 2: "9D TH JH QH KH AH", 3: "9S TD JD QD KD AD"}
FOUR_TWO_TRICKS = [
    "1:AS 2:9D 3:9S 0:9C",
    "1:KS 2:TH 3:TD 0:TC",
    "1:QS 2:JH 3:JD 0:JC",
    "1:JS 2:QH 3:QD 0:QC",
    "1:9H 2:AH 3:KD 0:KC",
    "2:KH 3:AD 0:AC 1:TS",
]
# The same deal played with seat 3 sitting out (seat 1 alone): 4 tricks to seat 1, 2 to seat 2.
FOUR_TWO_ALONE_TRICKS = [
    "1:AS 2:9D 0:9C",
    "1:KS 2:TH 0:TC",
    "1:QS 2:JH 0:JC",
    "1:JS 2:QH 0:QC",
    "1:9H 2:AH 0:KC",
    "2:KH 0:AC 1:TS",
]


def rotated(hands: Mapping[int, str], k: int, players: int = 4) -> dict[int, str]:
    """The same hands moved ``k`` seats clockwise."""
    return {(seat + k) % players: cards_text for seat, cards_text in hands.items()}


def rotated_tricks(tricks: Iterable[str], k: int, players: int = 4) -> list[str]:
    """A trick script with every seat moved ``k`` seats clockwise."""
    return [
        " ".join(f"{(int(seat) + k) % players}:{card}" for seat, card in (e.split(":") for e in trick.split()))
        for trick in tricks
    ]


def cards(text: HandSpec) -> list[Card]:
    """``"JH TS"`` -> card codes (a list of codes is passed through)."""
    return parse_cards(text.split()) if isinstance(text, str) else list(text)


def arranged_deck(rules: Rules, dealer: int, hands: Mapping[int, HandSpec]) -> list[Card]:
    """A deck that deals ``hands[seat]`` to each seat named (via ``deal.deck_for_hands``).

    A seat given fewer cards than a full hand, and every seat not named, is
    filled up with the cards left over, in the deck's fixed order.
    """
    rest = list(deck_cards(rules.deck))
    full: list[list[Card]] = []
    for seat in range(rules.players):
        given = cards(hands.get(seat, ""))
        for c in given:
            rest.remove(c)  # ValueError: more copies asked for than the deck has
        full.append(given)
    for hand in full:
        if len(hand) > rules.cards_each:
            raise ValueError(f"{len(hand)} cards given to one seat; a hand has {rules.cards_each}")
        while len(hand) < rules.cards_each:
            hand.append(rest.pop(0))
    return deck_for_hands(rules, dealer, full)


def new_game(rules: Rules, hands: Mapping[int, HandSpec] | None = None, dealer: int = 0) -> Game:
    """A game whose first hand is dealt by ``dealer`` with the cards given."""
    game = Game(rules, dealer)
    game.deal(arranged_deck(rules, dealer, hands or {}))
    return game


def deal_next(game: Game, hands: Mapping[int, HandSpec] | None = None) -> list[Event]:
    """Deal the next hand of ``game`` (the dealer moves on) with the cards given."""
    dealer = game.dealer if game.hand_number == 0 else (game.dealer + 1) % game.n
    return game.deal(arranged_deck(game.rules, dealer, hands or {}))


def parse_action(game: Game, text: str) -> object:
    """The action ``text`` means for the decision now due."""
    decision = game.decision()
    if decision is None:
        raise AssertionError(f"no decision is due (phase {game.phase})")
    if decision.kind is DecisionKind.BID:
        return Bid.parse(text)
    if decision.kind is DecisionKind.TRUMP:
        return Trump.parse(text)
    if decision.kind is DecisionKind.PLAY:
        return cards(text)[0]
    return cards(text)


def act(game: Game, *texts: str) -> list[Event]:
    """Apply actions given as text, in turn; the events they caused."""
    events: list[Event] = []
    for text in texts:
        events += game.apply(parse_action(game, text))
    return events


def bids(game: Game, text: str) -> list[Event]:
    """Bids separated by commas: ``"3 S, pass, 4 H"``."""
    return act(game, *(t.strip() for t in text.split(",")))


def play_tricks(game: Game, tricks: Iterable[str]) -> list[Event]:
    """Play tricks written as ``"seat:card ..."`` in play order; each seat must be the one to act."""
    events: list[Event] = []
    for trick in tricks:
        for entry in trick.split():
            seat, card = entry.split(":")
            assert game.to_act == int(seat), f"seat {game.to_act} is to act, the script has {entry}"
            events += game.apply(cards(card)[0])
    return events


def play_first_legal(game: Game) -> list[Event]:
    """Finish the current hand taking the first legal option every time (first cards for an exchange)."""
    events: list[Event] = []
    hand = game.hand_number
    while game.phase is not Phase.DEAL and game.phase is not Phase.OVER and game.hand_number == hand:
        decision = game.decision()
        assert decision is not None
        if decision.kind in (DecisionKind.GIVE, DecisionKind.DISCARD):
            events += game.apply(list(decision.options[: decision.count]))
        else:
            events += game.apply(decision.options[0])
    return events


def snapshot(game: Game) -> tuple[object, ...]:
    """Everything a refused action must leave as it was."""
    return (
        game.phase,
        game.to_act,
        game.hand_number,
        game.dealer,
        list(game.events),
        [list(h) for h in game.hands],
        list(game.scores),
        game.high_bid,
        game.high_seat,
        list(game.trick_cards),
        game.legal_actions(),
    )


def trick_winners(events: Iterable[Event]) -> list[int]:
    return [ev.winner for ev in events if isinstance(ev, TrickEvent)]


def of_type(events: Iterable[Event], kind: type) -> list:
    return [ev for ev in events if isinstance(ev, kind)]


def short_bid(decision_options: Sequence[Bid], rng: random.Random) -> Bid:
    """A bid that keeps random games short: mostly a pass, else one of the two lowest bids.

    Random play that picks any legal bid is set nearly every hand and rarely
    reaches a target score; this one makes contracts, so games end by their rule.
    """
    passes = [b for b in decision_options if b.is_pass]
    if passes and rng.random() < 0.7:
        return passes[0]
    others = [b for b in decision_options if not b.is_pass]
    return rng.choice(others[:2])
