"""``arena replay LOG --html OUT.html``: the page, clicked through in a real headless Chromium.

The browser (the ``browser`` fixture) is Debian's ``chromium``, which ``make
test`` installs when missing, driven by Playwright with the system executable.
"""

from __future__ import annotations

import re
from collections import Counter
from pathlib import Path

from playwright.sync_api import Page

from tests.support.browser import open_page, text_of
from tests.support.claims import write_claim_log
from tests.support.logs import Record, revealed, write_records
from tests.support.replay import step_index, write_page


def game_steps(log: Path) -> list[Record]:
    """The records the page has one step each for (every checked game record)."""
    return [r for r in revealed(log) if r["event"] not in ("match_start", "game_start", "violation", "match_end")]


SUITS = {"S": "♠", "H": "♥", "D": "♦", "C": "♣"}


def holding(steps: list[Record], upto: int, seat: int) -> Counter[str]:
    """What ``seat`` holds after step ``upto`` (its hand's deal, exchanges and plays), from the records."""
    start = max(k for k in range(upto + 1) if steps[k]["event"] == "deal")
    held = Counter(steps[start]["hands"][seat])
    for r in steps[start + 1 : upto + 1]:
        if r["event"] == "exchange" and seat in (r["from"], r["to"]):
            held = held - Counter(r["cards"]) if r["from"] == seat else held + Counter(r["cards"])
        elif r["event"] == "play" and r["seat"] == seat:
            held -= Counter([r["card"]])
    return held


def seat_cards(page: Page, seat: int) -> list[str]:
    return page.eval_on_selector_all(
        f'#seats .seat[data-seat="{seat}"] .card', "els => els.map(e => e.dataset.card || 'back')"
    )


def table_cards(page: Page) -> list[tuple[str, str, bool]]:
    return [
        (c["card"], c["seat"], c["win"])
        for c in page.eval_on_selector_all(
            "#trick .card",
            "els => els.map(e => ({card: e.dataset.card, seat: e.dataset.seat, win: e.classList.contains('win')}))",
        )
    ]


def go_to(page: Page, index: int) -> None:
    """Click Forward / Back until the page shows step ``index``."""
    while step_index(page) < index:
        page.click("#next")
    while step_index(page) > index:
        page.click("#prev")
    assert step_index(page) == index


def test_the_page_is_self_contained(make_log, tmp_path, browser) -> None:
    log = make_log("neuralplay", seed=41)
    html = write_page(log, tmp_path)
    text = html.read_text(encoding="utf-8")
    assert not re.search(r"""(src|href)\s*=|url\(|@import|<link|<iframe|fetch\(|XMLHttpRequest""", text, re.IGNORECASE)
    page, problems = open_page(browser, html)
    assert page.title() == f"Replay: {log.name}: neuralplay"
    for _ in range(12):
        page.click("#next")
    assert problems == []


