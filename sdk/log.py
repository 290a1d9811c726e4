"""The bot runner's log lines, on the standard library's ``logging``: the referee's format, without structlog.

A bot logs little (a session that ended, an Error from the referee), but a bot
author's install should not need the referee's logging stack, so the SDK writes
its lines itself, in the format of ``referee.logging``: on a terminal a line for
a person (``error: session ended: bot random; reason ...``, the level in
colour); otherwise (stderr is a file or a pipe, as when the arena starts the
bot) one JSON object per line, with a timestamp. ``ARENA_LOG_FORMAT=json`` or
``=text`` chooses either way.

A logger takes an event and its fields, as the referee's loggers do:
``log.warning("referee error", code=code, message=text)``. Its records go to
the standard ``logging`` logger of the same name (``sdk``): ``configure`` gives
it a handler on stderr (``run`` calls it); a program that embeds the SDK
without ``run`` can route them as it likes, and each record's message is the
line for a person.
"""

from __future__ import annotations

import json
import logging
import os
import sys
from datetime import UTC, datetime
from typing import Any, TextIO

FORMAT_VARIABLE = "ARENA_LOG_FORMAT"
_LEVEL_STYLE = {"warning": "\x1b[33m", "error": "\x1b[31m", "critical": "\x1b[31m"}
_EVENT = "sdk_event"  # the LogRecord attributes that carry the event and its fields to the formatter
_FIELDS = "sdk_fields"


class EventLogger:
    """``log.info("event", key=value, ...)`` over a standard library logger."""

    __slots__ = ("logger",)

    def __init__(self, logger: logging.Logger) -> None:
        self.logger = logger

    def debug(self, event: str, **fields: object) -> None:
        self._log(logging.DEBUG, event, fields)

    def info(self, event: str, **fields: object) -> None:
        self._log(logging.INFO, event, fields)

    def warning(self, event: str, **fields: object) -> None:
        self._log(logging.WARNING, event, fields)

    def error(self, event: str, **fields: object) -> None:
        self._log(logging.ERROR, event, fields)

    def _log(self, level: int, event: str, fields: dict[str, object]) -> None:
        if self.logger.isEnabledFor(level):
            line = _line(event, fields)
            self.logger.log(level, "%s", line, extra={_EVENT: event, _FIELDS: fields})


def get_logger(name: str = "sdk") -> EventLogger:
    return EventLogger(logging.getLogger(name))


def _line(event: str, fields: dict[str, object]) -> str:
    """``event: key value; key value``."""
    details = "; ".join(f"{key} {value}" for key, value in fields.items())
    return event + (f": {details}" if details else "")


class _Formatter(logging.Formatter):
    """A record as ``referee.logging`` writes one: JSON, or ``level: event: key value; ...`` for a person."""

    def __init__(self, *, json: bool, colour: bool) -> None:
        super().__init__()
        self.json = json
        self.colour = colour

    def format(self, record: logging.LogRecord) -> str:
        level = record.levelname.lower()
        event = getattr(record, _EVENT, None)
        fields: dict[str, object] = dict(getattr(record, _FIELDS, {}))
        if event is None:  # a record of another kind (a plain logging call): its message is the event
            event = record.getMessage()
        if self.json:
            stamp = datetime.fromtimestamp(record.created, UTC).isoformat().replace("+00:00", "Z")
            fields.update(event=event, level=level, timestamp=stamp)
            return json.dumps(fields, default=repr)
        head = f"{_LEVEL_STYLE.get(level, '')}{level}:\x1b[0m" if self.colour else f"{level}:"
        return f"{head} {_line(str(event), fields)}"


class _StderrHandler(logging.Handler):
    """Writes to whatever ``sys.stderr`` is when a line is written (it may be swapped after ``configure``)."""

    def emit(self, record: logging.LogRecord) -> None:
        try:
            stream: TextIO = sys.stderr
            stream.write(self.format(record) + "\n")
            stream.flush()
        except Exception:
            self.handleError(record)


def wants_json(stream: Any = None) -> bool:
    """JSON unless the stream (stderr) is a terminal; ARENA_LOG_FORMAT=json|text overrides."""
    chosen = os.environ.get(FORMAT_VARIABLE, "").strip().lower()
    if chosen in ("json", "text"):
        return chosen == "json"
    stream = sys.stderr if stream is None else stream
    return not (hasattr(stream, "isatty") and stream.isatty())


def configure(level: str = "info", json: bool | None = None, name: str = "sdk") -> None:
    """Send the ``name`` logger's records at ``level`` and above to stderr, one line each (replaces an earlier
    ``configure``'s handler)."""
    if json is None:
        json = wants_json()
    logger = logging.getLogger(name)
    for handler in [h for h in logger.handlers if isinstance(h, _StderrHandler)]:
        logger.removeHandler(handler)
    handler = _StderrHandler()
    handler.setFormatter(_Formatter(json=json, colour=sys.stderr.isatty()))
    logger.addHandler(handler)
    logger.setLevel(level.upper())
    logger.propagate = False
