"""The learning features' answers and what the page is sent, without a browser: only the seat's view counts
(two deals that differ only in cards the seat cannot see give the same answers); the one weighing behind the
hint and the estimates (its statistics on worlds of known outcomes, its paired worlds, its reason made of the
estimates' own figures); where each seat sits on the screen; typed bids; and the command line's switches."""

from __future__ import annotations

import itertools
import random
import re
from collections.abc import Iterator, Sequence

import pytest

from referee.analyze.evaluate import MAX_REJECTIONS, Outcome, solved_outcomes, world_outcomes
from referee.browserseat import advice
from referee.browserseat.advice import AdviceBudget, chance_json, reason, versus, weigh, weighing_json
from referee.browserseat.state import Refused, action_json, choice_text, positions, typed_bid, view_json
from referee.engine.bids import Bid
from referee.engine.cards import card_str, parse_card
from referee.engine.deal import deck_for_hands
from referee.engine.game import CLAIM, DecisionKind, Game
from referee.engine.presets import rules_for
from referee.engine.rules import Rules
from referee.engine.simulate import shuffled_deck
from referee.engine.view import SeatView, seat_view
from sdk.inference import view_likelihood
from sdk.pimc import SOLVER_BUILT, CardSolver
from sdk.worlds import Determinizer
from tests.support.arena import arena
from tests.support.browserseat import card_texts_json

BUDGET = AdviceBudget(play_first=12, play_most=48, decide_first=8, decide_most=16, chance=16)
NUMBER = re.compile(r"\d+\.\d\d|\d+")


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


def views(preset: str, seed: int, kinds: Sequence[DecisionKind], count: int) -> list[SeatView]:
    """Views at decisions of ``kinds`` with a choice to make, from a game the seats play at random."""
    rules = rules_for(preset, [])
    rng = random.Random(seed)
    found: list[SeatView] = []
    while len(found) < count:
        game = Game(rules, rng.randrange(rules.players))
        game.deal(shuffled_deck(rules, rng))
        while (decision := game.decision()) is not None and len(found) < count:
            view = seat_view(game, decision.seat)
            if decision.kind in kinds and len(decision.options) > 1 and rng.random() < 0.4:
                found.append(view)
            if decision.kind in (DecisionKind.GIVE, DecisionKind.DISCARD):
                game.apply(rng.sample(list(game.hands[decision.seat]), decision.count))
            else:
                game.apply(rng.choice(list(decision.options)))
    return found


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
    bid = next(b for b in view.decision.bids if not b.is_pass)  # type: ignore[union-attr]
    answers = (weighing_json(weigh(view, BUDGET)), chance_json(view, bid, BUDGET))
    assert answers == (weighing_json(weigh(same_seen, BUDGET)), chance_json(same_seen, bid, BUDGET))
    assert answers[0]["rows"] and answers[0]["worlds"] >= BUDGET.decide_first
    # the seat's own cards do count: another hand of its own, other estimates
    mine = [list(h) for h in hands]
    mine[seat], mine[others[0]] = hands[others[0]], hands[seat]
    assert weighing_json(weigh(first_bid_view(rules, mine, seat), BUDGET)) != answers[0]
    # and the page is sent no card the seat has not seen
    sent = card_texts_json(view_json(view, ["x"] * rules.players))
    assert set(sent) == {card_str(c) for c in hands[seat]}  # its hand (as held and as dealt), nothing else


def known_worlds(table: Sequence[Sequence[tuple[int, float]]]) -> object:
    """An evaluator whose world k gives choice c ``table[k][c]`` (tricks, points), whatever the view: the
    weighing's arithmetic checked on figures worked out here. It gives the next worlds each time it is asked,
    as the real one does (its worlds go on from where the generator stands)."""
    at = [0]

    def evaluate(view: SeatView, choices: Sequence[object], rng: random.Random) -> Iterator[tuple[Outcome, ...]]:
        everyone = list(view.decision.options)  # type: ignore[union-attr]
        while at[0] < len(table):
            row = table[at[0]]
            at[0] += 1
            yield tuple(Outcome(*row[everyone.index(c)]) for c in choices)

    return evaluate


