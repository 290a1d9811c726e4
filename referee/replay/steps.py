"""One logged game re-played through the engine, record by record.

A ``GameReplay`` starts a fresh ``Game`` with the logged rules and first
dealer, then walks the game's records in order:

- a ``deal`` record is turned back into a deck (``deck_for_hands``) and dealt;
- the record of a seat's action (``bid``, ``exchange``, ``play``, and for the
  trump decision the ``contract`` record, which names the trump) gives the
  action; the engine applies it, so an illegal action is caught;
- a ``claim`` record, at a seat's turn to play, is put to the engine's
  ``Game.claim``: the engine must come to the same answer (accepted or
  refused), so a claim logged as accepted that the engine cannot prove fails
  here. An accepted claim is the seat's decision (its action a ``Claim``);
  a refused one changes nothing, and the seat's card follows;
- every event the engine emits must be the next record, field for field
  (extra fields in a record are allowed);
- a ``violation`` with penalty ``forfeit`` must be followed by the
  ``game_end`` that ``Game.forfeit`` gives for the violating seat's team.

Iterating yields, in log order: a ``DecisionPoint`` just before each action is
applied (the engine then stands where the seat was asked), a ``Step`` for
each checked event, and each ``Violation``. The first disagreement raises
``Mismatch`` naming the line, what the engine expected and what was recorded.
A game cut off at the end of the file stops quietly; ``cut_off`` says where.
"""

from __future__ import annotations

import json
from collections import Counter, deque
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

from referee.engine.deal import deck_for_hands
from referee.engine.errors import EngineError
from referee.engine.events import (
    BidEvent,
    ClaimEvent,
    ContractEvent,
    DealEvent,
    Event,
    ExchangeEvent,
    GameEndEvent,
    HandEndEvent,
    PlayEvent,
    TrickEvent,
)
from referee.engine.game import Decision, DecisionKind, Game, Phase
from referee.engine.view import SeatView, seat_view
from referee.gamelog import LogError, event_record, parse_event_record
from referee.replay.logfile import Entry, LoggedGame, MatchLog

PENALTIES = ("forfeit", "default-action", "none")


class Mismatch(LogError):
    """The log disagrees with the engine; the message names the line."""


@dataclass(frozen=True, slots=True)
class Violation:
    """A fault by a bot, as logged."""

    line: int
    seat: int
    kind: str
    detail: str
    penalty: str
    hand: int | None


@dataclass(frozen=True, slots=True)
class Claim:
    """The action of a play decision answered by a claim the engine accepted: every remaining trick."""

    tricks: int  # the tricks it gave the claimer's team


@dataclass(frozen=True, slots=True)
class DecisionPoint:
    """A seat's decision about to be taken; the engine stands where the seat was asked."""

    number: int  # 1-based within the game, counting every decision of every kind
    decision: Decision
    hand: int
    trick: int  # the trick of a play; 0 for other decisions
    turn: int  # for a bid, the seat's n-th bid of the hand (1-based); else 1
    line: int  # the record that holds the action taken
    action: object  # the engine action taken (a ``Claim`` for an accepted claim)
    violations: tuple[Violation, ...]  # the bot's faults at this decision (the action was then the referee's)
    refused_claims: int = 0  # claims of the seat the engine refused at this decision, before its action


@dataclass(frozen=True, slots=True)
class Step:
    """One recorded event, checked against the engine's."""

    line: int
    event: Event  # the engine's event (equal to the record)
    index: int  # its position in ``game.events``
    point: DecisionPoint | None  # set on the record of a seat's action


Item = DecisionPoint | Step | Violation

# which record carries the action of each decision kind
_ACTION_RECORD = {
    DecisionKind.BID: "bid",
    DecisionKind.TRUMP: "contract",
    DecisionKind.GIVE: "exchange",
    DecisionKind.DISCARD: "exchange",
    DecisionKind.PLAY: "play",
}


