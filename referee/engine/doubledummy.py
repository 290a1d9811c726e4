"""Double-dummy questions about a hand in play, put to the compiled solver (``referee.solver``) in the engine's terms.

A ``Position`` is what a double-dummy search needs of a hand in play, as bare
card codes: the trump, the number of teams and of decks, every seat's cards,
the seats in play, the seat to act and the trick in progress. It comes from a
``Game`` (``Position.of_game``) or is built from the cards a Monte Carlo search
samples (``Position(...)`` directly). The rules of the trick are the engine's:
the solver is handed ``cards.EFFECTIVE_SUIT`` and ``cards.TRICK_KEY`` of the
trump, so nothing here or there decides a rule of its own.

The questions, each counting tricks from the trick in progress on (it
included) to the end of the hand:

- ``tricks(position, team)``: the tricks ``team`` takes with best play of
  both sides; with three teams, the most it can be sure of against the other
  two playing together. ``team_tricks`` gives that for every team.
- ``card_values(position, team)``: for every legal card of the seat to act,
  the tricks ``team`` (by default its own) takes after it.
  ``card_values_many`` answers for many sampled worlds of one decision in
  one call.
- ``claim_holds(position, team)`` and ``claim_card(position)``: whether a
  team takes every trick left, and a card of the seat to act that keeps them
  all.

Every function takes ``node_limit`` (0: none) and raises
``referee.solver.SearchLimitError`` past it; a position that cannot be a hand
in play raises ``referee.solver.SolverInputError``; where the solver is not
built, ``referee.solver.SolverUnavailableError`` (``referee.solver.available()``
says which).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache
from typing import Any, Protocol

from referee.engine.cards import EFFECTIVE_SUIT, TRICK_KEY, TRUMP_TEXT, Card, cards_str, deck_copies
from referee.engine.rules import Rules
from referee.solver import Question, Solver


class HandInPlay(Protocol):
    """What a position is read from (``referee.engine.game.Game`` is one). This module needs only this much of a
    game, and so does not import the game, which imports this module to check claims."""

    @property
    def rules(self) -> Rules: ...

    @property
    def phase(self) -> object: ...

    @property
    def to_act(self) -> int | None: ...

    @property
    def contract(self) -> object: ...

    @property
    def trump(self) -> int: ...

    @property
    def active(self) -> Sequence[int]: ...

    @property
    def hands(self) -> Sequence[Sequence[Card]]: ...

    @property
    def trick_cards(self) -> Sequence[Card]: ...


@dataclass(frozen=True, slots=True)
class Position:
    """A hand in play, every card seen: what a double-dummy search is asked about.

    ``hands`` holds every seat's cards (a seat that sits out keeps its cards,
    which play no part); ``active`` the seats in play, in the order they play
    (clockwise); ``trick`` the cards of the trick in progress in the order
    played, by the seats in play before ``to_act``. Seat ``s`` plays for team
    ``s % teams``; ``copies`` is the number of decks.
    """

    trump: int
    teams: int
    copies: int
    hands: tuple[tuple[Card, ...], ...]
    active: tuple[int, ...]
    to_act: int
    trick: tuple[Card, ...] = ()

    @classmethod
    def of_game(cls, game: HandInPlay) -> Position:
        """The hand in play of ``game`` (a ValueError outside the play)."""
        if game.to_act is None or game.contract is None or not game.active or game.phase != "play":
            raise ValueError(f"a double-dummy position is a hand in play, not the {game.phase} phase")
        return cls(
            trump=int(game.trump),
            teams=game.rules.teams,
            copies=deck_copies(game.rules.deck),
            hands=tuple(tuple(hand) for hand in game.hands),
            active=tuple(game.active),
            to_act=game.to_act,
            trick=tuple(game.trick_cards),
        )

    def __str__(self) -> str:
        """The position in a line, cards as text: enough to build it again."""
        hands = " | ".join(" ".join(cards_str(hand)) or "-" for hand in self.hands)
        trick = " ".join(cards_str(self.trick)) or "-"
        return (
            f"trump {TRUMP_TEXT[self.trump]}, {self.teams} teams, {self.copies} deck(s); hands {hands}; "
            f"active {list(self.active)}; to act {self.to_act}; trick {trick}"
        )

    def side(self, team: int) -> tuple[int, ...]:
        """The seats that play for ``team`` (in play or not)."""
        if not 0 <= team < self.teams:
            raise ValueError(f"team {team} is not a team of this game (0..{self.teams - 1})")
        return tuple(s for s in range(len(self.hands)) if s % self.teams == team)

    @property
    def team_to_act(self) -> int:
        return self.to_act % self.teams

    @property
    def tricks_left(self) -> int:
        """The tricks still to be won, the one in progress included."""
        return len(self.hands[self.to_act])


@lru_cache(maxsize=32)
def solver_for(trump: int, copies: int) -> Solver:
    """The solver of ``trump``'s trick rules for ``copies`` decks, made once per process (with its transposition
    table, whose memory is kept; what it holds serves one call only)."""
    return Solver(EFFECTIVE_SUIT[trump], TRICK_KEY[trump], copies)


def _ask(question: Question, positions: Sequence[Position], team: int | None, node_limit: int) -> list[Any]:
    """``question`` for each position, ``team``'s tricks counted (None: the team to act), in one call of the solver:
    the positions must differ in their hands only."""
    if not positions:
        return []
    first = positions[0]
    shared = (first.trump, first.teams, first.copies, first.active, first.to_act, first.trick)
    if any((p.trump, p.teams, p.copies, p.active, p.to_act, p.trick) != shared for p in positions[1:]):
        raise ValueError("the positions of one call must differ only in their hands")
    return solver_for(first.trump, first.copies).solve(
        question,
        [p.hands for p in positions],
        active=first.active,
        to_act=first.to_act,
        trick=first.trick,
        side=first.side(first.team_to_act if team is None else team),
        node_limit=node_limit,
    )


def tricks(position: Position, team: int | None = None, *, node_limit: int = 0) -> int:
    """The tricks ``team`` (by default the team to act) takes from here with best play of every seat in play."""
    [answer] = tricks_many([position], team, node_limit=node_limit)
    return answer


def tricks_many(positions: Sequence[Position], team: int | None = None, *, node_limit: int = 0) -> list[int]:
    """``tricks`` of each position, in one call: sampled worlds, which share everything but the hands of the seats
    (trump, decks, seats in play, the seat to act and the trick)."""
    return _ask(Question.TRICKS, positions, team, node_limit)


def team_tricks(position: Position, *, node_limit: int = 0) -> tuple[int, ...]:
    """Every team's tricks from here: with two teams they add up to the tricks left; with three, each is the most
    that team can be sure of against the other two together (so they may add up to fewer)."""
    first = tricks(position, 0, node_limit=node_limit)
    if position.teams == 2:
        return (first, position.tricks_left - first)
    return (first, *(tricks(position, t, node_limit=node_limit) for t in range(1, position.teams)))


def card_values(position: Position, team: int | None = None, *, node_limit: int = 0) -> dict[Card, int]:
    """Every legal card of the seat to act -> the tricks ``team`` (by default the team to act) takes from here after
    it. With another team the seat to act plays against it: its best card is the one of least value."""
    [values] = card_values_many([position], team, node_limit=node_limit)
    return values


def card_values_many(
    positions: Sequence[Position], team: int | None = None, *, node_limit: int = 0
) -> list[dict[Card, int]]:
    """``card_values`` of each position, in one call: the sampled worlds of one decision, which share everything
    but the hands of the seats (trump, decks, seats in play, the seat to act and the trick)."""
    return _ask(Question.CARD_VALUES, positions, team, node_limit)


def claim_holds(position: Position, team: int, *, node_limit: int = 0) -> bool:
    """Whether ``team`` takes every trick left, the one in progress included, whatever the others play."""
    [answer] = _ask(Question.CLAIM_HOLDS, [position], team, node_limit)
    return bool(answer)


def claim_card(position: Position, *, node_limit: int = 0) -> Card | None:
    """A legal card of the seat to act after which its team takes every trick left, or None."""
    [answer] = _ask(Question.CLAIM_CARD, [position], None, node_limit)
    return None if answer is None else int(answer)
