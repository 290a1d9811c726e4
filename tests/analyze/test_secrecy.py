"""The analysis of a seat never uses a card that seat could not know.

Two checks, in the manner of the log secrecy tests (``tests/hostile``):

- A spy: every view the analysis is handed (at each decision, and at each
  deal for the luck) is read card by card, and each card must be one the seat
  has seen by then, worked out from the log's own records: its dealt cards,
  the exchanges it took part in, the cards played so far in the hand.
- A changed deal: two cards of the same suit change hands between two other
  seats (their plays swapped to match), and the game is played again through
  the engine and logged as the referee logs it. Every decision of the seat
  before either card is played, and the luck of its hand, must be judged
  exactly as in the original log: the analysis cannot tell the two deals
  apart, because the seat could not. (An analysis that peeked at the true
  hands would judge them differently: the test checks that the changed cards
  do change the judgements made after they are seen.)
"""

from __future__ import annotations

import json
from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest

from referee.analyze import spread
from referee.analyze.calibration import true_worth
from referee.analyze.driver import SeatChoice, analyse, choose_seats, plan_logs
from referee.analyze.evaluate import Budget
from referee.analyze.evaluate import hand_worth as real_worth
from referee.analyze.evaluate import judge as real_judge
from referee.engine.cards import Card, card_str, effective_suit
from referee.engine.deal import deck_for_hands
from referee.engine.events import DealEvent, ExchangeEvent, HandEndEvent, PlayEvent
from referee.engine.game import DecisionKind, Game
from referee.engine.view import SeatView
from referee.gamelog import HandSecrets, LogWriter, read_records
from referee.replay.logfile import load_log
from referee.replay.steps import DecisionPoint, GameReplay, Step
from tests.support.analyze import analyze_json


@dataclass
class Seen:
    """What a seat has seen of a hand by some line, from the log's records alone."""

    dealt: Counter[str] = field(default_factory=Counter)
    exchanges: list[Counter[str]] = field(default_factory=list)  # those it gave or received
    received: Counter[str] = field(default_factory=Counter)
    played: Counter[str] = field(default_factory=Counter)


def seen_in_records(records: list[tuple[int, dict[str, Any]]], seat: int, hand: int, upto_line: int | None) -> Seen:
    """What ``seat`` has seen of ``hand`` before log line ``upto_line`` (None: its deal only)."""
    seen = Seen()
    for line, rec in records:
        if rec.get("hand") != hand or (upto_line is not None and line >= upto_line):
            continue
        kind = rec["event"]
        if kind == "deal":
            seen.dealt.update(rec["hands"][seat])
            if upto_line is None:
                break
        elif kind == "exchange" and seat in (rec["from"], rec["to"]):
            seen.exchanges.append(Counter(rec["cards"]))
            if rec["to"] == seat:
                seen.received.update(rec["cards"])
        elif kind == "play":
            seen.played[rec["card"]] += 1
    return seen


def check_view(view: SeatView, seen: Seen, where: str) -> int:
    """Every card the view holds is one the seat has seen; returns how many cards were checked."""
    checked = 0
    for ev in view.events:
        if isinstance(ev, DealEvent):
            for s, held in enumerate(ev.hands):
                assert held is None or (s == view.seat and texts(held) == seen.dealt), f"{where}: seat {s}'s deal"
                checked += len(held or ())
        elif isinstance(ev, ExchangeEvent) and ev.cards is not None:
            assert texts(ev.cards) in seen.exchanges, f"{where}: an exchange it had no part in: {ev}"
            checked += len(ev.cards)
    plays = texts(ev.card for ev in view.events if isinstance(ev, PlayEvent))
    assert plays == seen.played, f"{where}: plays {plays - seen.played} not yet made"
    assert not texts(view.hand) - (seen.dealt + seen.received), f"{where}: a hand of cards it was never given"
    return checked + sum(plays.values()) + len(view.hand)


