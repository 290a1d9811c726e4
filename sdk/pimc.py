"""Perfect-information Monte Carlo: what a choice scores in one sampled world, every hand seen and solved exactly.

A Monte Carlo search deals the cards its seat cannot see (``sdk.worlds``) and,
in each such *world*, asks what each candidate choice is worth. Here the answer
is exact: the compiled double-dummy solver (``referee.engine.doubledummy``)
gives the tricks the declaring side takes with best play of every seat, and
the preset's own scoring (``referee.engine.scoring.hand_points``) turns them
into points, as the seat's team's points less the other teams' average
(``sdk.worldmodel.margin``):

- ``CardSolver``: every legal card of the seat to act, in a world of the hand
  in play (one call of the solver answers every card);
- ``ContractSolver``: a hand at its first lead, after a bid, a trump or an
  exchange was applied to the game rebuilt in a world and the auction
  finished by the model of the other seats (``sdk.worldmodel.reach_play``).
  One solve serves every candidate that ends in the same contract and hands:
  bids of one trump at several levels differ only in their scoring.

**The score, not the tricks.** A contract made or set, a lone hand's all or
nothing, a made bid that scores only its level: the points are steps in the
tricks, and the average over worlds of a step is not the step of the average
(``margin_table`` holds the steps). In each world, though, the score is a
monotone function of the declaring side's tricks: a trick more never costs
the declarers and never gains the defenders. So best play for tricks is best
play for the score, and one solve per world gives both.

**Three teams** (each seat alone, double-deck-3p): the solver counts the
declaring team's tricks against the other two playing together, as defenders
do when they set a contract; the tricks the defenders take, which score only
when the rules say so, are shared evenly between them.

**Budget.** The solver never reads the clock: its node limit is the guard.
``Pace`` learns, from every solve of the process, how many nodes a second it
searches (the machine's load included) and what a world costs at each number
of tricks left. ``Allowance`` turns the time a decision has left into a node
limit per world (``LARGEST_LIMIT`` at most, so that a search told it has no
clock stays bounded by its worlds), so that a search always stops in time: a
world that reaches its limit is played out instead by the caller (the
engine's fast playout), and after two such worlds more than solved, or when
a world is known to cost far more than the time allows (the first tricks of
the twelve- to sixteen-trick presets), the decision stops trying the solver.

``SOLVER_BUILT`` says whether the compiled solver is there
(``referee.solver.available()``), ``NO_SOLVER`` why not; without it the
searches play every world out.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field

from referee.engine import doubledummy as dd
from referee.engine.cards import Card, deck_copies
from referee.engine.game import Contract, Game
from referee.engine.rules import Rules
from referee.engine.scoring import hand_points
from referee.solver import SearchLimitError, available, unavailable_reason
from sdk.worldmodel import margin

SOLVER_BUILT = available()
NO_SOLVER = unavailable_reason() or ""
"""Why the compiled solver is not there (empty when it is)."""

# Nodes a second assumed before the first solve is timed (a loaded core; an idle one does about ten million).
START_RATE = 4e6
# Weight of the newest world in the moving average of a world's cost.
NEWEST = 0.2
# The speed is the nodes over the seconds of the recent solves: both sums halve with each this many seconds
# of solving, so the speed follows the machine's load, and a short solve weighs in by its short time only.
HALF_LIFE = 0.2
# Of the nodes the time left allows, the share a world may take (the rest covers sampling and a slow tick).
SAFETY = 0.7
# A decision does not try the solver when a world is known to cost this many times what it may take.
HOPELESS = 4.0
# Nodes below which a world is not worth starting.
SMALLEST_LIMIT = 2_000
# Nodes a world may take at most, whatever the time left (a few tens of ms): a search told it has no clock (the
# table's duplicate, a hint) stays bounded by its worlds, and one world too dear to solve is played out.
LARGEST_LIMIT = 100_000


def hand_tricks(
    rules: Rules, contract: Contract, tricks_won: Sequence[int], tricks_left: int
) -> tuple[tuple[int, ...], ...]:
    """Each team's tricks at the hand's end for each number of tricks, 0 to ``tricks_left``, that the declaring
    team takes from here on; ``tricks_won`` is what each team has (three teams: the defenders share the rest
    evenly, the first after the declarer taking an odd one)."""
    declaring = rules.team_of(contract.declarer)
    defenders = [t for t in range(rules.teams) if t != declaring]
    rows = []
    for taken_now in range(tricks_left + 1):
        taken = list(tricks_won)
        taken[declaring] += taken_now
        rest = tricks_left - taken_now
        for i, t in enumerate(defenders):
            taken[t] += rest // len(defenders) + (1 if i < rest % len(defenders) else 0)
        rows.append(tuple(taken))
    return tuple(rows)


def margin_table(
    rules: Rules, contract: Contract, tricks_won: Sequence[int], tricks_left: int, team: int
) -> tuple[float, ...]:
    """``team``'s score (its points less the other teams' average) for each number of tricks, 0 to
    ``tricks_left``, that the declaring team takes from here on; ``tricks_won`` is what each team has."""
    return tuple(
        margin(hand_points(rules, contract.bid, contract.declarer, taken)[1], team)
        for taken in hand_tricks(rules, contract, tricks_won, tricks_left)
    )


Outcomes = tuple[tuple[int, ...], tuple[float, ...]]
"""Per number of tricks the declaring team takes from here: the team's tricks in the hand, and its score."""


