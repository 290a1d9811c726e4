"""A bot that misbehaves on purpose, once: ``python faulty_bot.py MODE N [MARKER]``.

It plays the SDK defaults until its N-th decision of a session, then:

- ``sleep``: sleeps FAULTY_SLEEP seconds (default 2) before answering;
- ``crash``: exits with status 3 without answering;
- ``illegal``: answers with a card it does not hold (or an impossible bid);
- ``malformed``: answers with card text that is not a card.

With MARKER (a word) it misbehaves only if its output file (stderr, which the
referee keeps across restarts) does not hold the line ``misbehaved once:
MARKER`` yet, and writes it: a restarted process then plays cleanly. (A bot
in the sandbox cannot keep a file of its own across restarts.)
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

MODE = sys.argv[1]
AT = int(sys.argv[2])
MARKER = sys.argv[3] if len(sys.argv) > 3 else None
ARMED = MARKER is None or f"misbehaved once: {MARKER}" not in Path("/proc/self/fd/2").read_text(errors="replace")
if MARKER is not None and ARMED:
    print(f"misbehaved once: {MARKER}", file=sys.stderr, flush=True)

_MALFORMED = object()
_encode = messages.action_to_pb


def _action_to_pb(request_id: int, kind: DecisionKind, action: object) -> pb.BotMessage:
    if action is _MALFORMED:
        msg = pb.BotMessage()
        msg.action.request_id = request_id
        msg.action.card = "ZZ"
        return msg
    return _encode(request_id, kind, action)


messages.action_to_pb = _action_to_pb


class Faulty(Bot):
    name = "faulty"

    def __init__(self) -> None:
        super().__init__()
        self.decisions = 0

    def decide(self, view: SeatView) -> object:
        self.decisions += 1
        if not ARMED or self.decisions != AT:
            return super().decide(view)
        if MODE == "crash":
            os._exit(3)
        if MODE == "sleep":
            time.sleep(float(os.environ.get("FAULTY_SLEEP", "2")))
            return super().decide(view)
        if MODE == "malformed":
            return _MALFORMED
        if MODE == "illegal":
            decision = view.decision
            assert decision is not None
            if decision.kind is DecisionKind.PLAY:
                return next(c for c in range(32) if c not in view.hand)
            if decision.kind is DecisionKind.BID:
                return Bid(BidKind.LEVEL, 99)
            return super().decide(view)
        raise SystemExit(f"unknown mode {MODE!r}")


if __name__ == "__main__":
    sdk.runner.run(Faulty(), [])  # its own arguments are not the runner's