def texts(cards: Iterable[Card]) -> Counter[str]:
    return Counter(card_str(c) for c in cards)


def test_every_card_the_analysis_is_given_is_one_the_seat_has_seen(
    real_logs: dict[str, Path], monkeypatch: pytest.MonkeyPatch
) -> None:
    handed: list[tuple[str, SeatView, int | None]] = []  # log, view, line of the decision (None: at the deal)
    where: dict[int, int] = {}  # id of a decision's view -> its log line

    def spy_judge(view: SeatView, taken: object, budget: Budget, rng: Any) -> Any:
        handed.append((current[0], view, where[id(view)]))
        return real_judge(view, taken, budget, rng)

    def spy_worth(view: SeatView, samples: int, rng: Any) -> Any:
        handed.append((current[0], view, None))
        return real_worth(view, samples, rng)

    monkeypatch.setattr(spread, "judge", spy_judge)
    monkeypatch.setattr(spread, "hand_worth", spy_worth)
    current = [""]
    budget = Budget(samples=8, screen=8, luck_samples=4)
    for name in ("hammerwalt", "bloomington", "double-deck-3p"):
        match = load_log(real_logs[name])
        current[0] = name
        planned = plan_logs([match], choose_seats([match], SeatChoice()), None)
        for _, hand in planned.hands:
            for item in hand.decisions:
                where[id(item.view)] = item.line
        analyse(planned, source=name, budget=budget, seed=3, choice=SeatChoice(), runner=spread.run_here)
    assert len({name for name, _, _ in handed}) == 3
    checked = 0
    for name, view, line in handed:
        match = load_log(real_logs[name])  # the hidden cards of each hand put back where they were dealt or passed
        records = [(e.line, e.record) for game in match.games for e in game.entries]
        seen = seen_in_records(records, view.seat, view.hand_number, line)
        checked += check_view(view, seen, f"{name}: seat {view.seat}, hand {view.hand_number}, line {line}")
    assert checked > 1000


# ------------------------------------------------------------------ a changed deal


def swapped_game(log: Path, out: Path, seat: int) -> tuple[int, int]:
    """Write to ``out`` game 1 of ``log`` up to the end of its first hand with a contract, with two cards of
    one suit swapped between two seats other than ``seat`` (and their plays of them). The log stops there,
    cut off, as a crash would leave it. Returns the hand and the number of the first decision at which either
    swapped card is played."""
    match = load_log(log)
    logged = match.games[0]
    replay = GameReplay(match, logged)
    deals: dict[int, DealEvent] = {}
    actions: dict[int, list[tuple[int, int, DecisionKind, object]]] = {}  # number, seat, kind, action
    target = 0
    for item in replay:
        if isinstance(item, Step) and isinstance(item.event, DealEvent):
            deals[item.event.hand] = item.event
            actions[item.event.hand] = []
        elif isinstance(item, DecisionPoint):
            actions[item.hand].append((item.number, item.decision.seat, item.decision.kind, item.action))
        elif isinstance(item, Step) and isinstance(item.event, HandEndEvent) and not item.event.passed_out:
            target = item.event.hand
            break
    assert target, "the log has no hand played out"
    contract = replay.game.contract
    assert contract is not None
    trump = contract.trump
    dealt = deals[target].hands
    played_at: dict[tuple[int, object], int] = {}  # (seat, card) -> decision number of its first play
    for number, mover, kind, card in actions[target]:
        if kind is DecisionKind.PLAY:
            played_at.setdefault((mover, card), number)
    others = [s for s in range(match.rules.players) if s != seat]
    best: tuple[int, int, Card, int, Card] | None = None
    for x in others:
        for y in others:
            if x >= y:
                continue
            for c1 in set(dealt[x] or ()):
                for c2 in set(dealt[y] or ()):
                    # one copy each, so that every play of them is swapped (double decks hold two of each card)
                    once = (dealt[x] or ()).count(c1) == 1 and (dealt[y] or ()).count(c2) == 1
                    if c1 == c2 or not once or effective_suit(c1, trump) != effective_suit(c2, trump):
                        continue
                    first = min(played_at.get((x, c1), 10**9), played_at.get((y, c2), 10**9))
                    if best is None or first > best[0]:
                        best = (first, x, c1, y, c2)
    assert best is not None, "no two other seats hold cards of one suit"
    first, x, c1, y, c2 = best
    assert first < 10**9, "every card of a complete hand is played"
    hands = [list(h or ()) for h in dealt]
    hands[x][hands[x].index(c1)] = c2
    hands[y][hands[y].index(c2)] = c1
    records = [r for _, r in read_records(log)]
    game = Game(match.rules, logged.first_dealer)
    secrets = HandSecrets(1 if any(r.get("game") for r in records[1:3]) else None)
    with LogWriter(out) as writer:
        writer.write(records[0])
        writer.write(next(r for r in records if r["event"] == "game_start"))
        for hand in range(1, target + 1):
            cards = hands if hand == target else [list(h or ()) for h in deals[hand].hands]
            writer.write_many(secrets.records(game.deal(deck_for_hands(match.rules, deals[hand].dealer, cards))))
            for _, _, kind, action in actions[hand]:
                decision = game.decision()
                assert decision is not None
                if hand == target and kind is DecisionKind.PLAY:
                    mover = decision.seat
                    if (mover, action) == (x, c1):
                        action = c2
                    elif (mover, action) == (y, c2):
                        action = c1
                writer.write_many(secrets.records(game.apply(action)))
    return target, first


