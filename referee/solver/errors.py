"""The errors of the double-dummy solver, apart so that the compiled module raises the same classes as Python code.

``SolverInputError`` (a ``ValueError``): what was handed in cannot be a hand in
play or the trick rules of a game (a seat to act that holds no card, more copies
of a card than the decks hold, hands of the wrong sizes for the trick, a seat
to act that sits out ...); its message is one line naming what is wrong.
``SearchLimitError``: the search reached the node limit it was given before it
had an answer. ``SolverUnavailableError``: the compiled solver is not built in
this installation (a wheel installed where no compiler worked).
"""

from __future__ import annotations


class SolverInputError(ValueError):
    """The position or the tables handed to the solver cannot be those of a hand in play."""


class SearchLimitError(RuntimeError):
    """The search reached its node limit without an answer; ``nodes``: how many it searched."""

    def __init__(self, message: str, nodes: int = 0) -> None:
        super().__init__(message)
        self.nodes = nodes


class SolverUnavailableError(RuntimeError):
    """The compiled solver is not built in this installation."""
