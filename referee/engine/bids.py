"""Bids: what they are, their text form, and how they rank under a rules object.

Text form (used in logs, the CLI and error messages): ``pass``; a trick bid is
its level, with the trump after a space when trump is named with the bid
(``4``, ``4 S``, ``6 high``); a special bid is its name, likewise
(``call2 H``, ``moon``, ``best low``, ``alone``, ``little-pepper``).
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum

from referee.engine.cards import Trump
from referee.engine.errors import InvalidActionError
from referee.engine.rules import Rules


class BidKind(StrEnum):
    """What a bid is: a pass, a number of tricks, or a special bid (a member is its text)."""

    PASS = "pass"
    LEVEL = "level"
    LITTLE_PEPPER = "little-pepper"
    BIG_PEPPER = "big-pepper"
    CALL3 = "call3"
    CALL2 = "call2"
    CALL1 = "call1"
    BEST = "best"
    MOON = "moon"
    ALONE = "alone"


# Special bids from lowest to highest rank; all rank above every trick bid,
# except the two pepper bids, which take the top trick level.
SPECIALS: tuple[BidKind, ...] = tuple(BidKind)[2:]
LONE_SPECIALS = frozenset({BidKind.CALL3, BidKind.CALL2, BidKind.CALL1, BidKind.BEST, BidKind.MOON, BidKind.ALONE})
CALL_CARDS = {BidKind.CALL3: 3, BidKind.CALL2: 2, BidKind.CALL1: 1}
"""The cards a Call bid asks of the declarer's partner (and the declarer then discards), by kind."""
_SPECIAL_BASE = 1000


@dataclass(frozen=True, slots=True)
class Bid:
    """``kind`` is ``pass``, ``level`` or a special name; ``level`` is set for trick bids.

    ``kind`` may be given as its text (``Bid("level", 4)``): it is stored as its ``BidKind``.
    """

    kind: BidKind
    level: int = 0
    trump: Trump | None = None

    def __post_init__(self) -> None:
        if type(self.kind) is not BidKind:
            try:
                object.__setattr__(self, "kind", BidKind(self.kind))
            except ValueError:
                known = ", ".join(BidKind)
                raise InvalidActionError(f"bad bid kind {self.kind!r}: expected one of {known}") from None

    @property
    def is_pass(self) -> bool:
        return self.kind == "pass"

    @property
    def is_special(self) -> bool:
        return self.kind not in ("pass", "level")

    @property
    def is_lone(self) -> bool:
        """The declarer plays without partners."""
        return self.kind in LONE_SPECIALS

    def text(self) -> str:
        head = str(self.level) if self.kind == "level" else self.kind.value
        return head if self.trump is None else f"{head} {self.trump.text()}"

    def __str__(self) -> str:
        return self.text()

    @classmethod
    def parse(cls, text: str) -> Bid:
        parts = text.split()
        if not parts or len(parts) > 2:
            raise InvalidActionError(f"bad bid {text!r}: expected 'pass', a level like '4' or '4 S', or a special bid")
        head = parts[0].lower()
        trump = Trump.parse(parts[1]) if len(parts) == 2 else None
        if head == "pass":
            if trump is not None:
                raise InvalidActionError(f"bad bid {text!r}: a pass names no trump")
            return PASS
        if head.isdigit():
            level = int(head)
            if level < 1:
                raise InvalidActionError(f"bad bid {text!r}: the level must be at least 1")
            return cls(BidKind.LEVEL, level, trump)
        if head in SPECIALS:
            return cls(BidKind(head), 0, trump)
        raise InvalidActionError(f"bad bid {text!r}: expected 'pass', a level, or one of {', '.join(SPECIALS)}")


PASS = Bid(BidKind.PASS)
"""The pass: ``Bid("pass")``."""


def enabled_specials(rules: Rules) -> tuple[BidKind, ...]:
    """The special bids the rules allow, in rank order."""
    allowed: set[str] = set(rules.special_bids)
    if "pepper" in allowed:
        allowed |= {BidKind.LITTLE_PEPPER, BidKind.BIG_PEPPER}
    return tuple(s for s in SPECIALS if s in allowed)


def bid_level_rank(bid: Bid, rules: Rules) -> int:
    """Rank ignoring the suit/no-trump distinction: what 'the same level' means."""
    if bid.kind == "level":
        return bid.level
    if bid.kind == "little-pepper":
        return rules.max_level + 1
    if bid.kind == "big-pepper":
        return rules.max_level + 2
    return _SPECIAL_BASE + SPECIALS.index(bid.kind)


def bid_rank(bid: Bid, rules: Rules) -> int:
    """Total order of bids; a bid must rank above the standing one."""
    minor = 0
    if bid.kind == "level" and rules.notrump_ranks_lower and bid.trump is not None and bid.trump.is_suit:
        minor = 1
    return bid_level_rank(bid, rules) * 2 + minor


def tricks_needed(bid: Bid, rules: Rules) -> int:
    """Tricks the declaring team must take: its level, or all of them for a special bid."""
    return bid.level if bid.kind == "level" else rules.cards_each


def trump_named_with_bid(kind: str, rules: Rules) -> bool:
    timing = rules.trump_timing if kind == "level" else rules.special_trump_timing
    return timing == "with-bid"
