"""The learning features' answers and what the page is sent, without a browser: only the seat's view counts
(two deals that differ only in cards the seat cannot see give the same answers), where each seat sits on the
screen, and the command line's switches."""

from __future__ import annotations

import random

import pytest

from referee.browserseat.advice import AdviceBudget, chance_json, estimates_json, hint_json
from referee.browserseat.state import positions, view_json
from referee.engine.cards import card_str
from referee.engine.deal import deck_for_hands
from referee.engine.game import DecisionKind, Game
from referee.engine.presets import rules_for
from referee.engine.rules import Rules
from referee.engine.simulate import shuffled_deck
from referee.engine.view import SeatView, seat_view
from tests.support.arena import arena
from tests.support.browserseat import card_texts_json

BUDGET = AdviceBudget(hint_play=12, hint_decide=8, estimate=12, estimate_decide=12, chance=16)


def first_bid_view(rules: Rules, hands: list[list[int]], seat: int) -> SeatView:
    """``seat``'s view at its first bid, every seat before it having passed where it may."""
    game = Game(rules, 0)
    game.deal(deck_for_hands(rules, 0, hands))
    while True:
        decision = game.decision()
        assert decision is not None and decision.kind is DecisionKind.BID
        if decision.seat == seat:
            return seat_view(game, seat)
        game.apply(next((b for b in decision.bids if b.is_pass), decision.bids[0]))


def dealt(rules: Rules, seed: int) -> list[list[int]]:
    game = Game(rules, 0)
    game.deal(shuffled_deck(rules, random.Random(seed)))
    return [list(h) for h in game.hands]


@pytest.mark.parametrize("preset", ["neuralplay", "bloomington", "double-deck-3p"])
def test_only_the_seats_view_counts(preset: str) -> None:
    rules = rules_for(preset, [])
    seat = 2 % rules.players
    hands = dealt(rules, 11)
    others = [s for s in range(rules.players) if s != seat]
    swapped = [list(h) for h in hands]
    swapped[others[0]], swapped[others[-1]] = hands[others[-1]], hands[others[0]]  # unseen cards moved
    assert swapped != hands
    view, same_seen = first_bid_view(rules, hands, seat), first_bid_view(rules, swapped, seat)
    assert view == same_seen
    bid = next(b.text() for b in view.decision.bids if not b.is_pass)  # type: ignore[union-attr]
    answers = (estimates_json(view, BUDGET), hint_json(view, BUDGET), chance_json(view, bid, BUDGET))
    assert answers == (
        estimates_json(same_seen, BUDGET),
        hint_json(same_seen, BUDGET),
        chance_json(same_seen, bid, BUDGET),
    )
    assert answers[0]["rows"] and answers[0]["worlds"] == BUDGET.estimate
    # the seat's own cards do count: another hand of its own, other estimates
    mine = [list(h) for h in hands]
    mine[seat], mine[others[0]] = hands[others[0]], hands[seat]
    other = first_bid_view(rules, mine, seat)
    assert estimates_json(other, BUDGET) != answers[0]
    # and the page is sent no card the seat has not seen
    sent = card_texts_json(view_json(view, ["x"] * rules.players))
    assert set(sent) == {card_str(c) for c in hands[seat]}  # its hand (as held and as dealt), nothing else


def test_estimates_at_a_card_agree_with_the_analysis() -> None:
    """At a card, the estimates' points are ``arena analyze``'s margins: the same worlds give the same means."""
    import referee.analyze.evaluate as ev

    rules = rules_for("neuralplay", [])
    game = Game(rules, 0)
    game.deal(shuffled_deck(rules, random.Random(4)))
    rng = random.Random(4)
    while (decision := game.decision()) is not None and decision.kind is not DecisionKind.PLAY:
        game.apply(ev.engine_action(decision.kind, rng.choice(_choices(game))))
    assert decision is not None
    view = seat_view(game, decision.seat)
    estimated = {e.action: e.points for e in ev.estimate(view, 20, random.Random(9))}
    judged = ev.judge(view, decision.cards[0], ev.Budget(samples=20, finalists=len(estimated)), random.Random(9))
    assert judged is not None
    for value in judged.choices:
        assert value.mean == pytest.approx(estimated[value.action])


def _choices(game: Game) -> list[object]:
    decision = game.decision()
    assert decision is not None
    if decision.kind in (DecisionKind.GIVE, DecisionKind.DISCARD):
        return [list(game.hands[decision.seat][: decision.count])]
    return list(decision.options)


def test_places_round_the_table() -> None:
    """South is the person; the partner North with four seats and with three teams of two; with two teams
    of three, the partners upper left and upper right."""
    four = positions(rules_for("neuralplay", []), 1)
    assert four[1]["place"] == "South" and four[3]["place"] == "North" and four[2]["place"] == "West"
    six_two_teams = positions(rules_for("bloomington", []), 0)
    assert [six_two_teams[s]["place"] for s in (2, 4)] == ["North-west", "North-east"]
    three = positions(rules_for("double-deck-3p", []), 0)
    assert [p["place"] for p in three] == ["South", "North-west", "North-east"]
    six_three_teams = positions(rules_for("bloomington", ["teams=3"]), 4)
    assert six_three_teams[(4 + 3) % 6]["place"] == "North"


@pytest.mark.parametrize(
    ("args", "needle"),
    [
        (["--browser", "--hints", "sometimes"], "'sometimes' is not one of"),
        (["--hints", "always"], "--hints: for the browser table only; add --browser"),
        (["--level", "2", "--bot", "x=python -m example_bots.random_bot"], "--level and --bot"),
        (["--level", "7"], "less than or equal to 6"),
    ],
)
def test_bad_switches_are_one_line(args: list[str], needle: str) -> None:
    run = arena("play", *args, timeout=60)
    assert run.returncode in (1, 2)
    lines = run.stderr.strip().splitlines()
    assert len(lines) == 1 and needle in lines[0], run.stderr
