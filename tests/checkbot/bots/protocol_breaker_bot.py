"""A bot that breaks one rule of the protocol on purpose: ``python hostile_bot.py MODE [MARKER]``.

It plays the SDK defaults, except:

- ``illegal``: plays, gives or discards a card it does not hold (bids 99 in the auction);
- ``bad-exchange``: gives or discards one card more than asked;
- ``wrong-id``: names a request that was never sent;
- ``stale-id``: names the request before the open one;
- ``wrong-field``: answers every decision with the Action field of another kind;
- ``slow``: sleeps HOSTILE_SLEEP seconds (default 0.4) before each answer;
- ``nameless``: says Hello with no name and no version;
- ``deaf``: does not exit on Shutdown (writes its pid to MARKER first);
- ``error-crash``: exits with status 4 when it gets an Error;
- ``no-restart``: a second process (MARKER exists) exits at once with status 5;
- ``crash-then-hang``: exits with status 6 at its first decision; a second
  process (MARKER exists) hangs without connecting.
"""

from __future__ import annotations

import os
import sys
import time
from pathlib import Path

import sdk.runner
from referee.engine.bids import BidKind
from referee.protocol import messages
from referee.protocol.bideuchre.v1 import arena_pb2 as pb
from sdk import Bid, Bot, DecisionKind, SeatView
from sdk.log import EventLogger

MODE = sys.argv[1]
MARKER = Path(sys.argv[2]) if len(sys.argv) > 2 else None

if MODE == "no-restart" and MARKER is not None:
    if MARKER.exists():
        sys.exit(5)
    MARKER.write_text("started once\n")

if MODE == "crash-then-hang" and MARKER is not None:
    if MARKER.exists():
        time.sleep(60)
        sys.exit(0)
    MARKER.write_text("started once\n")

_encode = messages.action_to_pb


def _action_to_pb(request_id: int, kind: DecisionKind, action: object) -> pb.BotMessage:
    if MODE == "wrong-id":
        return _encode(request_id + 1000, kind, action)
    if MODE == "stale-id":
        return _encode(request_id - 1, kind, action)
    if MODE == "wrong-field":
        msg = pb.BotMessage()
        msg.action.request_id = request_id
        if kind is DecisionKind.PLAY:
            msg.action.bid.kind = pb.BID_KIND_PASS
        else:
            msg.action.card = "AS"
        return msg
    return _encode(request_id, kind, action)


messages.action_to_pb = _action_to_pb


class _ExitOnError(EventLogger):
    """Stands in for the SDK runner's logger: an Error from the referee ends the process."""

    def __init__(self, inner: EventLogger) -> None:
        super().__init__(inner.logger)

    def warning(self, event: str, **kw: object) -> None:
        if event == "referee error":
            os._exit(4)
        super().warning(event, **kw)


if MODE == "error-crash":
    sdk.runner.log = _ExitOnError(sdk.runner.log)


class Hostile(Bot):
    name = "" if MODE == "nameless" else "hostile"
    version = "" if MODE == "nameless" else "1"

    def decide(self, view: SeatView) -> object:
        decision = view.decision
        assert decision is not None
        if MODE == "crash-then-hang":
            os._exit(6)
        if MODE == "slow":
            time.sleep(float(os.environ.get("HOSTILE_SLEEP", "0.4")))
        if MODE == "illegal":
            if decision.kind is DecisionKind.PLAY:
                return next(c for c in range(32) if c not in decision.options)
            if decision.kind is DecisionKind.BID:
                return Bid(BidKind.LEVEL, 99)
            if decision.kind in (DecisionKind.GIVE, DecisionKind.DISCARD):
                return [c for c in range(32) if c not in view.hand][: decision.count]
        if MODE == "bad-exchange" and decision.kind in (DecisionKind.GIVE, DecisionKind.DISCARD):
            return list(view.hand[: decision.count + 1])
        return super().decide(view)


if __name__ == "__main__":
    if MODE == "deaf":
        import asyncio

        if MARKER is not None:
            MARKER.write_text(str(os.getpid()))
        args = sdk.runner.parse_args([], Hostile())
        asyncio.run(sdk.runner.play_session(Hostile(), args.address, args.token))
        time.sleep(60)
    sdk.runner.run(Hostile(), [])
