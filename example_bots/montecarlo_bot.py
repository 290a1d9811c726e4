"""A Monte Carlo Bid Euchre bot in the spirit of NeuralPlay's levels 4 and up.

For each card it may play, the bot deals the cards it cannot see at random in
a way consistent with what its seat knows (``sdk.worlds``: its hand, the cards
played, the cards it gave and received, the suits others have shown out of,
hidden discards; worlds where a bidder lacks the tricks its bid showed are
kept less often), rebuilds the hand in the engine at this point, plays the
card, and plays the rest of the hand out with a quick policy. Every candidate
is tried in the same sampled worlds, so two cards are compared world by world.

The rules bot's card (``RulesBot``) stands unless another card beats it, on
average over the worlds, by more than ``override_z`` standard errors of that
paired difference. Measured (bench/bots.py): taking the best average outright
played about as well as the rules bot, because with tens of worlds the best of
several noisy averages is mostly noise; overriding only on clear evidence beat
it. ``override_z=None`` plays the best average outright.

The search stops at a safe fraction of ``time_limit_ms`` (the referee
forfeits a late bot). Bidding, naming trump and the exchanges use the rules
bot's heuristics.

Run it against a referee with ``python -m example_bots.montecarlo_bot``.
"""

from __future__ import annotations

import math
import time
from collections.abc import Sequence
from dataclasses import dataclass
from functools import partial

from example_bots.rules_bot import RulesBot, estimate_tricks
from sdk import (
    Bid,
    Card,
    Game,
    HandEndEvent,
    Rules,
    SeatView,
    TrickEvent,
    Trump,
    card_power,
    is_trump,
    run,
    winning_index,
)
from sdk.worlds import Determinizer, World

# Share of the decision's time limit the search may use, and a reserve kept
# whatever the limit (the simulator's or referee's own overhead, a slow tick).
TIME_SHARE = 0.5
TIME_RESERVE_MS = 25.0
# A bid shows tricks of the bidder's own (NeuralPlay's convention, and the rules
# bot's): a world in which a bidder's dealt hand counts far fewer tricks than
# BID_SHOWS x its level is unlikely, and is kept with probability
# exp(-shortfall^2 / 2) (a shortfall of one trick keeps 61%, of two 14%).
BID_SHOWS = 0.6
# Worlds tried for one kept world before taking the next one whatever it holds.
MAX_REJECTIONS = 30
# Standard errors by which a card must beat the rules bot's card to replace it.
OVERRIDE_Z = 1.0


@dataclass
class SearchStats:
    """Totals over the bot's play decisions that searched (for measuring playouts per second)."""

    decisions: int = 0
    worlds: int = 0
    playouts: int = 0
    seconds: float = 0.0


class MonteCarloBot(RulesBot):
    """Plays the card with the best average outcome over sampled deals of the unseen cards."""

    name = "montecarlo"
    version = "1"

    def __init__(
        self,
        seed: int | None = None,
        max_worlds: int | None = None,
        time_share: float = TIME_SHARE,
        override_z: float | None = OVERRIDE_Z,
    ) -> None:
        super().__init__(seed)
        # max_worlds caps the search by count (reproducible measurements); the time budget always applies.
        self.max_worlds = max_worlds
        self.time_share = time_share
        self.override_z = override_z
        self.stats = SearchStats()
        self.clock = time.perf_counter  # seconds; a test may put a fake clock here

    def budget_seconds(self) -> float:
        """Time the search may take for this decision."""
        limit = float(self.time_limit_ms)
        return max(0.0, min(limit * self.time_share, limit - TIME_RESERVE_MS)) / 1000

    def play(self, view: SeatView, legal: Sequence[Card]) -> Card:
        if len(legal) == 1:
            return legal[0]
        clock = self.clock
        started = clock()
        deadline = started + self.budget_seconds()
        determinizer = Determinizer(view)
        trick = view.current_trick
        outcomes: list[dict[Card, float]] = []  # per world, each candidate's result
        playouts = 0
        candidates = list(legal)
        evidence = bid_evidence(view)
        likelihood = partial(bid_likelihood, evidence=evidence, rules=view.rules) if evidence else None
        while clock() < deadline and (self.max_worlds is None or len(outcomes) < self.max_worlds):
            sampled = determinizer.sample_game(self.rng, MAX_REJECTIONS + 1, likelihood)
            if sampled is None:
                break
            base = sampled[1]
            self.rng.shuffle(candidates)
            results = {}
            for i, card in enumerate(candidates):
                if clock() >= deadline:
                    break
                game = base if i == len(candidates) - 1 else base.copy()
                results[card] = playout(game, card, trick, view.team)
            else:
                # Count a world only when every candidate was tried in it: the comparison stays fair.
                outcomes.append(results)
            playouts += len(results)
        elapsed = clock() - started
        self.stats.decisions += 1
        self.stats.worlds += len(outcomes)
        self.stats.playouts += playouts
        self.stats.seconds += elapsed
        return self.choose(view, legal, outcomes)

    def choose(self, view: SeatView, legal: Sequence[Card], outcomes: Sequence[dict[Card, float]]) -> Card:
        """The card with the best average over the worlds (ties: the lowest card, keeping the high ones).

        With ``override_z`` set, the rules bot's card stands unless the best card beats it
        by more than ``override_z`` standard errors of the paired difference.
        """
        if not outcomes:
            return super().play(view, legal)
        trump = view.trump
        assert trump is not None
        totals = {c: sum(o[c] for o in outcomes) for c in legal}
        best = max(legal, key=lambda c: (totals[c], -card_power(c, trump)))
        if self.override_z is None:
            return best
        default = super().play(view, legal)
        if best == default:
            return best
        diffs = [o[best] - o[default] for o in outcomes]
        n = len(diffs)
        mean = sum(diffs) / n
        variance = sum((d - mean) ** 2 for d in diffs) / max(1, n - 1)
        return best if mean > self.override_z * math.sqrt(variance / n) else default


