"""Hand-made positions for bot tests, built through the engine itself.

``position("neuralplay", {0: "JS JS ...", 3: "..."}, dealer=3, actions=["4 S", "pass", ..., "QD"])``
deals the given hands (seats left out get the rest of the deck, in deck order),
applies the actions as the engine asks for them, and returns the game: its
``seat_view`` is exactly what a bot would be sent.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping, Sequence

from referee.engine.bids import Bid
from referee.engine.cards import Trump, deck_cards, effective_suit, parse_card, parse_cards
from referee.engine.deal import deck_for_hands
from referee.engine.game import Decision, DecisionKind, Game
from referee.engine.presets import rules_for
from referee.engine.view import SeatView, seat_view
from sdk.knowledge import knowledge_of
from sdk.worlds import World

# neuralplay deals (J Q K A, two of each), dealer 3 so seat 0 bids first and, declaring, leads.
# Deal B: seat 0 is strong in spades (trump spades: the left bower is JC).
DEAL_B = {
    0: "JS JS JC AS AS KS QD QH",
    1: "JD JD KD QH KH KH AH QC",
    2: "QD QS QS KS JH QC KC AC",
    3: "KD AD AD JH AH JC KC AC",
}
# Deal H: seat 0 is strong in hearts (left bower JD); seat 3 has no spades.
DEAL_H = {
    0: "QS QS JH JH JD AH KH KD",
    1: "AS AS KS QH QD AD AC KC",
    2: "KS JS JS QH JC JC QC QC",
    3: "KH AH JD QD KD AD KC AC",
}


def position(
    preset: str, hands: Mapping[int, str], dealer: int = 0, actions: Sequence[str] = (), overrides: Sequence[str] = ()
) -> Game:
    rules = rules_for(preset, overrides)
    given = {seat: parse_cards(text.split()) for seat, text in hands.items()}
    rest = Counter(deck_cards(rules.deck))
    for cards in given.values():
        rest.subtract(cards)
    if any(n < 0 for n in rest.values()):
        raise ValueError(f"the hands use cards the {rules.deck} deck does not have: {+(-rest)}")
    spare = sorted(rest.elements())
    dealt = []
    for seat in range(rules.players):
        if seat in given:
            dealt.append(given[seat])
        else:
            dealt.append(spare[: rules.cards_each])
            spare = spare[rules.cards_each :]
    game = Game(rules, dealer)
    game.deal(deck_for_hands(rules, dealer, dealt))
    for text in actions:
        decision = game.decision()
        assert decision is not None, f"no decision left for action {text!r}"
        if decision.kind is DecisionKind.BID:
            game.apply(Bid.parse(text))
        elif decision.kind is DecisionKind.TRUMP:
            game.apply(Trump.parse(text))
        elif decision.kind is DecisionKind.PLAY:
            game.apply(parse_card(text))
        else:
            game.apply(parse_cards(text.split()))
    return game


def deciding(view: SeatView) -> Decision:
    """The decision ``view``'s seat is to take (a view of the seat to act has one)."""
    assert view.decision is not None
    return view.decision


def to_decide(game: Game) -> Decision:
    """The decision a seat is to take in ``game`` (neither over nor waiting for a deal)."""
    decision = game.decision()
    assert decision is not None
    return decision


def view_to_act(game: Game) -> SeatView:
    """The view of the seat whose decision it is."""
    return seat_view(game, to_decide(game).seat)


def check_world(view: SeatView, world: World) -> None:
    """Everything the seat knows holds in ``world``."""
    rules = view.rules
    knowledge = knowledge_of(view)
    assert Counter(world.hands[view.seat]) == Counter(view.hand)
    assert Counter(world.dealt[view.seat]) == Counter(view.dealt)
    assert [len(h) for h in world.hands] == list(knowledge.hand_sizes)
    # Every card of the deck is in one place: a hand, the table, or a discard.
    discards = [
        c for ev, cards in zip(view.exchanges, world.exchanges, strict=True) if ev.to_seat is None for c in cards
    ]
    placed = Counter(c for h in world.hands for c in h) + Counter(c for _, c in knowledge.played) + Counter(discards)
    assert placed == Counter(deck_cards(rules.deck))
    # Shown voids: not one card of the suit.
    for seat, suits in knowledge.voids.items():
        assert view.trump is not None  # a void shows in the play, with trump named
        assert not any(effective_suit(c, view.trump) in suits for c in world.hands[seat])
    # Cards this seat gave that the receiver still holds.
    for seat, holding in knowledge.known.items():
        assert not holding - Counter(world.hands[seat])
    # Cards this seat gave a seat that then discarded unseen: in that seat's hand or that discard.
    for pile in knowledge.hidden_piles:
        where = Counter(world.hands[pile.seat]) + Counter(world.exchanges[pile.exchange])
        assert not Counter(pile.suspects) - where
    # Exchanges this seat saw keep their cards.
    for ev, cards in zip(view.exchanges, world.exchanges, strict=True):
        if ev.cards is not None:
            assert Counter(cards) == Counter(ev.cards)
        assert len(cards) == ev.count


class TickingClock:
    """A clock that moves on ``step`` seconds each time it is read: time the bot can't outrun."""

    def __init__(self, step: float) -> None:
        self.now = 0.0
        self.step = step

    def __call__(self) -> float:
        self.now += self.step
        return self.now