def test_stepping_through_a_six_player_lone_hand(make_log, tmp_path, browser) -> None:
    log = make_log("bloomington", seed=42, lone=0.5, overrides=("hand_limit=6",))
    steps = game_steps(log)
    html = write_page(log, tmp_path)
    page, problems = open_page(browser, html)

    # the deal of hand 1: every seat's cards face up, as dealt
    deal = steps[0]
    assert page.get_attribute("body", "data-hand") == "1"
    for seat in range(6):
        assert Counter(seat_cards(page, seat)) == Counter(deal["hands"][seat])
    assert page.text_content("#event") == f"Hand 1 dealt by {deal['dealer']} bot{deal['dealer']}"
    dealer_box = page.locator(f'#seats .seat[data-seat="{deal["dealer"]}"] .badge.dealer')
    assert dealer_box.count() == 1

    # forward to the first card played, then to the end of that trick
    first_play = next(k for k, r in enumerate(steps) if r["event"] == "play")
    go_to(page, first_play)
    play = steps[first_play]
    assert table_cards(page) == [(play["card"], str(play["seat"]), False)]
    assert Counter(seat_cards(page, play["seat"])) == holding(steps, first_play, play["seat"])
    first_trick = next(k for k, r in enumerate(steps) if r["event"] == "trick")
    go_to(page, first_trick)
    winner = steps[first_trick]["winner"]
    played = [(r["card"], str(r["seat"]), r["seat"] == winner) for r in steps[first_play:first_trick]]
    assert sorted(table_cards(page)) == sorted(played)
    assert page.text_content("#centre-text") == f"Trick to {winner} bot{winner}"
    # back one step: the same cards, no winner yet
    page.click("#prev")
    assert [w for _, _, w in table_cards(page)] == [False] * len(played)
    page.keyboard.press("ArrowRight")
    assert step_index(page) == first_trick

    # a lone hand: the partners who sit out are marked
    lone = next(k for k, r in enumerate(steps) if r["event"] == "contract" and r["alone"])
    go_to(page, lone)
    out = sorted(set(range(6)) - set(steps[lone]["active"]))
    marked = page.eval_on_selector_all("#seats .seat.out", "els => els.map(e => Number(e.dataset.seat))")
    assert sorted(marked) == out
    assert problems == []


def test_one_seats_view_hides_the_others(make_log, tmp_path, browser) -> None:
    log = make_log("bloomington", seed=43, lone=0.5, overrides=("hand_limit=6",))
    steps = game_steps(log)
    page, problems = open_page(browser, write_page(log, tmp_path))
    give = next(k for k, r in enumerate(steps) if r["event"] == "exchange" and r["to"] is not None)
    giver, taker = steps[give]["from"], steps[give]["to"]
    bystander = next(s for s in range(6) if s not in (giver, taker))
    hand = steps[give]["hand"]
    page.select_option("#hand", str(hand))
    start = step_index(page)
    assert steps[start]["event"] == "deal" and steps[start]["hand"] == hand

    page.select_option("#view", str(bystander))
    assert page.get_attribute("body", "data-view") == str(bystander)
    assert Counter(seat_cards(page, bystander)) == Counter(steps[start]["hands"][bystander])
    for other in set(range(6)) - {bystander}:
        shown = seat_cards(page, other)
        assert shown == ["back"] * len(steps[start]["hands"][other])
    # the seat's own box sits at the bottom of the table
    boxes = page.eval_on_selector_all(
        "#seats .seat", "els => els.map(e => [Number(e.dataset.seat), parseFloat(e.style.top)])"
    )
    assert max(boxes, key=lambda b: b[1])[0] == bystander

    go_to(page, give)
    cards = " ".join(("10" if c[0] == "T" else c[0]) + SUITS[c[1]] for c in steps[give]["cards"])
    assert text_of(page.text_content("#event")).endswith("(cards hidden)")
    assert "cards hidden" in text_of(page.text_content("#log li.now"))
    page.select_option("#view", str(giver))
    assert not text_of(page.text_content("#event")).endswith("(cards hidden)")
    page.select_option("#view", "all")
    assert page.text_content("#event") == f"Exchange: {giver} bot{giver} gives 1 to {taker} bot{taker}: {cards}"
    for seat in range(6):
        assert "back" not in seat_cards(page, seat)
    assert problems == []


