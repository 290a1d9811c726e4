"""Error types of the engine.

Bad syntax (a card or bid that cannot be parsed) and a breach of the rules
(a card that may not be played now) are different mistakes, so they are
different types; both carry a message that names the bad input.
"""

from __future__ import annotations

from referee.errors import ArenaError, InputError


class EngineError(ArenaError):
    """Base class for every error the engine raises on purpose."""


class RulesError(EngineError, InputError):
    """A rules option or preset name is unknown, or a value is not allowed."""


class InvalidActionError(EngineError, ValueError):
    """An action could not be parsed (bad card text, bad bid text)."""


class IllegalActionError(EngineError):
    """A well-formed action that the rules forbid at this point.

    ``rule`` is a short stable name of the rule broken (``follow-suit``,
    ``bid-too-low``, ...) so logs and bots can match on it.
    """

    def __init__(self, rule: str, message: str) -> None:
        super().__init__(f"{message} [rule: {rule}]")
        self.rule = rule
        self.detail = message
