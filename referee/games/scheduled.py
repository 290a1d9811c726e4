"""A scheduled game: which bots meet, in which seating, on which deal; and the games of one group of bots.

A game is played by a group of ``rules.teams`` bots, all seats of a team by the
same bot. A group plays in its seatings in turn (``seatings``): by default the
rotations, seating r giving team t to bot ``group[(t + r) % teams]``, so each
bot plays every team position (for two teams: both sides of the table). With
three teams the rotations are 3 of the 6 orders: who sits to whose left stays
the same; ``every_seating`` adds the other 3, so each bot also sits on either
side of each other bot, for twice the games per duplicate set.

Duplicate deals (``group_games``): the games of a group come in sets of one
seed per set, one game per seating, so every bot holds the cards each of the
others held. Without duplicate, every game has a deal of its own. The n-th
deal is the same for every group (its seed depends on the root seed and n
only). A tournament's formats, an SPRT's pairs and a ladder's sets are all
made of such games (``referee.tournament.schedule``, ``referee.sprt``,
``referee.ladder``); the tables play them (``referee.games.tables``).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from functools import cache
from itertools import permutations
from typing import Any

from referee.engine.rules import Rules
from referee.seeding import derive_seed


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


def group_games(
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
