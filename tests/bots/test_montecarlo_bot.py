"""The Monte Carlo bot: sampled worlds agree with what the seat knows, rebuilt games stand where the
seat stands, forks are independent, and a decision stays within its time budget."""

from __future__ import annotations

import random
from collections import Counter

import pytest

from example_bots import montecarlo_bot
from example_bots.montecarlo_bot import MonteCarloBot
from example_bots.rules_bot import RulesBot
from referee.engine.bids import PASS
from referee.engine.cards import JACK, TRICK_KEY, Card, Trump, effective_suit, make_card, parse_card, parse_cards
from referee.engine.game import DecisionKind, Game
from referee.engine.presets import PRESETS, rules_for
from referee.engine.simulate import shuffled_deck
from referee.engine.view import SeatView, seat_view
from sdk.inference import (
    BID_SHOWS,
    PLAY_SLIP,
    Evidence,
    Follow,
    auction_evidence,
    auction_likelihood,
    play_likelihood,
)
from sdk.knowledge import knowledge_of
from sdk.worlds import Determinizer, World
from tests.support.positions import (
    DEAL_B,
    DEAL_H,
    TickingClock,
    check_world,
    deciding,
    position,
    to_decide,
    view_to_act,
)


def test_worlds_keep_shown_voids_and_the_cards_played() -> None:
    # Trick 1: QS, AS, JS and seat 3 (no spades) throws KC. Seat 0 then sees seat 3 void in spades.
    game = position("neuralplay", DEAL_H, dealer=3, actions=["4 H", "pass", "pass", "pass", "QS", "AS", "JS", "KC"])
    game.apply(parse_card("AS"))  # seat 1 leads again
    view = seat_view(game, 2)
    assert knowledge_of(view).voids == {3: frozenset({0})}
    determinizer = Determinizer(view)
    rng = random.Random(1)
    seen_in_3: Counter[Card] = Counter()
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
    assert isinstance(partner_gives, list)
    game.apply(partner_gives)
    view = seat_view(game, 0)
    knowledge = knowledge_of(view)
    gave, got = Counter(parse_cards(["9H", "9D", "QS"])), Counter(partner_gives)
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
            game.answer(bots[decision.seat].decide(view))
        if game.is_over:
            break
    assert checked > 0


def test_bid_evidence_prefers_worlds_where_the_bidder_had_its_tricks() -> None:
    rules = rules_for("neuralplay")
    game = position("neuralplay", DEAL_H, dealer=3, actions=["6 H", "pass", "pass", "pass", "QS"])
    view = seat_view(game, 1)
    evidence = auction_evidence(rules, view.seat, view.bids, Trump.H, 0)
    # Seat 0's bid shows tricks. Seat 3 passed at its first turn when it could have bid 7: that
    # counts too. Seat 2's pass, its partner holding the contract, says nothing.
    assert evidence[0] == Evidence(0, Trump.H, BID_SHOWS * 6, None)
    assert [(e.seat, e.short_of) for e in evidence[1:]] == [(3, 7 + 0.5 + 1.0)]
    strong = parse_cards(["JH", "JH", "JD", "JD", "AH", "AH", "KH", "KH"])
    weak = parse_cards(["QS", "QS", "QD", "QC", "KC", "QH", "KD", "QD"])
    empty = ((),) * 4

    def world(seat: int, dealt: list[int]) -> World:
        return World(hands=empty, dealt=tuple(tuple(dealt) if s == seat else () for s in range(4)), exchanges=())

    bidder = evidence[:1]
    assert auction_likelihood(world(0, strong), bidder, rules) == 1.0
    assert auction_likelihood(world(0, weak), bidder, rules) < 0.1


