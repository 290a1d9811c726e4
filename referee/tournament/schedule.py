"""The schedules: which bots meet, in which seats, on which deal (round-robin, or a gauntlet).

A pure function of the settings (bot names in the order given, the rules, the
games per pairing, the root seed, duplicate or not), so an interrupted
tournament can be resumed game by game.

- Every group of ``rules.teams`` bots meets (every pair for two-team rule
  systems, every three for three-team ones such as ``double-deck-3p``).
- A group plays in its seatings in turn (``seatings``): by default the
  rotations, seating r giving team t to bot ``group[(t + r) % teams]``, so
  each bot plays every team position (for two teams: both sides of the
  table). All seats of a team are the same bot. With three teams the
  rotations are 3 of the 6 orders: who sits to whose left stays the same.
  ``every_seating`` adds the other 3, so each bot also sits on either side of
  each other bot, for twice the games per duplicate set.
- Duplicate deals (the default): the games of a group come in sets of one
  seed per set, one game per seating, so every bot holds the cards each of
  the others held. Without duplicate, every game has a deal of its own.
- The n-th deal of every group is the same (its seed depends on the root
  seed and n only): all pairings play the same cards.
- A gauntlet keeps the round-robin's games of one bot, the candidate: it
  meets every other bot; the others do not play each other.

A format is a ``Format``: ``plan(outcomes)`` gives the games fixed so far, as a
pure function of the settings and the results so far. Round-robin and gauntlet
fix every game at once (``Fixed``); a format played in rounds (Swiss and
knockout, ``referee.tournament.formats``) fixes the next round once the
results of the last are in, and its plan also holds its meetings
(``Match``), its ranking and its own columns for the standings. The runner asks again whenever it
has no game left to start, so it never learns which format it runs, and a
resumed run, handed the same results, plans the same rounds.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, replace
from enum import StrEnum
from functools import cache
from itertools import combinations, permutations
from typing import Any, Protocol

from referee.engine.rules import Rules
from referee.errors import InputError, did_you_mean
from referee.seeding import derive_seed
from referee.tournament.standings import Outcome


class ScheduleError(InputError):
    """Settings that give no valid schedule; the message says what to change."""


class FormatError(ScheduleError):
    """Settings that make no tournament of the format asked (too many rounds, too few bots, options of another
    format): a usage error; the message says what to change."""


class FormatName(StrEnum):
    """The formats: how the games follow from the settings and the results."""

    ROUND_ROBIN = "round-robin"
    GAUNTLET = "gauntlet"
    SWISS = "swiss"
    KNOCKOUT = "knockout"

    @property
    def in_rounds(self) -> bool:
        """Played in rounds, each fixed by the results of the last."""
        return self in (FormatName.SWISS, FormatName.KNOCKOUT)


@dataclass(frozen=True)
class ScheduledGame:
    """One game of the tournament."""

    number: int  # 1-based position in the schedule
    group: tuple[str, ...]  # the bots that meet, in the order they were given
    deal: int  # 0-based deal of the group (duplicate: shared by the set's seatings)
    rotation: int  # seating: team t is played by group[seatings(teams, True)[rotation][t]]
    seed: int  # the game's seed: first dealer and every shuffle
    round: int = 1  # the round of a format played in rounds (1 for the formats played in one)

    def to_json(self) -> dict[str, Any]:
        """The game as it crosses to a table in another process (``from_json`` reads it back)."""
        return {
            "number": self.number,
            "group": list(self.group),
            "deal": self.deal,
            "rotation": self.rotation,
            "seed": self.seed,
            "round": self.round,
        }

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> ScheduledGame:
        return cls(
            number=int(data["number"]),
            group=tuple(str(b) for b in data["group"]),
            deal=int(data["deal"]),
            rotation=int(data["rotation"]),
            seed=int(data["seed"]),
            round=int(data.get("round", 1)),
        )

    @property
    def game_id(self) -> str:
        return f"g{self.number:04d}"

    @property
    def teams(self) -> tuple[str, ...]:
        """The bot playing each team."""
        order = seatings(len(self.group), every=True)[self.rotation]
        return tuple(self.group[k] for k in order)

    def roles(self, rules: Rules) -> tuple[tuple[str, int], ...]:
        """Per seat, the role that plays it: (bot, k) for the team's k-th seat clockwise from seat 0.

        A role is one bot process; it keeps its k whichever team its bot plays,
        so its seed (and so its play) does not depend on the table it sits at.
        """
        teams = self.teams
        taken = [0] * rules.teams
        roles = []
        for seat in range(rules.players):
            team = rules.team_of(seat)
            roles.append((teams[team], taken[team]))
            taken[team] += 1
        return tuple(roles)

    def seat_names(self, rules: Rules) -> tuple[str, ...]:
        return tuple(bot for bot, _ in self.roles(rules))


@dataclass(frozen=True)
class Match:
    """One meeting of a format played in rounds: a group's games in a round, how it came out so far.

    A bye (``bye``) is a bot that sits the round out: ``bots`` holds it alone and it has no games.
    """

    round: int
    bots: tuple[str, ...]  # the group, in the order it is seated (by seed or standing)
    games: tuple[int, ...]  # the numbers of its games fixed so far
    points: tuple[float, ...]  # per bot: its results over the finished games (1 per team beaten, 1/2 a draw)
    winner: str | None = None  # who goes on (a knockout), once decided
    bye: bool = False
    decided_by: str = ""  # how the winner was found, when not by points: "tie-break sets", "points per hand", "seed"

    def as_dict(self) -> dict[str, Any]:
        return {
            "round": self.round,
            "bots": list(self.bots),
            "games": list(self.games),
            "points": list(self.points),
            "winner": self.winner,
            "bye": self.bye,
            "decided_by": self.decided_by,
        }


@dataclass(frozen=True)
class Plan:
    """The games a format has fixed so far, given the results so far; for a format played in rounds, also its
    meetings so far and the order it ranks the bots in."""

    games: tuple[ScheduledGame, ...]  # numbered 1, 2, ... in order; a later plan only adds games after these
    final: bool  # no game will be added, whatever the results
    expected: int  # the games the run is expected to play in all (for progress; len(games) once final)
    rounds: int = 1  # the rounds the run is expected to play in all
    matches: tuple[Match, ...] = ()  # the meetings of a format played in rounds, round by round (else none)
    bracket: bool = False  # the matches are a knockout bracket: the winners of consecutive matches meet next
    order: tuple[str, ...] = ()  # the format's ranking of the bots, best first (empty: the standings' own)
    ranking: str = ""  # that ranking, in words (empty: the standings' own)
    columns: Mapping[str, Mapping[str, float]] = field(default_factory=dict)  # the format's figures, per bot

    @property
    def round(self) -> int:
        """The last round fixed so far (0 before any)."""
        return max((g.round for g in self.games), default=0)


class Format(Protocol):
    """How a tournament's games follow from its settings and its results: the one interface of every format."""

    def plan(self, outcomes: Mapping[int, Outcome]) -> Plan:
        """The games fixed by ``outcomes`` (the finished games' outcomes, by number): a pure function of the
        settings and these, so that a resumed run plans the same games."""
        ...


