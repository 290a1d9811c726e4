"""The screenshots of the browser table in docs/play.md, made again: ``python tools/play_screenshots.py``.

It starts ``arena play --browser`` (neuralplay, the rules bots of level 3, a fixed seed, one hand), opens the
page in Debian's Chromium under Playwright (as the tests do, ``tests/support/browser.py``) and plays the first
legal choice each time, taking:

- docs/play-phone.png: a phone (390x844), a finished trick held with its winner marked;
- docs/play-desktop.png: a desktop (1920x1080), the person's turn to play with the hint asked for (its reason
  under the question, the card outlined), the tools beside the table (the score pad, the auction);
- docs/play-result-phone.png: the phone again, the hand's result with the strongest level's play of the deal.
"""

from __future__ import annotations

import argparse
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from tests.support.browser import launch
from tests.support.browserseat import click_first_legal, decision_of, open_table, start_table, wait_for_turn

ARGS = ("--preset", "neuralplay", "--level", "3", "--seed", "8", "--rule", "hand_limit=1")
PHONE = (390, 844)
DESKTOP = (1920, 1080)


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", type=Path, default=ROOT / "docs", help="where the PNG files go")
    args = parser.parse_args(argv)
    wanted = {"play-phone.png", "play-desktop.png", "play-result-phone.png"}
    taken: set[str] = set()
    with tempfile.TemporaryDirectory() as logs:
        run = start_table(Path(logs), *ARGS)
        try:
            browsers = launch()
            browser = next(browsers)
            page, problems, traffic = open_table(browser, run.url, *PHONE)
            plays = 0
            last = None
            while taken != wanted:
                now = wait_for_turn(page, last)
                if now.phase == "trick":
                    if "play-phone.png" not in taken and plays >= 1:
                        page.wait_for_timeout(500)  # the cards' arrival is over
                        page.screenshot(path=str(args.out / "play-phone.png"))
                        taken.add("play-phone.png")
                    page.click("#felt", force=True)
                    page.wait_for_function("document.body.dataset.phase !== 'trick'")
                    continue
                if now.phase == "hand-over":
                    page.wait_for_selector("#duplicate[data-state='done']", timeout=120_000)
                    page.screenshot(path=str(args.out / "play-result-phone.png"))
                    taken.add("play-result-phone.png")
                    page.click("#next-hand")
                    continue
                if now.phase in ("game-over", "over"):
                    break
                decision = decision_of(traffic)
                if decision["kind"] == "play":
                    plays += 1
                    if "play-desktop.png" not in taken and plays >= 2 and len(decision["options"]) > 1:
                        page.set_viewport_size({"width": DESKTOP[0], "height": DESKTOP[1]})
                        page.click("#hint-inline")
                        page.wait_for_function("document.getElementById('hint-line').dataset.decision !== undefined")
                        page.wait_for_timeout(300)
                        page.screenshot(path=str(args.out / "play-desktop.png"))
                        taken.add("play-desktop.png")
                        page.set_viewport_size({"width": PHONE[0], "height": PHONE[1]})
                click_first_legal(page, decision)
                last = now.decision
            if problems:
                raise SystemExit(f"the page had problems: {problems}")
            next(browsers, None)
        finally:
            run.stop()
    missing = wanted - taken
    if missing:
        raise SystemExit(f"not taken: {sorted(missing)}")
    for name in sorted(taken):
        print(f"wrote {args.out / name}")


if __name__ == "__main__":
    main()
