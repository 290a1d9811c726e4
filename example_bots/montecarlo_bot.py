"""A Monte Carlo Bid Euchre bot that bids, names trump, exchanges and plays by simulation: PIMC with exact evaluation.

Every decision with a choice is searched the same way. The bot deals the
cards it cannot see at random, consistently with what its seat knows
(``sdk.worlds``: its hand, the cards played, given and received, shown voids,
hidden discards) and with what the auction and the play say about the other
hands (``sdk.inference``: a bid shows tricks, a first-turn pass shows their
lack, a card followed low shows no lower one in its suit; worlds that
disagree are kept less often). In each sampled world it tries every candidate
action and scores it, with every hand seen (perfect-information Monte Carlo,
as GIB does for bridge), by the compiled double-dummy solver (``sdk.pimc``):

- card play: the tricks the declaring side takes after each legal card, with
  best play of every seat from there (one solve answers every card);
- bids, trump, gifts and discards: the candidate on a rebuilt engine game,
  then the rest of the auction, trump and exchanges by a lean model of the
  other seats (``sdk.worldmodel``), then the whole hand solved from its first
  lead (one solve for every candidate that ends in the same contract).

The tricks are scored by the preset's own scoring (the engine's
``hand_points``), as the bot's team's points minus the other teams' average,
and the bot takes the candidate with the best average score over the worlds,
world by world the same worlds for every candidate: a made or set contract,
a lone hand and a bid that scores its level only are steps in the tricks, and
the best average of the steps is not the step of the best average of tricks.
Of cards equal in every world, the rules bot's (``RulesBot``) is taken; a bid,
trump or exchange other than the rules bot's must beat it by more than
``decide_z`` standard errors of the paired difference (with tens of
candidate bids, the best average is partly luck). A claim is the rules bot's:
on lead with nothing but sure winners, it claims the rest of the hand.

Where a world is too dear to solve in the time (the first tricks of the
twelve- to sixteen-trick presets), that world is played out instead, as the
playout bot does (below); ``sdk.pimc`` says how the bot decides. PIMC's known
weaknesses (strategy fusion, non-locality) are in docs/bots.md.

``--playouts`` is the bot as it was before the solver, kept to measure against:
each world played out with the engine's fast playout policy
(``referee.engine.playout``) for a card, and the rebuilt game finished by the
model and the fast playout for the rest; the rules bot's choice stands unless
another beats it by more than ``override_z`` (cards) or ``decide_z`` (the
rest) standard errors. Without the compiled solver (a slim install without a
compiler) the bot searches this way, and says so once on stderr.

Bids are many: after ``PRUNE_AFTER`` worlds only the ``KEEP`` best candidates
(and the rules bot's bid) go on being tried.

Budget: ``--level 1..4`` (see ``LEVELS``; docs/bots.md has measured strength)
sets the worlds per decision and the share of the referee's ``time_limit_ms``
the search may take; ``--worlds`` and ``--time-share`` override them. The
search always stops at that share, less a reserve, so the bot answers in time
whatever the machine's load: the solver's node limits come from the time
left and the speed it has shown (``sdk.pimc.Allowance``). With a fixed number
of worlds and a seed, the playout bot plays the same way every time (``--seed``
or the referee's ARENA_SEED); the solving bot does too as long as the time
share never cuts a search short, since the time left sets its node limits.

``--cards-only`` searches card play only: its bids, trump and exchanges are the
rules bot's (``arena play``'s level 5, between the rules bot and the whole search).

Run it against a referee with ``python -m example_bots.montecarlo_bot [--level N] [--playouts] [--cards-only]``.
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
from referee.engine.game import Game
from referee.engine.playout import finish_game_hand, playout_points
from sdk import PASS, Bid, Card, Contract, Rules, SeatView, Trump, card_power, run
from sdk.handvalue import card_set_candidates, estimate_tricks
from sdk.inference import view_likelihood, world_likelihood
from sdk.pimc import NO_SOLVER, SOLVER_BUILT, Allowance, CardSolver, ContractSolver
from sdk.worldmodel import WorldModel, finish_hand, margin, reach_play
from sdk.worlds import Determinizer, World

# A reserve kept whatever the limit (the simulator's or referee's own overhead, a slow tick).
TIME_RESERVE_MS = 25.0
# Worlds tried for one kept world before taking the next one whatever it holds.
MAX_REJECTIONS = 30
# Playouts: standard errors by which a card must beat the rules bot's to replace it.
OVERRIDE_Z = 1.0
# The same for bids, trump and exchanges: stricter, as the best of tens of candidate bids beats
# the rules bot's by one standard error by chance alone (measured on indiana: at 1.0 the bot lost
# 0.9 points a hand to the rules bot on 16 deals; at 2.0, 0.2 on the same deals).
DECIDE_Z = 2.0
# Solved worlds: a card is taken by its average alone (no bar: each world's value is exact); a bid,
# trump or exchange must still beat the rules bot's by this many standard errors (many candidates,
# and a model of the rest of the auction).
EXACT_DECIDE_Z = 1.0
# Solved worlds: the fewest a decision means to solve; a world may take its share of the time left.
MIN_SOLVED = 12
# Bidding: after this many worlds, only the best KEEP candidates (and the rules bot's bid) go on.
PRUNE_AFTER = 8
KEEP = 5
# Bidding: level bids tried per trump, from the cheapest legal one up.
LEVELS_TRIED = 3
# ... and the levels within this many tricks of the team's count in that trump.
WORTH_SPAN = 1.5
# A z argument left to the search (playouts or solved worlds) to set.
FROM_SEARCH = -1.0


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

_said_no_solver = False  # the note that the solver is missing goes to stderr once per process


@dataclass
class SearchStats:
    """Totals over the bot's decisions that searched (for measuring playouts and solves per second)."""

    decisions: int = 0
    worlds: int = 0
    playouts: int = 0
    solved: int = 0  # worlds solved double-dummy (the rest of the worlds were played out)
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
    """Takes the action with the best average score over sampled deals (see the module docstring)."""

    name = "montecarlo"
    version = "3"

    def __init__(
        self,
        seed: int | None = None,
        level: int = DEFAULT_LEVEL,
        max_worlds: int | None = FROM_LEVEL,
        decide_worlds: int | None = FROM_LEVEL,
        time_share: float | None = None,
        override_z: float | None = FROM_SEARCH,
        decide_z: float | None = FROM_SEARCH,
        exact: bool | None = None,
        cards_only: bool = False,
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
        # Solve the worlds (None: when the solver is built); without the solver, play them out and say so.
        if exact is None or exact:
            if not SOLVER_BUILT:
                _say_no_solver()
            exact = SOLVER_BUILT
        self.exact = exact
        self.cards_only = cards_only  # bids, trump and exchanges: the rules bot's, unsearched
        self.override_z = (None if exact else OVERRIDE_Z) if override_z == FROM_SEARCH else override_z  # cards
        self.decide_z = (EXACT_DECIDE_Z if exact else DECIDE_Z) if decide_z == FROM_SEARCH else decide_z
        self.stats = SearchStats()  # card play
        self.decide_stats = SearchStats()  # bids, trump, exchanges: hands finished from rebuilt games
        self.clock = time.perf_counter  # seconds; a test may put a fake clock here

    def budget_seconds(self) -> float:
        """Time the search may take for this decision."""
        limit = float(self.time_limit_ms)
        return max(0.0, min(limit * self.time_share, limit - TIME_RESERVE_MS)) / 1000

    def likelihood(self, view: SeatView) -> Callable[[World], float] | None:
        """How well a sampled world fits the auction and (solving) the play so far (None: nothing to go on)."""
        return world_likelihood(view) if self.exact else view_likelihood(view)

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
        solver = None
        if self.exact:
            allowance = Allowance(clock, deadline, "cards", len(view.hand), MIN_SOLVED)
            tricks_left = len(view.hand)
            solver = CardSolver(
                view.rules, contract, view.seat, position.trick_cards, view.tricks_won, tricks_left, allowance
            )
        outcomes: list[dict[Card, float]] = []  # per world, each candidate's result
        playouts = solved = 0
        candidates = list(legal)
        while clock() < deadline and (self.max_worlds is None or len(outcomes) < self.max_worlds):
            world = determinizer.sample_fitting(self.rng, MAX_REJECTIONS + 1, likelihood)
            if world is None:
                break
            if solver is not None and solver.trying:
                exact = solver.margins(world.hands)
                if exact is not None:
                    outcomes.append(exact)
                    solved += 1
                    continue
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
        self._count(self.stats, started, len(outcomes), playouts, solved)
        return self.choose(view, legal, outcomes, solved)

    def choose(
        self, view: SeatView, legal: Sequence[Card], outcomes: Sequence[dict[Card, float]], solved: int = 0
    ) -> Card:
        """The card with the best average over the worlds.

        Worlds mostly solved (``solved`` of them), or no ``override_z``: the best average, and of
        cards equally good the rules bot's, else the lowest (keeping the high ones). Worlds mostly
        played out: the rules bot's card stands unless the best card beats it by more than
        ``override_z`` standard errors of the paired difference.
        """
        if not outcomes:
            return super().choose_card(view, legal)
        trump = view.trump
        assert trump is not None
        totals = {c: sum(o[c] for o in outcomes) for c in legal}
        default = super().choose_card(view, legal)
        if self.override_z is None or 2 * solved >= len(outcomes):
            top = max(totals.values())
            tied = [c for c in legal if totals[c] >= top - 1e-9]
            return default if default in tied else min(tied, key=lambda c: card_power(c, trump))
        best = max(legal, key=lambda c: (totals[c], -card_power(c, trump)))
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
        to a copy, the auction and exchanges finished by ``sdk.worldmodel``, and the hand solved
        (``sdk.pimc.ContractSolver``) or, in a world too dear to solve, played out. Solving, many
        candidates are first screened in ``PRUNE_AFTER`` worlds played out (cheap), and the choice
        is made on the solved worlds of the ``KEEP`` best and the rules bot's.
        """
        if self.cards_only:
            return default
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
        outcomes: list[dict[_Candidate, float]] = []  # the worlds the choice is made on
        screen: list[dict[_Candidate, float]] = []  # solving: the first worlds, played out to screen many candidates
        playouts = solved = 0
        cap = self.decide_worlds
        solver = None
        if self.exact:
            allowance = Allowance(clock, deadline, "hand", view.rules.cards_each, MIN_SOLVED)
            solver = ContractSolver(view.rules, team, allowance)
        while clock() < deadline and (cap is None or len(outcomes) + len(screen) < cap):
            sampled = determinizer.sample_game(self.rng, MAX_REJECTIONS + 1, likelihood)
            if sampled is None:
                break
            base = sampled[1]
            model = WorldModel(view.rules)
            results: dict[_Candidate, float] = {}
            screening = solver is not None and len(alive) > KEEP + 1
            if solver is not None and not screening and solver.trying:
                games = {i: _reached(base, candidates[i], model) for i in alive}
                exact = solver.margins(games)
                if exact is not None:
                    results = {candidates[i]: value for i, value in exact.items()}
                    solved += 1
                else:
                    results = {candidates[i]: _played_out(game, team) for i, game in games.items()}
                    playouts += len(results)
                outcomes.append(results)
            else:
                for i in alive:
                    if clock() >= deadline:
                        break
                    game = base.copy()
                    game.apply(_as_action(candidates[i]))
                    results[candidates[i]] = finish_hand(game, model, team)
                else:
                    (screen if screening else outcomes).append(results)
                playouts += len(results)
            if len(outcomes) + len(screen) == PRUNE_AFTER and len(alive) > KEEP + 1:
                means = {i: sum(o[candidates[i]] for o in screen + outcomes) for i in alive}
                keep = sorted(alive, key=lambda i: -means[i])[:KEEP]
                alive = sorted(set(keep) | {candidates.index(default)})
        judged = outcomes or screen
        self._count(self.decide_stats, started, len(judged), playouts, solved)
        if not judged:
            return default
        survivors = [candidates[i] for i in alive]
        best = max(survivors, key=lambda c: sum(o[c] for o in judged))
        if self.decide_z is None:
            return best
        return best if _clearly_better(judged, best, default, self.decide_z) else default

    def _count(self, stats: SearchStats, started: float, worlds: int, playouts: int, solved: int = 0) -> None:
        stats.decisions += 1
        stats.worlds += worlds
        stats.playouts += playouts
        stats.solved += solved
        stats.seconds += self.clock() - started


def _reached(base: Game, candidate: Bid | Trump | tuple[Card, ...], model: WorldModel) -> Game | None:
    """``candidate`` applied to a copy of ``base``, and the hand taken to its first lead by ``model`` (None: the hand
    was thrown in)."""
    game = base.copy()
    game.apply(_as_action(candidate))
    return game if reach_play(game, model) else None


def _played_out(game: Game | None, team: int) -> float:
    """The fast playout of a hand at its first lead (None: thrown in, 0), as ``team``'s score."""
    return 0.0 if game is None else margin(finish_game_hand(game), team)


def _say_no_solver() -> None:
    global _said_no_solver
    if not _said_no_solver:
        _said_no_solver = True
        why = NO_SOLVER or "the compiled double-dummy solver is not built"
        print(f"note: {MonteCarloBot.name}: {why}; it plays its sampled worlds out instead", file=sys.stderr)


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


__all__ = ["LEVELS", "Level", "MonteCarloBot", "SearchStats", "bid_candidates", "from_args", "playout"]


def main(argv: Sequence[str] | None = None) -> None:
    """``python -m example_bots.montecarlo_bot [--level N] [--worlds N] [--time-share F] [--playouts] [--cards-only]``
    plus the SDK's options."""
    bot, rest = from_args(sys.argv[1:] if argv is None else argv)
    run(bot, rest)


def from_args(argv: Sequence[str]) -> tuple[MonteCarloBot, list[str]]:
    """The bot its options in ``argv`` ask for, and the arguments left for the SDK (``arena play``'s levels build
    their bots in process with it)."""
    parser = argparse.ArgumentParser(add_help=False)
    parser.add_argument("--level", type=int, choices=sorted(LEVELS), default=DEFAULT_LEVEL)
    parser.add_argument("--worlds", type=int, default=None, help="worlds per decision (0: as many as time allows)")
    parser.add_argument("--time-share", type=float, default=None, help="share of the move time to search (0..1)")
    parser.add_argument("--playouts", action="store_true", help="play the worlds out, not solve them (the bot before)")
    parser.add_argument("--cards-only", action="store_true", help="search card play only; bid as the rules bot does")
    args, rest = parser.parse_known_args(list(argv))
    if args.time_share is not None and not 0 < args.time_share <= 1:
        parser.error(f"--time-share must be in (0, 1], got {args.time_share}")
    worlds: int | None = FROM_LEVEL
    if args.worlds is not None:
        if args.worlds < 0:
            parser.error(f"--worlds must be 0 or more, got {args.worlds}")
        worlds = args.worlds or None
    bot = MonteCarloBot(
        level=args.level,
        max_worlds=worlds,
        decide_worlds=worlds,
        time_share=args.time_share,
        exact=False if args.playouts else None,
        cards_only=args.cards_only,
    )
    return bot, rest


if __name__ == "__main__":
    main()
