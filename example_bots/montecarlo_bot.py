"""A Monte Carlo Bid Euchre bot that bids, names trump, exchanges and plays by simulation.

Every decision with a choice is searched the same way. The bot deals the
cards it cannot see at random, consistently with what its seat knows
(``sdk.worlds``: its hand, the cards played, given and received, shown voids,
hidden discards) and with what the auction says about the other hands
(``sdk.inference``: a bid shows tricks, a first-turn pass shows their lack;
worlds that disagree are kept less often). In each sampled world it tries
every candidate action and plays the hand out:

- card play: the candidate card, then the engine's fast playout policy
  (``referee.engine.playout``) from the cards each seat holds;
- bids, trump, gifts and discards: the candidate on a rebuilt engine game,
  then the rest of the auction, trump and exchanges by a lean model of the
  other seats (``sdk.worldmodel``), then the fast playout.

Each hand is scored by the preset's own scoring (the engine's
``hand_points``), as the bot's team's points minus the other teams' average,
and every candidate is tried in the same worlds so they are compared world by
world. The rules bot's choice (``RulesBot``) stands unless another beats it,
on average over the worlds, by more than ``override_z`` (cards) or
``decide_z`` (the rest) standard errors of that paired difference (measured:
with tens of worlds, the best of several noisy averages is mostly noise;
``None`` takes the best outright).
Bids are many: after ``PRUNE_AFTER`` worlds only the ``KEEP`` best candidates
(and the rules bot's bid) go on being tried. A claim is the rules bot's: on
lead with nothing but sure winners, it claims the rest of the hand unsearched.

Budget: ``--level 1..4`` (see ``LEVELS``; the README has measured strength)
sets the worlds per decision and the share of the referee's ``time_limit_ms``
the search may take; ``--worlds`` and ``--time-share`` override them. The
search always stops at that share, less a reserve, so the bot answers in time
whatever the machine's load. With a fixed number of worlds and a seed, the bot
plays the same way every time (``--seed`` or the referee's ARENA_SEED).

Run it against a referee with ``python -m example_bots.montecarlo_bot [--level N]``.
"""

from __future__ import annotations

import argparse
import math
import sys
import time
from collections.abc import Callable, Hashable, Sequence
from dataclasses import dataclass
from typing import TypeVar

from example_bots.rules_bot import RulesBot
from referee.engine.playout import playout_points
from sdk import PASS, Bid, Card, Contract, Rules, SeatView, Trump, card_power, run
from sdk.handvalue import card_set_candidates, estimate_tricks
from sdk.inference import view_likelihood
from sdk.worldmodel import WorldModel, finish_hand, margin
from sdk.worlds import Determinizer, World

# A reserve kept whatever the limit (the simulator's or referee's own overhead, a slow tick).
TIME_RESERVE_MS = 25.0
# Worlds tried for one kept world before taking the next one whatever it holds.
MAX_REJECTIONS = 30
# Standard errors by which a card must beat the rules bot's to replace it.
OVERRIDE_Z = 1.0
# The same for bids, trump and exchanges: stricter, as the best of tens of candidate bids beats
# the rules bot's by one standard error by chance alone (measured on indiana: at 1.0 the bot lost
# 0.9 points a hand to the rules bot on 16 deals; at 2.0, 0.2 on the same deals).
DECIDE_Z = 2.0
# Bidding: after this many worlds, only the best KEEP candidates (and the rules bot's bid) go on.
PRUNE_AFTER = 8
KEEP = 5
# Bidding: level bids tried per trump, from the cheapest legal one up.
LEVELS_TRIED = 3
# ... and the levels within this many tricks of the team's count in that trump.
WORTH_SPAN = 1.5


@dataclass(frozen=True)
class Level:
    """A search budget: worlds per card-play decision, worlds per other decision, share of the time limit."""

    play_worlds: int | None  # None: as many as the time allows
    decide_worlds: int | None
    time_share: float


# What ``search`` weighs: bids, trumps, or the sets of cards to give or discard (tuples, to be hashable).
_Candidate = TypeVar("_Candidate", Bid, Trump, tuple[Card, ...])
_C = TypeVar("_C", bound=Hashable)