def test_the_weighing_is_paired_means_and_standard_errors() -> None:
    view = views("neuralplay", 3, [DecisionKind.PLAY], 1)[0]
    options = list(view.decision.options)  # type: ignore[union-attr]
    rng = random.Random(5)
    # choice 0 a point better than choice 1 in every world (its difference has no spread at all), choice 2
    # far behind; the others as choice 1
    table = []
    for _ in range(8):
        base = rng.choice([-4.0, 0.0, 4.0])
        table.append([(3, base + 1.0), (2, base), *[(1, base - 6.0 + rng.random())] * (len(options) - 2)])
    budget = AdviceBudget(play_first=8, play_most=8)
    weighing = weigh(view, budget, known_worlds(table))  # type: ignore[arg-type]
    assert weighing is not None and weighing.worlds == 8
    best, second = weighing.weights[0], weighing.weights[1]
    assert best.choice == options[0] and second.choice == options[1]
    assert best.points == pytest.approx(sum(r[0][1] for r in table) / 8)
    assert second.behind == pytest.approx(1.0) and second.behind_se == 0.0 and second.apart  # paired: no noise
    assert second.tricks_behind == pytest.approx(1.0)
    if len(options) > 2:
        third = weighing.weights[2]
        diffs = [r[0][1] - r[2][1] for r in table]
        mean = sum(diffs) / 8
        se = (sum((d - mean) ** 2 for d in diffs) / 7 / 8) ** 0.5
        assert third.behind == pytest.approx(mean) and third.behind_se == pytest.approx(se)


def test_more_worlds_go_only_where_the_order_is_in_doubt() -> None:
    view = views("neuralplay", 4, [DecisionKind.PLAY], 1)[0]
    options = list(view.decision.options)  # type: ignore[union-attr]
    if len(options) < 3:
        view = views("neuralplay", 6, [DecisionKind.PLAY], 3)[-1]
        options = list(view.decision.options)  # type: ignore[union-attr]
    assert len(options) >= 3
    rng = random.Random(2)
    # the first two are as good as each other (a point apart either way, as often); every other choice far behind
    table = [
        [(2, x), (2, x + (1.0 if k % 2 else -1.0)), *[(0, -20.0)] * (len(options) - 2)]
        for k, x in enumerate(rng.gauss(0, 3) for _ in range(64))
    ]
    asked: list[int] = []
    evaluate = known_worlds(table)

    def counting(v: SeatView, choices: Sequence[object], r: random.Random) -> Iterator[tuple[Outcome, ...]]:
        asked.append(len(choices))
        return evaluate(v, choices, r)  # type: ignore[operator]

    weighing = weigh(view, AdviceBudget(play_first=8, play_most=64), counting)
    assert weighing is not None and weighing.worlds == 64  # the two leaders could not be told apart
    assert asked[0] == len(options) and all(n == 2 for n in asked[1:])  # the rest were dropped after 8
    assert [w.worlds for w in weighing.weights[:2]] == [64, 64]
    assert all(w.worlds == 8 and w.apart for w in weighing.weights[2:])
    assert not weighing.weights[1].apart  # and the page says so
    assert "as good as 64 deals can tell" in reason(weighing)


def figures(text: str) -> set[str]:
    return set(NUMBER.findall(text))


def without_names(text: str, names: Sequence[str]) -> str:
    """``text`` with the choices' names taken out (a card's rank or a bid's level is no figure)."""
    for name in sorted(names, key=len, reverse=True):
        text = text.replace(name, "")
    return text


@pytest.mark.parametrize("preset", ["neuralplay", "bloomington"])
def test_the_hint_is_the_estimates_best_and_its_reason_their_figures(preset: str) -> None:
    for view in views(preset, 9, [DecisionKind.BID, DecisionKind.PLAY, DecisionKind.TRUMP], 6):
        weighing = weigh(view, BUDGET)
        assert weighing is not None
        shown = weighing_json(weighing)
        rows = shown["rows"]
        assert shown["choice"] == rows[0]["choice"]  # the hint is the estimates' first row
        named = [r for r in rows if r["text"] in shown["reason"]]
        said = figures(without_names(shown["reason"], [r["text"] for r in named]))
        allowed = {str(shown["worlds"])} | {
            f
            for r in named
            for f in (r["tricks"], r["points"].lstrip("+-"), r["behind"], r["tricksBehind"].lstrip("-"), r["half"])
        }
        assert said <= allowed, (shown["reason"], said - allowed)
        assert said, shown["reason"]
        # the person's choice against the AI's: both restated, the cost the row's own
        mine = rows[-1]
        against = versus(weighing, weighing.weights[len(rows) - 1].choice)
        assert mine["text"] in against and rows[0]["text"] in against
        assert f"costs {mine['behind']} ± {mine['half']}" in against


def test_world_outcomes_pairs_every_choice_in_the_same_world() -> None:
    view = views("neuralplay", 12, [DecisionKind.PLAY], 1)[0]
    options = list(view.decision.options)  # type: ignore[union-attr]
    rows = list(zip(range(6), world_outcomes(view, options, random.Random(1)), strict=False))
    again = list(zip(range(6), world_outcomes(view, list(reversed(options)), random.Random(1)), strict=False))
    for (_, row), (_, back) in zip(rows, again, strict=True):
        assert list(row) == list(reversed(back))  # the same worlds whatever the order of the choices


