"""The table's server on its own (a real aiohttp server on 127.0.0.1, port 0, a real client), a decision handed
to it as the seat's session hands one: the hint, the estimates and the comparison come from one weighing; an
advice that breaks (any exception, not only a ValueError) is a message for the page and one line in the
terminal, never a bare error 500 with a traceback; a claim is no choice to weigh."""

from __future__ import annotations

import asyncio
import concurrent.futures
import random
import threading
from collections.abc import Awaitable, Callable, Iterator, Sequence
from typing import Any

import aiohttp
import pytest

from referee.analyze.evaluate import Outcome
from referee.browserseat import advice
from referee.browserseat.advice import AdviceBudget
from referee.browserseat.client import TableServer
from referee.engine.cards import card_str
from referee.engine.game import DecisionKind, Game
from referee.engine.presets import rules_for
from referee.engine.simulate import shuffled_deck
from referee.engine.view import SeatView, seat_view
from referee.play.settings import Features, HintMode

TAB = "t" * 12
BUDGET = AdviceBudget(play_first=8, play_most=16, decide_first=4, decide_most=8)


def a_card_to_play() -> SeatView:
    rules = rules_for("neuralplay", [])
    rng = random.Random(7)
    game = Game(rules, 0)
    game.deal(shuffled_deck(rules, rng))
    while (decision := game.decision()) is not None:
        if decision.kind is DecisionKind.PLAY and len(decision.cards) > 2:
            return seat_view(game, decision.seat)
        if decision.kind in (DecisionKind.GIVE, DecisionKind.DISCARD):
            game.apply(list(game.hands[decision.seat][: decision.count]))
        else:
            game.apply(next((b for b in decision.options if getattr(b, "is_pass", False)), decision.options[0]))
    raise AssertionError("no card to play")


def in_a_thread(work: Callable[[], Awaitable[Any]]) -> Any:
    """``asyncio.run(work())`` in a thread of its own (the folder's browser keeps an event loop in this one)."""
    out: list[Any] = []
    thread = threading.Thread(target=lambda: out.append(asyncio.run(work())))  # type: ignore[arg-type]
    thread.start()
    thread.join(120)
    assert out, "the server's test did not finish"
    return out[0]


async def ask(
    hints: HintMode, requests: Sequence[tuple[str, dict[str, Any]]]
) -> tuple[list[tuple[int, Any]], list[str]]:
    """Serve a table with a decision waiting (a card to play), send it ``requests`` from its tab: each
    (status, answer), and what the table said on the terminal."""
    said: list[str] = []
    async with TableServer(Features(hints=hints), BUDGET, say=said.append) as table:
        table.owner = TAB
        answer: concurrent.futures.Future[object] = concurrent.futures.Future()
        table.decision_asked(a_card_to_play(), answer)
        out = []
        async with aiohttp.ClientSession() as client:
            for path, body in requests:
                async with client.post(table.url + path, json={"tab": TAB, "decision": 1, **body}) as reply:
                    out.append((reply.status, await reply.json()))
        return out, said


def breaking(view: SeatView, choices: Sequence[object], rng: random.Random) -> Iterator[tuple[Outcome, ...]]:
    raise AssertionError("assert isinstance(action, int)")
    yield ()  # a generator, as an evaluator is


def test_a_broken_advice_is_a_message_not_a_bare_error(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(advice, "EVALUATOR", breaking)
    answers, said = in_a_thread(lambda: ask(HintMode.REQUEST, [("hint", {}), ("estimate", {})]))
    for status, body in answers:
        assert status == 500 and body["error"] == "the advice failed: AssertionError: assert isinstance(action, int)"
    assert said and all(line.startswith("the table's advice failed at decision 1: AssertionError") for line in said)


def test_hint_estimates_and_comparison_are_one_weighing() -> None:
    decision = a_card_to_play().decision
    assert decision is not None
    mine = card_str(decision.cards[-1])
    answers, said = in_a_thread(
        lambda: ask(
            HintMode.DIFFERS,
            [
                ("hint", {}),
                ("estimate", {}),
                ("compare", {"action": {"card": mine}}),
                ("compare", {"action": {"claim": True}}),
            ],
        )
    )
    (s1, hint), (s2, table), (s3, versus), (s4, claim) = answers
    assert (s1, s2, s3) == (200, 200, 200) and not said
    assert hint["choice"] == table["choice"] == table["rows"][0]["choice"] == versus["choice"]
    assert hint["reason"] == table["reason"]
    row = next(r for r in table["rows"] if r["choice"] == mine)
    assert versus["mine"] == mine and versus["same"] == (mine == hint["choice"])
    if not versus["same"]:
        assert f"costs {row['behind']} ± {row['half']}" in versus["text"]
    assert s4 == 422 and "claim" in claim["error"]
