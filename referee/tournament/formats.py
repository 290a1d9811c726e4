"""Formats played in rounds: Swiss and knockout, each a ``Format`` (``referee.tournament.schedule``).

Both are pure functions of the settings and the finished games' outcomes:
``plan(outcomes)`` replays the rounds from the first, fixing each next one
only once every game of the last is finished, so a resumed run (or one
killed and resumed) plans the same rounds and numbers the same games.

The unit of a meeting is the duplicate set: a group plays ``games`` games
(whole sets) in a round, and its result for a bot is its points over them:
in each game, 1 for each team its team beat, 1/2 for each it drew with
(``Outcome.pair_score``, as in the standings). The deals run on from round to
round (every group of a round plays the same deals; the next round new ones).

Swiss (``Swiss``)
    ``rounds`` rounds, paired by ``referee.tournament.pairing`` from the
    standings after each: score (byes included), then the seeding. A bye is
    worth half the points a meeting gives (as a drawn meeting): with two
    teams and one set of 2 games, 1 point. Ranking: score, Buchholz (the sum
    of the scores of the bots it met), Sonneborn-Berger (over its meetings,
    each opponent's score times its share of the points between them), then
    points per hand, then the seeding.

Knockout (``Knockout``)
    A seeded bracket of groups of ``teams`` (see ``bracket``); the winner of
    each group goes on. A meeting is ``games`` games; when the top points
    are shared it plays one more set at a time, at most ``tie_sets``, the
    whole group again; still tied, the most points per hand over the
    meeting's games goes on, then the better seed. The next round is fixed
    once every meeting of the round is decided. Ranking: the round reached,
    then points per hand, then the seeding.
"""

from __future__ import annotations

import math
from collections import defaultdict
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from itertools import combinations

from referee.engine.rules import Rules
from referee.games.scheduled import ScheduledGame, group_games, set_size
from referee.games.standings import Outcome
from referee.tournament.pairing import Entrant, History, pair
from referee.tournament.schedule import FormatError, Meeting, Plan, deals_of

SWISS_RANKING = "ranked by score (byes included), Buchholz, Sonneborn-Berger, points per hand, then seed"
KNOCKOUT_RANKING = "ranked by the round reached, then points per hand, then seed"


@dataclass(frozen=True)
class _Setup:
    """What both formats take from the settings."""

    seeds: tuple[str, ...]  # the bots, best seed first
    rules: Rules
    games: int  # per meeting
    seed: int
    duplicate: bool
    every_seating: bool

    @property
    def teams(self) -> int:
        return self.rules.teams

    @property
    def deals(self) -> int:
        """Deals one meeting's games take."""
        return deals_of(self.rules, self.games, self.duplicate, self.every_seating)

    def meeting(
        self, group: tuple[str, ...], *, first: int, first_deal: int, round: int, games: int = 0
    ) -> list[ScheduledGame]:
        return group_games(
            group,
            self.rules,
            first=first,
            games=games or self.games,
            seed=self.seed,
            duplicate=self.duplicate,
            every_seating=self.every_seating,
            first_deal=first_deal,
            round=round,
        )


def points_in(group: Sequence[str], games: Sequence[ScheduledGame], outcomes: Mapping[int, Outcome]) -> list[float]:
    """Each bot's points over the finished games of a meeting: 1 per team beaten, 1/2 per team drawn with."""
    between = _between([g.number for g in games if g.number in outcomes], outcomes)
    return [sum(between[a, b] for b in group if b != a) for a in group]


def points_per_hand(
    bots: Sequence[str], outcomes: Mapping[int, Outcome], games: Sequence[int] | None = None
) -> dict[str, float]:
    """Each bot's team's points per hand dealt, over ``games`` (default: every finished game)."""
    points: dict[str, int] = defaultdict(int)
    hands: dict[str, int] = defaultdict(int)
    for number in outcomes if games is None else games:
        o = outcomes.get(number)
        if o is None:
            continue
        for team, bot in enumerate(o.teams):
            points[bot] += o.scores[team]
            hands[bot] += o.hands
    return {b: points[b] / hands[b] if hands[b] else 0.0 for b in bots}


# ------------------------------------------------------------------ Swiss


