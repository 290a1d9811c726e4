"""What each choice of one decision is worth, judged from the deciding seat's view alone.

``judge(view, taken, budget, rng)`` estimates the expected points of every
legal choice of the decision in ``view`` (a ``SeatView``: the only thing it is
given, so it cannot use a card the seat could not know). It deals the cards
the seat cannot see, consistently with everything the seat knows
(``sdk.worlds``: its hand, the cards played, given and received, the voids
shown, hidden discards) and with what the auction said about the other hands
(``sdk.inference``: worlds that disagree with the bids are kept less often).
In each such *world* it tries each choice and plays the hand out with the
reference policy, the Monte Carlo bot's own playouts (or, with ``Budget.solve``,
solves it double-dummy: ``solved_outcomes``):

- a card: played, then the tricks finished by the engine's fast playout
  (``referee.engine.playout``) for every seat;
- a bid, a trump, a set of cards to give or discard: applied to the engine
  game rebuilt in that world, then the rest of the auction, trump and
  exchanges by the model of the seats (``sdk.worldmodel``), then the fast
  playout.

A choice is worth the hand's points for the seat's team, less the other
teams' average (the preset's own scoring), averaged over the worlds. Every
choice is tried in the same worlds, so two choices are compared world by
world (a paired difference, whose spread is far smaller than either's).

Many choices (an auction's bids, the sets of cards a Call 3 may discard) are
first *screened*: tried in ``budget.screen`` worlds. The best
``budget.finalists`` of them and the choice taken then go on to
``budget.samples`` fresh worlds; with few choices every one goes straight to
the final worlds. The best choice is the finalist with the highest mean. The
loss of the choice taken is measured apart from that pick (cross-fitted, see
``cross_fitted_loss``): the final worlds are split in two, the best choice of
each half is measured against the choice taken in the other half, world by
world, and the loss is the mean of those differences, with its 95% interval.

``world_outcomes`` gives the same worlds one at a time, every choice paired in each, for the browser
seat's hints and estimates (``referee.browserseat.advice.weigh``).

``hand_worth`` measures luck: what the seat's dealt cards are worth before
any decision (the whole hand played by the reference policy in worlds that
share only the seat's cards), and ``average_worth`` what any hand dealt to
the same place at the table is worth.
"""

from __future__ import annotations

import itertools
import math
import random
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from functools import lru_cache
from typing import cast

from referee.engine.bids import PASS, Bid, tricks_needed
from referee.engine.cards import Card
from referee.engine.errors import EngineError
from referee.engine.game import DecisionKind, Game, Phase
from referee.engine.playout import playout_tricks
from referee.engine.rules import Rules
from referee.engine.scoring import hand_points
from referee.engine.simulate import shuffled_deck
from referee.engine.view import SeatView
from sdk.handvalue import card_set_candidates
from sdk.inference import view_likelihood
from sdk.pimc import SOLVER_BUILT, CardSolver, ContractSolver
from sdk.worldmodel import WorldModel, finish_hand, finish_points, margin, reach_play
from sdk.worlds import Determinizer

# Worlds tried for one kept world before taking the next whatever it holds (the Monte Carlo bot's bound).
MAX_REJECTIONS = 30
# Two-sided 95% normal quantile.
Z95 = 1.96
# Deals played to learn what an average hand is worth at each place round the table (see average_worth).
AVERAGE_DEALS = 2000
# Solving (``solved_outcomes``): the nodes one world may take (a few ms of a core); a world that needs more (the first
# tricks of the long presets) is played out instead, and after two such worlds more than solved, every world of the
# decision. A count, not a time: the answer stays the same whatever the machine's load.
SOLVE_NODES = 50_000

CARD_SET_KINDS = (DecisionKind.GIVE, DecisionKind.DISCARD)


