"""Bot names as the arena shows them: plain text, never markup or terminal control codes.

A bot started by hand names itself in its Hello, and a log file can be
edited by anyone: either may hold rich markup (``[/oops]``, ``[bold]``) or
escape sequences that would restyle or clear the terminal. ``printable_name``
turns every character that is not printable (ESC, newlines, bidi controls
...) into ``?`` and cuts the name to a length; ``shown_name`` also escapes
rich markup, for names put into strings that rich parses (``console.print``,
table cells).
"""

from __future__ import annotations

from rich.markup import escape

MAX_NAME = 64


def printable_name(raw: str, limit: int = MAX_NAME) -> str:
    """The name with each unprintable character replaced by ``?``, trimmed and cut to ``limit``."""
    return "".join(ch if ch.isprintable() else "?" for ch in raw.strip()[:limit])


def shown_name(raw: str, limit: int = MAX_NAME) -> str:
    """``printable_name``, with rich markup escaped: safe inside text rich reads as markup."""
    return escape(printable_name(raw, limit))
