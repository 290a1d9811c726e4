"""The Monte Carlo bot: sampled worlds agree with what the seat knows, rebuilt games stand where the
seat stands, forks are independent, and a decision stays within its time budget."""

from __future__ import annotations

import random
from collections import Counter

import pytest
from bot_positions import DEAL_B, DEAL_H, position, view_to_act

from example_bots import montecarlo_bot
from example_bots.montecarlo_bot import BID_SHOWS, MonteCarloBot, bid_evidence, bid_likelihood
from example_bots.rules_bot import RulesBot
from referee.engine.cards import JACK, Trump, deck_cards, effective_suit, make_card, parse_card, parse_cards
from referee.engine.game import DecisionKind, Game
from referee.engine.presets import PRESETS, rules_for
from referee.engine.simulate import shuffled_deck
from referee.engine.view import SeatView, seat_view
from sdk.knowledge import knowledge_of
from sdk.worlds import Determinizer, World


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
        assert not any(effective_suit(c, view.trump) in suits for c in world.hands[seat])
    # Cards this seat gave that the receiver still holds.
    for seat, holding in knowledge.known.items():
        assert not holding - Counter(world.hands[seat])
    # Exchanges this seat saw keep their cards.
    for ev, cards in zip(view.exchanges, world.exchanges, strict=True):
        if ev.cards is not None:
            assert Counter(cards) == Counter(ev.cards)
        assert len(cards) == ev.count


def test_worlds_keep_shown_voids_and_the_cards_played() -> None:
    # Trick 1: QS, AS, JS and seat 3 (no spades) throws KC. Seat 0 then sees seat 3 void in spades.
    game = position("neuralplay", DEAL_H, dealer=3, actions=["4 H", "pass", "pass", "pass", "QS", "AS", "JS", "KC"])
    game.apply(parse_card("AS"))  # seat 1 leads again
    view = seat_view(game, 2)
    assert knowledge_of(view).voids == {3: frozenset({0})}
    determinizer = Determinizer(view)
    rng = random.Random(1)
    seen_in_3 = Counter()
    for _ in range(200):
        world = determinizer.sample(rng)
        assert world is not None
        check_world(view, world)
        seen_in_3.update(world.hands[3])
    assert not any(effective_suit(c, Trump.H) == 0 for c in seen_in_3)  # no spade for seat 3, ever
    assert len(seen_in_3) > 5  # but the rest of the unseen cards do go there


def test_hidden_call_exchange_is_sampled_consistently_for_a_defender() -> None:
    # Call 2 spades: partner gives two cards and the declarer discards two, all unseen by seat 1.
    actions = ["call2 S", "pass", "pass", "pass", "KS AC", "QD QH", "JS"]
    game = position("neuralplay", DEAL_B, dealer=3, actions=actions)
    view = seat_view(game, 1)
    assert [ev.cards for ev in view.exchanges] == [None, None]
    determinizer = Determinizer(view)
    rng = random.Random(2)
    for _ in range(100):
        sampled = determinizer.sample_game(rng)
        assert sampled is not None
        world, rebuilt = sampled
        check_world(view, world)
        assert rebuilt.decision() == game.decision()


def test_declarer_going_alone_knows_the_cards_it_gave() -> None:
    hands = {0: "JS JS JC JC AS AS KS KS QS QS 9H 9D"}
    actions = ["alone", "S", "9H 9D QS"]
    game = position("hammerwalt", hands, dealer=3, actions=actions)
    partner_gives = RulesBot().decide(view_to_act(game))
    game.apply(partner_gives)
    view = seat_view(game, 0)
    knowledge = knowledge_of(view)
    gave, got = Counter(parse_cards("9H 9D QS".split())), Counter(partner_gives)
    assert knowledge.known[2] == +(gave - got)
    rng = random.Random(3)
    determinizer = Determinizer(view)
    for _ in range(50):
        world = determinizer.sample(rng)
        assert world is not None
        check_world(view, world)


def test_an_early_bidder_was_dealt_the_jack_it_needed() -> None:
    # Right bower to open: seat 1 (first to bid) bid diamonds, so it held the jack of diamonds.
    deal = {1: "JD QD KD AD AH KH QS QC", 3: "JS JS AS AS KS QS KC AC"}
    actions = ["2 D", "pass", "4 S", "pass", "JS"]
    game = position("bid-euchre-project", deal, dealer=0, actions=actions)
    view = seat_view(game, 3)
    determinizer = Determinizer(view)
    rng = random.Random(4)
    jack = make_card(Trump.D, JACK)
    for _ in range(100):
        world = determinizer.sample(rng)
        assert world is not None
        check_world(view, world)
        assert jack in world.dealt[1]


