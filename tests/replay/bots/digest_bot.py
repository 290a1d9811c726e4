"""A test bot whose every choice depends on everything it knows.

It takes the lowest lone bid (call, best, moon, alone) whenever one is legal,
so logs of its games hold lone hands and their exchanges. Otherwise it picks the legal
choice indexed by a CRC of its whole view: seat, hand number, dealer, scores,
cards held and every event of the hand it has been told. A re-asked request
whose events or snapshot differ in any way from the original is then likely
to get another answer, which is what the replay tests look for.

With REPLAY_TEST_STALL=N in its environment it sleeps past the time limit at
its N-th decision (a timeout for the referee). With REPLAY_TEST_CLAIM=K, a
claim is one of its choices at each play with at most K tricks left, while
the view lets it claim: whether it claims hangs on the checksum too.
"""

from __future__ import annotations

import os
import time
import zlib
from collections.abc import Sequence
from typing import TypeVar

from sdk import CLAIM, Bid, Bot, Card, ClaimAnswer, SeatView, Trump, run

_T = TypeVar("_T")


class DigestBot(Bot):
    name = "digest"
    version = "1"

    def __init__(self) -> None:
        super().__init__()
        self.decisions = 0
        self.stall_at = int(os.environ.get("REPLAY_TEST_STALL", "0"))
        self.claim_tricks = int(os.environ.get("REPLAY_TEST_CLAIM", "0"))

    def pick(self, view: SeatView, options: Sequence[_T]) -> _T:
        self.decisions += 1
        if self.decisions == self.stall_at:
            time.sleep(3 * self.time_limit_ms / 1000)
        known = (view.seat, view.hand_number, view.dealer, view.scores, view.hand, view.events)
        return options[zlib.crc32(repr(known).encode()) % len(options)]

    def bid(self, view: SeatView, legal: Sequence[Bid]) -> Bid:
        lone = [b for b in legal if b.is_lone]  # legal bids come lowest first
        return self.pick(view, lone[:1] or legal)

    def trump(self, view: SeatView, legal: Sequence[Trump]) -> Trump:
        return self.pick(view, legal)

    def give(self, view: SeatView, count: int, to: int) -> list[Card]:
        return self._some(view, count)

    def discard(self, view: SeatView, count: int) -> list[Card]:
        return self._some(view, count)

    def play(self, view: SeatView, legal: Sequence[Card]) -> Card | ClaimAnswer:
        if view.may_claim and view.rules.cards_each - view.trick_number < self.claim_tricks:
            options: list[Card | ClaimAnswer] = [*legal, CLAIM]
            return self.pick(view, options)
        return self.pick(view, legal)

    def _some(self, view: SeatView, count: int) -> list[Card]:
        hand = list(view.hand)
        start = self.pick(view, range(len(hand)))
        return [hand[(start + k) % len(hand)] for k in range(count)]


if __name__ == "__main__":
    run(DigestBot())