@dataclass(frozen=True)
class Fixed:
    """A format whose games are all fixed from the start (round-robin, gauntlet)."""

    games: tuple[ScheduledGame, ...]

    def plan(self, outcomes: Mapping[int, Outcome]) -> Plan:
        return Plan(self.games, final=True, expected=len(self.games))


@cache
def seatings(teams: int, every: bool = False) -> tuple[tuple[int, ...], ...]:
    """A group's seatings: for each, the group member playing each team.

    The rotations come first (seating r: team t is played by member
    ``(t + r) % teams``); with ``every``, the other orders follow (none for
    two teams; 3 more for three), so seating numbers never change meaning.
    """
    rotations = [tuple((t + r) % teams for t in range(teams)) for r in range(teams)]
    if not every:
        return tuple(rotations)
    return (*rotations, *(p for p in permutations(range(teams)) if p not in rotations))


def set_size(rules: Rules, every_seating: bool = False) -> int:
    """Games in one duplicate set: one per seating."""
    return len(seatings(rules.teams, every_seating))


def check_games(rules: Rules, games: int, duplicate: bool, every_seating: bool = False) -> None:
    """Raise ScheduleError when ``games`` per pairing cannot be played as asked."""
    if games < 1:
        raise ScheduleError(f"games per pairing must be at least 1, got {games}")
    size = set_size(rules, every_seating)
    if duplicate and games % size:
        raise ScheduleError(
            f"with duplicate deals the games per pairing come in sets of {size} (each deal once per seating): "
            f"{games} is not a multiple of {size}; ask for {games + size - games % size} or turn duplicate off"
        )