# From fast to strong; the time share always bounds the search (at the referee's default 1000 ms,
# level 3 searches for up to 500 ms a decision).
LEVELS = {
    1: Level(play_worlds=12, decide_worlds=16, time_share=0.3),
    2: Level(play_worlds=40, decide_worlds=48, time_share=0.4),
    3: Level(play_worlds=100, decide_worlds=120, time_share=0.5),
    4: Level(play_worlds=None, decide_worlds=None, time_share=0.6),
}
DEFAULT_LEVEL = 3
FROM_LEVEL = -1  # a budget argument left to the level


@dataclass
class SearchStats:
    """Totals over the bot's decisions that searched (for measuring playouts per second)."""

    decisions: int = 0
    worlds: int = 0
    playouts: int = 0
    seconds: float = 0.0


@dataclass(frozen=True)
class PlayPosition:
    """The public part of a hand in play that a card-play playout starts from."""

    contract: Contract
    seat: int
    trick_seats: tuple[int, ...]
    trick_cards: tuple[Card, ...]
    tricks_won: tuple[int, ...]


class MonteCarloBot(RulesBot):
    """Takes the action with the best average outcome over sampled deals (see the module docstring)."""

    name = "montecarlo"
    version = "2"

    def __init__(
        self,
        seed: int | None = None,
        level: int = DEFAULT_LEVEL,
        max_worlds: int | None = FROM_LEVEL,
        decide_worlds: int | None = FROM_LEVEL,
        time_share: float | None = None,
        override_z: float | None = OVERRIDE_Z,
        decide_z: float | None = DECIDE_Z,
    ) -> None:
        super().__init__(seed)
        if level not in LEVELS:
            raise ValueError(f"level {level!r} is not one of {sorted(LEVELS)}")
        budget = LEVELS[level]
        self.level = level
        # Worlds per decision cap the search by count (reproducible play); the time budget always applies.
        self.max_worlds = budget.play_worlds if max_worlds == FROM_LEVEL else max_worlds
        self.decide_worlds = budget.decide_worlds if decide_worlds == FROM_LEVEL else decide_worlds
        self.time_share = budget.time_share if time_share is None else time_share
        self.override_z = override_z  # card play
        self.decide_z = decide_z  # bids, trump, exchanges
        self.stats = SearchStats()  # card play: playouts from the hands
        self.decide_stats = SearchStats()  # bids, trump, exchanges: hands finished from rebuilt games
        self.clock = time.perf_counter  # seconds; a test may put a fake clock here

    def budget_seconds(self) -> float:
        """Time the search may take for this decision."""
        limit = float(self.time_limit_ms)
        return max(0.0, min(limit * self.time_share, limit - TIME_RESERVE_MS)) / 1000

    def likelihood(self, view: SeatView) -> Callable[[World], float] | None:
        """How well a sampled world fits the auction so far (None: nothing to go on)."""
        return view_likelihood(view)

    # ------------------------------------------------------------- card play

    def choose_card(self, view: SeatView, legal: Sequence[Card]) -> Card:
        if len(legal) == 1:
            return legal[0]
        clock = self.clock
        started = clock()
        deadline = started + self.budget_seconds()
        determinizer = Determinizer(view)
        contract = view.contract
        assert contract is not None
        trick = view.current_trick
        position = PlayPosition(
            contract, view.seat, tuple(s for s, _ in trick), tuple(c for _, c in trick), view.tricks_won
        )
        likelihood = self.likelihood(view)
        outcomes: list[dict[Card, float]] = []  # per world, each candidate's result
        playouts = 0
        candidates = list(legal)
        while clock() < deadline and (self.max_worlds is None or len(outcomes) < self.max_worlds):
            world = determinizer.sample_fitting(self.rng, MAX_REJECTIONS + 1, likelihood)
            if world is None:
                break
            self.rng.shuffle(candidates)
            results = {}
            for card in candidates:
                if clock() >= deadline:
                    break
                results[card] = playout(view.rules, world.hands, card, position)
            else:
                # Count a world only when every candidate was tried in it: the comparison stays fair.
                outcomes.append(results)
            playouts += len(results)
        self._count(self.stats, started, len(outcomes), playouts)
        return self.choose(view, legal, outcomes)

    def choose(self, view: SeatView, legal: Sequence[Card], outcomes: Sequence[dict[Card, float]]) -> Card:
        """The card with the best average over the worlds (ties: the lowest card, keeping the high ones).

        With ``override_z`` set, the rules bot's card stands unless the best card beats it
        by more than ``override_z`` standard errors of the paired difference.
        """
        if not outcomes:
            return super().choose_card(view, legal)
        trump = view.trump
        assert trump is not None
        totals = {c: sum(o[c] for o in outcomes) for c in legal}
        best = max(legal, key=lambda c: (totals[c], -card_power(c, trump)))
        if self.override_z is None:
            return best
        default = super().choose_card(view, legal)
        return best if _clearly_better(outcomes, best, default, self.override_z) else default

    # ------------------------------------------------ bids, trump, exchanges

    def bid(self, view: SeatView, legal: Sequence[Bid]) -> Bid:
        default = super().bid(view, legal)
        return self.search(view, bid_candidates(view, legal, default, self), default)

    def trump(self, view: SeatView, legal: Sequence[Trump]) -> Trump:
        default = super().trump(view, legal)
        return self.search(view, list(legal), default)

    def give(self, view: SeatView, count: int, to: int) -> list[Card]:
        default = list(super().give(view, count, to))
        contract = view.contract
        to_declarer = contract is not None and contract.declarer == to
        return list(self.search(view, card_set_candidates(view, count, to_declarer, default), tuple(sorted(default))))

    def discard(self, view: SeatView, count: int) -> list[Card]:
        default = list(super().discard(view, count))
        return list(self.search(view, card_set_candidates(view, count, False, default), tuple(sorted(default))))

    def search(self, view: SeatView, candidates: Sequence[_Candidate], default: _Candidate) -> _Candidate:
        """The candidate with the best average outcome over sampled worlds, the rules bot's unless clearly beaten.

        Each world is rebuilt as an engine game at this decision; each candidate is applied
        to a copy and the hand finished by ``sdk.worldmodel.finish_hand``.
        """
        candidates = list(dict.fromkeys(candidates))  # no candidate twice
        if default not in candidates:
            candidates.insert(0, default)
        if len(candidates) == 1:
            return default
        clock = self.clock
        started = clock()
        deadline = started + self.budget_seconds()
        determinizer = Determinizer(view)
        likelihood = self.likelihood(view)
        team = view.team
        alive = list(range(len(candidates)))
        outcomes: list[dict[_Candidate, float]] = []
        playouts = 0
        cap = self.decide_worlds
        while clock() < deadline and (cap is None or len(outcomes) < cap):
            sampled = determinizer.sample_game(self.rng, MAX_REJECTIONS + 1, likelihood)
            if sampled is None:
                break
            base = sampled[1]
            model = WorldModel(view.rules)
            results: dict[_Candidate, float] = {}
            for i in alive:
                if clock() >= deadline:
                    break
                game = base.copy()
                game.apply(_as_action(candidates[i]))
                results[candidates[i]] = finish_hand(game, model, team)
            else:
                outcomes.append(results)
            playouts += len(results)
            if len(outcomes) == PRUNE_AFTER and len(alive) > KEEP + 1:
                means = {i: sum(o[candidates[i]] for o in outcomes) for i in alive}
                keep = sorted(alive, key=lambda i: -means[i])[:KEEP]
                alive = sorted(set(keep) | {candidates.index(default)})
        self._count(self.decide_stats, started, len(outcomes), playouts)
        if not outcomes:
            return default
        survivors = [candidates[i] for i in alive]
        best = max(survivors, key=lambda c: sum(o[c] for o in outcomes))
        if self.decide_z is None:
            return best
        return best if _clearly_better(outcomes, best, default, self.decide_z) else default

    def _count(self, stats: SearchStats, started: float, worlds: int, playouts: int) -> None:
        stats.decisions += 1
        stats.worlds += worlds
        stats.playouts += playouts
        stats.seconds += self.clock() - started