def test_jump_to_a_hand_and_between_games(make_log, tmp_path, browser) -> None:
    log = make_log("hammerwalt", seed=44, games=2, overrides=("hand_limit=4",))
    recs = revealed(log)
    page, problems = open_page(browser, write_page(log, tmp_path))
    assert page.is_visible("#game")
    deals = [r for r in recs if r["event"] == "deal" and r["game"] == 1]
    page.select_option("#hand", "3")
    assert page.get_attribute("body", "data-hand") == "3"
    third = deals[2]
    for seat in range(4):
        assert Counter(seat_cards(page, seat)) == Counter(third["hands"][seat])
    dealer = page.eval_on_selector_all(
        "#seats .seat", "els => els.filter(e => e.querySelector('.badge.dealer')).map(e => Number(e.dataset.seat))"
    )
    assert dealer == [third["dealer"]]
    page.click("#prev")  # back across the hand boundary: the end of hand 2
    assert page.get_attribute("body", "data-hand") == "2"
    assert text_of(page.text_content("#event")).startswith(("Result:", "Everyone passed"))
    page.click("#last")
    assert page.get_attribute("body", "data-hand") == "2"
    page.keyboard.press("PageDown")
    assert page.get_attribute("body", "data-hand") == "3" and steps_match(page, third)

    page.select_option("#game", "1")  # the second game (options are 0-based)
    assert page.get_attribute("body", "data-game") == "2"
    second = next(r for r in recs if r["event"] == "deal" and r["game"] == 2)
    for seat in range(4):
        assert Counter(seat_cards(page, seat)) == Counter(second["hands"][seat])
    assert problems == []


def steps_match(page: Page, deal: Record) -> bool:
    return page.text_content("#event") == f"Hand {deal['hand']} dealt by {deal['dealer']} bot{deal['dealer']}"


def test_opening_at_a_hand_and_seat_and_a_cut_off_log(make_log, tmp_path, browser) -> None:
    log = make_log("pagat", seed=45)
    write_records(log, revealed(log))  # a version-1 log: its cards are there before the cut
    lines = log.read_text().splitlines(keepends=True)
    cut = next(k for k, line in enumerate(lines) if '"hand": 3' in line and '"event": "play"' in line)
    log.write_text("".join(lines[:cut]))
    page, problems = open_page(browser, write_page(log, tmp_path, "--hand", "2", "--seat", "1"))
    assert page.get_attribute("body", "data-hand") == "2"
    assert page.get_attribute("body", "data-view") == "1"
    assert page.input_value("#view") == "1"
    page.keyboard.press("End")
    page.keyboard.press("PageDown")
    page.keyboard.press("End")
    assert page.get_attribute("body", "data-hand") == "3"
    assert "The log is cut off here: the game stops in hand 3, trick 1." in text_of(page.text_content("#problem"))
    assert problems == []


def test_names_are_text_not_markup(make_log, tmp_path, browser) -> None:
    log = make_log("pagat", seed=46)
    recs = revealed(log)
    hostile = "</script><img src=x onerror=alert(1)>&amp;"
    for rec in recs[:2]:  # match_start and game_start
        rec["seats"][2]["bot"] = hostile
    write_records(log, recs)
    page, problems = open_page(browser, write_page(log, tmp_path))
    assert text_of(page.text_content('#seats .seat[data-seat="2"] .name')).startswith(f"2 {hostile} · team 0")
    assert page.locator("img").count() == 0
    assert problems == []


def test_a_claim_is_a_step_and_its_tricks_are_on_the_score(tmp_path, browser) -> None:
    log = write_claim_log(tmp_path / "claims.jsonl", "neuralplay", seed=5, overrides=("hand_limit=8",))
    steps = game_steps(log)
    page, problems = open_page(browser, write_page(log, tmp_path))
    accepted = next(k for k, r in enumerate(steps) if r["event"] == "claim" and r["accepted"])
    claim = steps[accepted]
    go_to(page, accepted)
    seat, team, tricks = claim["seat"], claim["team"], claim["tricks"]
    what = "the last trick" if tricks == 1 else f"the remaining {tricks} tricks"
    assert page.text_content("#event") == f"{seat} bot{seat} claims {what} for team {team}: accepted, the hand ends"
    end = next(r for r in steps[accepted:] if r["event"] == "hand_end")
    shown = page.eval_on_selector_all("#score tr td:nth-child(2)", "els => els.map(e => Number(e.textContent))")
    assert shown == end["tricks"], "the claimed tricks count at once"
    refused = next(k for k, r in enumerate(steps) if r["event"] == "claim" and not r["accepted"])
    go_to(page, refused)
    assert text_of(page.text_content("#event")).endswith("refused, play goes on")
    assert problems == []
