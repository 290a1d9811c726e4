"""The root of every error a user can cause, and the one the command line shows as a line of text.

``ArenaError`` is raised for what the person running the arena, or a bot,
got wrong: a bad option or rules override, a log that is not a log, a bot
that cannot start, a message that is not the protocol. ``arena`` turns one
into a single line on stderr and an exit status (``referee.cli.app``);
anything else that escapes is a bug and shows as one, with its traceback.
Each part of the arena has its own subclasses (``referee.engine.errors``,
``referee.protocol.domain.ProtocolError``, ``referee.gamelog.LogError`` ...),
so a caller catches what it expects.

Two kinds, because they end a command differently: ``InputError``, what
was typed or named cannot be used (nothing was run: exit status 2, as for
a usage mistake), and every other ``ArenaError``, something that ran
failed (a bot, a check: exit status 1). ``did_you_mean`` words the hint
for a name that is not known.

A leaf module: it imports nothing of the arena, so the engine can use it.
"""

from __future__ import annotations

import difflib
from collections.abc import Iterable


class ArenaError(Exception):
    """Something the user (or a bot) got wrong; the message says what, in one line."""


class InputError(ArenaError, ValueError):
    """What the user typed or named cannot be used (an option's value, a preset, a rule, a bot's command, a
    file, a folder): the command stops before it runs anything."""


class ConfigError(InputError):
    """A setting, an option or an argument that cannot be used: the wrong number of bots, a seat that is not
    one, a count below one."""


def did_you_mean(given: str, known: Iterable[str]) -> str:
    """`` (did you mean 'pagat'?)`` for the known name closest to ``given``, case and ``-``/``_`` ignored, or
    ``""`` when none is close. Only a hint: the name is never taken in its place."""
    names = list(known)

    def folded(name: str) -> str:
        return name.casefold().replace("-", "_")

    by_folded: dict[str, str] = {}
    for name in names:
        by_folded.setdefault(folded(name), name)
    close = difflib.get_close_matches(folded(given), list(by_folded), n=1, cutoff=0.6)
    return f" (did you mean {by_folded[close[0]]!r}?)" if close else ""
