"""A stream's bookkeeping (referee/ledger.py) without a stream: answers that name no open request, and floods."""

from __future__ import annotations

from referee.faults import ViolationKind
from referee.ledger import REMEMBERED, FloodGuard, RequestLedger
from referee.protocol.domain import ErrorCode


def test_an_answer_to_a_request_that_timed_out_is_late_once_then_stale() -> None:
    ledger = RequestLedger()
    charged: list[tuple[ViolationKind, str]] = []
    ledger.issue(1, lambda kind, detail: charged.append((kind, detail)))
    ledger.time_out(1)
    ledger.issue(2, None)
    late = ledger.misplaced(1, 2)
    assert (late.code, late.kind) == (ErrorCode.STALE_REQUEST, ViolationKind.LATE)
    assert late.detail == "an answer to request 1 after its time ran out"
    hook = ledger.owner(1)  # the game that asked request 1, not the one asking request 2
    assert hook is not None
    hook(late.kind, late.detail)
    assert charged == [(ViolationKind.LATE, late.detail)]
    again = ledger.misplaced(1, 2)
    assert again.kind is ViolationKind.PROTOCOL and "which is closed (the open request is 2)" in again.detail


def test_unknown_and_out_of_turn_answers() -> None:
    ledger = RequestLedger()
    ledger.issue(3, None)
    never = ledger.misplaced(9, 3)
    assert (never.code, never.kind) == (ErrorCode.STALE_REQUEST, ViolationKind.PROTOCOL)
    assert "never sent (the open request is 3)" in never.detail
    idle = ledger.misplaced(9, None)
    assert (idle.code, idle.kind) == (ErrorCode.OUT_OF_TURN, ViolationKind.PROTOCOL)
    assert idle.detail == "an Action (request 9) while no request is open"
    closed = ledger.misplaced(2, None)
    assert closed.detail == "an answer to request 2, which is closed (no request is open)"


def test_old_requests_are_forgotten_and_a_withdrawn_one_is_kept() -> None:
    ledger = RequestLedger()
    ledger.issue(1, lambda kind, detail: None)
    ledger.time_out(1)
    for rid in range(2, REMEMBERED + 2):
        ledger.issue(rid, None)
    assert ledger.owner(1) is None and ledger.misplaced(1, None).kind is ViolationKind.PROTOCOL
    ledger.withdraw(7)
    assert ledger.withdrawn == 7


def test_a_flood_is_more_errors_than_the_limit_within_the_window() -> None:
    guard = FloodGuard(limit=3, window_s=10.0)
    assert [guard.hit(t) for t in (0.0, 1.0, 2.0)] == [False, False, False]
    assert guard.hit(3.0) and guard.count == 4
    slow = FloodGuard(limit=3, window_s=10.0)
    assert not any(slow.hit(t * 6.0) for t in range(20))  # one every 6 s is never more than 2 in 10 s