def _clearly_better(outcomes: Sequence[dict[_C, float]], best: _C, default: _C, z: float) -> bool:
    """``best`` beats ``default`` over the worlds by more than ``z`` standard errors of the paired difference."""
    if best == default:
        return True
    diffs = [o[best] - o[default] for o in outcomes]
    n = len(diffs)
    mean = sum(diffs) / n
    variance = sum((d - mean) ** 2 for d in diffs) / max(1, n - 1)
    return mean > z * math.sqrt(variance / n)


def _as_action(candidate: Bid | Trump | tuple[Card, ...]) -> Bid | Trump | list[Card]:
    """Card sets are kept as tuples (hashable); the engine takes them as they are."""
    return list(candidate) if isinstance(candidate, tuple) else candidate


def bid_candidates(view: SeatView, legal: Sequence[Bid], default: Bid, rules_bot: RulesBot | None = None) -> list[Bid]:
    """The bids worth simulating: the rules bot's, pass, every special, and per trump some levels.

    When partner holds the contract in an auction of several rounds, only the rules bot's bid and pass.

    Per trump, the ``LEVELS_TRIED`` cheapest levels, and the levels within ``WORTH_SPAN`` of what
    the seat's team should take in that trump (the rules bot's count and its reading of the
    partners' bids): where a made contract scores only its level, the bid to find is the
    highest the team can make, which may lie far above the cheapest.
    """
    chosen: list[Bid] = [default]
    if PASS in legal and default != PASS:
        chosen.append(PASS)
    high_seat = RulesBot._high_bidder(view)
    if view.rules.bidding_rounds != "single" and high_seat is not None and view.rules.team_of(high_seat) == view.team:
        # Partner holds the contract and may speak again: keep it or raise as the rules bot would.
        # A search that assumes partner then passes would outbid partner, who (searching too)
        # outbids back: on indiana two such partners climbed to 12 tricks.
        return chosen
    worth: dict[Trump | None, float] = {}
    if rules_bot is not None:
        rules = view.rules
        for t in rules.trump_choices:
            worth[t] = estimate_tricks(view.hand, t, rules) + rules_bot.partner_support(view, t)
        worth[None] = max(worth.values())  # a bid naming no trump (named after the auction): the best one's
    per_trump: dict[Trump | None, int] = {}
    for b in legal:  # legal bids come in rank order
        if b.kind == "level":
            near = b.trump in worth and abs(b.level - worth[b.trump]) <= WORTH_SPAN
            if per_trump.get(b.trump, 0) < LEVELS_TRIED or near:
                per_trump[b.trump] = per_trump.get(b.trump, 0) + 1
                chosen.append(b)
        elif not b.is_pass:
            chosen.append(b)
    return chosen


