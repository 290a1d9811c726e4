"""The browser of every browser test (the replay page, the analysis, the report, the live view): Debian's
Chromium under Playwright, launched one way, and pages opened in it with the network cut off. A conftest
imports ``browser`` to offer the fixture."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from pathlib import Path

import pytest
from playwright.sync_api import Browser, Page, Route

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
def browser() -> Iterator[Browser]:
    """Headless Chromium (Debian's, installed by ``make test``) under Playwright.

    Module scope: Playwright's sync API runs an event loop in the main thread
    while it is open, which would break every later test that calls
    ``asyncio.run``; closing it with the module ends that loop. (A folder whose
    tests call no ``asyncio.run`` may share one for the folder: ``launch``.)
    """
    yield from launch()


def launch() -> Iterator[Browser]:
    """Chromium under Playwright, for as long as the generator is not closed."""
    from playwright.sync_api import sync_playwright

    if not CHROMIUM.exists():
        pytest.fail(f"{CHROMIUM} is missing: `make test` installs Debian's chromium package")
    with sync_playwright() as pw:
        browser = pw.chromium.launch(executable_path=str(CHROMIUM), args=CHROMIUM_ARGS)
        yield browser
        browser.close()


def open_page(
    browser: Browser,
    url: str | Path,
    width: int = 1400,
    height: int = 900,
    *,
    loopback: bool = False,
    prepare: Callable[[Page], None] | None = None,
) -> tuple[Page, list[str]]:
    """Open ``url`` (a file's path, or an address) once it has drawn itself; the list collects script errors
    and every request for anything but a file (with ``loopback``, also but 127.0.0.1: the live view).
    ``prepare`` is called with the page before it is opened (to listen to its traffic, say)."""
    page = browser.new_page(viewport={"width": width, "height": height})
    if prepare is not None:
        prepare(page)
    problems: list[str] = []
    allowed = ("file://", "http://127.0.0.1:") if loopback else ("file://",)

    def block(route: Route) -> None:
        if route.request.url.startswith(allowed):
            route.continue_()
        else:
            problems.append(f"request: {route.request.url}")
            route.abort()

    page.route("**/*", block)
    page.on("pageerror", lambda exc: problems.append(f"script error: {exc}"))
    page.on("console", lambda msg: problems.append(f"console: {msg.text}") if msg.type == "error" else None)
    page.goto(url.as_uri() if isinstance(url, Path) else url)
    # the report sets data-ready once drawn, the replay and the live table data-step
    page.wait_for_function("document.body.dataset.ready === '1' || document.body.dataset.step !== undefined")
    return page, problems


def text_of(text: str | None) -> str:
    """A page's text (Playwright gives None only for a node with no text content at all, such as a document)."""
    assert text is not None
    return text