@dataclass(frozen=True, slots=True)
class Budget:
    """How hard to look: worlds per choice, the screen, and the limits on what is tried.

    ``samples``: the worlds every finalist choice is played out in (the loss and its interval
    come from these); ``screen``: the worlds every choice is first tried in, when there are
    more than ``finalists + 1``; ``finalists``: the choices besides the one taken that go on
    from the screen; ``max_sets``: a give or discard tries every set of cards when there are
    at most this many, else the sets drawn from the likeliest cards (``card_set_candidates``)
    and the set taken; ``luck_samples``: the deals that measure what a hand is worth; ``solve``: each
    world of a decision solved double-dummy (``solved_outcomes``), not played out by the reference policy.
    """

    samples: int = 48
    screen: int = 12
    finalists: int = 4
    max_sets: int = 60
    luck_samples: int = 48
    solve: bool = False

    def problems(self) -> list[str]:
        """What is wrong with the budget, one phrase each (empty when it is sound)."""
        wrong = []
        for name, least in (("samples", 2), ("screen", 2), ("finalists", 1), ("max_sets", 2), ("luck_samples", 2)):
            if getattr(self, name) < least:
                wrong.append(f"{name} must be at least {least}, got {getattr(self, name)}")
        return wrong

    def record(self) -> dict[str, int]:
        return {
            "samples": self.samples,
            "screen": self.screen,
            "finalists": self.finalists,
            "max_sets": self.max_sets,
            "luck_samples": self.luck_samples,
            "solve": int(self.solve),
        }


@dataclass(frozen=True, slots=True)
class ChoiceValue:
    """One choice and what it is worth: the mean hand margin over the worlds it was tried in."""

    action: object  # the engine action: a card, a Bid, a Trump, or a sorted tuple of cards
    mean: float
    half_width: float  # 95% interval of the mean
    worlds: int
    finalist: bool  # tried in the final worlds (else only in the screen)


@dataclass(frozen=True, slots=True)
class Judgement:
    """What one decision cost: the choice taken against the best one found, in points of hand margin."""

    kind: DecisionKind
    taken: object
    best: object
    loss: float  # what taken gave up against the best, in points (never below 0; see cross_fitted_loss)
    low: float  # 95% interval of the loss (unclipped: may reach below 0)
    high: float
    worlds: int  # final worlds
    choices: tuple[ChoiceValue, ...]  # every choice tried: finalists first, best first
    legal: int  # legal choices (for a give or discard, distinct sets of cards)


@dataclass(frozen=True, slots=True)
class Worth:
    """A mean with its 95% interval half-width and the number of samples behind it."""

    mean: float
    half_width: float
    samples: int


@dataclass(frozen=True, slots=True)
class Outcome:
    """What a choice came to in one world: the tricks the seat's team took, and the hand margin (its points
    less the other teams' average)."""

    tricks: int
    margin: float


def finish_outcome(game: Game, model: WorldModel, team: int) -> Outcome:
    """Play ``game``'s hand to its end as ``finish_hand`` does (the model decides, then the fast playout):
    ``team``'s tricks and margin (0 and 0 for a hand thrown in). ``game`` is consumed."""
    while game.phase is not Phase.PLAY:
        decision = game.decision()
        if decision is None:
            return Outcome(0, 0.0)  # thrown in
        game.apply(model.action(game, decision))
    contract = game.contract
    assert contract is not None and game.to_act is not None
    rules = game.rules
    taken = playout_tricks(
        rules, contract, game.hands, game.to_act, game.trick_seats, game.trick_cards, game.tricks_won
    )
    return Outcome(taken[team], margin(hand_points(rules, contract.bid, contract.declarer, taken)[1], team))


def action_key(kind: DecisionKind, action: object) -> object:
    """The action as a hashable choice: a give or discard as a sorted tuple of cards."""
    if kind in CARD_SET_KINDS:
        assert isinstance(action, tuple | list)
        return tuple(sorted(action))
    return action


def engine_action(kind: DecisionKind, choice: object) -> object:
    """A choice as the engine takes it: the cards of a give or discard as a list."""
    if kind in CARD_SET_KINDS:
        assert isinstance(choice, tuple | list)
        return list(choice)
    return choice


def choices_of(view: SeatView, taken: object, budget: Budget) -> tuple[list[object], int]:
    """The choices to try (the one taken first) and the number of legal choices in all.

    Bids, trumps and cards: every legal one. A give or discard: every distinct set of
    cards when there are at most ``budget.max_sets``, else the sets drawn from the
    likeliest cards, as many of them as fit in ``max_sets``, and the set taken.
    """
    decision = view.decision
    assert decision is not None
    kind = decision.kind
    taken = action_key(kind, taken)
    if kind not in CARD_SET_KINDS:
        options = list(decision.options)
        return [taken, *(o for o in options if o != taken)], len(options)
    hand = sorted(view.hand)
    count = decision.count
    every = sorted(set(itertools.combinations(hand, count)))
    if len(every) <= budget.max_sets:
        return [taken, *(s for s in every if s != taken)], len(every)
    spare = 1
    while math.comb(count + spare + 1, count) <= budget.max_sets and count + spare + 1 <= len(hand):
        spare += 1
    contract = view.contract
    best_first = kind is DecisionKind.GIVE and contract is not None and decision.to == contract.declarer
    assert isinstance(taken, tuple)
    candidates = card_set_candidates(view, count, best_first, taken, spare)
    return list(dict.fromkeys([taken, *candidates])), len(every)