def round_robin(
    bots: Sequence[str], rules: Rules, *, games: int, seed: int, duplicate: bool = True, every_seating: bool = False
) -> tuple[ScheduledGame, ...]:
    """Every game of the tournament, numbered from 1, group by group."""
    if len(set(bots)) != len(bots):
        raise ScheduleError("bot names must differ")
    teams = rules.teams
    if len(bots) < teams:
        raise ScheduleError(f"a round-robin needs at least {teams} bots for {teams} teams, got {len(bots)}")
    check_games(rules, games, duplicate, every_seating)
    schedule: list[ScheduledGame] = []
    for group in combinations(bots, teams):
        schedule += meeting(
            group,
            rules,
            first=len(schedule) + 1,
            games=games,
            seed=seed,
            duplicate=duplicate,
            every_seating=every_seating,
        )
    return tuple(schedule)


def meeting(
    group: tuple[str, ...],
    rules: Rules,
    *,
    first: int,
    games: int,
    seed: int,
    duplicate: bool = True,
    every_seating: bool = False,
    first_deal: int = 0,
    round: int = 1,
) -> list[ScheduledGame]:
    """The ``games`` games of one group, numbered from ``first``: duplicate sets (one deal per set, one game per
    seating) from deal ``first_deal`` on, or without duplicate a deal per game and the seatings in turn."""
    size = set_size(rules, every_seating)
    out = []
    for i in range(games):
        deal, rotation = divmod(i, size) if duplicate else (i, i % size)
        deal += first_deal
        out.append(
            ScheduledGame(
                first + i, group, deal=deal, rotation=rotation, seed=derive_seed(seed, "deal", deal), round=round
            )
        )
    return out


def deals_of(rules: Rules, games: int, duplicate: bool, every_seating: bool = False) -> int:
    """The deals a group's ``games`` games take (``meeting``): one per set, or one per game without duplicate."""
    return games // set_size(rules, every_seating) if duplicate else games


def gauntlet(
    bots: Sequence[str],
    rules: Rules,
    *,
    candidate: str,
    games: int,
    seed: int,
    duplicate: bool = True,
    every_seating: bool = False,
) -> tuple[ScheduledGame, ...]:
    """The candidate against every other bot (every group holding it); the others do not meet each other.

    The games are the round-robin's that the candidate plays, in the same
    seatings and on the same deals, numbered from 1 (cutechess's gauntlet
    beside its round-robin).
    """
    if candidate not in bots:
        hint = did_you_mean(candidate, bots)
        raise ScheduleError(f"the gauntlet's bot {candidate!r} is not one of the bots{hint} ({', '.join(bots)})")
    everyone = round_robin(bots, rules, games=games, seed=seed, duplicate=duplicate, every_seating=every_seating)
    mine = [g for g in everyone if candidate in g.group]
    return tuple(replace(g, number=k) for k, g in enumerate(mine, start=1))
