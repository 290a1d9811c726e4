"""The browser table's tests: the real ``arena play --browser``, real bots, the page in Debian's Chromium
under Playwright (``tests/support/browser.py``)."""

from __future__ import annotations

from tests.support.browser import browser as browser  # the fixture: headless Chromium