def outcomes_table(
    rules: Rules, contract: Contract, tricks_won: Sequence[int], tricks_left: int, team: int
) -> Outcomes:
    """``team``'s tricks in the hand (``hand_tricks``) and score (``margin_table``) for each number of tricks the
    declaring team takes from here on."""
    tricks = tuple(row[team] for row in hand_tricks(rules, contract, tricks_won, tricks_left))
    return tricks, margin_table(rules, contract, tricks_won, tricks_left, team)


@dataclass
class Pace:
    """What this process's solves cost: nodes a second, and nodes a world by kind and tricks left (moving
    averages of every solve, the worlds that reached their limit counted at the nodes they took)."""

    nodes: float = START_RATE * 0.05  # recent nodes and seconds (decayed sums), so that speed starts at START_RATE
    seconds: float = 0.05
    cost: dict[tuple[str, int], float] = field(default_factory=dict)

    @property
    def nodes_per_second(self) -> float:
        return self.nodes / self.seconds

    def note(self, kind: str, tricks_left: int, nodes: int, seconds: float) -> None:
        keep = 0.5 ** (seconds / HALF_LIFE)
        self.nodes = self.nodes * keep + nodes
        self.seconds = self.seconds * keep + seconds
        key = (kind, tricks_left)
        before = self.cost.get(key)
        self.cost[key] = float(nodes) if before is None else before + NEWEST * (nodes - before)

    def expected(self, kind: str, tricks_left: int) -> float | None:
        """Nodes a world of this kind is expected to take, or None before the first."""
        return self.cost.get((kind, tricks_left))


PACE = Pace()
"""The process's own pace, shared by every search of every bot in it."""


class Allowance:
    """The solver's share of one decision: a node limit for each world from the time left (see the module
    docstring), and whether the decision still tries the solver."""

    def __init__(
        self,
        clock: Callable[[], float],
        deadline: float,
        kind: str,
        tricks_left: int,
        min_worlds: int,
        pace: Pace = PACE,
    ) -> None:
        self.clock = clock
        self.deadline = deadline
        self.kind = kind
        self.tricks_left = tricks_left
        self.min_worlds = min_worlds
        self.pace = pace
        self.solved = 0  # worlds solved
        self.dear = 0  # worlds that reached their limit
        self.nodes = 0  # every node searched for this decision
        expected = pace.expected(kind, tricks_left)
        self.trying = expected is None or expected <= HOPELESS * self.world_limit()

    def world_limit(self) -> int:
        """The nodes the next world may take: its share of what the time left allows (0: none)."""
        left = (self.deadline - self.clock()) * self.pace.nodes_per_second * SAFETY
        share = min(left / max(1, self.min_worlds - self.solved), LARGEST_LIMIT)
        return int(share) if share >= SMALLEST_LIMIT else 0

    def spent(self, nodes: int, seconds: float, complete: bool) -> None:
        """Record one world: ``complete`` false when it reached its limit."""
        self.nodes += nodes
        self.pace.note(self.kind, self.tricks_left, nodes, seconds)
        if complete:
            self.solved += 1
            return
        self.dear += 1
        if self.dear >= 2 and self.dear > self.solved:
            self.trying = False


class _Budgeted:
    """A solver of one decision's worlds, within an allowance (or a fixed node limit a world, 0: none)."""

    allowance: Allowance | None
    node_limit: int

    @property
    def trying(self) -> bool:
        """Whether the decision still tries the solver."""
        return self.allowance is None or self.allowance.trying

    def world_limit(self) -> int | None:
        """The node limit of the next world (0: none), or None when it may not be tried."""
        allowance = self.allowance
        if allowance is None:
            return self.node_limit
        limit = allowance.world_limit() if allowance.trying else 0
        return limit or None


