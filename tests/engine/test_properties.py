"""Property-based tests (hypothesis): trick order, text round trips, and random games under
random presets and rule overrides keeping every invariant of engine_checks."""

from __future__ import annotations

import copy
import random
from collections import Counter
from collections.abc import Callable
from dataclasses import replace

import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from referee.engine.bids import SPECIALS, Bid, BidKind
from referee.engine.cards import Trump, card_power, effective_suit, is_trump, winning_index
from referee.engine.errors import EngineError, RulesError
from referee.engine.game import Decision, DecisionKind, Game
from referee.engine.presets import PRESETS
from referee.engine.rules import Rules, format_value, parse_value
from referee.engine.simulate import random_action, random_chooser, shuffled_deck
from tests.support.engine import snapshot
from tests.support.engine_checks import play_checked, replay

GAMES = settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])

trumps = st.sampled_from(list(Trump))
card_codes = st.integers(0, 31)


@given(trump=trumps, trick=st.lists(card_codes, min_size=1, max_size=8))
def test_winning_index_picks_the_first_of_the_strongest_cards(trump: Trump, trick: list[int]) -> None:
    led = effective_suit(trick[0], trump)

    def strength(card: int) -> tuple[int, int]:
        if is_trump(card, trump):
            return (2, card_power(card, trump))
        if effective_suit(card, trump) == led:
            return (1, card_power(card, trump))
        return (0, 0)  # cannot win

    w = winning_index(trick, trump)
    best = strength(trick[w])
    assert best[0] >= 1
    assert all(strength(c) < best for c in trick[:w]), "an earlier card was as strong"
    assert all(strength(c) <= best for c in trick[w + 1 :]), "a later card was stronger"


@given(trump=trumps, trick=st.lists(card_codes, min_size=1, max_size=7), extra=card_codes)
def test_a_card_played_later_wins_only_by_being_strictly_stronger(trump: Trump, trick: list[int], extra: int) -> None:
    before = winning_index(trick, trump)
    after = winning_index([*trick, extra], trump)
    assert after in (before, len(trick))
    if extra == trick[before]:
        assert after == before  # an identical card never takes the trick


bids_ = st.one_of(
    st.just(Bid(BidKind.PASS)),
    st.builds(lambda level, trump: Bid(BidKind.LEVEL, level, trump), st.integers(1, 16), st.none() | trumps),
    st.builds(lambda kind, trump: Bid(kind, 0, trump), st.sampled_from(SPECIALS), st.none() | trumps),
)


@given(bid=bids_)
def test_bid_text_round_trips(bid: Bid) -> None:
    assert Bid.parse(bid.text()) == bid
    assert Bid.parse(bid.text().upper()) == bid


def option_values(name: str) -> st.SearchStrategy[object]:
    meta = Rules.__dataclass_fields__[name].metadata
    kind = meta["kind"]
    if kind == "bool":
        return st.booleans()
    if kind == "choice":
        return st.sampled_from(meta["choices"])
    if kind == "int":
        return st.integers(meta["min"], meta["max"])
    if kind == "optint":
        return st.none() | st.integers(meta["min"], meta["max"])
    if kind == "ints":
        return st.lists(st.integers(1, 20), min_size=1, max_size=6).map(tuple)
    if kind == "set":
        return st.lists(st.sampled_from(meta["choices"]), unique=True).map(tuple)
    raise AssertionError(kind)


@given(data=st.data(), name=st.sampled_from(list(Rules.__dataclass_fields__)))
def test_any_option_value_round_trips_through_its_text(data: st.DataObject, name: str) -> None:
    value = data.draw(option_values(name))
    assert parse_value(name, format_value(name, value)) == value


