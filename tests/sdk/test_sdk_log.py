"""The bot runner's log lines (``sdk.log``, standard library logging): the same lines as the referee's structlog.

A bot author's install has no structlog (docs: the slim SDK), so the SDK writes
its few lines itself; what a person or a tool reads on a bot's stderr stays
what it was when the runner logged through ``referee.logging``.
"""

from __future__ import annotations

import io
import json
import logging
import subprocess
import sys
from collections.abc import Iterator

import pytest
import structlog

import referee.logging
import sdk.log

EVENT = "session ended"
FIELDS: dict[str, object] = {"bot": "random", "reason": "the stream to unix:/x failed: UNAVAILABLE: no"}


class Terminal(io.StringIO):
    def isatty(self) -> bool:
        return True


@pytest.fixture(autouse=True)
def fresh_loggers() -> Iterator[None]:
    logger = logging.getLogger("sdk")
    saved = logger.handlers[:], logger.level, logger.propagate
    yield
    logger.handlers[:], logger.level, logger.propagate = saved
    structlog.reset_defaults()


def sdk_lines(stream: io.StringIO, monkeypatch: pytest.MonkeyPatch, level: str = "warning") -> list[str]:
    monkeypatch.setattr("sys.stderr", stream)
    sdk.log.configure(level)
    log = sdk.log.get_logger("sdk")
    log.error(EVENT, **FIELDS)
    log.info("not shown at level warning")
    log.debug("nor this")
    return stream.getvalue().splitlines()


def referee_lines(stream: io.StringIO, monkeypatch: pytest.MonkeyPatch) -> list[str]:
    monkeypatch.setattr("sys.stderr", stream)
    referee.logging.configure("warning")
    structlog.get_logger("sdk").error(EVENT, **FIELDS)
    structlog.get_logger("sdk").info("not shown at level warning")
    return stream.getvalue().splitlines()


@pytest.mark.parametrize(("chosen", "stream"), [("", Terminal), ("text", io.StringIO), ("text", Terminal)])
def test_a_line_for_a_person_is_the_referees_line(
    chosen: str, stream: type[io.StringIO], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv(sdk.log.FORMAT_VARIABLE, chosen)
    ours = sdk_lines(stream(), monkeypatch)
    assert ours == referee_lines(stream(), monkeypatch)
    plain = f"error: {EVENT}: bot random; reason {FIELDS['reason']}"
    assert ours == [plain if stream is io.StringIO else plain.replace("error:", "\x1b[31merror:\x1b[0m")]


@pytest.mark.parametrize(("chosen", "stream"), [("", io.StringIO), ("json", Terminal)])
def test_json_is_the_referees_json(chosen: str, stream: type[io.StringIO], monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv(sdk.log.FORMAT_VARIABLE, chosen)
    [ours] = sdk_lines(stream(), monkeypatch)
    [theirs] = referee_lines(stream(), monkeypatch)
    mine, reference = json.loads(ours), json.loads(theirs)
    assert list(mine) == list(reference) == ["bot", "reason", "event", "level", "timestamp"]
    assert mine.pop("timestamp").endswith("Z") and reference.pop("timestamp").endswith("Z")
    assert mine == reference == {**FIELDS, "event": EVENT, "level": "error"}


def test_the_level_is_chosen(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv(sdk.log.FORMAT_VARIABLE, "text")
    lines = sdk_lines(io.StringIO(), monkeypatch, level="debug")
    assert lines[1:] == ["info: not shown at level warning", "debug: nor this"]


def test_a_bot_without_a_referee_says_so_in_one_json_line() -> None:
    """The runner, as the arena starts it (stderr a pipe): a JSON line naming the bot and the reason, status 1."""
    run = subprocess.run(
        [sys.executable, "-m", "example_bots.random_bot", "--address", "127.0.0.1:1", "--token", "t"],
        check=False,
        capture_output=True,
        text=True,
        timeout=60,
        env={"PATH": "/usr/bin:/bin"},
    )
    assert run.returncode == 1, run.stderr
    [line] = [line for line in run.stderr.splitlines() if line.startswith("{")]
    record = json.loads(line)
    assert record["event"] == "session ended" and record["level"] == "error" and record["bot"] == "random"
    assert "UNAVAILABLE" in record["reason"] and "Traceback" not in run.stderr