class CardSolver(_Budgeted):
    """The score of every legal card of the seat to act in each world of one card-play decision."""

    def __init__(
        self,
        rules: Rules,
        contract: Contract,
        seat: int,
        trick: Sequence[Card],
        tricks_won: Sequence[int],
        tricks_left: int,
        allowance: Allowance | None = None,
        node_limit: int = 0,
    ) -> None:
        self.declaring = rules.team_of(contract.declarer)
        self.table = outcomes_table(rules, contract, tricks_won, tricks_left, rules.team_of(seat))
        self.template = dd.Position(
            trump=int(contract.trump),
            teams=rules.teams,
            copies=deck_copies(rules.deck),
            hands=(),
            active=tuple(contract.active),
            to_act=seat,
            trick=tuple(trick),
        )
        self.allowance = allowance
        self.node_limit = node_limit  # with no allowance: the limit of every world (0: none)
        self.solver = dd.solver_for(self.template.trump, self.template.copies)

    def margins(self, hands: Sequence[Sequence[Card]]) -> dict[Card, float] | None:
        """Every legal card -> its score in the world of ``hands`` (every seat's cards now); None when the world
        costs more than it may (or the decision no longer tries the solver)."""
        values = self.values(hands)
        if values is None:
            return None
        scores = self.table[1]
        return {card: scores[value] for card, value in values.items()}

    def outcomes(self, hands: Sequence[Sequence[Card]]) -> dict[Card, tuple[int, float]] | None:
        """Every legal card -> the seat's team's tricks in the hand and its score (else as ``margins``)."""
        values = self.values(hands)
        if values is None:
            return None
        tricks, scores = self.table
        return {card: (tricks[value], scores[value]) for card, value in values.items()}

    def values(self, hands: Sequence[Sequence[Card]]) -> dict[Card, int] | None:
        """Every legal card -> the tricks the declaring team takes from here after it (else as ``margins``)."""
        allowance = self.allowance
        limit = self.world_limit()
        if limit is None:
            return None
        position = dd.Position(
            self.template.trump,
            self.template.teams,
            self.template.copies,
            tuple(tuple(h) for h in hands),
            self.template.active,
            self.template.to_act,
            self.template.trick,
        )
        started = time.perf_counter()
        try:
            [values] = dd.card_values_many([position], self.declaring, node_limit=limit)
        except SearchLimitError as exc:
            if allowance is not None:
                allowance.spent(exc.nodes, time.perf_counter() - started, complete=False)
            return None
        if allowance is not None:
            allowance.spent(self.solver.nodes, time.perf_counter() - started, complete=True)
        return values


class ContractSolver(_Budgeted):
    """The score of hands at their first lead, in the worlds of one decision before the play (a bid, a trump, an
    exchange): each game given is solved once per contract and hands (see the module docstring)."""

    def __init__(self, rules: Rules, team: int, allowance: Allowance | None = None, node_limit: int = 0) -> None:
        self.rules = rules
        self.team = team
        self.allowance = allowance
        self.node_limit = node_limit
        self._tables: dict[tuple[Contract, int], Outcomes] = {}

    def margins(self, games: Mapping[int, Game | None]) -> dict[int, float] | None:
        """Each game (at its first lead, or None for a hand thrown in: 0) -> its score with best play; None when
        the world costs more than it may: then none of its games is solved, so they are compared alike."""
        outcomes = self.outcomes(games)
        return None if outcomes is None else {key: score for key, (_, score) in outcomes.items()}

    def outcomes(
        self, games: Mapping[int, Game | None], memo: dict[tuple[object, ...], int] | None = None
    ) -> dict[int, tuple[int, float]] | None:
        """Each game -> the team's tricks in the hand and its score (a hand thrown in: 0 and 0); else as
        ``margins``. ``memo`` keeps the solves of one world between calls (a caller that has its games one at a
        time)."""
        allowance = self.allowance
        limit = self.world_limit()
        if limit is None:
            return None
        solved = {} if memo is None else memo
        nodes = 0
        started = time.perf_counter()
        result: dict[int, tuple[int, float]] = {}
        for key, game in games.items():
            if game is None:
                result[key] = (0, 0.0)
                continue
            contract = game.contract
            assert contract is not None and game.to_act is not None
            position = dd.Position.of_game(game)
            declaring = self.rules.team_of(contract.declarer)
            hands = tuple(tuple(sorted(hand)) for hand in position.hands)
            shape = (position.trump, declaring, position.active, position.to_act, hands)
            tricks = solved.get(shape)
            if tricks is None:
                try:
                    if limit and limit - nodes < SMALLEST_LIMIT:
                        raise SearchLimitError("no nodes left for this world", 0)
                    tricks = dd.tricks(position, declaring, node_limit=limit - nodes if limit else 0)
                except SearchLimitError as exc:
                    if allowance is not None:
                        allowance.spent(nodes + exc.nodes, time.perf_counter() - started, complete=False)
                    return None
                nodes += dd.solver_for(position.trump, position.copies).nodes
                solved[shape] = tricks
            team_tricks, scores = self._table(contract, position.tricks_left)
            result[key] = (team_tricks[tricks], scores[tricks])
        if allowance is not None:
            allowance.spent(nodes, time.perf_counter() - started, complete=True)
        return result

    def _table(self, contract: Contract, tricks_left: int) -> Outcomes:
        key = (contract, tricks_left)
        table = self._tables.get(key)
        if table is None:
            zero = (0,) * self.rules.teams
            table = self._tables[key] = outcomes_table(self.rules, contract, zero, tricks_left, self.team)
        return table


__all__ = [
    "NO_SOLVER",
    "PACE",
    "SOLVER_BUILT",
    "Allowance",
    "CardSolver",
    "ContractSolver",
    "Outcomes",
    "Pace",
    "hand_tricks",
    "margin_table",
    "outcomes_table",
]
