"""Running coroutines from a test: on a thread of their own, and on a loop whose clock the test owns.

``VirtualTimeLoop`` is an asyncio event loop whose time moves only when the test moves it, so that
what runs on the loop's clock (``referee.deadline.Deadline``: ``loop.time()`` and ``loop.call_at``)
can be checked to the microsecond on a machine however busy:

- when the loop would sleep until its next timer, the time jumps there at once;
- ``hold(seconds)``: the time moves on while the loop runs nothing, as when the referee's loop is kept
  busy elsewhere (or off a CPU) and reaches its timers late.

(``looptime``, the library that fast-forwards loop time in tests, has no public way to say the second:
its clock never moves while code runs.)
"""

from __future__ import annotations

import asyncio
import selectors
from collections.abc import Callable, Coroutine
from concurrent.futures import ThreadPoolExecutor
from typing import Any, TypeVar

T = TypeVar("T")


def run_async(coro: Coroutine[Any, Any, T], loop_factory: Callable[[], asyncio.AbstractEventLoop] | None = None) -> T:
    """Run ``coro`` to its end on a new event loop (``loop_factory``'s, or asyncio's own) in a thread of its
    own: the test session may already hold a running event loop in the main thread (Playwright's sync API,
    used by the browser tests, keeps one)."""

    def run() -> T:
        with asyncio.Runner(loop_factory=loop_factory) as runner:
            return runner.run(coro)

    with ThreadPoolExecutor(1) as pool:
        return pool.submit(run).result()


class _JumpingSelector(selectors.DefaultSelector):
    """The loop's selector: looks for I/O without waiting, and where the loop would have waited for a
    timer, moves the clock (``now``) on by that wait instead."""

    def __init__(self) -> None:
        super().__init__()
        self.now = 0.0

    def select(self, timeout: float | None = None) -> list[tuple[selectors.SelectorKey, int]]:
        if timeout is None:  # no timer at all: only I/O can wake the loop, and it takes no time here
            return super().select(None)
        ready = super().select(0)
        if not ready:
            self.now += timeout
        return ready


class VirtualTimeLoop(asyncio.SelectorEventLoop):
    """An event loop on a clock the test owns (see the module's docstring); it starts at time 0."""

    def __init__(self) -> None:
        self._jumping = _JumpingSelector()
        super().__init__(self._jumping)

    def time(self) -> float:
        return self._jumping.now

    def hold(self, seconds: float) -> None:
        """``seconds`` pass and the loop runs nothing meanwhile (it was busy elsewhere)."""
        self._jumping.now += seconds


def on_virtual_time(coro: Coroutine[Any, Any, T]) -> T:
    """Run ``coro`` on a ``VirtualTimeLoop`` (``asyncio.get_running_loop()`` in it is that loop)."""
    return run_async(coro, VirtualTimeLoop)
