"""The HTML replay fits the window: every card of every hand on screen and readable, on a phone (390x844) and
from 1024x768 up.

Each page is opened in the real Chromium at 390x844, 1024x768 and 1400x1000, on a
4-seat, a 3-seat and a 6-seat preset with lone bids forced (so a declarer holds
extra cards before discarding), and stepped through its first hands. At every
step each card of each hand and of the trick must lie inside the window and
inside the table, and its top-left corner (rank and suit) must be the card
itself, not something drawn over it; a card of the trick lies clear of every
seat's name and hand. A screenshot of each is kept in the
test's folder (``layout-PRESET-WxH.png``) for a person to look at.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from playwright.sync_api import Page

from tests.support.browser import open_page
from tests.support.replay import CARDS_NOW, write_page

# Step through the page (the keys a person presses) up to hand ``stop``,
# checking every step; stops at the first bad one. The whole walk is one call.
WALK = (
    """(stop) => {
  const check = """
    + CARDS_NOW
    + """;
  const results = [];
  for (;;) {
    const now = check();
    results.push(now);
    if (now.bad.length || now.scrolls) break;
    if (document.getElementById("next").disabled || document.body.dataset.hand === String(stop)) break;
    document.dispatchEvent(new KeyboardEvent("keydown", {key: "ArrowRight", bubbles: true}));
  }
  return results;
}"""
)

STEP_TO = """(k) => {
  while (Number(document.body.dataset.step) < k)
    document.dispatchEvent(new KeyboardEvent("keydown", {key: "ArrowRight", bubbles: true}));
}"""

# a phone, the smallest desktop, a common one (where the trick once reached over South's hand); a larger window
# only gives the table more room (test_a_resized_window_lays_the_table_out_again opens one at 1920x1080)
SIZES = [(390, 844), (1024, 768), (1400, 1000)]
# 4 seats with 15 cards each (18 while a call3 declarer holds the partner's
# cards), 3 seats with 16 each, 6 seats with 8 (10 for a best bidder).
PRESETS = {"triple-deck": 4, "double-deck-3p": 3, "bloomington": 6}


def check_steps(page: Page, where: str, stop_hand: int) -> list[dict]:
    results = page.evaluate(WALK, stop_hand)
    for now in results:
        assert now["bad"] == [], (
            f"{where}, step {now['step']}: cards off screen, outside the table or covered: {now['bad']}"
        )
        assert not now["scrolls"], f"{where}, step {now['step']}: the page scrolls"
        assert now["narrowest"] >= 24, f"{where}, step {now['step']}: cards too small"
    return results


@pytest.mark.parametrize("preset", list(PRESETS))
def test_every_card_fits_the_window(make_log, tmp_path: Path, browser, preset: str) -> None:
    players = PRESETS[preset]
    log = make_log(preset, seed=61, lone=1.0, overrides=("hand_limit=2",))
    html = write_page(log, tmp_path)
    for width, height in SIZES:
        page, problems = open_page(browser, html, width, height)
        results = check_steps(page, f"{preset} at {width}x{height}", stop_hand=2)
        assert max(r["count"] for r in results) >= players * 8  # the hands were there to check
        assert max(r["trick"] for r in results) >= 3  # and tricks on the table (partners of a lone hand sit out)
        # a screenshot with a trick on the table, for a person to look at
        fullest = max(results, key=lambda r: r["trick"])
        page.select_option("#hand", "1")
        page.evaluate(STEP_TO, int(fullest["step"]))
        assert page.locator("#trick .card").count() == fullest["trick"]
        page.screenshot(path=str(tmp_path / f"layout-{preset}-{width}x{height}.png"))
        # one seat's view puts that seat at the bottom: the other hands are backs, and fit too
        page.select_option("#view", "1")
        check_steps(page, f"{preset} at {width}x{height}, seat 1's view", stop_hand=2)
        assert problems == []
        page.close()


def test_a_resized_window_lays_the_table_out_again(make_log, tmp_path: Path, browser) -> None:
    log = make_log("triple-deck", seed=62, overrides=("hand_limit=1",))
    page, problems = open_page(browser, write_page(log, tmp_path))
    page.set_viewport_size({"width": 1920, "height": 1080})
    big = page.evaluate("() => document.querySelector('#seats .card').getBoundingClientRect().width")
    page.set_viewport_size({"width": 1024, "height": 768})
    page.wait_for_function("w => document.querySelector('#seats .card').getBoundingClientRect().width < w", arg=big)
    check_steps(page, "after shrinking the window", stop_hand=1)
    assert problems == []
