"""The report's and the live view's tests: real tournaments by the real ``arena`` command, real bots, and
Debian's Chromium under Playwright (the replay tests' launch options, ``tests/replay/conftest.py``)."""

from __future__ import annotations

import importlib.util
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

_here = Path(__file__).parent
for folder in (_here.parent / "tournament", _here):  # tournament_helpers (the arena command, quick settings)
    if str(folder) not in sys.path:
        sys.path.append(str(folder))


def _replay_browser_settings() -> tuple[Path, list[str]]:
    """The replay tests' Chromium and its arguments: one set of launch options for every browser test."""
    spec = importlib.util.spec_from_file_location("replay_browser", _here.parent / "replay" / "conftest.py")
    assert spec is not None and spec.loader is not None
    sys.path.append(str(_here.parent / "replay"))
    module = importlib.util.module_from_spec(spec)
    sys.modules["replay_browser"] = module
    spec.loader.exec_module(module)
    return module.CHROMIUM, module.CHROMIUM_ARGS


CHROMIUM, CHROMIUM_ARGS = _replay_browser_settings()


@pytest.fixture(scope="module")
def browser() -> Iterator[object]:
    """Headless Chromium under Playwright, for the module (see tests/replay/conftest.py for why module scope)."""
    from playwright.sync_api import sync_playwright

    if not CHROMIUM.exists():
        pytest.fail(f"{CHROMIUM} is missing: `make test` installs Debian's chromium package")
    with sync_playwright() as pw:
        browser = pw.chromium.launch(executable_path=str(CHROMIUM), args=CHROMIUM_ARGS)
        yield browser
        browser.close()