def test_the_analysis_of_a_seat_cannot_tell_deals_it_could_not_tell_apart(
    real_logs: dict[str, Path], tmp_path: Path
) -> None:
    seat = 0
    original = real_logs["neuralplay"]
    changed = tmp_path / "changed.jsonl"
    hand, first = swapped_game(original, changed, seat)
    args = ("--seat", str(seat), "--samples", "12", "--workers", "1")
    a = analyze_json(original, "--game", "1", *args)
    b = analyze_json(changed, *args)
    assert b["cut_off"] and f"analysed up to hand {hand}" in b["cut_off"][0]

    def decisions(data: dict[str, Any]) -> dict[int, dict[str, Any]]:
        return {
            d["number"]: {k: v for k, v in d.items() if k != "log"}
            for d in data["games"][0]["decisions"]
            if d["hand"] <= hand
        }

    da, db = decisions(a), decisions(b)
    assert sorted(da) == sorted(db)
    before = [n for n in da if n < first]
    assert [n for n in before if da[n]["status"] == "analysed"], "no decision of the seat to compare"
    for n in before:
        assert da[n] == db[n], f"decision #{n}, before the swapped cards were seen, is judged differently"
    luck_a, luck_b = ([{**r, "log": ""} for r in data["games"][0]["luck"] if r["hand"] <= hand] for data in (a, b))
    assert luck_a and json.dumps(luck_a) == json.dumps(luck_b)
    # The deals do differ where it matters: judged on the true cards, some choice of those decisions is worth
    # otherwise in one deal than in the other. An analysis that looked at the true hands would tell them apart.
    worths = [true_worths(log, set(before)) for log in (original, changed)]
    assert worths[0].keys() == worths[1].keys()
    assert worths[0] != worths[1]


def true_worths(log: Path, numbers: set[int]) -> dict[tuple[int, str], float]:
    """What each legal choice of the decisions ``numbers`` of game 1 is worth on the log's true deal."""
    match = load_log(log)
    replay = GameReplay(match, match.games[0])
    worth = {}
    for item in replay:
        if isinstance(item, DecisionPoint) and item.number in numbers and item.decision.kind is not DecisionKind.GIVE:
            for choice in item.decision.options if item.decision.kind is not DecisionKind.DISCARD else ():
                worth[(item.number, repr(choice))] = true_worth(replay.game, choice)
    return worth
