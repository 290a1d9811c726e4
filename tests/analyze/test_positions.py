"""Positions with a known best choice: the analysis must find it, and rate it as losing nothing.

Each position is built through the engine (``tests.support.positions.position``: the
hands dealt, the actions applied), on several presets, one or more for every
kind of decision:

- a bid: a hand of eight sure trump tricks, where the highest lone bid
  (moon; Best on bloomington) scores most;
- trump: a hand of twelve hearts, the top ones, after winning the auction;
- a give: the partner of a Call 1 (or of Best) holding the one trump the
  declarer lacks;
- a discard: the declarer of a Call 1 holding one loser among sure trumps;
- a card: the declarer on lead with six top trumps and an ace that an
  opponent has shown out of: a trump first draws the other trumps and wins
  every trick, the ace first is ruffed unless that opponent has no trump.

Judged with the best choice as the one taken, its loss is zero; judged with
a poor choice taken, the analysis names a best choice from the known set and
a loss above zero, by more than its interval's half-width where the gap is
large.
"""

from __future__ import annotations

import random
from collections.abc import Callable

import pytest

from referee.analyze.evaluate import Budget, action_key, judge
from referee.engine.bids import Bid
from referee.engine.cards import Trump, parse_card, parse_cards
from referee.engine.game import DecisionKind, Game
from tests.support.positions import position, view_to_act


def action(kind: DecisionKind, text: str) -> object:
    if kind is DecisionKind.BID:
        return Bid.parse(text)
    if kind is DecisionKind.TRUMP:
        return Trump.parse(text)
    if kind is DecisionKind.PLAY:
        return parse_card(text)
    return tuple(sorted(parse_cards(text.split())))


NEURAL_CALL1 = {0: "JS JS JC JC AS AS KS QH", 2: "KS QD QD KD KD QC QC KC"}
# Seat 0 (declarer, 8 in spades) wins trick 1 with an ace of diamonds; seat 3 shows out of diamonds there.
RUFF = {
    0: "JS JS JC JC AS AS AD AD",
    1: "KD KH KH QH QH AH AC AC",
    2: "JH JH AH JD JD QD QD KD",
    3: "KS KS QS QS QC QC KC KC",
}


def ruff_position(preset: str) -> Game:
    """Seat 0 on lead at trick 2 with six top trumps and an ace of diamonds, seat 3 void in diamonds: a trump
    first draws the four trumps out and wins every trick; the ace first is ruffed unless seat 3 has no trump."""
    return position(
        preset,
        RUFF,
        dealer=0,
        actions=["pass", "pass", "pass", "8 S", "KD", "QD", "QC", "AD"],
        overrides=["initial_leader=left-of-dealer"],
    )


# (name, game, the best choices (any of them), a poor choice, the least loss of the poor choice)
POSITIONS = [
    ("neuralplay bid", lambda: position("neuralplay", {0: "JS JS JC JC AS AS KS KS"}, dealer=3), {"moon S"}, "8 S", 10),
    ("pagat bid", lambda: position("pagat", {0: "JS JS JC JC AS AS KS KS"}, dealer=3), {"moon S"}, "pass", 10),
    (
        "bloomington bid",
        lambda: position("bloomington", {0: "JS JS JC JC AS AS KS KS"}, dealer=5),
        {"best S"},
        "8 S",
        5,
    ),
    (
        "double-deck trump",
        lambda: position(
            "double-deck", {0: "JH JH JD JD AH AH KH KH QH QH TH TH"}, dealer=3, actions=["6", "pass", "pass", "pass"]
        ),
        {"H"},
        "S",
        5,
    ),
    (
        "hammerwalt trump",
        lambda: position(
            "hammerwalt",
            {0: "JH JH JD JD AH AH KH KH QH QH TH TH"},
            dealer=3,
            actions=["6", "pass", "pass", "pass"],
        ),
        {"H"},
        "C",
        5,
    ),
    (
        "neuralplay give",
        lambda: position("neuralplay", NEURAL_CALL1, dealer=3, actions=["call1 S", "pass", "pass", "pass"]),
        {"KS"},
        "QD",
        0,
    ),
    (
        "neuralplay discard",
        lambda: position("neuralplay", NEURAL_CALL1, dealer=3, actions=["call1 S", "pass", "pass", "pass", "KS"]),
        {"QH"},
        "JS",
        3,
    ),
    (
        "pagat discard",
        lambda: position(
            "pagat", {0: "JS JS JC JC AS AS KS QH"}, dealer=3, actions=["call1 S", "pass", "pass", "pass"]
        ),
        {"QH"},
        "AS",
        3,
    ),
    (
        "neuralplay play",
        lambda: ruff_position("neuralplay"),
        {"JS", "JC", "AS"},
        "AD",
        3,
    ),
    (
        "pagat play",
        lambda: ruff_position("pagat"),
        {"JS", "JC", "AS"},
        "AD",
        3,
    ),
]


def judged(game: Game, taken_text: str) -> tuple[DecisionKind, object, object, float, float, float]:
    view = view_to_act(game)
    assert view.decision is not None
    kind = view.decision.kind
    taken = action(kind, taken_text)
    judgement = judge(view, taken, Budget(), random.Random(5))
    assert judgement is not None
    assert judgement.taken == action_key(kind, taken)
    return kind, judgement.best, judgement.taken, judgement.loss, judgement.low, judgement.high


@pytest.mark.parametrize(("name", "make", "best", "poor", "least"), POSITIONS, ids=[p[0] for p in POSITIONS])
def test_the_known_best_choice_is_found_and_loses_nothing(
    name: str, make: Callable[[], Game], best: set[str], poor: str, least: float
) -> None:
    decision = view_to_act(make()).decision
    assert decision is not None
    kind = decision.kind
    wanted = {action_key(kind, action(kind, b)) for b in best}
    for choice in best:
        _, found, taken, loss, low, high = judged(make(), choice)
        assert found == taken, f"{name}: {choice} is best, the analysis prefers {found}"
        assert (loss, low, high) == (0.0, 0.0, 0.0)
    _, found, taken, loss, low, high = judged(make(), poor)
    assert found in wanted, f"{name}: the best choice should be one of {best}, not {found}"
    assert taken != found and loss > 0
    assert low <= loss <= high
    if least:
        assert low > least, f"{name}: {poor} should lose more than {least} points, the interval starts at {low}"
