"""``arena check-bot`` ends with a one-line verdict (issue 31, item 3): a bot that passes is told so in one line,
a bot that fails sees the checks it failed and no others, and ``--verbose`` shows every check.

Real bots through the real referee: the rules bot (which passes) and the protocol breaker playing an illegal
card (which fails the legality checks), on one preset.
"""

from __future__ import annotations

import sys
from pathlib import Path

from tests.support.arena import invoke

HOSTILE = Path(__file__).parent / "bots" / "protocol_breaker_bot.py"
RULES = "rules=python -m example_bots.rules_bot"
WIDE = 200  # columns: the table is not folded


def test_a_bot_that_passes_gets_one_line(tmp_path: Path) -> None:
    code, out, err = invoke("check-bot", RULES, "-p", "pagat", "--log-dir", tmp_path, columns=WIDE)
    assert code == 0, err
    (line,) = out.strip().splitlines()
    assert line.startswith("check-bot rules: every check passed: ") and " on 1 preset(s); " in line
    checks = int(line.split(": every check passed: ")[1].split()[0])
    assert checks > 10  # every situation of pagat, and the protocol's checks
    (report,) = tmp_path.glob("check-rules-*.json")
    assert f"the report: {report}" in line and "median" in line


def test_verbose_shows_every_check(tmp_path: Path) -> None:
    code, out, err = invoke("check-bot", RULES, "-p", "pagat", "--log-dir", tmp_path, "--verbose", columns=WIDE)
    assert code == 0, err
    rows = [line for line in out.splitlines() if line.startswith("│ ok ")]
    verdict = out.strip().splitlines()[-1]
    assert len(rows) == int(verdict.split(": every check passed: ")[1].split()[0])
    assert not any("FAIL" in line for line in out.splitlines())


def test_a_bot_that_fails_sees_only_what_it_failed(tmp_path: Path) -> None:
    bot = f"hostile={sys.executable} {HOSTILE} illegal"
    code, out, err = invoke("check-bot", bot, "-p", "pagat", "--log-dir", tmp_path, columns=WIDE)
    assert code == 1, err
    failed = [line for line in out.splitlines() if line.startswith("│ FAIL ")]
    passed = [line for line in out.splitlines() if line.startswith("│ ok ")]
    assert failed and not passed
    assert all("legal: expected " in line for line in failed)
    verdict = out.strip().splitlines()[-1]
    assert verdict.startswith(f"check-bot hostile: {len(failed)} of ")
    assert " checks failed (the table above; --verbose shows every check) on 1 preset(s)" in verdict