@pytest.mark.skipif(not SOLVER_BUILT, reason="the compiled solver is not built")
def test_the_tables_evaluator_solves_each_world_exactly() -> None:
    # At a card: each world's outcomes are the solver's for the hands dealt there (the same generator, the same
    # worlds), every choice paired; the weighing's spread at a card comes from the worlds alone.
    assert advice.EVALUATOR is solved_outcomes
    for view in views("neuralplay", 12, [DecisionKind.PLAY], 3):
        cards = list(view.decision.options)  # type: ignore[union-attr]
        contract = view.contract
        assert contract is not None
        trick = tuple(c for _, c in view.current_trick)
        solver = CardSolver(view.rules, contract, view.seat, trick, view.tricks_won, len(view.hand))
        sampler, likelihood = Determinizer(view), view_likelihood(view)
        rng = random.Random(4)
        for row in itertools.islice(solved_outcomes(view, cards, random.Random(4)), 5):
            world = sampler.sample_fitting(rng, MAX_REJECTIONS + 1, likelihood)
            assert world is not None
            exact = solver.outcomes(world.hands)
            assert exact is not None
            assert list(row) == [Outcome(*exact[c]) for c in cards]
    # At a bid: played out (solving costs five times as much there), every choice in every world.
    view = views("neuralplay", 3, [DecisionKind.BID], 1)[0]
    bids = list(view.decision.options)  # type: ignore[union-attr]
    rows = list(itertools.islice(solved_outcomes(view, bids, random.Random(2)), 4))
    assert len(rows) == 4 and all(len(row) == len(bids) for row in rows)
    assert all(0 <= o.tricks <= view.rules.cards_each for row in rows for o in row)


def test_a_claim_is_an_answer_the_page_can_name() -> None:
    """The hint bot's claim broke ``action_json`` (an assert on int): a claim is named, anything else refused
    with a message."""
    assert action_json(CLAIM) == "claim" and choice_text(CLAIM) == "claim"
    assert action_json(parse_card("JD")) == "JD" and choice_text(parse_card("JD")) == "J♦"
    with pytest.raises(ValueError, match="not an answer"):
        action_json(object())


def test_typed_bids_are_read_as_a_person_types_them() -> None:
    rules = rules_for("neuralplay", [])
    decision = first_bid_view(rules, dealt(rules, 1), 1).decision  # the auction's first bid: every bid allowed
    assert decision is not None
    legal = {b.text() for b in decision.bids}
    for typed, bid in (
        ("4s", "4 S"),
        ("4 S", "4 S"),
        ("4♠", "4 S"),
        ("4 s", "4 S"),
        ("3 HIGH", "3 high"),
        ("pass", "pass"),
    ):
        if bid in legal:
            assert typed_bid(typed, decision) == Bid.parse(bid), typed
    with pytest.raises(Refused) as refused:
        typed_bid("xx", decision)
    message = str(refused.value)
    assert "'xx' is not a bid" in message and "1 to 8" in message and "with ♠, ♥, ♦, ♣ or high" in message
    # this preset's special bids, and no other's
    assert "call2" in message and "moon" in message and "best" not in message and "pepper" not in message
    six_seats = rules_for("bloomington", [])
    six = first_bid_view(six_seats, dealt(six_seats, 1), 1).decision
    assert six is not None
    with pytest.raises(Refused, match="best") as refused:
        typed_bid("call1 h", six)
    assert "call1" in str(refused.value) and "moon" not in str(refused.value).split(":", 1)[1]


def test_places_round_the_table() -> None:
    """South is the person; the partner North with four seats and with three teams of two; with two teams
    of three, the partners upper left and upper right; each place has its letters."""
    four = positions(rules_for("neuralplay", []), 1)
    assert four[1]["place"] == "South" and four[3]["place"] == "North" and four[2]["place"] == "West"
    assert [four[s]["dir"] for s in (1, 2, 3, 0)] == ["S", "W", "N", "E"]
    six_two_teams = positions(rules_for("bloomington", []), 0)
    assert [six_two_teams[s]["place"] for s in (2, 4)] == ["North-west", "North-east"]
    assert [p["dir"] for p in six_two_teams] == ["S", "SW", "NW", "N", "NE", "SE"]
    three = positions(rules_for("double-deck-3p", []), 0)
    assert [p["place"] for p in three] == ["South", "North-west", "North-east"]
    six_three_teams = positions(rules_for("bloomington", ["teams=3"]), 4)
    assert six_three_teams[(4 + 3) % 6]["place"] == "North"


def test_bots_are_named_by_their_level() -> None:
    view = views("neuralplay", 2, [DecisionKind.BID], 1)[0]
    others = iter(["mccards", "rules", "mine"])
    shown = view_json(view, ["you" if s == view.seat else next(others) for s in range(4)])
    levels = dict(zip(shown["names"], shown["levels"], strict=True))
    assert levels["mccards"] == 5 and levels["rules"] == 4 and levels["mine"] is None and levels["you"] is None


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
