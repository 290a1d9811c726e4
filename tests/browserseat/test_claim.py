"""Claims from the page: the person presses Claim at each turn to play it is offered; a claim that holds ends
the hand (the hand's result shows, the team credited with every trick left), one that does not is refused
with a message on the page and the same play is asked again, where a second claim is refused by the table;
the log holds each claim as the page saw it, and no message gave away a card the seat could not know."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from playwright.sync_api import Browser, Page

from tests.support.browserseat import (
    check_received,
    click_first_legal,
    open_table,
    start_table,
    state,
    wait_for_turn,
)


def post_claim(page: Page, decision: int) -> tuple[int, str]:
    """A claim sent from the page's own tab for ``decision``, as the button sends it: (status, error)."""
    result: list[Any] = page.evaluate(
        """async (id) => { const own = window.tableReceived.filter(m => m.kind === "state").pop().data.tab;
             const r = await fetch("act", {method: "POST", headers: {"Content-Type": "application/json"},
                                           body: JSON.stringify({tab: own, decision: id, action: {claim: true}})});
             return [r.status, (await r.json()).error || ""]; }""",
        decision,
    )
    return int(result[0]), str(result[1])


def test_claims_that_hold_end_the_hand_and_others_are_refused(browser: Browser, tmp_path: Path) -> None:
    run = start_table(tmp_path, "--preset", "neuralplay", "--level", "1", "--seed", "3", "--rule", "hand_limit=3")
    outcomes: list[bool] = []  # each claim of the person's, as the page showed it: accepted or not
    seen: list[str] = []  # the hand-over and game-over boxes that listed claims
    try:
        page, problems = open_table(browser, run.url)
        last = None
        claimed = False  # the decision shown now follows a claim of the person's
        while True:
            now = wait_for_turn(page, last)
            assert not now.closed
            if now.hand_over:
                if claimed:
                    outcomes.append(True)
                    claimed = False
                if "claimed" in (lines := page.inner_text("#hand-over-box")):  # the claims of the hand, listed
                    seen.append(lines)
                page.click("#next-hand")
                continue
            if now.game_over or (now.match_over and now.decision is None):
                if now.game_over and "claimed" in (lines := page.inner_text("#game-over-box")):
                    seen.append(lines)
                if claimed:  # the claim ended the game
                    outcomes.append(True)
                break
            decision = state(page)["decision"]
            assert now.decision is not None and decision["id"] == now.decision
            if page.is_visible("#tools"):  # left open by a claim
                page.click("#tools-close")
            if claimed:  # refused: the same play asked again, the message on the page, no second claim
                outcomes.append(False)
                assert decision["kind"] == "play" and not decision["mayClaim"]
                assert "claim was refused" in page.inner_text("#message")
                assert page.is_disabled("#claim-button")
                status, error = post_claim(page, now.decision)
                assert status == 422 and "claim" in error, (status, error)
                claimed = False
            elif decision["kind"] == "play" and decision["mayClaim"]:
                page.click("#tools-button")
                page.click("#claim-button")
                claimed = True
                last = now.decision
                continue
            click_first_legal(page, decision)
            last = now.decision
        # the only errors: the second claims sent (refused, 422)
        assert len([p for p in problems if "status of 422" in p]) == outcomes.count(False), problems
        assert not [p for p in problems if "status of 422" not in p], problems
        received = page.evaluate("() => window.tableReceived")
        page.close()
        status, out, err = run.finish()
        assert status == 0, (out, err)
    finally:
        run.stop()
    assert True in outcomes and False in outcomes, outcomes
    records = [json.loads(line) for line in run.log.read_text().splitlines()]
    claims = [r for r in records if r["event"] == "claim"]
    assert [c["accepted"] for c in claims if c["seat"] == 0] == outcomes
    assert any("accepted" in lines for lines in seen) and any("refused" in lines for lines in seen), (seen, outcomes)
    for claim in (c for c in claims if c["seat"] == 0 and c["accepted"]):
        end = next(r for r in records if r["event"] == "hand_end" and r["hand"] == claim["hand"])
        assert end["tricks"][claim["team"]] >= claim["tricks"], (claim, end)
    assert check_received(received, run.log, 0)["decisions checked"] > 0
