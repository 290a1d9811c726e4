"""The schedules: which bots meet, in which seats, on which deal (round-robin, or a gauntlet).

A pure function of the settings (bot names in the order given, the rules, the
games per pairing, the root seed, duplicate or not), so an interrupted
tournament can be resumed game by game.

- Every group of ``rules.teams`` bots meets (every pair for two-team rule
  systems, every three for three-team ones such as ``double-deck-3p``).
- A group plays its games in duplicate sets, one game per seating, or with a
  deal per game (``referee.games.scheduled``: the seatings, the deals).
- The n-th deal of every group is the same (its seed depends on the root
  seed and n only): all pairings play the same cards.
- A gauntlet keeps the round-robin's games of one bot, the candidate: it
  meets every other bot; the others do not play each other.

A format is a ``Format``: ``plan(outcomes)`` gives the games fixed so far, as a
pure function of the settings and the results so far. Round-robin and gauntlet
fix every game at once (``FixedSchedule``); a format played in rounds (Swiss and
knockout, ``referee.tournament.formats``) fixes the next round once the
results of the last are in, and its plan also holds its meetings
(``Meeting``), its ranking and its own columns for the standings. The runner asks again whenever it
has no game left to start, so it never learns which format it runs, and a
resumed run, handed the same results, plans the same rounds.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, replace
from enum import StrEnum
from itertools import combinations
from typing import Any, Protocol

from referee.engine.rules import Rules
from referee.errors import InputError, did_you_mean
from referee.games.scheduled import ScheduledGame, group_games, set_size
from referee.games.standings import Outcome


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
class Meeting:
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
    meetings: tuple[Meeting, ...] = ()  # the meetings of a format played in rounds, round by round (else none)
    bracket: bool = False  # the meetings are a knockout bracket: the winners of consecutive meetings meet next
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
class FixedSchedule:
    """A format whose games are all fixed from the start (round-robin, gauntlet)."""

    games: tuple[ScheduledGame, ...]

    def plan(self, outcomes: Mapping[int, Outcome]) -> Plan:
        return Plan(self.games, final=True, expected=len(self.games))


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
        schedule += group_games(
            group,
            rules,
            first=len(schedule) + 1,
            games=games,
            seed=seed,
            duplicate=duplicate,
            every_seating=every_seating,
        )
    return tuple(schedule)


def deals_of(rules: Rules, games: int, duplicate: bool, every_seating: bool = False) -> int:
    """The deals a group's ``games`` games take (``group_games``): one per set, or one per game without duplicate."""
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
