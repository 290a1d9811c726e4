"""Usage mistakes on the real ``arena`` executable: one line on stderr, exit status 2."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

ARENA = Path(sys.executable).parent / "arena"


def run(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([str(ARENA), *args], capture_output=True, text=True, timeout=60)


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
    result = run(*args)
    assert result.returncode == 2
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1, result.stderr
    assert lines[0].startswith("error: ") and needle in lines[0]
    assert "Traceback" not in result.stderr


def test_domain_error_is_one_line_exit_1() -> None:
    result = run("presets", "no-such-preset")
    assert result.returncode == 1
    assert result.stderr.strip().splitlines() == [result.stderr.strip()]
    assert "unknown preset 'no-such-preset'" in result.stderr


def test_no_arguments_prints_help() -> None:
    result = run()
    assert result.returncode == 0
    assert "Usage" in result.stdout and result.stderr == ""