def bid_evidence(view: SeatView) -> list[tuple[int, Trump, float]]:
    """(seat, trump, tricks of its own its bid showed) for every other seat that bid.

    A bid naming no trump counts for the declarer, in the trump it named.
    """
    rules = view.rules
    contract = view.contract
    highest: dict[int, Bid] = {}
    for seat, bid in view.bids:
        if seat != view.seat and not bid.is_pass:
            highest[seat] = bid
    evidence = []
    for seat, bid in highest.items():
        trump = bid.trump
        if trump is None:
            if contract is None or seat != contract.declarer:
                continue
            trump = contract.trump
        level = bid.level if bid.kind == "level" else rules.cards_each
        evidence.append((seat, trump, BID_SHOWS * level))
    return evidence


def bid_likelihood(world: World, evidence: Sequence[tuple[int, Trump, float]], rules: Rules) -> float:
    """How well the world's dealt hands fit the bids: 1 when every bidder had the tricks it showed."""
    likelihood = 1.0
    for seat, trump, shown in evidence:
        shortfall = shown - estimate_tricks(world.dealt[seat], trump, rules)
        if shortfall > 0:
            likelihood *= math.exp(-shortfall * shortfall / 2)
    return likelihood


def playout(game: Game, card: Card, trick: Sequence[tuple[int, Card]], team: int) -> float:
    """Play ``card`` in ``game`` and finish the hand with ``rollout_choice``.

    Returns the hand's points for ``team`` minus the average of the other teams.
    """
    rules = game.rules
    contract = game.contract
    assert contract is not None
    trump = contract.trump
    teams = [rules.team_of(s) for s in range(rules.players)]
    declarers = teams[contract.declarer]
    seats = [s for s, _ in trick]
    cards = [c for _, c in trick]
    # The play phase's own accessors (legal_plays, to_act) rather than decision(): one
    # object fewer per card, in the loop that makes up most of the search.
    seat = game.to_act
    action = card
    while True:
        events = game.apply(action)
        seats.append(seat)
        cards.append(action)
        for ev in events:
            if type(ev) is TrickEvent:
                seats, cards = [], []
            elif type(ev) is HandEndEvent:
                points = ev.points
                others = (sum(points) - points[team]) / (len(points) - 1)
                return points[team] - others
        seat = game.to_act
        legal = game.legal_plays()
        action = rollout_choice(legal, seats, cards, teams, teams[seat], trump, teams[seat] == declarers)


def rollout_choice(
    legal: Sequence[Card],
    seats: Sequence[int],
    cards: Sequence[Card],
    teams: Sequence[int],
    team: int,
    trump: Trump,
    declaring: bool,
) -> Card:
    """The quick policy that finishes a sampled hand.

    Leading: the declaring side plays its highest trump (drawing trumps), the
    defenders their highest side card (cashing aces). Following: the cheapest
    card that takes the trick from the opponents, else the cheapest card.
    (bench/bots.py measured the alternatives: leading at random cost about
    0.4 points a hand against the rules bot; a full-information greedy policy
    was no better and three times slower.)
    """
    if len(legal) == 1:
        return legal[0]
    if not cards:
        if declaring:
            trumps = [c for c in legal if is_trump(c, trump)]
            if trumps:
                return max(trumps, key=lambda c: card_power(c, trump))
        side = [c for c in legal if not is_trump(c, trump)]
        return max(side, key=lambda c: card_power(c, trump)) if side else min(legal, key=lambda c: card_power(c, trump))
    if teams[seats[winning_index(cards, trump)]] != team:
        n = len(cards)
        winners = [c for c in legal if winning_index([*cards, c], trump) == n]
        if winners:
            return min(winners, key=lambda c: card_power(c, trump))
    return min(legal, key=lambda c: card_power(c, trump))


__all__ = ["MonteCarloBot", "SearchStats", "playout", "rollout_choice"]

if __name__ == "__main__":
    run(MonteCarloBot())
