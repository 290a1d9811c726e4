"""Time for bots: the time control of a match (``TimeControl``), a bot process's start-up allowance
(``StartupUse``), and the deadline of each request.

The start-up allowance is time a bot process may take beyond the move time
over its first ``STARTUP_DECISIONS`` decisions, as a JVM's class loading
and first compilations take it: an answer over its limit draws the excess
from what is left of the allowance first, then from the time bank. Past
those decisions what is left is gone; a restarted process (a new stream)
has it again. ``STARTUP_ALLOWANCE_MS`` is the games' setting's default
(``referee.games.settings``); a bare ``TimeControl`` gives none.

A ``Deadline`` runs on the referee's event loop beside one request. It fires
at the limit, but first gives back time the bot could not use:

- the referee's own lateness: the loop reached the deadline late (it was
  busy or kept off a CPU), so an answer that came in time may still be
  waiting to be read;
- the bot's wait for a CPU because of others (``referee.runqueue``): the
  machine, not the bot, made it late.

Whichever is larger is given back, when above ``slack_s``, and the deadline
moves on by it, at most one more limit in all. The bot's CPU times are first
read ``probe_s`` after the request (2 ms), not at once: most answers come
before that and cost no reading at all, and a wait that short is under the
slack anyway. When the loop reads them late, kept busy or off a CPU itself, the
bot's waits before the reading cannot be known: that lateness counts as a wait. When the time is up it calls
``on_time_up`` a loop turn later (an answer gRPC handed over in the same
turn is still on its way). After an answer, ``charged`` is the time the bot
is charged: from the request to the answer, less what was given back (and,
past the free part of the limit that a time bank pays for, less its CPU wait
too).

Nothing here knows gRPC: the stream (``referee.server.Connection``) starts
and stops a deadline and reads ``charged``. ``tests/referee/test_deadline.py``
runs it on a plain event loop.
"""

from __future__ import annotations

import asyncio
import math
from collections.abc import Callable
from dataclasses import dataclass
from typing import Protocol

from referee.runqueue import Sample

STARTUP_ALLOWANCE_MS = 2000  # the start-up allowance of every command's games unless told otherwise
STARTUP_DECISIONS = 10  # the decisions of a bot process that may draw on it


@dataclass
class StartupUse:
    """How far a bot process is into its start-up allowance: the decisions it was asked so far, and the time
    it drew from the allowance (ms). One per process: ``referee.server.Connection`` holds it."""

    decisions: int = 0
    drawn_ms: int = 0


@dataclass(frozen=True)
class TimeControl:
    """The per-decision limit told to bots, the grace the referee adds before it calls time, the time bank
    each bot has per game and the start-up allowance of each bot process (a decision over its limit draws the
    excess from the allowance while it lasts, then from the bank).

    ``move_time_ms`` 0 is no limit (a person's seat, ``arena play``): the
    referee waits as long as it takes, and tells the seat 0.
    """

    move_time_ms: int = 1000
    grace_ms: int = 100
    time_bank_ms: int = 0
    startup_allowance_ms: int = 0

    @classmethod
    def unlimited(cls) -> TimeControl:
        return cls(move_time_ms=0, grace_ms=0)

    def startup_left_ms(self, use: StartupUse) -> int:
        """What is left of the start-up allowance for a process's next decision (0 once its first
        ``STARTUP_DECISIONS`` are made, and with no limit)."""
        if self.move_time_ms == 0 or use.decisions >= STARTUP_DECISIONS:
            return 0
        return max(0, self.startup_allowance_ms - use.drawn_ms)

    def left_ms(self, spent_ms: int = 0) -> int:
        """The time a request allows (its ``time_limit_ms``) when ``spent_ms`` of the decision's time is gone
        already (a refused claim's thinking, at the same play): at least 1 ms; 0 for no limit."""
        if self.move_time_ms == 0:
            return 0
        return max(1, self.move_time_ms - spent_ms)

    def limit_s(self, bank_ms: int = 0, spent_ms: int = 0, startup_ms: int = 0) -> float:
        """When time is called, with ``bank_ms`` left in the bot's bank, ``spent_ms`` spent (``left_ms``) and
        ``startup_ms`` left of its start-up allowance."""
        if self.move_time_ms == 0:
            return math.inf
        return (self.left_ms(spent_ms) + startup_ms + bank_ms + self.grace_ms) / 1000

    def describe(self, bank_ms: int = 0, spent_ms: int = 0, startup_ms: int = 0) -> str:
        if self.move_time_ms == 0:
            return "no limit"
        startup = f", {startup_ms} ms left of its start-up allowance" if startup_ms else ""
        bank = f", {bank_ms} ms left in its time bank" if bank_ms else ""
        left = f" left of {self.move_time_ms} ms after its refused claim" if spent_ms else ""
        return f"{self.left_ms(spent_ms)} ms{left} (+{self.grace_ms} ms grace{startup}{bank})"