def _interval(values: Sequence[float]) -> tuple[float, float]:
    """Mean and 95% half-width of ``values`` (half-width 0 for fewer than two)."""
    n = len(values)
    mean = sum(values) / n
    if n < 2:
        return mean, 0.0
    variance = sum((v - mean) ** 2 for v in values) / (n - 1)
    return mean, Z95 * math.sqrt(variance / n)


class _Worlds:
    """Samples worlds for one decision and plays each choice out in them (see the module docstring)."""

    def __init__(self, view: SeatView, rng: random.Random, solve: bool = False) -> None:
        decision = view.decision
        assert decision is not None
        self.view = view
        self.rng = rng
        self.kind = decision.kind
        self.team = view.team
        self.determinizer = Determinizer(view)
        self.likelihood = view_likelihood(view)
        self.cards: CardSolver | None = None  # solving: a card's worlds
        self.solved = self.dear = 0  # solving a card: worlds solved, and worlds that reached the node limit
        self.hands: ContractSolver | None = None  # solving: a bid's, trump's or exchange's worlds
        if self.kind is DecisionKind.PLAY:
            contract = view.contract
            assert contract is not None
            trick = view.current_trick
            self._trick_seats = tuple(s for s, _ in trick)
            self._trick_cards = tuple(c for _, c in trick)
            self._contract = contract
            self._tricks_won = view.tricks_won
            if solve:
                tricks_left = len(view.hand)
                self.cards = CardSolver(
                    view.rules, contract, view.seat, self._trick_cards, view.tricks_won, tricks_left, None, SOLVE_NODES
                )
        elif solve:
            self.hands = ContractSolver(view.rules, self.team, None, SOLVE_NODES)

    def sample(self, count: int) -> list[Callable[[object], Outcome]]:
        """Up to ``count`` worlds, each as a function from a choice to what it comes to there."""
        worlds: list[Callable[[object], Outcome]] = []
        for _ in range(count):
            world = self._one()
            if world is None:
                break
            worlds.append(world)
        return worlds

    def _one(self) -> Callable[[object], Outcome] | None:
        rules, view = self.view.rules, self.view
        if self.kind is DecisionKind.PLAY:
            sampled = self.determinizer.sample_fitting(self.rng, MAX_REJECTIONS + 1, self.likelihood)
            if sampled is None:
                return None
            hands = sampled.hands
            solved = None if self.cards is None else self.cards.outcomes(hands)
            if solved is not None:
                self.solved += 1
                exact = solved
                return lambda card: Outcome(*exact[cast(Card, card)])
            if self.cards is not None:
                self.dear += 1
                if self.dear >= 2 and self.dear > self.solved:
                    self.cards = None  # the worlds of this decision are too dear: play the rest out
            contract, seat, team = self._contract, view.seat, self.team
            trick_seats, trick_cards, won = self._trick_seats, self._trick_cards, self._tricks_won

            def play(card: object) -> Outcome:
                assert isinstance(card, int)
                taken = playout_tricks(rules, contract, hands, seat, trick_seats, trick_cards, won, card)
                points = hand_points(rules, contract.bid, contract.declarer, taken)[1]
                return Outcome(taken[team], margin(points, team))

            return play
        rebuilt = self.determinizer.sample_game(self.rng, MAX_REJECTIONS + 1, self.likelihood)
        if rebuilt is None:
            return None
        base = rebuilt[1]
        model = WorldModel(rules)  # its counts of each hand are shared by every choice tried in the world
        team, kind = self.team, self.kind

        solver = self.hands
        memo: dict[tuple[object, ...], int] = {}  # the world's solves, shared by its choices

        def decide(choice: object) -> Outcome:
            game = base.copy()
            game.apply(engine_action(kind, choice))
            if solver is not None:
                if not reach_play(game, model):
                    return Outcome(0, 0.0)  # thrown in
                solved = solver.outcomes({0: game}, memo)
                if solved is not None:
                    return Outcome(*solved[0])
            return finish_outcome(game, model, team)  # a world too dear to solve: played out

        return decide