def test_a_first_turn_pass_makes_strong_hands_unlikely() -> None:
    rules = rules_for("neuralplay")
    # Seat 1 passed first in a fresh auction: it could have bid 1.
    evidence = auction_evidence(rules, 0, [(1, PASS)])
    assert [e.seat for e in evidence] == [1]
    strong = parse_cards(["JH", "JH", "JD", "JD", "AH", "AH", "KH", "KH"])
    weak = parse_cards(["QS", "QS", "QD", "QC", "KC", "QH", "KD", "QD"])
    hands = ((),) * 4

    def world(dealt: list[int]) -> World:
        return World(hands=hands, dealt=((), tuple(dealt), (), ()), exchanges=())

    assert auction_likelihood(world(weak), evidence, rules) == 1.0
    assert auction_likelihood(world(strong), evidence, rules) < 0.01


def _play_position() -> SeatView:
    game = position("indiana", {}, dealer=0)
    bots = [RulesBot(seed=1) for _ in range(4)]
    while (d := to_decide(game)).kind is not DecisionKind.PLAY:
        game.apply(bots[d.seat].decide(seat_view(game, d.seat)))
    return view_to_act(game)


@pytest.mark.parametrize("limit_ms", [1000, 100, 20])
@pytest.mark.parametrize("kind", ["play", "bid"])
def test_the_search_stops_at_its_budget(kind: str, limit_ms: int, monkeypatch: pytest.MonkeyPatch) -> None:
    # The playout bot: a card is searched by playouts from the hands; a bid by finishing rebuilt games.
    view = _play_position() if kind == "play" else view_to_act(position("neuralplay", DEAL_B, dealer=3))
    step = "playout" if kind == "play" else "finish_hand"
    bot = MonteCarloBot(seed=1, level=4, exact=False)  # no world cap: time alone bounds the search
    bot.time_limit_ms = limit_ms
    bot.clock = clock = TickingClock(0.001)
    cost = 0.01
    real = getattr(montecarlo_bot, step)

    def slow(*args: object) -> float:
        clock.now += cost
        return real(*args)

    monkeypatch.setattr(montecarlo_bot, step, slow)
    budget = bot.budget_seconds()
    assert budget < limit_ms / 1000
    assert len(deciding(view).options) >= 3
    action = bot.decide(view)
    assert action in deciding(view).options
    stats = bot.stats if kind == "play" else bot.decide_stats
    # The clock is read before each playout: the search ends within one playout of the budget.
    assert stats.seconds <= budget + cost + 3 * clock.step + 1e-9
    if budget > 0:
        assert stats.playouts >= budget / (cost + clock.step) / 2
    else:
        assert stats.playouts == 0  # no time to search: the rules bot's choice


def test_the_rules_card_stands_unless_another_is_clearly_better() -> None:
    # Fourth seat over QD: the rules bot plays KD, just high enough; AD also wins.
    game = position("neuralplay", DEAL_B, dealer=3, actions=["4 S", "pass", "pass", "pass", "QD", "JD", "QD"])
    view = view_to_act(game)
    kd, ad = parse_cards(["KD", "AD"])
    assert RulesBot().play(view, deciding(view).cards) == kd
    steady = [{kd: 0.0, ad: 1.0}] * 10  # AD one point better in every world
    noisy = [{kd: 0.0, ad: d} for d in (6, -5, 4, -4, 3, -3, 5, -5, 1, 0)]  # better on average, by noise
    bot = MonteCarloBot(seed=1, override_z=1.0)
    assert bot.choose(view, deciding(view).cards, steady) == ad
    assert bot.choose(view, deciding(view).cards, noisy) == kd
    assert MonteCarloBot(seed=1, override_z=None).choose(view, deciding(view).cards, noisy) == ad
    assert bot.choose(view, deciding(view).cards, []) == kd  # no world searched: the rules card


def test_solved_worlds_choose_by_the_average_score_alone() -> None:
    # The same position: solved worlds are exact, so AD's better average is taken without a bar; of cards equal
    # in every world, the rules bot's.
    game = position("neuralplay", DEAL_B, dealer=3, actions=["4 S", "pass", "pass", "pass", "QD", "JD", "QD"])
    view = view_to_act(game)
    cards = deciding(view).cards
    kd, ad = parse_cards(["KD", "AD"])
    noisy = [{kd: 0.0, ad: d} for d in (6, -5, 4, -4, 3, -3, 5, -5, 1, 0)]
    bot = MonteCarloBot(seed=1, override_z=1.0)
    assert bot.choose(view, cards, noisy, solved=len(noisy)) == ad
    level = [dict.fromkeys(cards, 2.0)] * 5
    assert bot.choose(view, cards, level, solved=5) == kd


