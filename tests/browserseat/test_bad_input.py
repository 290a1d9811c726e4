"""Requests the page would never send, a second tab, a closed tab: each refused with a message on the page
(nothing reaches the referee, the game goes on), or ending the match as the terminal's Ctrl-D does."""

from __future__ import annotations

import json
import time
from pathlib import Path
from typing import Any

from playwright.sync_api import Browser, Page

from tests.support.arena import arena
from tests.support.browserseat import (
    check_received,
    click_bid,
    click_first_legal,
    decision_of,
    open_table,
    open_tools,
    play_table,
    shown,
    start_table,
    wait_for_turn,
)

ARGS = ("--preset", "neuralplay", "--level", "3", "--seed", "8", "--rule", "hand_limit=1")


def forged(page: Page, path: str, body: dict[str, Any], tab: str | None = None) -> tuple[int, str]:
    """POST ``body`` to the table as a script on the page may: (status, the error shown)."""
    result = page.evaluate(
        """async ([path, body, tab]) => {
          const own = document.body.dataset.tab;
          const r = await fetch(path, {method: "POST", headers: {"Content-Type": "application/json"},
                                       body: JSON.stringify(Object.assign({tab: tab || own}, body))});
          return [r.status, await r.text()];
        }""",
        [path, body, tab],
    )
    status, text = result
    try:
        return status, json.loads(text).get("error", "")
    except ValueError:
        return status, text


def test_forged_requests_are_refused_and_the_game_goes_on(browser: Browser, tmp_path: Path) -> None:
    run = start_table(tmp_path, *ARGS)
    try:
        page, problems, traffic = open_table(browser, run.url)
        now = wait_for_turn(page, None)
        while now.phase != "decide" or decision_of(traffic)["kind"] != "play":  # to the first card the person plays
            if now.phase == "trick":
                page.dispatch_event("#felt", "click")
            elif decision_of(traffic)["kind"] == "bid":
                click_bid(page, "pass")
            else:
                page.click("#choices button >> nth=0")
            now = wait_for_turn(page, now.decision)
        decision = decision_of(traffic)
        hand = [c["c"] for c in traffic.last_state()["view"]["cards"]]
        illegal = [c for c in hand if c not in decision["options"]]
        not_held = next(c for c in ("AS", "KS", "QH", "9D", "7C", "TC") if c not in hand)
        # a card the person does not hold; then one they hold but may not play, clicked on the page
        status, error = forged(page, "act", {"decision": decision["id"], "action": {"card": not_held}})
        assert status == 422 and f"{not_held} cannot be played now" in error, (status, error)
        if illegal:  # clicking a card the page greyed out, enabled by hand: refused, said on the page
            page.evaluate(  # at once: a redraw in between would draw it greyed out again
                """(card) => { const b = document.querySelector(`#hand button.card[data-card='${card}']`);
                               b.disabled = false; b.click(); }""",
                illegal[0],
            )
            page.wait_for_function("document.getElementById('message').className === 'bad'")
            assert "cannot be played now" in page.inner_text("#message")
        status, error = forged(
            page, "act", {"decision": decision["id"] - 1, "action": {"card": decision["options"][0]}}
        )
        assert status == 409 and "which is over" in error, (status, error)
        status, error = forged(page, "act", {"decision": decision["id"], "action": {"bid": "4 S"}})
        assert status == 422 and "names no card" in error, (status, error)
        status, error = forged(page, "act", {"decision": decision["id"], "action": "JH"})
        assert status == 422 and "JSON object" in error, (status, error)
        status, error = forged(page, "act", {"decision": decision["id"], "action": {"card": "JH"}}, tab="x" * 12)
        assert status == 409 and "another tab" in error, (status, error)
        wrong_key = run.url.rsplit("/", 2)[0] + "/wrong-key/act"
        status, _ = forged(page, wrong_key, {"decision": decision["id"], "action": {"card": decision["options"][0]}})
        assert status == 404
        assert shown(page).decision == str(decision["id"])  # the decision still waits: nothing was taken
        play_table(page, traffic)
        page.close()
        status, out, err = run.finish()
    finally:
        run.stop()
    assert status == 0 and not [p for p in problems if "status of 4" not in p], (out, err, problems)
    check_received(traffic.messages, run.log, 0)
    records = [json.loads(line) for line in run.log.read_text().splitlines()]
    assert not [r for r in records if r["event"] == "violation"]  # the referee never saw a forged answer
    verify = arena("replay", str(run.log), "--verify", timeout=60)
    assert verify.returncode == 0, verify.stdout + verify.stderr


def test_a_second_tab_takes_the_table_over(browser: Browser, tmp_path: Path) -> None:
    run = start_table(tmp_path, *ARGS)
    try:
        first, _, _ = open_table(browser, run.url)
        wait_for_turn(first, None)
        second, problems, traffic = open_table(browser, run.url)
        first.wait_for_function("document.body.dataset.taken === '1'")
        assert "another tab" in first.inner_text("#message")
        wait_for_turn(second, None)
        decision = decision_of(traffic)
        status, error = forged(first, "act", {"decision": decision["id"], "action": {"bid": "pass"}})
        assert status == 409 and "another tab" in error
        first.close()
        now = wait_for_turn(second, None)  # the second tab plays on: its answer is taken
        click_first_legal(second, decision_of(traffic))
        wait_for_turn(second, now.decision)
        assert run.process.poll() is None and not problems, problems
    finally:
        run.stop()
    answers = [m for m in traffic.messages if m.get("path") == "act"]
    assert [m["status"] for m in answers] == [200], answers


def test_a_closed_tab_ends_the_match(browser: Browser, tmp_path: Path) -> None:
    run = start_table(tmp_path, *ARGS, "--games", "2")
    try:
        page, _, _ = open_table(browser, run.url)
        wait_for_turn(page, None)
        page.close()
        started = time.monotonic()
        status, out, err = run.finish(timeout=60)
    finally:
        run.stop()
    assert status == 1, (out, err)
    assert time.monotonic() - started < 30
    assert "the page was closed: you left the table" in out and out.count("you left the table") == 1, out
    lines = err.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("error: the game was stopped: the player's client left the table")
    assert "the log holds every complete game" in lines[0] and "Traceback" not in err


def test_leaving_asks_first_and_says_it_once(browser: Browser, tmp_path: Path) -> None:
    """Leave the table asks before it ends the match: Stay keeps the game going; Leave ends it, and the
    terminal says so in one line, once."""
    run = start_table(tmp_path, *ARGS, "--games", "2")
    try:
        page, problems, traffic = open_table(browser, run.url)
        now = wait_for_turn(page, None)
        open_tools(page)
        page.click("#leave-button")
        assert page.is_visible("#confirm-leave") and "Leave the table?" in page.inner_text("#confirm-text")
        page.click("#leave-no")
        assert not page.is_visible("#confirm-leave")
        time.sleep(0.5)
        assert run.process.poll() is None and shown(page).decision == now.decision  # nothing ended
        assert not [m for m in traffic.messages if m.get("path") == "leave"]
        page.click("#leave-button")
        page.click("#leave-yes")
        page.wait_for_function("document.body.dataset.closed === '1'")
        assert "you left the table" in page.inner_text("#message")
        status, out, err = run.finish(timeout=60)
    finally:
        run.stop()
    assert status == 1, (out, err)
    assert out.count("you left the table") == 1 and "you left the table: you left the table" not in out, out
    lines = err.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("error: the game was stopped"), err
    assert not problems, problems
