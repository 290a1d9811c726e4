"""The double-dummy solver: the tricks each side takes with best play when every hand is seen.

A room of its own below the engine, importing nothing of the arena: the
search is compiled (C++, ``dds.cpp``, built by the package's own build into
``referee.solver._native``), and the rules of the trick come from the caller,
as the engine's tables (``referee.engine.cards``: each card code's effective
suit, and each card's trick key for each suit led). The engine's side of it,
positions from a ``Game`` or from bare card codes, is
``referee.engine.doubledummy``; docs/solver.md says what it answers and how.

A ``Solver`` holds the tables of one contract (a trump, or high or low
no-trump) and the number of decks, and a transposition table it keeps between
calls. Each question takes a list of *worlds*: the hands of every seat (the
cards of a seat that sits out are ignored), all sharing the seats in play
(``active``, in the order they play), the seat to act, the cards of the trick
in progress (in the order played, by the seats before ``to_act``) and the
*side*: the seats whose tricks are counted; every other seat in play plays
against them. With three teams that is one team against the other two
together: the most it can be sure of. Tricks are counted from the trick in
progress on (it included), to the end of the hand.

A position that cannot be a hand in play raises ``SolverInputError`` (a
``ValueError``, one line naming what is wrong); a search that reaches
``node_limit`` nodes (0: no limit) raises ``SearchLimitError``. Where the
compiled module is not built (a slim install without a compiler),
``available()`` is false and making a ``Solver`` raises
``SolverUnavailableError``.
"""

from __future__ import annotations

from collections.abc import Sequence
from enum import IntEnum
from types import ModuleType
from typing import Any

from referee.solver.errors import SearchLimitError, SolverInputError, SolverUnavailableError

_native: ModuleType | None
try:
    from referee.solver import _native
except ImportError as exc:  # not built: a slim install where no compiler worked
    _native = None
    _MISSING = f"the compiled double-dummy solver is not built ({exc})"
else:
    _MISSING = ""

__all__ = [
    "Question",
    "SearchLimitError",
    "Solver",
    "SolverInputError",
    "SolverUnavailableError",
    "available",
    "unavailable_reason",
]

Hands = Sequence[Sequence[int]]
"""Every seat's cards: a list of card codes (0..31) per seat; identical cards of several decks share a code."""


class Question(IntEnum):
    """What ``Solver.solve`` answers for each world."""

    TRICKS = 0
    """The tricks the side takes with best play (an int)."""
    CARD_VALUES = 1
    """Every legal card of the seat to act -> the tricks the side takes after it (a dict)."""
    CLAIM_HOLDS = 2
    """Whether the side takes every trick left, whatever the others play (a bool)."""
    CLAIM_CARD = 3
    """A legal card of the seat to act (one of the side) after which the side takes every trick left, or None."""


def available() -> bool:
    """Whether the compiled solver is built in this installation."""
    return _native is not None


def unavailable_reason() -> str | None:
    """Why the compiled solver cannot be used, in one line; None when it can."""
    return _MISSING or None


class Solver:
    """The double-dummy search under one contract's trick rules.

    ``suits[code]`` is each card code's effective suit (0..3) and
    ``keys[led][code]`` its trick key when suit ``led`` is led: the highest
    key takes the trick, -1 never does, and of equal keys the card played
    first wins (the engine's ``EFFECTIVE_SUIT[trump]`` and ``TRICK_KEY[trump]``).
    ``copies`` is the number of decks (1 to 3). ``table_bits``: the
    transposition table holds 4 * 2**table_bits positions of 64 bytes (8 MB
    at 15), shared by the worlds of one call and by no two calls (an answer
    never depends on what was asked before). A solver answers one call at a
    time (a second thread waits); the search itself runs without the GIL.
    """

    def __init__(self, suits: Sequence[int], keys: Sequence[Sequence[int]], copies: int, *, table_bits: int = 15):
        if _native is None:
            raise SolverUnavailableError(_MISSING)
        self._native: Any = _native.Solver(list(suits), [list(row) for row in keys], copies, table_bits)
        self.copies = copies
        self.nodes = 0
        """Nodes searched by the last call (every world of it)."""

    def solve(
        self,
        question: Question,
        worlds: Sequence[Hands],
        *,
        active: Sequence[int],
        to_act: int,
        trick: Sequence[int] = (),
        side: Sequence[int],
        node_limit: int = 0,
    ) -> list[Any]:
        """The answer to ``question`` (see ``Question``) for each world, counting the tricks of ``side`` from the
        trick in progress on; ``nodes`` says how many nodes it took (all worlds)."""
        seats = len(worlds[0]) if worlds else 0
        try:
            answers, self.nodes = self._native.solve(
                int(question), worlds, seats, active, to_act, trick, side, node_limit
            )
        except SearchLimitError as exc:
            self.nodes = exc.nodes
            raise
        result: list[Any] = answers
        return result
