"""Random play under every preset keeps every invariant of tests.support.engine_checks.play_checked.

Two kinds of random players: one that bids like a cautious player (mostly
passes, low bids), so games run to their own end (target, hands, mercy); and
one that passes half the time and otherwise takes any legal bid, which
reaches the special bids and their exchanges; its games are kept short by a
hand limit.
"""

from __future__ import annotations

import random
from collections import Counter
from dataclasses import replace

import pytest

from referee.engine.events import ContractEvent, ExchangeEvent
from referee.engine.game import Decision, DecisionKind, Game
from referee.engine.presets import PRESETS
from referee.engine.simulate import random_action, random_chooser
from tests.support.engine import short_bid
from tests.support.engine_checks import Chooser, play_checked

CAUTIOUS_GAMES = 6
RANDOM_GAMES = 6
RANDOM_HAND_LIMIT = 8


def cautious_chooser(rng: random.Random) -> Chooser:
    def choose(_game: Game, decision: Decision) -> object:
        if decision.kind is DecisionKind.BID:
            return short_bid(decision.bids, rng)
        return random_action(decision, rng)

    return choose


def bold_chooser(rng: random.Random) -> Chooser:
    def choose(_game: Game, decision: Decision) -> object:
        if decision.kind is DecisionKind.BID and decision.bids[0].is_pass and rng.random() < 0.5:
            return decision.bids[0]
        return random_action(decision, rng)

    return choose


def own_end_reasons(name: str) -> set[str]:
    rules = PRESETS[name]
    reasons = {"target"} if rules.game_over == "points" else {"hands"}
    if rules.mercy_loss is not None or rules.mercy_all_below is not None:
        reasons.add("mercy")
    return reasons


@pytest.mark.parametrize("name", list(PRESETS))
def test_cautious_random_games_end_by_their_own_rule(name: str) -> None:
    rules = PRESETS[name]
    reasons: Counter[str] = Counter()
    for seed in range(CAUTIOUS_GAMES):
        rng = random.Random(f"{name}-{seed}")
        game, _ = play_checked(rules, rng, cautious_chooser(rng))
        reasons[game.end_reason or ""] += 1
    assert set(reasons) <= own_end_reasons(name), reasons


@pytest.mark.parametrize("name", list(PRESETS))
def test_random_games_with_bold_bids(name: str) -> None:
    rules = replace(PRESETS[name], hand_limit=RANDOM_HAND_LIMIT)
    contracts: Counter[str] = Counter()
    exchanges = 0
    for seed in range(RANDOM_GAMES):
        rng = random.Random(f"{name}-any-{seed}")
        game, _ = play_checked(rules, rng, bold_chooser(rng))
        assert game.hand_number <= RANDOM_HAND_LIMIT
        contracts.update(ev.bid.kind for ev in game.events if isinstance(ev, ContractEvent))
        exchanges += sum(isinstance(ev, ExchangeEvent) for ev in game.events)
    # random bidding reaches the special bids, so their exchanges are exercised too
    if any(kind != "level" for kind in rules.special_bids):
        assert set(contracts) - {"level"}, contracts
    if set(rules.special_bids) & {"call3", "call2", "call1", "best"} or (
        "alone" in rules.special_bids and rules.alone_exchange_cards
    ):
        assert exchanges > 0


@pytest.mark.parametrize("name", list(PRESETS))
def test_seat_views_never_show_other_seats_hidden_cards(name: str) -> None:
    rules = replace(PRESETS[name], hand_limit=3)
    rng = random.Random(f"{name}-views")
    play_checked(rules, rng, random_chooser(rng), check_views=True)
