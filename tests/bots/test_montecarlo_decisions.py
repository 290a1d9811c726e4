"""The Monte Carlo bot's simulated decisions: consistent worlds everywhere, legal answers of every kind
on every preset within the time budget, and the same play from the same seed and world count."""

from __future__ import annotations

import random
import subprocess
import sys
import time
import zlib
from pathlib import Path

import pytest

from example_bots.montecarlo_bot import LEVELS, MonteCarloBot, bid_candidates
from example_bots.rules_bot import RulesBot
from referee.engine.bids import PASS, Bid, BidKind
from referee.engine.cards import Trump, parse_cards
from referee.engine.game import DecisionKind, Game
from referee.engine.presets import PRESETS
from referee.engine.simulate import random_action, shuffled_deck
from referee.engine.view import seat_view
from referee.play.levels import LEVELS as TABLE_LEVELS
from sdk.worldmodel import WorldModel, finish_hand
from sdk.worlds import Determinizer
from tests.support.positions import DEAL_B, check_world, deciding, position, to_decide, view_to_act

# The decision kinds each preset can ask for (GIVE/DISCARD only with a lone special bid).
KINDS = {
    name: {DecisionKind.BID, DecisionKind.PLAY}
    | (
        {DecisionKind.TRUMP}
        if rules.trump_timing == "after-bid" or rules.special_trump_timing == "after-bid"
        else set()
    )
    | (
        {DecisionKind.GIVE, DecisionKind.DISCARD}
        if {"call3", "call2", "call1", "best"} & set(rules.special_bids)
        else set()
    )
    | ({DecisionKind.GIVE} if "alone" in rules.special_bids else set())
    for name, rules in PRESETS.items()
}


def _seed(preset: str) -> int:
    return zlib.crc32(preset.encode())


@pytest.mark.parametrize("preset", list(PRESETS))
def test_sampled_worlds_never_give_a_seat_a_card_it_cannot_hold(preset: str) -> None:
    """At every decision of random games (auctions, exchanges, tricks), from the seat to act and from
    another seat: each world, drawn as the bot draws them (weighted by the auction), keeps shown voids,
    cards seen elsewhere and cards passed in exchanges where they must be."""
    rules = PRESETS[preset]
    rng = random.Random(_seed(preset))
    bot = MonteCarloBot(seed=1)
    checked = 0
    game = Game(rules, 0)
    for _ in range(3):
        if game.is_over:
            game = Game(rules, 0)
        game.deal(shuffled_deck(rules, rng))
        while (decision := game.decision()) is not None:
            # Every decision of the auction and the exchanges, every third card.
            if decision.kind is not DecisionKind.PLAY or rng.random() < 0.33:
                seat = decision.seat if rng.random() < 0.5 else rng.randrange(rules.players)
                view = seat_view(game, seat)
                determinizer = Determinizer(view)
                likelihood = bot.likelihood(view)
                for _ in range(2):
                    world = determinizer.sample_fitting(rng, 31, likelihood)
                    assert world is not None
                    check_world(view, world)
                    checked += 1
            game.apply(random_action(decision, rng))
    assert checked > 30


def _answer_in_time(bot: MonteCarloBot, game: Game, limit_ms: int) -> object:
    view = view_to_act(game)
    bot.time_limit_ms = limit_ms
    started = time.perf_counter()
    action = bot.decide(view)
    elapsed_ms = (time.perf_counter() - started) * 1000
    # Generous for a loaded machine: the search itself stops at a third of the limit.
    assert elapsed_ms < limit_ms, f"{deciding(view).kind} took {elapsed_ms:.0f} ms of {limit_ms}"
    return action


EXCHANGE_BIDS = ("call3", "call2", "call1", "best", "alone")


def _steer_to_exchanges(decision, rng: random.Random) -> object:
    """Random play, except that a bid leading to an exchange is taken when offered, and then passes."""
    if decision.kind is DecisionKind.BID:
        lone = [b for b in decision.options if b.kind in EXCHANGE_BIDS]
        if lone and rng.random() < 0.5:
            return rng.choice(lone)
        if decision.options[0].is_pass and rng.random() < 0.7:
            return decision.options[0]
    return random_action(decision, rng)


