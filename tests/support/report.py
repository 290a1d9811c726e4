"""Shared by the report tests: their bots, the data of a written report, the live view's address."""

from __future__ import annotations

import json
import re
from decimal import ROUND_HALF_UP, Decimal
from pathlib import Path
from typing import Any

from tests.support.arena import TESTS, script_bot
from tests.support.referee import BOTS as REFEREE_BOTS

# an illegal card at each process's 5th decision, and a default card played for it (--on-fault default)
FAULTY_BOT = script_bot("faulty", REFEREE_BOTS / "faulty_bot.py", "illegal", "5")


def slow(name: str, ms: int) -> str:
    """A random bot that takes ``ms`` per decision (tests/report/bots/slow_bot.py)."""
    return script_bot(name, TESTS / "report" / "bots" / "slow_bot.py", str(ms))


def page_data(html: Path) -> dict[str, Any]:
    """The data embedded in a written report."""
    text = html.read_text(encoding="utf-8")
    found = re.search(r'<script id="report-data" type="application/json">(.*?)</script>', text, re.DOTALL)
    assert found is not None
    return json.loads(found.group(1))


def live_url(stdout_lines: list[str]) -> str | None:
    for line in stdout_lines:
        found = re.search(r"live view: (http://127\.0\.0\.1:\d+/\S+/)", line)
        if found:
            return found.group(1)
    return None


def to_fixed(x: float, digits: int = 0) -> str:
    """``x`` as the page writes it, with JavaScript's ``Number.prototype.toFixed``: the exact binary value, a tie
    away from zero (Python's format rounds a tie to even: 0.5 is "1" on the page and "0" in Python)."""
    exact = Decimal(x).quantize(Decimal(1).scaleb(-digits), rounding=ROUND_HALF_UP)
    return f"{exact:.{digits}f}"


def signed(x: float, digits: int = 0) -> str:
    """``x`` with its sign, as the page's ``signed`` writes it."""
    return ("+" if x > 0 else "") + to_fixed(x, digits)
