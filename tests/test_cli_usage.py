"""Usage mistakes on the real ``arena`` executable: one line on stderr, exit status 2."""

from __future__ import annotations

import pytest

from tests.support.arena import arena


@pytest.mark.parametrize(
    ("args", "needle"),
    [
        (["match", "--games", "x"], "'--games'"),
        (["no-such-command"], "No such command 'no-such-command'"),
        (["match", "--on-fault", "sometimes"], "'sometimes'"),
        (["replay"], "Missing argument"),
    ],
)
def test_usage_error_is_one_line(args: list[str], needle: str) -> None:
    result = arena(*args)
    assert result.returncode == 2
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1, result.stderr
    assert lines[0].startswith("error: ") and needle in lines[0]
    assert "Traceback" not in result.stderr


def test_an_unknown_name_is_one_line_exit_2() -> None:
    result = arena("presets", "no-such-preset")
    assert result.returncode == 2  # bad input, as a usage mistake (docs/cli.md)
    assert result.stderr.strip().splitlines() == [result.stderr.strip()]
    assert "unknown preset 'no-such-preset'" in result.stderr


def test_no_arguments_prints_help() -> None:
    result = arena()
    assert result.returncode == 0
    assert "Usage" in result.stdout and result.stderr == ""


def test_the_list_of_commands_gives_each_a_sentence_that_runs_on() -> None:
    """At 300 columns every command's summary fits on its line: none is broken where its docstring's source
    line ends (``analyze``'s and ``check-bot``'s run over two source lines)."""
    result = arena("--help", columns=300)
    assert result.returncode == 0, result.stderr
    rows = [line.strip("│ ").split(maxsplit=1) for line in result.stdout.splitlines() if line.startswith("│ ")]
    summaries = {row[0]: row[1] for row in rows if len(row) == 2 and not row[0].startswith("-")}
    assert {"analyze", "check-bot", "match", "tournament"} <= summaries.keys(), result.stdout
    assert summaries["analyze"].rstrip(" │").endswith("with the worst decisions.")
    assert summaries["check-bot"].rstrip(" │").endswith("2 on bad options.")


@pytest.mark.parametrize("command", ["match", "tournament", "replay", "serve", "presets"])
def test_help_names_arguments_in_capitals_and_puts_no_type_on_flags(command: str) -> None:
    result = arena(command, "--help", columns=200)
    assert result.returncode == 0, result.stderr
    assert "<bool>" not in result.stdout and "list[str]" not in result.stdout
    assert "{" not in result.stdout, result.stdout
    if command == "replay":
        assert "Usage: arena replay [OPTIONS] LOG" in result.stdout
    if command == "presets":
        assert "Usage: arena presets [OPTIONS] [NAME]" in result.stdout


@pytest.mark.parametrize("command", ["tournament", "sprt", "analyze"])
def test_help_says_how_to_install_ray_without_rich_eating_the_extra(command: str) -> None:
    """``[ray]`` is rich markup unless escaped; the package is on no index, so the checkout's extra is named."""
    result = arena(command, "--help", columns=100)
    assert result.returncode == 0, result.stderr
    text = " ".join(result.stdout.replace("│", " ").split())  # the boxes' borders and the wrapping gone
    assert "Needs Ray: pip install -e '.[ray]' in the arena's checkout" in text, text
    assert "'bideuchre-arena'" not in text