@pytest.mark.parametrize("preset", list(PRESETS))
def test_answers_are_legal_for_every_decision_kind_and_in_time(preset: str) -> None:
    """Random games until the bot has answered each kind of decision the preset has, twice (at least once)."""
    rules = PRESETS[preset]
    rng = random.Random(_seed(preset) + 1)
    bot = MonteCarloBot(seed=2, level=1, time_share=0.3)
    limit_ms = 600
    answered = dict.fromkeys(KINDS[preset], 0)
    game = Game(rules, 0)
    for _ in range(60):
        if all(n >= 2 for n in answered.values()):
            break
        if game.is_over:
            game = Game(rules, 0)
        game.deal(shuffled_deck(rules, rng))
        while (decision := game.decision()) is not None:
            if answered[decision.kind] < 2:
                action = _answer_in_time(bot, game, limit_ms)
                game.apply(action)  # raises if illegal
                answered[decision.kind] += 1
            else:
                game.apply(_steer_to_exchanges(decision, rng))
    assert all(n >= 1 for n in answered.values()), answered
    assert bot.stats.worlds > 0 and bot.decide_stats.worlds > 0


def test_every_bid_kind_is_a_candidate() -> None:
    """Pass, levels in every trump, and every special bid the preset allows are all simulated."""
    game = position("neuralplay", DEAL_B, dealer=3)
    view = view_to_act(game)
    legal = deciding(view).bids
    candidates = bid_candidates(view, legal, RulesBot().bid(view, legal))
    kinds = {b.kind for b in candidates}
    assert kinds == {"pass", "level", "call2", "call1", "moon"}
    assert {b.trump for b in candidates if b.kind == "level"} == set(PRESETS["neuralplay"].trump_choices)
    assert all(b in legal for b in candidates)


@pytest.mark.parametrize("preset", ["pagat", "bid-euchre-project"])
def test_bids_near_the_hands_worth_are_candidates_beyond_the_cheapest(preset: str) -> None:
    """Seat 0 holds six spades with both bowers: a spade bid near its count is tried, not only the cheapest three."""
    game = position(preset, DEAL_B, dealer=3)
    view = view_to_act(game)
    legal = deciding(view).bids
    rules_bot = RulesBot()
    spade_levels = sorted(b.level for b in legal if b.kind == "level" and b.trump == Trump.S)
    candidates = bid_candidates(view, legal, rules_bot.bid(view, legal), rules_bot)
    tried = {b.level for b in candidates if b.kind == "level" and b.trump == Trump.S}
    assert max(tried) > spade_levels[2] + 1, (spade_levels, tried)
    assert all(b in legal for b in candidates)


@pytest.mark.parametrize("preset", ["pepper", "indiana"])
def test_with_partner_holding_the_contract_only_the_rules_bid_or_pass_is_tried(preset: str) -> None:
    """In an auction of several rounds, two searching partners must not outbid each other: over
    partner's bid, the rules bot's bid or pass."""
    game = position(preset, {}, dealer=3)
    rules_bot = RulesBot()
    first = view_to_act(game)
    game.apply(next(b for b in deciding(first).bids if b.kind == "level"))  # seat 0 bids
    game.apply(PASS)  # seat 1
    partner = view_to_act(game)
    assert partner.seat == 2
    legal = deciding(partner).bids
    default = rules_bot.bid(partner, legal)
    assert set(bid_candidates(partner, legal, default, rules_bot)) == {default, PASS}
    # Over an opponent's bid instead, the search is wide again.
    game = position(preset, {}, dealer=3)
    game.apply(PASS)  # seat 0
    game.apply(next(b for b in deciding(view_to_act(game)).bids if b.kind == "level"))  # seat 1 bids
    view = view_to_act(game)
    legal = deciding(view).bids
    assert len(bid_candidates(view, legal, rules_bot.bid(view, legal), rules_bot)) > 4


def test_in_a_single_round_auction_a_bid_over_partner_is_searched() -> None:
    """Partner cannot answer in a single round: bids over partner's are candidates there."""
    game = position("pagat", DEAL_B, dealer=3)
    game.apply(Bid.parse("3 H"))  # seat 0
    game.apply(PASS)  # seat 1
    view = view_to_act(game)
    legal = deciding(view).bids
    rules_bot = RulesBot()
    candidates = bid_candidates(view, legal, rules_bot.bid(view, legal), rules_bot)
    assert len([b for b in candidates if b.kind == "level"]) > 4


