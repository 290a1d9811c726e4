"""The browser table's tests: the real ``arena play --browser``, real bots, the page in Debian's Chromium
under Playwright (``tests/support/browser.py``), one browser for the whole folder."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from playwright.sync_api import Browser

from tests.support.browser import launch


@pytest.fixture(scope="package")
def browser() -> Iterator[Browser]:
    """One Chromium for every test of the folder (closed after its last test, so that no event loop of
    Playwright's outlives it: see ``tests.support.browser.browser``)."""
    yield from launch()
