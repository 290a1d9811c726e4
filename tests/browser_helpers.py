"""The browser of every browser test (the replay page, the analysis, the report, the live view): Debian's
Chromium under Playwright, launched one way. A conftest imports ``browser`` to offer the fixture."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

CHROMIUM = Path("/usr/bin/chromium")
CHROMIUM_ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
]


@pytest.fixture(scope="module")
def browser() -> Iterator[object]:
    """Headless Chromium (Debian's, installed by ``make test``) under Playwright.

    Module scope: Playwright's sync API runs an event loop in the main thread
    while it is open, which would break every later test that calls
    ``asyncio.run``; closing it with the module ends that loop.
    """
    from playwright.sync_api import sync_playwright

    if not CHROMIUM.exists():
        pytest.fail(f"{CHROMIUM} is missing: `make test` installs Debian's chromium package")
    with sync_playwright() as pw:
        browser = pw.chromium.launch(executable_path=str(CHROMIUM), args=CHROMIUM_ARGS)
        yield browser
        browser.close()