@pytest.mark.parametrize("kind", ["bid", "play"])
def test_a_fixed_world_count_and_seed_play_the_same_way(kind: str) -> None:
    actions = [] if kind == "bid" else ["4 S", "pass", "pass", "pass"]  # then seat 0 leads
    game = position("neuralplay", DEAL_B, dealer=3, actions=actions)
    view = view_to_act(game)
    assert deciding(view).kind.value == kind

    def decide(seed: int) -> tuple[object, int]:
        bot = MonteCarloBot(seed=seed, max_worlds=20, decide_worlds=20, time_share=1.0)
        bot.time_limit_ms = 600_000  # the world count alone bounds the search
        return bot.decide(view), bot.stats.worlds + bot.decide_stats.worlds

    first = decide(7)
    assert first[1] > 0
    assert decide(7) == first


def test_searching_cards_only_it_bids_as_the_rules_bot_and_searches_its_cards() -> None:
    """``--cards-only`` (the table's level 5): the rules bot's bid, unsearched; a searched card."""
    bot = MonteCarloBot(seed=3, max_worlds=10, cards_only=True)
    bot.time_limit_ms = 600_000  # the world count alone bounds the search
    game = position("neuralplay", DEAL_B, dealer=3)
    for _ in range(4):  # the whole auction, every seat bidding as the cards-only bot
        view = view_to_act(game)
        legal = deciding(view).bids
        bid = bot.bid(view, legal)
        assert bid == RulesBot().bid(view, legal)
        game.apply(bid)
    assert bot.decide_stats.decisions == 0
    while (decision := game.decision()) is not None and decision.kind != DecisionKind.PLAY:
        game.apply(bot.decide(view_to_act(game)))
    bot.decide(view_to_act(game))
    assert bot.stats.worlds == 10 and bot.decide_stats.decisions == 0


def test_levels_go_from_fast_to_strong() -> None:
    shares = [LEVELS[n].time_share for n in sorted(LEVELS)]
    worlds = [LEVELS[n].play_worlds or 10**9 for n in sorted(LEVELS)]
    assert shares == sorted(shares) and worlds == sorted(worlds)
    with pytest.raises(ValueError, match="level 9"):
        MonteCarloBot(level=9)


def test_cards_given_to_a_declarer_who_then_discards_unseen_stay_with_it() -> None:
    # Call 2 spades: seat 2 gives KS AC to the declarer (seat 0), who discards two cards seat 2 does not see.
    game = position("neuralplay", DEAL_B, dealer=3, actions=["call2 S", "pass", "pass", "pass", "KS AC", "QD QH"])
    view = seat_view(game, 2)
    pile = Determinizer(view).knowledge.hidden_piles[0]
    assert sorted(pile.suspects) == sorted(parse_cards(["KS", "AC"]))
    determinizer = Determinizer(view)
    rng = random.Random(9)
    worlds = [determinizer.sample(rng) for _ in range(200)]
    # Both cards are placed with the declarer (hand or discard) up front, so samples rarely fail.
    assert sum(w is None for w in worlds) < 10
    for world in worlds:
        if world is not None:
            check_world(view, world)


def test_the_model_of_the_other_seats_bids_like_a_lean_rules_bot() -> None:
    game = position("neuralplay", DEAL_B, dealer=3)
    model = WorldModel(game.rules)
    own = model.count(game, 0, Trump.S)
    assert own > 6.5  # seat 0 is strong in spades
    opening = model.bid(game, to_decide(game))
    # Before its partner speaks, a first bid is the hand's own worth, in its best trump.
    assert opening == Bid(BidKind.LEVEL, int(own - 0.5), Trump.S)
    game.apply(opening)
    game.apply(model.bid(game, to_decide(game)))  # seat 1
    assert model.bid(game, to_decide(game)) == PASS  # seat 2: its partner holds the contract
    assert finish_hand(game, model, team=0) != 0.0  # the hand is played out and scored


def test_the_tables_monte_carlo_levels_start_as_their_command_lines_say(tmp_path: Path) -> None:
    # arena play's levels 5 and 6: the solving bot searching its cards only (--cards-only), then every decision.
    # Each command line is taken by the bot (no usage error); with no referee to reach, it exits 1.
    for number in (5, 6):
        level = TABLE_LEVELS[number]
        command = [sys.executable, "-m", f"example_bots.{level.module}", *level.args]
        done = subprocess.run(
            [*command, "--address", f"unix:{tmp_path}/none", "--token", "t"],
            capture_output=True,
            text=True,
            timeout=60,
            check=False,
        )
        assert done.returncode == 1 and "usage:" not in done.stderr, done.stderr
    assert TABLE_LEVELS[5].args == ("--cards-only",)
