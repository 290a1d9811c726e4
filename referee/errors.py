"""The root of every error a user can cause, and the one the command line shows as a line of text.

``ArenaError`` is raised for what the person running the arena, or a bot,
got wrong: a bad option or rules override, a log that is not a log, a bot
that cannot start, a message that is not the protocol. ``arena`` turns one
into a single line on stderr and an exit status (``referee.cli.app``);
anything else that escapes is a bug and shows as one, with its traceback.
Each part of the arena has its own subclasses (``referee.engine.errors``,
``referee.protocol.domain.ProtocolError``, ``referee.gamelog.LogError`` ...),
so a caller catches what it expects.

A leaf module: it imports nothing of the arena, so the engine can use it.
"""

from __future__ import annotations


class ArenaError(Exception):
    """Something the user (or a bot) got wrong; the message says what, in one line."""


class ConfigError(ArenaError, ValueError):
    """A setting, an option or an argument that cannot be used: the wrong number of bots, a seat that is not
    one, a count below one."""