def describe_event(event: Event) -> str:
    """Which event this is, in a few words (for messages)."""
    if isinstance(event, DealEvent):
        return f"deal of hand {event.hand}"
    if isinstance(event, BidEvent):
        return f"bid of seat {event.seat} in hand {event.hand}"
    if isinstance(event, ContractEvent):
        return f"contract of hand {event.hand}"
    if isinstance(event, ExchangeEvent):
        return f"exchange by seat {event.from_seat} in hand {event.hand}"
    if isinstance(event, PlayEvent):
        return f"play of seat {event.seat} in hand {event.hand}, trick {event.trick}"
    if isinstance(event, TrickEvent):
        return f"trick {event.trick} of hand {event.hand}"
    if isinstance(event, ClaimEvent):
        return f"claim of seat {event.seat} in hand {event.hand}, trick {event.trick}"
    if isinstance(event, HandEndEvent):
        return f"end of hand {event.hand}"
    if isinstance(event, GameEndEvent):
        return "end of the game"
    raise TypeError(f"not an engine event: {event!r}")


def describe_decision(decision: Decision, game: Game) -> str:
    """The decision the engine waits for, in a few words (for messages)."""
    seat, hand = decision.seat, game.hand_number
    kind = decision.kind
    if kind is DecisionKind.BID:
        return f"a bid by seat {seat} (hand {hand})"
    if kind is DecisionKind.TRUMP:
        return f"seat {seat} naming trump, recorded in the contract (hand {hand})"
    if kind is DecisionKind.GIVE:
        return f"seat {seat} giving {decision.count} card(s) to seat {decision.to} (hand {hand})"
    if kind is DecisionKind.DISCARD:
        return f"seat {seat} discarding {decision.count} card(s) (hand {hand})"
    return f"a play by seat {seat} (hand {hand}, trick {game.trick_number})"


_MISSING = object()


def _same(a: Any, b: Any) -> bool:
    """JSON equality that also compares types (true is not 1, "2" is not 2)."""
    if type(a) is not type(b):
        return False
    if isinstance(a, list):
        return len(a) == len(b) and all(_same(x, y) for x, y in zip(a, b, strict=True))
    return bool(a == b)


def _show(value: Any) -> str:
    return "nothing" if value is _MISSING else json.dumps(value, ensure_ascii=False)