@pytest.mark.skipif(not montecarlo_bot.SOLVER_BUILT, reason="the compiled solver is not built")
@pytest.mark.parametrize("preset", ["neuralplay", "double-deck-3p"])
def test_a_card_is_searched_in_solved_worlds(preset: str) -> None:
    game = position(preset, {}, dealer=0)
    bots = [RulesBot(seed=1) for _ in range(game.rules.players)]
    while (d := to_decide(game)).kind is not DecisionKind.PLAY or game.trick_number < game.rules.cards_each - 4:
        seen, bot = seat_view(game, d.seat), bots[d.seat]
        game.apply(bot.choose_card(seen, d.cards) if d.kind is DecisionKind.PLAY else bot.decide(seen))
    view = view_to_act(game)
    bot = MonteCarloBot(seed=3, max_worlds=16, time_share=1.0)
    bot.time_limit_ms = 600_000  # the world count alone bounds the search
    cards = deciding(view).cards
    assert bot.choose_card(view, cards) in cards  # the search (``decide`` may claim first)
    assert bot.stats.worlds == bot.stats.solved == 16 and bot.stats.playouts == 0


def test_without_the_solver_the_bot_plays_its_worlds_out_and_says_so_once(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setattr(montecarlo_bot, "SOLVER_BUILT", False)
    monkeypatch.setattr(montecarlo_bot, "_said_no_solver", False)
    first, second = MonteCarloBot(seed=1), MonteCarloBot(seed=1, exact=True)
    assert not first.exact and not second.exact
    notes = [line for line in capsys.readouterr().err.splitlines() if line.startswith("note: montecarlo: ")]
    assert len(notes) == 1 and notes[0].endswith("; it plays its sampled worlds out instead"), notes
    view = _play_position()
    first.max_worlds, first.time_limit_ms = 6, 600_000
    assert first.decide(view) in deciding(view).cards
    assert first.stats.playouts > 0 and first.stats.solved == 0


def test_a_card_followed_low_makes_worlds_with_a_lower_one_unlikely() -> None:
    # Spades trump; seat 0 leads AH, seat 1 (the other side) follows KH and loses: holding QH as well, it would
    # have followed with that (the low card), so a world that gives it QH is kept less often. A world where it
    # won from the other side with AH while holding KH, which would also have won, likewise.
    trump = Trump.S
    ah, kh, qh, ts = parse_cards(["AH", "KH", "QH", "TS"])
    keys = TRICK_KEY[trump][effective_suit(ah, trump)]
    low = Follow(seat=1, card=kh, later=(), led=effective_suit(ah, trump), to_beat=keys[ah], for_the_other_side=True)

    def holding(*cards: int) -> World:
        hands = ((), tuple(cards), (), ())
        return World(hands=hands, dealt=hands, exchanges=())

    assert play_likelihood(holding(ts), [low], trump) == 1.0
    assert play_likelihood(holding(qh, ts), [low], trump) == PLAY_SLIP
    later = Follow(seat=1, card=kh, later=(qh,), led=low.led, to_beat=low.to_beat, for_the_other_side=True)
    assert play_likelihood(holding(ts), [later], trump) == PLAY_SLIP  # QH was played later: it held it then
    queen = keys[qh]
    high = Follow(seat=1, card=ah, later=(), led=low.led, to_beat=queen, for_the_other_side=True)
    assert play_likelihood(holding(kh), [high], trump) == PLAY_SLIP
    partner = Follow(seat=1, card=ah, later=(), led=low.led, to_beat=queen, for_the_other_side=False)
    assert play_likelihood(holding(kh), [partner], trump) == 1.0  # over a partner: no convention says how