def judge(view: SeatView, taken: object, budget: Budget, rng: random.Random) -> Judgement | None:
    """Every choice of the decision in ``view`` valued, and the loss of ``taken`` (None: no world could be dealt).

    ``view`` must be the deciding seat's view at the decision (``view.decision`` set).
    """
    decision = view.decision
    if decision is None:
        raise ValueError("the view has no decision to judge")
    kind = decision.kind
    choices, legal = choices_of(view, taken, budget)
    taken = choices[0]
    try:
        worlds = _Worlds(view, rng, budget.solve and SOLVER_BUILT)
    except ValueError:
        return None  # the view does not add up (cannot happen for a view the engine made)
    screened: dict[object, ChoiceValue] = {}
    finalists = choices
    if len(choices) > budget.finalists + 1:
        screen = worlds.sample(budget.screen)
        if not screen:
            return None
        for c in choices:
            screened[c] = ChoiceValue(c, *_interval([w(c).margin for w in screen]), len(screen), False)
        ranked = sorted(choices[1:], key=lambda c: -screened[c].mean)
        finalists = [taken, *ranked[: budget.finalists]]
    final = worlds.sample(budget.samples)
    if not final:
        return None
    values: dict[object, list[float]] = {c: [w(c).margin for w in final] for c in finalists}
    tried: dict[object, ChoiceValue] = {}
    for c in finalists:
        mean, half = _interval(values[c])
        tried[c] = ChoiceValue(c, mean, half, len(values[c]), True)
    # The best is the finalist with the highest mean; the choice taken wins a tie.
    best = max(finalists, key=lambda c: (tried[c].mean, c == taken))
    loss, half = cross_fitted_loss(values, taken)
    order = sorted(tried.values(), key=lambda v: -v.mean) + sorted(
        (v for c, v in screened.items() if c not in tried), key=lambda v: -v.mean
    )
    if best == taken:
        loss, half = 0.0, 0.0
    return Judgement(kind, taken, best, max(0.0, loss), loss - half, loss + half, len(final), tuple(order), legal)


def cross_fitted_loss(values: dict[object, list[float]], taken: object) -> tuple[float, float]:
    """The loss of ``taken`` against the best choice, picked in one half of the worlds and measured in the other.

    The worlds are split in two (even and odd); the best choice of each half is measured
    against ``taken`` in the other half, world by world. Picking and measuring in the same
    worlds would favour whichever choice the noise flattered (the winner's curse: with five
    equal choices the best looks a standard error better than the rest); measured apart,
    the loss is at worst understated, never made up. Returns the mean of the differences
    and its 95% half-width.
    """
    n = len(values[taken])
    halves = (range(0, n, 2), range(1, n, 2))

    def best_in(worlds: range) -> object:
        return max(values, key=lambda c: (sum(values[c][w] for w in worlds), c == taken))

    picked = [best_in(halves[1]), best_in(halves[0])]  # for the worlds of half 0, the choice half 1 picked
    diffs = [values[picked[w % 2]][w] - values[taken][w] for w in range(n)]
    return _interval(diffs)


# ------------------------------------------------------------------ worlds for a player's advice


def world_outcomes(
    view: SeatView, choices: Sequence[object], rng: random.Random, solve: bool = False
) -> Iterator[tuple[Outcome, ...]]:
    """Worlds dealt one after another as ``judge`` deals them, each given as what every one of ``choices`` (as
    ``choices_of`` names them) comes to there, in order: the choices are paired, world by world. The stream
    ends when no world can be dealt. Like ``judge``, it sees the seat's view and nothing else. ``solve``: each
    world solved double-dummy (``solved_outcomes``)."""
    if view.decision is None:
        raise ValueError("the view has no decision to weigh")
    try:
        worlds = _Worlds(view, rng, solve)
    except ValueError:
        return  # the view does not add up (cannot happen for a view the engine made)
    while (world := worlds.sample(1)) != []:
        yield tuple(world[0](c) for c in choices)


def solved_outcomes(view: SeatView, choices: Sequence[object], rng: random.Random) -> Iterator[tuple[Outcome, ...]]:
    """The table's evaluator: ``world_outcomes`` with each world of a card solved double-dummy (``sdk.pimc``): a
    card's outcome is what best play of every seat makes of it there, exactly. A world that would take more than
    ``SOLVE_NODES`` nodes is played out by the reference policy instead (see ``SOLVE_NODES``). A bid, trump or
    exchange is played out as ``world_outcomes`` does: solving the hand after each choice (``Budget.solve``) costs
    five times as much there and narrowed nothing (bench/advice.py, docs/play.md). Without the compiled solver:
    every world played out."""
    decision = view.decision
    card = decision is not None and decision.kind is DecisionKind.PLAY
    return world_outcomes(view, choices, rng, solve=SOLVER_BUILT and card)