class GameReplay:
    """One logged game driven through the engine; iterate it once."""

    def __init__(self, match: MatchLog, logged: LoggedGame) -> None:
        self.match = match
        self.logged = logged
        self.rules = match.rules
        self.game = Game(match.rules, logged.first_dealer)
        self.checked = 0  # records checked against the engine
        self.cut_off: str | None = None  # where the log stops, when it stops mid-game
        self._consumed = False

    # ------------------------------------------------------------ the walk

    def __iter__(self) -> Iterator[Item]:
        if self._consumed:
            raise RuntimeError("a GameReplay is iterated once; make a new one")
        self._consumed = True
        game = self.game
        pending: deque[Event] = deque()
        faults: list[Violation] = []
        forfeit_by: Violation | None = None
        bid_turns: Counter[int] = Counter()
        number = 0
        refused = 0  # refused claims at the decision now due
        for entry in self.logged.entries:
            kind = entry.event
            if kind == "violation":
                fault = self._violation(entry)
                faults.append(fault)
                if fault.penalty == "forfeit":
                    forfeit_by = fault
                yield fault
                continue
            point: DecisionPoint | None = None
            if not pending:
                if game.is_over:
                    raise self._mismatch(entry, f"{kind} record after the end of the game")
                if forfeit_by is not None or (kind == "game_end" and entry.record.get("reason") == "forfeit"):
                    pending.append(self._forfeit(entry, forfeit_by))
                elif game.phase is Phase.DEAL:
                    pending.extend(self._deal(entry))
                    bid_turns.clear()
                else:
                    decision = game.decision()
                    assert decision is not None  # not over, not waiting for a deal
                    claimed = kind == "claim" and decision.kind is DecisionKind.PLAY
                    if claimed and entry.record.get("accepted") is not True:
                        refused += 1  # nothing changes: the seat's card follows
                        claim = self._claim(decision, entry)[0]
                        self._compare(entry, claim)
                        self.checked += 1
                        yield Step(entry.line, claim, len(game.events), None)
                        continue
                    action: object
                    if claimed:
                        action = Claim(self.rules.cards_each - game.trick_number + 1)
                    else:
                        action = self._action(decision, entry)
                    number += 1
                    if decision.kind is DecisionKind.BID:
                        bid_turns[decision.seat] += 1
                    point = DecisionPoint(
                        number=number,
                        decision=decision,
                        hand=game.hand_number,
                        trick=game.trick_number if decision.kind is DecisionKind.PLAY else 0,
                        turn=bid_turns[decision.seat] if decision.kind is DecisionKind.BID else 1,
                        line=entry.line,
                        action=action,
                        violations=tuple(faults),
                        refused_claims=refused,
                    )
                    faults = []
                    refused = 0
                    yield point
                    if claimed:
                        pending.extend(self._claim(decision, entry))
                    else:
                        try:
                            pending.extend(game.apply(action))
                        except EngineError as exc:
                            raise self._mismatch(
                                entry, f"{describe_decision(decision, game)} is illegal: {exc}"
                            ) from None
            expected = pending.popleft()
            self._compare(entry, expected)
            self.checked += 1
            yield Step(entry.line, expected, len(game.events) - len(pending) - 1, point)
        if game.is_over and not pending:
            return
        if self.logged.last:
            self.cut_off = self._where_now()
            return
        tail = self.logged.entries[-1] if self.logged.entries else self.logged.start
        if pending:
            raise self._mismatch(
                tail, f"game {self.logged.number} stops here; expected the {describe_event(pending[0])} next"
            )
        raise self._mismatch(
            tail, f"game {self.logged.number} stops here without a game_end record ({self._where_now()})"
        )

    # ------------------------------------------------------------ helpers

    def seat_view_at(self, step: Step, seat: int) -> tuple[SeatView, tuple[Event, ...]]:
        """What ``seat`` knew right after ``step``: the engine's seat view, and its events of the hand up to the step.

        Call it while the replay stands at ``step``. The view's hand is the
        seat's holding after the engine applied the action of the step. A
        refused claim is not one of the game's events (it changed nothing),
        but every seat heard it: it ends the events of its step.
        """
        view = seat_view(self.game, seat)
        if isinstance(step.event, ClaimEvent) and not step.event.accepted:
            return view, (*view.events, step.event)
        upto = step.index - self.game.hand_start + 1
        return view, view.events[: max(upto, 0)]

    def _where_now(self) -> str:
        game = self.game
        if game.hand_number == 0:
            return "before the first deal"
        if game.phase is Phase.DEAL:
            return f"after hand {game.hand_number}"
        if game.phase is Phase.PLAY:
            return f"in hand {game.hand_number}, trick {game.trick_number}"
        return f"in hand {game.hand_number}, during the {game.phase}"

    def _mismatch(self, entry: Entry, message: str) -> Mismatch:
        return Mismatch(f"{self.match.where(entry.line)}: {message}")

    def _violation(self, entry: Entry) -> Violation:
        rec = entry.record
        seat, penalty = rec.get("seat"), rec.get("penalty", "none")
        if not isinstance(seat, int) or isinstance(seat, bool) or not 0 <= seat < self.rules.players:
            raise self._mismatch(entry, f"violation needs 'seat', a seat 0..{self.rules.players - 1}")
        if penalty not in PENALTIES:
            raise self._mismatch(entry, f"violation penalty {penalty!r} is not one of {', '.join(PENALTIES)}")
        hand = rec.get("hand")
        return Violation(
            entry.line,
            seat,
            str(rec.get("kind", "?")),
            str(rec.get("detail", "")),
            penalty,
            hand if isinstance(hand, int) and not isinstance(hand, bool) else None,
        )

    def _forfeit(self, entry: Entry, fault: Violation | None) -> GameEndEvent:
        if entry.event != "game_end":
            assert fault is not None
            raise self._mismatch(
                entry,
                f"the violation on line {fault.line} forfeits the game, so game_end should follow, not {entry.event}",
            )
        if fault is None:
            raise self._mismatch(entry, "game_end says forfeit, but no violation with penalty forfeit comes before it")
        detail = entry.record.get("detail", "")
        return self.game.forfeit(self.rules.team_of(fault.seat), detail if isinstance(detail, str) else "")

    def _deal(self, entry: Entry) -> list[Event]:
        game = self.game
        if entry.event != "deal":
            raise self._mismatch(entry, f"expected the deal of hand {game.hand_number + 1}, recorded {entry.event}")
        deal = parse_event_record(self.match.path, entry.line, entry.record)
        assert isinstance(deal, DealEvent)
        hands = [h for h in deal.hands if h is not None]
        if not isinstance(deal.dealer, int) or len(hands) != len(deal.hands):
            raise self._mismatch(entry, "a deal record needs the dealer and every seat's hand")
        try:
            deck = deck_for_hands(self.rules, deal.dealer, hands)
            return game.deal(deck)
        except (ValueError, EngineError) as exc:
            raise self._mismatch(
                entry, f"the hands of the deal of hand {game.hand_number + 1} are not a deal: {exc}"
            ) from None

    def _action(self, decision: Decision, entry: Entry) -> object:
        wanted = _ACTION_RECORD[decision.kind]
        if entry.event != wanted:
            raise self._mismatch(entry, f"expected {describe_decision(decision, self.game)}, recorded {entry.event}")
        ev = parse_event_record(self.match.path, entry.line, entry.record)
        action: object
        if isinstance(ev, BidEvent):
            seat, action = ev.seat, ev.bid
        elif isinstance(ev, ContractEvent):
            seat, action = ev.declarer, ev.trump
        elif isinstance(ev, ExchangeEvent):
            if ev.cards is None:
                raise self._mismatch(entry, "an exchange record needs its cards")
            seat, action = ev.from_seat, list(ev.cards)
        else:
            assert isinstance(ev, PlayEvent)
            seat, action = ev.seat, ev.card
        if seat != decision.seat:
            raise self._mismatch(
                entry, f"expected {describe_decision(decision, self.game)}, recorded one by seat {_show(seat)}"
            )
        return action

    def _claim(self, decision: Decision, entry: Entry) -> list[Event]:
        """The engine's answer to the claim recorded in ``entry`` (the seat's turn to play): its events, the
        ``ClaimEvent`` first. The engine must agree with the log on whether the claim holds."""
        ev = parse_event_record(self.match.path, entry.line, entry.record)
        assert isinstance(ev, ClaimEvent)
        game = self.game
        if ev.seat != decision.seat:
            raise self._mismatch(
                entry, f"expected {describe_decision(decision, game)}, recorded a claim by seat {_show(ev.seat)}"
            )
        events = game.claim(decision.seat)
        claim = events[0]
        assert isinstance(claim, ClaimEvent)
        if ev.accepted is not claim.accepted and isinstance(ev.accepted, bool):
            what = (
                f"seat {claim.seat}'s claim of the last {claim.tricks} tricks of hand {claim.hand} (from trick "
                f"{claim.trick})"
            )
            if ev.accepted:
                raise self._mismatch(
                    entry,
                    f"{what} is recorded as accepted, but the engine refuses it: the other side can take a "
                    "trick against every line of the claiming team (a forged claim)",
                )
            raise self._mismatch(
                entry, f"{what} is recorded as refused, but the engine accepts it: its team takes every trick"
            )
        return events

    def _compare(self, entry: Entry, expected: Event) -> None:
        want = event_record(expected)
        rec = entry.record
        if rec["event"] != want["event"]:
            raise self._mismatch(entry, f"expected the {describe_event(expected)}, recorded {rec['event']}")
        for key, value in want.items():
            got = rec.get(key, _MISSING)
            if not _same(got, value):
                raise self._mismatch(
                    entry, f"{describe_event(expected)}: expected {key} {_show(value)}, recorded {_show(got)}"
                )
