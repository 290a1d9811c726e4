"""The referee's log lines: written for a person on a terminal, JSON for a file or when asked for."""

from __future__ import annotations

import io
import json

import pytest
import structlog

from referee.logging import FORMAT_VARIABLE, configure


class Terminal(io.StringIO):
    def isatty(self) -> bool:
        return True


def warn_to(stream: io.StringIO, monkeypatch: pytest.MonkeyPatch) -> str:
    monkeypatch.setattr("sys.stderr", stream)
    configure("warning")
    try:
        structlog.get_logger().warning("bot not ready", player="seat2-x", reason="exited with code 0")
        structlog.get_logger().info("not shown at level warning")
    finally:
        structlog.reset_defaults()
    return stream.getvalue()


def test_on_a_terminal_a_warning_is_one_line_for_a_person(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv(FORMAT_VARIABLE, raising=False)
    out = warn_to(Terminal(), monkeypatch)
    assert out.splitlines() == [
        "\x1b[33mwarning:\x1b[0m bot not ready: player seat2-x; reason exited with code 0",
    ]


def test_to_a_file_it_is_json(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv(FORMAT_VARIABLE, raising=False)
    [line] = warn_to(io.StringIO(), monkeypatch).splitlines()
    record = json.loads(line)
    assert record["event"] == "bot not ready" and record["level"] == "warning" and record["player"] == "seat2-x"
    assert "timestamp" in record


@pytest.mark.parametrize(("chosen", "stream", "is_json"), [("json", Terminal, True), ("text", io.StringIO, False)])
def test_the_variable_chooses_either_way(
    chosen: str, stream: type[io.StringIO], is_json: bool, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv(FORMAT_VARIABLE, chosen)
    [line] = warn_to(stream(), monkeypatch).splitlines()
    assert line.startswith("{") == is_json
    if not is_json:
        assert line == "warning: bot not ready: player seat2-x; reason exited with code 0"  # no colour in a file