class WaitSource(Protocol):
    """What a deadline reads of the bot's process tree (``referee.runqueue.WaitClock``)."""

    def sample(self) -> Sample: ...

    def waited_since(self, before: Sample) -> tuple[float, Sample]: ...


class Deadline:
    """The deadline of one request: ``start()`` when the request goes out, ``stop()`` when it is over."""

    def __init__(
        self,
        limit_s: float,
        on_time_up: Callable[[], None],
        *,
        clock: WaitSource | None = None,
        slack_s: float = 0.02,
        probe_s: float = 0.002,
        loop: asyncio.AbstractEventLoop | None = None,
    ) -> None:
        self.limit_s = limit_s
        self.on_time_up = on_time_up
        self.clock = clock
        self.slack_s = slack_s
        self.probe_s = probe_s
        self.credited = 0.0  # time given back so far
        self._loop = loop if loop is not None else asyncio.get_running_loop()
        self._start = 0.0
        self._timer: asyncio.TimerHandle | None = None
        self._probe: asyncio.TimerHandle | None = None  # the first reading of the bot's CPU times, to come
        self._at_start: Sample | None = None  # the bot's CPU times at that first reading
        self._waited: Sample | None = None  # ... and at the last time given back
        self._unseen = 0.0  # how late that first reading was: waits the readings cannot show
        self._done = False

    def start(self) -> None:
        loop = self._loop
        self._start = loop.time()
        if self.clock is not None and self.limit_s > self.probe_s:
            self._probe = loop.call_at(self._start + self.probe_s, self._sample)
        if self.limit_s != math.inf:
            due = self._start + self.limit_s
            self._timer = loop.call_at(due, self._fire, due, self.limit_s)

    def stop(self) -> None:
        self._done = True
        if self._timer is not None:
            self._timer.cancel()
            self._timer = None
        if self._probe is not None:
            self._probe.cancel()
            self._probe = None

    @property
    def elapsed_s(self) -> float:
        return self._loop.time() - self._start

    def charged(self, free_s: float | None = None) -> float:
        """The time the bot is charged for its answer (call once it has come)."""
        think = self.elapsed_s
        owed = self.credited
        if free_s is not None and think - owed > free_s and self.clock is not None and self._at_start is not None:
            owed = max(owed, self.clock.waited_since(self._at_start)[0])
        return max(0.0, think - owed)

    def _sample(self) -> None:
        self._probe = None
        if self.clock is not None and not self._done:
            self._at_start = self._waited = self.clock.sample()
            self._unseen = max(0.0, self._loop.time() - self._start - self.probe_s)

    def _fire(self, due: float, budget: float) -> None:
        if self._done:
            return
        loop = self._loop
        late = loop.time() - due
        starved = 0.0
        if self.clock is not None and self._waited is not None:
            starved, self._waited = self.clock.waited_since(self._waited)
            starved, self._unseen = starved + self._unseen, 0.0
        owed = max(late, starved)
        if owed > self.slack_s and budget > 0:
            extra = min(owed, budget)
            self.credited += extra
            again = loop.time() + extra
            self._timer = loop.call_at(again, self._fire, again, budget - extra)
            return
        self._timer = None
        loop.call_soon(self._up)

    def _up(self) -> None:
        if not self._done:
            self._done = True
            self.on_time_up()
