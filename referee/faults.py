"""What a bot did wrong, and what it cost: the closed sets of words the log, the results and the CLI use.

Each is a StrEnum: a member is its text (it compares and hashes as the
text, and is written as it in a log line or a result), so a log written
before these types existed reads the same.
"""

from __future__ import annotations

from enum import StrEnum


class ViolationKind(StrEnum):
    """A fault of a bot (docs/faults.md)."""

    TIMEOUT = "timeout"  # no answer within the time limit
    ILLEGAL = "illegal"  # a well-formed answer the rules forbid
    MALFORMED = "malformed"  # bytes that are not an answer (the protocol's ProtocolError)
    CRASH = "crash"  # the bot's stream closed, or it never started or connected
    PROTOCOL = "protocol"  # out of turn: a stale or unknown request id, a second Hello, a flood
    LATE = "late"  # an answer after its time ran out (the timeout was recorded already)


class Penalty(StrEnum):
    """What a violation cost the bot's team."""

    FORFEIT = "forfeit"  # the team lost the game
    DEFAULT_ACTION = "default-action"  # a default legal action was played for the bot
    NONE = "none"  # recorded only


# How a violation's detail starts when the bot could not be started or connected for its game: in the log
# and results the flag is written so (a log line is text); in memory it is ``not_started``.
NOT_STARTED = "could not start: "
