"""A bot that claims, over the wire through the SDK: ``python claim_bot.py MODE [K] [MS]``.

It plays the first legal card (and the SDK's defaults elsewhere), and claims
every remaining trick at a play, in these ways:

- ``last K``: at each play with at most K tricks left, while ``view.may_claim``
  (once per play, as the protocol asks): some claims hold, most are refused;
- ``slow K MS``: as ``last``, thinking MS ms before each claim;
- ``again K``: as ``last``, and once more at the same play after its claim
  was refused (an illegal answer);
- ``flood K``: as ``last``, but each claim is sent 30 more times at once, the
  request it answers being closed by then (stale answers, the referee's flood
  guard);
- ``bid``: answers its first bid with a claim (a claim is for a play only; the
  SDK refuses to send one, so the bid is rewritten into a claim on the wire).

Each request it gets is written to its stderr (which the referee keeps):
``asked hand=H trick=T kind=KIND limit=MS may_claim=0|1 refused=N``, N being
the refused claims it has been told of in the hand so far.
"""

from __future__ import annotations

import sys
import time
from collections.abc import Sequence
from typing import Any

import sdk.runner
from referee.protocol.bideuchre.v1 import arena_pb2 as pb
from sdk import CLAIM, Bot, Card, ClaimAnswer, ClaimEvent, SeatView

MODE = sys.argv[1]
K = int(sys.argv[2]) if len(sys.argv) > 2 else 0
MS = int(sys.argv[3]) if len(sys.argv) > 3 else 0
FLOOD = 30


class ClaimBot(Bot):
    name = "claim"
    version = "1"

    def decide(self, view: SeatView) -> object:
        decision = view.decision
        assert decision is not None
        refused = sum(1 for ev in view.events if isinstance(ev, ClaimEvent) and not ev.accepted)
        print(
            f"asked hand={view.hand_number} trick={view.trick_number} kind={decision.kind} "
            f"limit={self.time_limit_ms} may_claim={int(view.may_claim)} refused={refused}",
            file=sys.stderr,
            flush=True,
        )
        return super().decide(view)

    def play(self, view: SeatView, legal: Sequence[Card]) -> Card | ClaimAnswer:
        late = view.rules.cards_each - view.trick_number + 1 <= K
        refused_here = not view.may_claim and view.decision is not None
        if late and (view.may_claim or (MODE == "again" and refused_here and self._first_retry(view))):
            if MODE == "slow":
                time.sleep(MS / 1000)
            return CLAIM
        return legal[0]

    def _first_retry(self, view: SeatView) -> bool:
        """Claim again only once per play (the referee's answer to it is an Error, and then a default card)."""
        mark = (view.hand_number, view.trick_number)
        if getattr(self, "_retried", None) == mark:
            return False
        self._retried = mark
        return True


class _Stream:
    """The SDK's stream; in ``flood`` mode each claim goes out 1 + FLOOD times; in ``bid`` mode the first bid
    goes out as a claim."""

    def __init__(self, call: Any) -> None:
        self._call = call
        self.read, self.done_writing = call.read, call.done_writing
        self.bids = 0

    async def write(self, data: bytes) -> None:
        msg = pb.BotMessage.FromString(data)
        choice = msg.action.WhichOneof("choice") if msg.WhichOneof("message") == "action" else None
        if MODE == "bid" and choice == "bid" and not self.bids:
            self.bids += 1
            msg.action.claim.SetInParent()
            data = msg.SerializeToString()
        await self._call.write(data)
        if MODE == "flood" and choice == "claim":
            for _ in range(FLOOD):
                await self._call.write(data)


_serve = sdk.runner._serve


async def _serve_wrapped(bot: Bot, call: Any, token: str, seed: int | None) -> None:
    await _serve(bot, _Stream(call), token, seed)


sdk.runner._serve = _serve_wrapped  # the SDK's session, on the stream above

if __name__ == "__main__":
    sdk.runner.run(ClaimBot(), [])  # the address and token from the environment (the arguments are the mode's)
