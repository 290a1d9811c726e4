"""Shared by the report tests: bots, a page opened with the network cut off, reading the page's data."""

from __future__ import annotations

import json
import re
import sys
from pathlib import Path
from typing import Any

from playwright.sync_api import Browser, Page

HERE = Path(__file__).parent
SLOW = HERE / "bots" / "slow_bot.py"
FAULTY = HERE.parent / "referee" / "bots" / "faulty_bot.py"
RANDOM = f"random={sys.executable} -m example_bots.random_bot"
FIRST = f"first={sys.executable} -m example_bots.first_bot"
RULES = f"rules={sys.executable} -m example_bots.rules_bot"
# an illegal card at each process's 5th decision, and a default card played for it (--on-fault default)
FAULTY_BOT = f"faulty={sys.executable} {FAULTY} illegal 5"


def slow(name: str, ms: int) -> str:
    return f"{name}={sys.executable} {SLOW} {ms}"


def open_page(browser: Browser, url: str, width: int = 1400, height: int = 900) -> tuple[Page, list[str]]:
    """Open ``url``; the list collects script errors and any request that leaves the file or the loopback."""
    page = browser.new_page(viewport={"width": width, "height": height})
    problems: list[str] = []

    def block(route: Any) -> None:
        if route.request.url.startswith(("file://", "http://127.0.0.1:")):
            route.continue_()
        else:
            problems.append(f"request: {route.request.url}")
            route.abort()

    page.route("**/*", block)
    page.on("pageerror", lambda exc: problems.append(f"script error: {exc}"))
    page.on("console", lambda msg: problems.append(f"console: {msg.text}") if msg.type == "error" else None)
    page.goto(url)
    page.wait_for_function("document.body.dataset.ready === '1' || document.body.dataset.step !== undefined")
    return page, problems


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


def text_of(text: str | None) -> str:
    """A page's text (Playwright gives None only for a node with no text content at all, such as a document)."""
    assert text is not None
    return text
