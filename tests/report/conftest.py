"""The report's and the live view's tests: real tournaments by the real ``arena`` command, real bots, and
Debian's Chromium under Playwright (``tests/browser_helpers.py``, as for the replay tests)."""

from __future__ import annotations

import sys
from pathlib import Path

from browser_helpers import browser as browser  # the fixture: headless Chromium

_here = Path(__file__).parent
for folder in (_here.parent / "tournament", _here):  # tournament_helpers (the arena command, quick settings)
    if str(folder) not in sys.path:
        sys.path.append(str(folder))
