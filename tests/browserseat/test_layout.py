"""The page on a phone's screen (390x844) and a desktop's (1920x1080): nothing outside the window, every
card and choice large enough to tap, at a bid (the most choices) and at a card (the fullest hand)."""

from __future__ import annotations

from pathlib import Path

import pytest
from playwright.sync_api import Browser, Page

from tests.support.browserseat import click_first_legal, open_table, start_table, state, wait_for_turn

SIZES = [(390, 844), (1920, 1080)]
TAP = 40  # CSS pixels: the least width and height of a card or a choice


def check_fits(page: Page, width: int, height: int) -> int:
    """Nothing reaches outside the window; every card and choice button is inside it and large enough to tap.
    Returns how many buttons were checked."""
    sizes = page.evaluate("() => [document.documentElement.scrollWidth, document.documentElement.scrollHeight]")
    assert sizes[0] <= width and sizes[1] <= height, (sizes, width, height)
    boxes = page.evaluate(
        """() => Array.from(document.querySelectorAll("#hand button, #choices button, header button, .seat"))
              .map(e => { const r = e.getBoundingClientRect();
                          return [e.textContent, r.left, r.top, r.right, r.bottom, e.tagName]; })"""
    )
    for text, left, top, right, bottom, tag in boxes:
        assert left >= 0 and top >= 0 and right <= width and bottom <= height, (text, left, top, right, bottom)
        if tag == "BUTTON" and text not in ("Tools",):
            assert right - left >= TAP and bottom - top >= TAP, (text, right - left, bottom - top)
    return len(boxes)


@pytest.mark.parametrize("preset", ["neuralplay", "triple-deck", "bloomington"])
def test_the_page_fits_a_phone_and_a_desktop(browser: Browser, tmp_path: Path, preset: str) -> None:
    run = start_table(tmp_path, "--preset", preset, "--level", "3", "--seed", "2", "--rule", "hand_limit=1")
    try:
        pages = [open_table(browser, run.url, w, h)[0] for w, h in SIZES]
        checked = {"bid": False, "play": False}
        last = None
        while not all(checked.values()):
            now = wait_for_turn(pages[-1], last)
            assert now.decision is not None, now
            decision = state(pages[-1])["decision"]
            kind = decision["kind"]
            if kind in checked and not checked[kind]:
                for page, (w, h) in zip(pages, SIZES, strict=True):
                    page.reload()  # the newest tab holds the table: each size in turn
                    page.wait_for_function(f"document.body.dataset.decision === '{now.decision}'")
                    heads = {o.split()[0] for o in decision["options"]} if kind == "bid" else decision["options"]
                    assert check_fits(page, w, h) >= len(heads)
                    page.screenshot(path=str(tmp_path / f"{preset}-{kind}-{w}x{h}.png"))
                checked[kind] = True
            click_first_legal(pages[-1], decision)
            last = now.decision
    finally:
        run.stop()
