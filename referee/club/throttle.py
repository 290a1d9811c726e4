"""Wrong tokens, rate-limited per address: a flood of guesses is answered without a single slow hash.

Each address may send ``failures`` wrong (or missing, or malformed) tokens within ``window_s`` seconds; then
every request from it is refused at once (HTTP 429, with the seconds to wait) until the oldest failure of
the window has aged out. A good token does not clear the count: a guesser holding one token of its own
gains nothing by mixing it in. Kept in memory: a restarted server starts with a clean slate, which costs a
guesser a restart it cannot cause.
"""

from __future__ import annotations

import time
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass, field


@dataclass
class Throttle:
    failures: int = 10
    window_s: float = 60.0
    clock: Callable[[], float] = time.monotonic
    _seen: dict[str, deque[float]] = field(default_factory=dict)

    def wait(self, address: str) -> float:
        """Seconds before ``address`` may try again (0: it may now)."""
        recent = self._recent(address)
        if len(recent) < self.failures:
            return 0.0
        return max(0.0, recent[0] + self.window_s - self.clock())

    def failed(self, address: str) -> None:
        """``address`` sent a wrong token."""
        self._recent(address).append(self.clock())
        if len(self._seen) > 10_000:  # forget addresses that have gone quiet
            for quiet in [a for a, q in self._seen.items() if not q]:
                del self._seen[quiet]

    def _recent(self, address: str) -> deque[float]:
        recent = self._seen.setdefault(address, deque())
        now = self.clock()
        while recent and recent[0] + self.window_s <= now:
            recent.popleft()
        while len(recent) > self.failures:
            recent.popleft()
        return recent
