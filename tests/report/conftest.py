"""The report's and the live view's tests: real tournaments by the real ``arena`` command, real bots, and
Debian's Chromium under Playwright (``tests/support/browser.py``, as for the replay tests)."""

from __future__ import annotations

from tests.support.browser import browser as browser  # the fixture: headless Chromium