@pytest.mark.parametrize("preset", sorted(PRESETS))
def test_rebuilt_games_stand_at_the_seats_decision(preset: str) -> None:
    """Every preset: at play decisions of a rules-bot game, sampled worlds rebuild to the same decision."""
    rules = PRESETS[preset]
    rng = random.Random(5)
    bots = [RulesBot(seed=s) for s in range(rules.players)]
    game = Game(rules, 0)
    checked = 0
    for _ in range(2):
        game.deal(shuffled_deck(rules, rng))
        while (decision := game.decision()) is not None:
            view = seat_view(game, decision.seat)
            if decision.kind is DecisionKind.PLAY and len(view.hand) % 3 == 1:
                sampled = Determinizer(view).sample_game(rng)
                assert sampled is not None
                world, rebuilt = sampled
                check_world(view, world)
                assert rebuilt.decision() == decision
                checked += 1
            game.apply(bots[decision.seat].decide(view))
        if game.is_over:
            break
    assert checked > 0


def test_bid_evidence_prefers_worlds_where_the_bidder_had_its_tricks() -> None:
    rules = rules_for("neuralplay")
    game = position("neuralplay", DEAL_H, dealer=3, actions=["6 H", "pass", "pass", "pass", "QS"])
    view = seat_view(game, 1)
    evidence = bid_evidence(view)
    assert evidence == [(0, Trump.H, BID_SHOWS * 6)]
    strong = parse_cards("JH JH JD JD AH AH KH KH".split())
    weak = parse_cards("QS QS QD QC KC QH KD QD".split())
    empty = ((),) * 4

    def world(dealt: list[int]) -> World:
        return World(hands=empty, dealt=(tuple(dealt), (), (), ()), exchanges=())

    assert bid_likelihood(world(strong), evidence, rules) == 1.0
    assert bid_likelihood(world(weak), evidence, rules) < 0.1


class TickingClock:
    """A clock that moves on ``step`` seconds each time it is read: time the bot can't outrun."""

    def __init__(self, step: float) -> None:
        self.now = 0.0
        self.step = step

    def __call__(self) -> float:
        self.now += self.step
        return self.now


@pytest.mark.parametrize("limit_ms", [1000, 100, 20])
def test_the_search_stops_at_its_budget(limit_ms: int, monkeypatch: pytest.MonkeyPatch) -> None:
    game = position("indiana", {}, dealer=0)
    bots = [RulesBot(seed=1) for _ in range(4)]
    while (d := game.decision()).kind is not DecisionKind.PLAY:
        game.apply(bots[d.seat].decide(seat_view(game, d.seat)))
    view = view_to_act(game)
    bot = MonteCarloBot(seed=1)
    bot.time_limit_ms = limit_ms
    bot.clock = clock = TickingClock(0.001)
    playout_cost = 0.01

    def slow_playout(*args: object) -> float:
        clock.now += playout_cost
        return real_playout(*args)

    real_playout = montecarlo_bot.playout
    monkeypatch.setattr(montecarlo_bot, "playout", slow_playout)
    budget = bot.budget_seconds()
    assert budget < limit_ms / 1000
    assert len(view.decision.options) >= 3
    card = bot.play(view, view.decision.options)
    assert card in view.decision.options
    # The clock is read before each playout: the search ends within one playout of the budget.
    assert bot.stats.seconds <= budget + playout_cost + 3 * clock.step + 1e-9
    if budget > 0:
        assert bot.stats.playouts >= budget / (playout_cost + clock.step) / 2
    else:
        assert bot.stats.playouts == 0  # no time to search: the rules bot's card


def test_the_rules_card_stands_unless_another_is_clearly_better() -> None:
    # Fourth seat over QD: the rules bot plays KD, just high enough; AD also wins.
    game = position("neuralplay", DEAL_B, dealer=3, actions=["4 S", "pass", "pass", "pass", "QD", "JD", "QD"])
    view = view_to_act(game)
    kd, ad = parse_cards(["KD", "AD"])
    assert RulesBot().play(view, view.decision.options) == kd
    steady = [{kd: 0.0, ad: 1.0}] * 10  # AD one point better in every world
    noisy = [{kd: 0.0, ad: d} for d in (6, -5, 4, -4, 3, -3, 5, -5, 1, 0)]  # better on average, by noise
    bot = MonteCarloBot(seed=1, override_z=1.0)
    assert bot.choose(view, view.decision.options, steady) == ad
    assert bot.choose(view, view.decision.options, noisy) == kd
    assert MonteCarloBot(seed=1, override_z=None).choose(view, view.decision.options, noisy) == ad
    assert bot.choose(view, view.decision.options, []) == kd  # no world searched: the rules card