def swiss_rounds_limit(bots: int, teams: int) -> int:
    """The most rounds in which every bot can meet only new opponents and no bot has two byes."""
    if teams == 2:
        return bots - 1 if bots % 2 == 0 else bots
    spare = bots % teams
    limit = (bots - 1) // (teams - 1)
    return min(limit, bots // spare) if spare else limit


def swiss_default_rounds(bots: int, teams: int) -> int:
    """``ceil(log_teams(bots)) + 1``: enough rounds for one bot to be alone at the top, and one more; at most
    ``swiss_rounds_limit``."""
    need = 0
    while teams**need < bots:
        need += 1
    return max(1, min(need + 1, swiss_rounds_limit(bots, teams)))


@dataclass(frozen=True)
class Swiss:
    """A Swiss tournament of ``rounds`` rounds (see the module's docstring)."""

    setup: _Setup
    rounds: int

    @classmethod
    def of(
        cls,
        seeds: Sequence[str],
        rules: Rules,
        *,
        rounds: int,
        games: int,
        seed: int,
        duplicate: bool = True,
        every_seating: bool = False,
    ) -> Swiss:
        teams = rules.teams
        if len(seeds) < teams:
            raise FormatError(f"a Swiss needs at least {teams} bots, got {len(seeds)}")
        limit = swiss_rounds_limit(len(seeds), teams)
        if rounds > limit:
            raise FormatError(
                f"--rounds {rounds} is more than {len(seeds)} bots allow without a repeated pairing or a second bye "
                f"({limit} at most): ask for fewer rounds, or use --format round-robin"
            )
        return cls(_Setup(tuple(seeds), rules, games, seed, duplicate, every_seating), rounds)

    @property
    def bye_points(self) -> float:
        """A bye: half the points a meeting gives (each game, one per other team)."""
        return self.setup.games * (self.setup.teams - 1) / 2

    def plan(self, outcomes: Mapping[int, Outcome]) -> Plan:
        s = self.setup
        games: list[ScheduledGame] = []
        meetings: list[Meeting] = []
        score = dict.fromkeys(s.seeds, 0.0)
        byes: dict[str, int] = dict.fromkeys(s.seeds, 0)
        met: dict[frozenset[str], int] = defaultdict(int)
        groups: set[frozenset[str]] = set()
        per_round = (len(s.seeds) // s.teams) * s.games
        played = 0
        for rnd in range(1, self.rounds + 1):
            standing = sorted(s.seeds, key=lambda b: -score[b])  # stable: equal scores in seed order
            paired = pair(
                [Entrant(b, score[b], byes[b]) for b in standing], History(dict(met), frozenset(groups)), s.teams
            )
            fixed: list[tuple[tuple[str, ...], list[ScheduledGame]]] = []
            for group in paired.groups:
                fixed.append((group, s.meeting(group, first=len(games) + 1, first_deal=(rnd - 1) * s.deals, round=rnd)))
                games += fixed[-1][1]
            for bye in paired.byes:
                meetings.append(Meeting(rnd, (bye,), (), (self.bye_points,), bye=True))
            finished = all(g.number in outcomes for _, gs in fixed for g in gs)
            for group, gs in fixed:
                points = points_in(group, gs, outcomes)
                meetings.append(Meeting(rnd, group, tuple(g.number for g in gs), tuple(points)))
            if not finished:
                break
            played = rnd
            for bye in paired.byes:
                score[bye] += self.bye_points
                byes[bye] += 1
            for group, gs in fixed:
                for bot, p in zip(group, points_in(group, gs, outcomes), strict=True):
                    score[bot] += p
                for a, b in combinations(group, 2):
                    met[frozenset((a, b))] += 1
                groups.add(frozenset(group))
        final = len(games) == self.rounds * per_round
        buchholz, sonneborn = self._tiebreaks(meetings, score, outcomes)
        pph = points_per_hand(s.seeds, outcomes)
        order = sorted(
            s.seeds, key=lambda b: (-score[b], -buchholz[b], -sonneborn[b], -_rounded(pph[b]), s.seeds.index(b))
        )
        return Plan(
            tuple(games),
            final=final,
            expected=self.rounds * per_round,
            rounds=self.rounds,
            meetings=tuple(meetings),
            order=tuple(order),
            ranking=SWISS_RANKING + f" (after {played} of {self.rounds} rounds)",
            columns={"swiss_score": score, "buchholz": buchholz, "sonneborn_berger": sonneborn},
        )

    def _tiebreaks(
        self, meetings: Sequence[Meeting], score: Mapping[str, float], outcomes: Mapping[int, Outcome]
    ) -> tuple[dict[str, float], dict[str, float]]:
        """Buchholz and Sonneborn-Berger over the finished meetings (a bye counts in neither)."""
        buchholz = dict.fromkeys(self.setup.seeds, 0.0)
        sonneborn = dict.fromkeys(self.setup.seeds, 0.0)
        for m in meetings:
            if m.bye or not all(n in outcomes for n in m.games):
                continue
            between = _between(m.games, outcomes)
            for bot in m.bots:
                for other in m.bots:
                    if other != bot:
                        buchholz[bot] += score[other]
                        sonneborn[bot] += between[bot, other] / len(m.games) * score[other]
        return buchholz, sonneborn


def _between(games: Sequence[int], outcomes: Mapping[int, Outcome]) -> dict[tuple[str, str], float]:
    """(a, b) -> a's points against b over ``games``: 1 for each game a's team beat b's, 1/2 for a draw."""
    out: dict[tuple[str, str], float] = defaultdict(float)
    for number in games:
        o = outcomes[number]
        for i, a in enumerate(o.teams):
            for j, b in enumerate(o.teams):
                if i != j:
                    out[a, b] += o.pair_score(i, j)
    return out


# ------------------------------------------------------------------ knockout


def bracket_order(groups: int, teams: int) -> list[int]:
    """The seeds 1..``groups`` in the order their groups sit in the bracket, so that the winners of each
    ``teams`` consecutive groups meet next and the top seeds meet as late as can be."""
    order = [1]
    while len(order) < groups:
        m = len(order)
        order = [member for s in order for member in _full_group(s, m, teams)]
    return order


def _full_group(s: int, m: int, teams: int) -> tuple[int, ...]:
    """Seed ``s``'s group in a bracket of ``m * teams`` seeds: a serpentine over the lower seeds."""
    return (s, 2 * m + 1 - s) if teams == 2 else (s, 2 * m + 1 - s, 2 * m + s)


def bracket(seeds: int, teams: int) -> list[tuple[int, ...]]:
    """The first round's groups (1-based seeds), in bracket order; a group of one seed is a bye.

    The bracket has ``teams ** k`` places, the least power not below the field. The byes go to the top seeds
    (a bye takes ``teams - 1`` empty places); the other groups are the next seeds, each with ``teams - 1`` of
    the lowest, in a serpentine (with two teams: the best of them against the worst)."""
    if seeds < 2:
        raise FormatError(f"a knockout needs at least 2 bots, got {seeds}: add bots, or play them in a match")
    if teams == 3 and seeds % 2 == 0:
        raise FormatError(
            f"a knockout in groups of three needs an odd number of bots (each group sends one of three on), "
            f"got {seeds}: add a bot or leave one out"
        )
    if teams == 3 and seeds < 3:
        raise FormatError(f"a knockout in groups of three needs at least 3 bots, got {seeds}")
    places = 1
    while places < seeds:
        places *= teams
    m = places // teams  # first-round groups
    byes = (places - seeds) // (teams - 1)
    t = m - byes  # groups that play
    lower = list(range(m + 1, seeds + 1))  # the seeds below the groups' heads: (teams - 1) * t of them
    groups: dict[int, tuple[int, ...]] = {}
    for s in range(1, m + 1):
        if s <= byes:
            groups[s] = (s,)
        else:
            j = s - byes
            members = [lower[t - j]] + ([lower[t + j - 1]] if teams == 3 else [])
            groups[s] = (s, *members)
    return [groups[s] for s in bracket_order(m, teams)]


@dataclass(frozen=True)
class Knockout:
    """A knockout bracket (see the module's docstring)."""

    setup: _Setup
    tie_sets: int

    @classmethod
    def of(
        cls,
        seeds: Sequence[str],
        rules: Rules,
        *,
        games: int,
        seed: int,
        tie_sets: int,
        duplicate: bool = True,
        every_seating: bool = False,
    ) -> Knockout:
        bracket(len(seeds), rules.teams)  # raises for a field that makes none
        return cls(_Setup(tuple(seeds), rules, games, seed, duplicate, every_seating), tie_sets)

    @property
    def rounds(self) -> int:
        places, k = 1, 0
        while places < len(self.setup.seeds):
            places *= self.setup.teams
            k += 1
        return k

    def plan(self, outcomes: Mapping[int, Outcome]) -> Plan:
        s = self.setup
        size = set_size(s.rules, s.every_seating)
        tie_deals = 1 if s.duplicate else size  # one more set: a game per seating, on one deal (or a deal each)
        games: list[ScheduledGame] = []
        meetings: list[Meeting] = []
        seeds = {b: k for k, b in enumerate(s.seeds)}
        reached = dict.fromkeys(s.seeds, 1)
        entrants: list[tuple[str, ...]] = [tuple(s.seeds[i - 1] for i in g) for g in bracket(len(s.seeds), s.teams)]
        deal = 0
        final = False
        for rnd in range(1, self.rounds + 1):
            playing = [g for g in entrants if len(g) > 1]
            games_of: dict[tuple[str, ...], list[ScheduledGame]] = {}
            for group in playing:
                games_of[group] = s.meeting(group, first=len(games) + 1, first_deal=deal, round=rnd)
                games += games_of[group]
            deal += s.deals
            extra = 0
            while True:  # the round's tie-break sets, one stage at a time, once every game before is finished
                if not all(g.number in outcomes for gs in games_of.values() for g in gs):
                    break
                tied = [g for g in playing if _tied(points_in(g, games_of[g], outcomes))]
                if not tied or extra == self.tie_sets:
                    break
                extra += 1
                for group in tied:
                    more = s.meeting(group, first=len(games) + 1, first_deal=deal, round=rnd, games=size)
                    games_of[group] += more
                    games += more
                deal += tie_deals
            decided = all(g.number in outcomes for gs in games_of.values() for g in gs) and (
                extra == self.tie_sets or not any(_tied(points_in(g, games_of[g], outcomes)) for g in playing)
            )
            winners = []
            for group in entrants:
                if len(group) == 1:
                    meetings.append(Meeting(rnd, group, (), (0.0,), winner=group[0], bye=True))
                    winners.append(group[0])
                    continue
                gs = games_of[group]
                points = points_in(group, gs, outcomes)
                winner, how = (
                    _winner(group, points, gs, outcomes, seeds, tied=len(gs) > s.games)
                    if decided
                    else (
                        None,
                        "",
                    )
                )
                meetings.append(Meeting(rnd, group, tuple(g.number for g in gs), tuple(points), winner, False, how))
                if winner is not None:
                    winners.append(winner)
            if not decided:
                break
            for w in winners:
                reached[w] = rnd + 1
            if rnd == self.rounds:
                final = True
                break
            entrants = [tuple(winners[k : k + s.teams]) for k in range(0, len(winners), s.teams)]
        expected = self._expected() + sum(max(0, len(m.games) - s.games) for m in meetings if not m.bye)
        pph = points_per_hand(s.seeds, outcomes)
        order = sorted(s.seeds, key=lambda b: (-reached[b], -_rounded(pph[b]), seeds[b]))
        return Plan(
            tuple(games),
            final=final,
            expected=len(games) if final else expected,
            rounds=self.rounds,
            meetings=tuple(meetings),
            bracket=True,
            order=tuple(order),
            ranking=KNOCKOUT_RANKING,
            columns={"round_reached": {b: float(r) for b, r in reached.items()}},
        )

    def _expected(self) -> int:
        """The games of the whole bracket without a tie-break set."""
        groups = len([g for g in bracket(len(self.setup.seeds), self.setup.teams) if len(g) > 1])
        later = sum(self.setup.teams**k for k in range(self.rounds - 1))  # the rounds after the first
        return (groups + later) * self.setup.games


def _rounded(x: float) -> float:
    """Points per hand compared to 9 places, so that equal ratios made in other orders are equal."""
    return round(x, 9)


def _tied(points: Sequence[float]) -> bool:
    top = max(points)
    return sum(1 for p in points if math.isclose(p, top)) > 1


def _winner(
    group: Sequence[str],
    points: Sequence[float],
    games: Sequence[ScheduledGame],
    outcomes: Mapping[int, Outcome],
    seeds: Mapping[str, int],
    *,
    tied: bool,
) -> tuple[str, str]:
    """Who goes on, and how it was decided when not by the points of the main sets."""
    top = max(points)
    leaders = [b for b, p in zip(group, points, strict=True) if math.isclose(p, top)]
    if len(leaders) == 1:
        return leaders[0], "tie-break sets" if tied else ""
    pph = points_per_hand(leaders, outcomes, [g.number for g in games])
    best = max(_rounded(pph[b]) for b in leaders)
    leaders = [b for b in leaders if _rounded(pph[b]) == best]
    if len(leaders) == 1:
        return leaders[0], "points per hand"
    return min(leaders, key=seeds.__getitem__), "seed"
