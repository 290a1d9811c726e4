"""structlog set-up: configured once at process start.

On a terminal, each log line is written for a person: ``warning: bot not
ready: player seat2-x; reason exited with code 0 ...`` (no timestamp, no
quoting). Otherwise (stderr is a file or a pipe) it is one JSON object per
line, with a timestamp, for tools. ``ARENA_LOG_FORMAT=json`` or ``=text``
chooses either way. Library code just calls ``structlog.get_logger()`` and
binds its context (match, game, seat).
"""

from __future__ import annotations

import logging
import sys
from collections.abc import MutableMapping
from typing import Any, TextIO, cast

import structlog

# the choice of format is the SDK runner's too (sdk.log writes the same lines without structlog)
from sdk.log import FORMAT_VARIABLE, wants_json

__all__ = ["FORMAT_VARIABLE", "configure", "wants_json"]

_LEVEL_STYLE = {"warning": "\x1b[33m", "error": "\x1b[31m", "critical": "\x1b[31m"}


def _for_a_person(colour: bool) -> structlog.typing.Processor:
    """``level: event: key value; key value``, the level in colour on a terminal."""

    def render(_logger: Any, _name: str, event_dict: MutableMapping[str, Any]) -> str:
        level = str(event_dict.pop("level", "info"))
        event = str(event_dict.pop("event", ""))
        event_dict.pop("timestamp", None)
        details = "; ".join(f"{key} {value}" for key, value in event_dict.items())
        head = f"{_LEVEL_STYLE.get(level, '')}{level}:\x1b[0m" if colour else f"{level}:"
        return f"{head} {event}" + (f": {details}" if details else "")

    return render


class _Stderr:
    """Whatever ``sys.stderr`` is when a line is written (it may be swapped after ``configure``: a
    CliRunner, a redirect), so a log line never goes to a stream that was closed meanwhile."""

    def write(self, text: str) -> int:
        return sys.stderr.write(text)

    def flush(self) -> None:
        sys.stderr.flush()


def configure(level: str = "info", json: bool | None = None) -> None:
    if json is None:
        json = wants_json()
    renderer: structlog.typing.Processor = (
        structlog.processors.JSONRenderer() if json else _for_a_person(colour=sys.stderr.isatty())
    )
    structlog.configure(
        processors=[
            structlog.contextvars.merge_contextvars,
            structlog.processors.add_log_level,
            structlog.processors.TimeStamper(fmt="iso", utc=True),
            renderer,
        ],
        wrapper_class=structlog.make_filtering_bound_logger(logging.getLevelName(level.upper())),
        # PrintLogger only prints to its file (write and flush) and compares it with sys.stdout and sys.stderr
        logger_factory=structlog.PrintLoggerFactory(file=cast("TextIO", _Stderr())),
        cache_logger_on_first_use=True,
    )
