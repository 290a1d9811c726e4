"""What one bot's stream remembers of its requests and its errors, apart from the stream itself.

- ``RequestLedger``: the recent requests, each with the game it was asked
  for (its violation hook), whether its time ran out, and the one the
  referee withdrew (it is shutting down). It tells an answer that names no
  open request apart: ``late`` (its time ran out: charged, to the game it
  answers, not to the one being played), ``stale`` (a closed request) or
  unknown (never sent).
- ``FloodGuard``: errors within a sliding window; past the limit the bot is
  flooding and is cut off.

Both are plain bookkeeping (no I/O, no clock of their own), used by
``referee.server.Connection`` and tested without gRPC.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Callable
from dataclasses import dataclass

from referee.faults import ViolationKind
from referee.protocol.domain import ErrorCode

# A game's hook for the faults of a seat in it: (kind, detail).
ViolationHook = Callable[[ViolationKind, str], None]

# how many recent requests a stream remembers (to charge a late answer to the game it answers)
REMEMBERED = 16


@dataclass(frozen=True)
class Misplaced:
    """An answer that names no open request: what to answer the bot, and what to charge."""

    code: ErrorCode
    kind: ViolationKind
    detail: str


class RequestLedger:
    """The recent requests of one stream (see the module's docstring)."""

    def __init__(self) -> None:
        self.last_issued = 0
        self.withdrawn = 0  # a request the referee stopped waiting for: an answer to it is no fault
        self._owners: dict[int, ViolationHook | None] = {}
        self._timed_out: set[int] = set()

    def issue(self, request_id: int, owner: ViolationHook | None) -> None:
        """A request goes out, asked for by the game whose hook is ``owner``."""
        self.last_issued = request_id
        owners = self._owners
        owners[request_id] = owner
        # ids rise, and a dict keeps them in the order they came: the ones to forget are at the front
        oldest = request_id - REMEMBERED
        while owners:
            first = next(iter(owners))
            if first > oldest:
                break
            del owners[first]
            self._timed_out.discard(first)

    def time_out(self, request_id: int) -> None:
        self._timed_out.add(request_id)

    def withdraw(self, request_id: int) -> None:
        self.withdrawn = request_id

    def owner(self, request_id: int) -> ViolationHook | None:
        """The hook of the game that asked ``request_id`` (None: forgotten, or never asked)."""
        return self._owners.get(request_id)

    def misplaced(self, request_id: int, open_id: int | None) -> Misplaced:
        """How to take an answer to ``request_id`` while ``open_id`` is the open request (None: none is)."""
        if request_id in self._timed_out:
            self._timed_out.discard(request_id)  # one late answer per request; another is a stale one
            detail = f"an answer to request {request_id} after its time ran out"
            return Misplaced(ErrorCode.STALE_REQUEST, ViolationKind.LATE, detail)
        if request_id and request_id <= self.last_issued:
            state = f"the open request is {open_id}" if open_id is not None else "no request is open"
            detail = f"an answer to request {request_id}, which is closed ({state})"
            return Misplaced(ErrorCode.STALE_REQUEST, ViolationKind.PROTOCOL, detail)
        if open_id is not None:
            detail = f"an answer naming request {request_id}, which was never sent (the open request is {open_id})"
            return Misplaced(ErrorCode.STALE_REQUEST, ViolationKind.PROTOCOL, detail)
        detail = f"an Action (request {request_id}) while no request is open"
        return Misplaced(ErrorCode.OUT_OF_TURN, ViolationKind.PROTOCOL, detail)


class FloodGuard:
    """More than ``limit`` errors within ``window_s`` seconds is a flood."""

    def __init__(self, limit: int, window_s: float) -> None:
        self.limit = limit
        self.window_s = window_s
        self._times: deque[float] = deque()

    def hit(self, now: float) -> bool:
        """One more error at ``now``; True when that makes a flood."""
        times = self._times
        times.append(now)
        while times and times[0] < now - self.window_s:
            times.popleft()
        return len(times) > self.limit

    @property
    def count(self) -> int:
        """Errors within the window, as of the last hit."""
        return len(self._times)