def playout(rules: Rules, hands: Sequence[Sequence[Card]], card: Card, position: PlayPosition) -> float:
    """Play ``card`` from the position, finish the hand with the engine's fast playout, and score it.

    Returns the hand's points for the seat's team minus the average of the other teams'.
    """
    p = position
    points = playout_points(rules, p.contract, hands, p.seat, p.trick_seats, p.trick_cards, p.tricks_won, card)
    return margin(points, rules.team_of(p.seat))


__all__ = ["LEVELS", "Level", "MonteCarloBot", "SearchStats", "bid_candidates", "playout"]


def main(argv: Sequence[str] | None = None) -> None:
    """``python -m example_bots.montecarlo_bot [--level N] [--worlds N] [--time-share F]`` plus the SDK's options."""
    parser = argparse.ArgumentParser(add_help=False)
    parser.add_argument("--level", type=int, choices=sorted(LEVELS), default=DEFAULT_LEVEL)
    parser.add_argument("--worlds", type=int, default=None, help="worlds per decision (0: as many as time allows)")
    parser.add_argument("--time-share", type=float, default=None, help="share of the move time to search (0..1)")
    args, rest = parser.parse_known_args(sys.argv[1:] if argv is None else argv)
    if args.time_share is not None and not 0 < args.time_share <= 1:
        parser.error(f"--time-share must be in (0, 1], got {args.time_share}")
    worlds: int | None = FROM_LEVEL
    if args.worlds is not None:
        if args.worlds < 0:
            parser.error(f"--worlds must be 0 or more, got {args.worlds}")
        worlds = args.worlds or None
    run(MonteCarloBot(level=args.level, max_worlds=worlds, decide_worlds=worlds, time_share=args.time_share), rest)


if __name__ == "__main__":
    main()