# Options a user might set on top of any preset, with values kept small so games stay short.
# Choices are given as their text, as a user writes them (Rules takes it for the member), and so past
# what the types of ``replace`` say: it is called as this untyped callable.
replace_options: Callable[..., Rules] = replace
OVERRIDES: dict[str, st.SearchStrategy[object]] = {
    "bidding_rounds": st.sampled_from(["single", "two", "multiple"]),
    "trump_timing": st.sampled_from(["with-bid", "after-bid"]),
    "special_trump_timing": st.sampled_from(["with-bid", "after-bid"]),
    "notrump": st.sampled_from(["none", "high", "high-low"]),
    "min_bid": st.integers(1, 4),
    "min_notrump_bid": st.integers(1, 5),
    "dealer_can_steal": st.sampled_from(["no", "any", "special"]),
    "stick_the_dealer": st.booleans(),
    "stuck_dealer_min_bid": st.none() | st.integers(1, 4),
    "right_bower_to_open": st.booleans(),
    "notrump_ranks_lower": st.booleans(),
    "special_bids": st.lists(
        st.sampled_from(["call3", "call2", "call1", "best", "moon", "alone", "pepper"]), unique=True
    ),
    "call_exchange_order": st.sampled_from(["give-first", "discard-first"]),
    "alone_exchange_cards": st.integers(0, 3),
    "initial_leader": st.sampled_from(["declarer", "left-of-dealer"]),
    "defenders_score": st.booleans(),
    "overtricks": st.booleans(),
    "made_bonus": st.integers(0, 3),
    "set_penalty": st.none() | st.integers(0, 8),
    "game_over": st.sampled_from(["points", "hands"]),
    "game_points": st.integers(1, 40),
    "game_hands": st.integers(1, 4),
    "tie_rule": st.sampled_from(
        ["draw", "last-contract", "last-made", "declarers", "bidders", "must-bid", "must-bid-or-set"]
    ),
    "mercy_loss": st.none() | st.integers(-30, 0),
    "mercy_all_below": st.none() | st.integers(-20, 0),
}


@st.composite
def rule_systems(draw: st.DrawFn) -> Rules:
    """A preset with some options overridden (combinations the rules refuse are skipped)."""
    base = PRESETS[draw(st.sampled_from(list(PRESETS)))]
    chosen = draw(st.lists(st.sampled_from(list(OVERRIDES)), unique=True, max_size=8))
    changes = {name: draw(OVERRIDES[name]) for name in chosen}
    special = changes.get("special_bids")
    if isinstance(special, list):
        changes["special_bids"] = tuple(special)
    try:
        return replace_options(base, hand_limit=draw(st.integers(1, 4)), **changes)
    except RulesError:
        assume(False)
        raise


@GAMES
@given(rules=rule_systems(), seed=st.integers(0, 2**32))
def test_random_games_under_random_rules_keep_every_invariant(rules: Rules, seed: int) -> None:
    rng = random.Random(seed)
    game, record = play_checked(rules, rng, random_chooser(rng))
    assert replay(rules, record).events == game.events


def candidate_actions(decision: Decision, rng: random.Random, cards_each: int) -> list[object]:
    """Actions to try, legal or not: bids of every shape, every trump, every card, card sets of any size."""
    if decision.kind is DecisionKind.BID:
        trumps_or_none = [None, *Trump]
        every = [Bid(BidKind.PASS)]
        every += [Bid(BidKind.LEVEL, level, t) for level in range(1, cards_each + 2) for t in trumps_or_none]
        every += [Bid(kind, 0, t) for kind in SPECIALS for t in trumps_or_none]
        return rng.sample(every, 12)
    if decision.kind is DecisionKind.TRUMP:
        return list(Trump)
    if decision.kind is DecisionKind.PLAY:
        return list(range(32))
    hand = list(decision.options)
    tries: list[object] = []
    for size in (decision.count - 1, decision.count, decision.count + 1):
        chosen = rng.sample(hand, min(max(size, 0), len(hand)))
        tries.append(chosen)
        if chosen:
            tries.append([*chosen[:-1], rng.randrange(32)])  # perhaps a card not held
    return tries


def is_listed_legal(decision: Decision, action: object) -> bool:
    if decision.kind in (DecisionKind.GIVE, DecisionKind.DISCARD):
        assert isinstance(action, list)  # candidate_actions tries card sets as lists
        return len(action) == decision.count and not Counter(action) - Counter(decision.cards)
    return action in decision.options


@GAMES
@given(rules=rule_systems(), seed=st.integers(0, 2**32))
def test_the_engine_accepts_exactly_the_actions_it_lists_as_legal(rules: Rules, seed: int) -> None:
    """Listed actions are accepted (tried on a copy); any other raises and leaves the game as it was."""
    rng = random.Random(seed)
    game = Game(rules, rng.randrange(rules.players))
    while not game.is_over:
        game.deal(shuffled_deck(rules, rng))
        while (decision := game.decision()) is not None:
            candidates = candidate_actions(decision, rng, rules.cards_each)
            legal = [a for a in candidates if is_listed_legal(decision, a)]
            if legal:
                copy.deepcopy(game).apply(rng.choice(legal))
            for action in candidates:
                if action in legal:
                    continue
                before = snapshot(game)
                with pytest.raises(EngineError):
                    game.apply(action)
                assert snapshot(game) == before
            game.apply(random_action(decision, rng))