@dataclass(frozen=True, slots=True)
class BidChance:
    """How often a bid makes in the worlds tried, if it stands (the others pass), with its 95% interval."""

    bid: Bid
    made: int
    worlds: int
    half_width: float

    @property
    def chance(self) -> float:
        return self.made / self.worlds


def bid_chance(view: SeatView, bid: Bid, samples: int, rng: random.Random) -> BidChance | None:
    """The chance that ``bid``, one of the legal bids of the auction in ``view``, makes if it wins the auction:
    worlds dealt as ``judge`` deals them (consistent with the hand and the auction so far), the bid made in
    each, the other seats passing where they may, then trump, exchanges and play as the reference policy
    decides. None when no world could be dealt."""
    decision = view.decision
    if decision is None or decision.kind is not DecisionKind.BID:
        raise ValueError("a bid's chance is asked at a bid decision")
    if bid not in decision.bids:
        raise ValueError(f"{bid.text()!r} is not a legal bid now")
    determinizer = Determinizer(view)
    likelihood = view_likelihood(view)
    team = view.team
    rules = view.rules
    made = tried = 0
    for _ in range(samples):
        rebuilt = determinizer.sample_game(rng, MAX_REJECTIONS + 1, likelihood)
        if rebuilt is None:
            break
        game = rebuilt[1]
        model = WorldModel(rules)
        game.apply(bid)
        while game.phase is not Phase.PLAY:
            step = game.decision()
            if step is None:
                break
            if step.kind is DecisionKind.BID and PASS in step.bids:
                game.apply(PASS)
            else:
                game.apply(model.action(game, step))
        contract = game.contract
        if contract is None or game.to_act is None:
            continue  # cannot happen once a bid stands; counted as no world
        taken = playout_tricks(
            rules, contract, game.hands, game.to_act, game.trick_seats, game.trick_cards, game.tricks_won
        )
        tried += 1
        made += taken[team] >= tricks_needed(contract.bid, rules)
    if not tried:
        return None
    p = made / tried
    return BidChance(bid, made, tried, Z95 * math.sqrt(p * (1 - p) / tried))


# ------------------------------------------------------------------ luck


def hand_worth(view: SeatView, samples: int, rng: random.Random) -> Worth | None:
    """What the seat's dealt cards are worth: its team's mean hand margin, the hand played by the reference policy.

    ``view`` is the seat's view right after the deal, before any decision: the other hands are dealt
    at random (nothing else is known yet), and every seat, this one too, bids and plays as the
    reference policy does. None when no world could be dealt.
    """
    determinizer = Determinizer(view)
    margins: list[float] = []
    for _ in range(samples):
        rebuilt = determinizer.sample_game(rng, MAX_REJECTIONS + 1)
        if rebuilt is None:
            break
        margins.append(finish_hand(rebuilt[1], WorldModel(view.rules), view.team))
    if not margins:
        return None
    mean, half = _interval(margins)
    return Worth(mean, half, len(margins))


def average_worth(rules: Rules, seed: int, deals: int = AVERAGE_DEALS) -> tuple[Worth, ...]:
    """What an average hand is worth at each place round the table: index k is the seat k to the dealer's left
    (0: the dealer), its team's mean hand margin over ``deals`` random deals played by the reference policy."""
    return _average_worth(rules, seed, deals)


@lru_cache(maxsize=16)
def _average_worth(rules: Rules, seed: int, deals: int) -> tuple[Worth, ...]:
    rng = random.Random(f"analyze:average:{seed}")
    margins: list[list[float]] = [[] for _ in range(rules.players)]
    template = Game(rules, 0)
    for _ in range(deals):
        game = template.copy()
        game.deal(shuffled_deck(rules, rng))
        try:
            points = finish_points(game, WorldModel(rules))
        except EngineError as exc:  # the model plays through the engine; an illegal action is a bug
            raise RuntimeError(f"the reference policy broke a rule: {exc}") from exc
        for offset in range(rules.players):
            team = rules.team_of(offset)  # the dealer is seat 0
            margins[offset].append(0.0 if points is None else margin(points, team))
    worths = []
    for values in margins:
        mean, half = _interval(values)
        worths.append(Worth(mean, half, len(values)))
    return tuple(worths)
