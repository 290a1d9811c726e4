"""Duplicate for a person: after each hand the page shows how the strongest level, in the person's seat with
the person's cards, bid and played the same deal, and the difference in points; it is the strongest level's own
play of that deal, played here again apart from the table (the logged game replayed to the hand's deal, the
levels' bots seeded as docs/play.md says); the score pad keeps the match's duplicate score. And a finished hand
dealt again for the person: the same cards, played out against the same levels, the match waiting meanwhile."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from playwright.sync_api import Browser, Page

from example_bots.montecarlo_bot import MonteCarloBot
from referee.browserseat.state import choice_text
from referee.engine.events import BidEvent, ClaimEvent, ContractEvent, DealEvent, ExchangeEvent, HandEndEvent, PlayEvent
from referee.engine.game import ClaimAnswer, Game
from referee.engine.view import Refused, seat_view
from referee.play.levels import LEVELS, level_factory
from referee.replay.logfile import load_log
from referee.replay.steps import GameReplay, Step
from tests.support.browserseat import (
    check_received,
    click_first_legal,
    close_and_finish,
    deal_of,
    decision_of,
    open_table,
    play_table,
    start_table,
    wait_for_turn,
)

OTHERS = 3  # the level round the person
STRONGEST = max(LEVELS)


def strongest_play(log: Path, game: int, hand: int, seat: int) -> tuple[list[list[str]], list[int]]:
    """Hand ``hand`` of game ``game`` played by the strongest level in ``seat`` and level ``OTHERS`` elsewhere,
    apart from the table: what ``seat`` did (kind, as the page writes it) and the points per team."""
    match = load_log(log)
    logged = match.game(game)
    replay = GameReplay(match, logged)
    start: Game | None = None
    for item in replay:
        if isinstance(item, Step) and isinstance(item.event, DealEvent) and item.event.hand == hand:
            start = replay.game.copy()
            break
    assert start is not None
    first = len(start.events)
    seed = logged.start.record["seed"]
    players = start.rules.players
    names = tuple(LEVELS[STRONGEST if s == seat else OTHERS].name for s in range(players))
    bots = []
    for s in range(players):
        bot = level_factory(STRONGEST if s == seat else OTHERS)()
        bot.rng.seed(f"duplicate:{seed}:{hand}:{s}")  # the seeds docs/play.md gives
        bot.time_limit_ms = 3_600_000  # no clock: the worlds bound the search
        if isinstance(bot, MonteCarloBot):
            bot.time_share = 1.0
        bot.seat_names = names
        bot.game_start(seat_view(start, s))
        bots.append(bot)
    refused: list[Refused] = []
    while (decision := start.decision()) is not None:
        action = bots[decision.seat].decide(seat_view(start, decision.seat, refused))
        events = start.answer(action)
        if isinstance(action, ClaimAnswer) and isinstance(events[0], ClaimEvent) and not events[0].accepted:
            refused.append((len(start.events), events[0]))
    done: list[list[str]] = []
    points: list[int] = []
    for ev in start.events[first:]:
        if isinstance(ev, BidEvent) and ev.seat == seat:
            done.append(["bid", choice_text(ev.bid)])
        elif isinstance(ev, ContractEvent) and ev.declarer == seat and ev.bid.trump is None:
            done.append(["trump", choice_text(ev.trump)])
        elif isinstance(ev, ExchangeEvent) and ev.from_seat == seat and ev.cards is not None:
            done.append(["give" if ev.to_seat is not None else "discard", choice_text(ev.cards)])
        elif isinstance(ev, PlayEvent) and ev.seat == seat:
            done.append(["play", choice_text(ev.card)])
        elif isinstance(ev, ClaimEvent) and ev.seat == seat and ev.accepted:
            done.append(["claim", "claim"])
        elif isinstance(ev, HandEndEvent):
            points = list(ev.points)
    return done, points


def test_duplicate_is_the_strongest_levels_own_play_and_a_deal_plays_again(browser: Browser, tmp_path: Path) -> None:
    run = start_table(
        tmp_path, "--preset", "neuralplay", "--level", str(OTHERS), "--seed", "5", "--rule", "hand_limit=2"
    )
    shown: dict[int, dict[str, Any]] = {}
    practice: dict[str, Any] = {}
    try:
        page, problems, traffic = open_table(browser, run.url, pause="200")

        def on_hand_over(p: Page) -> None:
            p.wait_for_selector("#duplicate[data-state='done']", timeout=120_000)
            hand = int(p.inner_text("#hand-over-title").split()[1])
            box = p.locator("#duplicate")
            shown[hand] = {
                "actions": json.loads(box.get_attribute("data-actions") or "[]"),
                "mine": int(box.get_attribute("data-mine") or "x"),
                "theirs": int(box.get_attribute("data-theirs") or "x"),
                "verdict": p.inner_text("#duplicate-verdict"),
            }
            if hand == 1:
                play_again(p)

        def play_again(p: Page) -> None:
            """This deal again: played through by clicking, its result read, back to the match."""
            p.click(".play-again")
            p.wait_for_function("document.body.classList.contains('practising')")
            last = None
            while not p.is_visible("#practice-result"):
                now = wait_for_turn(p, last, 120)
                if now.phase == "decide":
                    decision = decision_of(traffic)
                    assert str(decision["id"]).startswith("p"), decision  # the practice's, not the match's
                    if not practice:
                        practice["hand"] = sorted(c["c"] for c in traffic.last_state()["practice"]["view"]["cards"])
                    click_first_legal(p, decision)
                    last = now.decision
                elif now.phase == "trick":
                    p.wait_for_function("document.body.dataset.phase !== 'trick'")
                else:
                    p.wait_for_timeout(100)
            practice["points"] = int(p.get_attribute("#practice-result", "data-points") or "x")
            practice["text"] = p.inner_text("#practice-result")
            p.click("#choices button.primary")  # back to the match
            p.wait_for_function("!document.body.classList.contains('practising')")

        play_table(page, traffic, on_hand_over=on_hand_over)
        total = page.get_attribute("#duplicate-total", "data-total")
        status, out, err = close_and_finish(run, page, problems)
    finally:
        run.stop()
    assert status == 0, (out, err)
    assert sorted(shown) == [1, 2], shown
    for hand, seen in shown.items():
        actions, points = strongest_play(run.log, 1, hand, 0)
        assert seen["actions"] == actions, (hand, seen, actions)
        assert seen["theirs"] == points[0], (hand, seen, points)
        logged = [json.loads(line) for line in run.log.read_text().splitlines()]
        end = next(r for r in logged if r["event"] == "hand_end" and r["hand"] == hand)
        assert seen["mine"] == end["points"][0]
        diff = seen["mine"] - seen["theirs"]
        assert (f"{diff:+d}" if diff else "the same") in seen["verdict"], seen
    assert total is not None and int(total) == sum(s["mine"] - s["theirs"] for s in shown.values())
    # the deal played again: the person's own cards of that hand, a result of its own; the match went on after
    assert practice["hand"] == sorted(deal_of(run.log, 1, 1)[0]), practice
    assert "in the match it scored" in practice["text"], practice
    stats = check_received(traffic.messages, run.log, 0)
    assert stats["practice states"] > 0 and stats["duplicate cards checked"] > 0, stats
