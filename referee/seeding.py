"""Seeds derived from one root seed, so a whole match replays from its seed.

``derive_seed(root, "game", 3)`` gives the same integer on every machine and
Python version (a hash of the text, not Python's salted ``hash``).
"""

from __future__ import annotations

import hashlib


def derive_seed(root: int, *labels: object) -> int:
    """A 63-bit seed for the thing named by ``labels`` under ``root``."""
    text = ":".join([str(root), *map(str, labels)])
    return int.from_bytes(hashlib.blake2b(text.encode(), digest_size=8).digest(), "big") >> 1
