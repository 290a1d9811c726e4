"""Shared by the replay tests: their digest bot, what a clean failure of ``arena replay`` looks like, and the
replay page (``arena replay --html``) in the browser."""

from __future__ import annotations

from pathlib import Path

from playwright.sync_api import Page

from referee.cli.app import Status
from tests.support.arena import TESTS, invoke

# a bot whose every choice hangs on a checksum of everything it was told (tests of replay --ask)
DIGEST_BOT = TESTS / "replay" / "bots" / "digest_bot.py"


def one_line_error(code: int, out: str, err: str, status: int = Status.BAD_INPUT) -> str:
    """Assert a clean failure: exit status ``status`` (2: bad input; 1: what was checked or asked failed), one
    line on stderr, no traceback; return the line."""
    assert code == status, (code, out, err)
    assert "Traceback" not in out + err
    lines = err.strip().splitlines()
    assert len(lines) == 1, err
    assert lines[0].startswith("error: ")
    return lines[0]


# ------------------------------------------------------------ the page


def write_page(log: Path, tmp_path: Path, *options: str) -> Path:
    out = tmp_path / f"{log.stem}.html"
    code, stdout, err = invoke("replay", log, "--html", out, *options)
    assert code == 0, err
    assert stdout.strip() == f"wrote {out}"
    return out


def step_index(page: Page) -> int:
    return int(page.get_attribute("body", "data-step") or -1)


# Every card on the page now: where it is, whether its corner shows the card itself, and (a card of the trick)
# whether it lies clear of every seat's box (its name and hand).
CARDS_NOW = """() => {
  const table = document.getElementById("table").getBoundingClientRect();
  const bad = [];
  let count = 0, narrowest = Infinity;
  for (const c of document.querySelectorAll("#seats .card, #trick .card")) {
    const r = c.getBoundingClientRect();
    const hit = document.elementFromPoint(r.left + 3, r.top + 3);
    const inWindow = r.left >= 0 && r.top >= 0 && r.right <= innerWidth && r.bottom <= innerHeight;
    const inTable = r.left >= table.left && r.top >= table.top && r.right <= table.right && r.bottom <= table.bottom;
    const cornerShows = hit !== null && c.contains(hit);
    const clear = c.closest(".seat") !== null || Array.from(document.querySelectorAll("#seats .seat")).every(s => {
      const q = s.getBoundingClientRect();
      return r.right <= q.left || q.right <= r.left || r.bottom <= q.top || q.bottom <= r.top;
    });
    count++;
    narrowest = Math.min(narrowest, r.width);
    if (!(inWindow && inTable && cornerShows && clear)) {
      const seat = c.closest(".seat") ? c.closest(".seat").dataset.seat : "trick";
      bad.push({card: c.dataset.card || "back", seat, inWindow, inTable, cornerShows, clear});
    }
  }
  const page = document.documentElement;
  const scrolls = page.scrollWidth > innerWidth || page.scrollHeight > innerHeight;
  return {step: document.body.dataset.step, count, narrowest, bad, scrolls,
          trick: document.querySelectorAll("#trick .card").length};
}"""
