"""The rules object: every rule option of Bid Euchre as validated data.

One frozen ``Rules`` value describes a rule system completely. Each option is a
dataclass field whose metadata says what it means and which values it takes;
parsing overrides (``name=value``), validating and displaying options all read
that one table. Presets live in ``presets.py``.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from enum import StrEnum
from typing import Any

from referee.engine.cards import DECKS, SUIT_TRUMPS, Trump, deck_size
from referee.engine.errors import RulesError
from referee.errors import did_you_mean

# The closed sets of choices of the options below. Each is a StrEnum: a member is its text (it compares and
# hashes as the text, and is written as it), so ``rules.bidding_rounds == "two"`` reads as it says.


class Deck(StrEnum):
    SINGLE_24 = "single-24"
    SINGLE_28 = "single-28"
    SINGLE_32 = "single-32"
    DOUBLE_32 = "double-32"
    DOUBLE_40 = "double-40"
    DOUBLE_48 = "double-48"
    TRIPLE_60 = "triple-60"


class BiddingRounds(StrEnum):
    SINGLE = "single"
    TWO = "two"
    MULTIPLE = "multiple"


class TrumpTiming(StrEnum):
    WITH_BID = "with-bid"
    AFTER_BID = "after-bid"


class NoTrump(StrEnum):
    NONE = "none"
    HIGH = "high"
    HIGH_LOW = "high-low"


class DealerSteal(StrEnum):
    NO = "no"
    ANY = "any"
    SPECIAL = "special"


class CallExchangeOrder(StrEnum):
    GIVE_FIRST = "give-first"
    DISCARD_FIRST = "discard-first"


class InitialLeader(StrEnum):
    DECLARER = "declarer"
    LEFT_OF_DEALER = "left-of-dealer"


class GameOver(StrEnum):
    POINTS = "points"
    HANDS = "hands"


class TieRule(StrEnum):
    DRAW = "draw"
    LAST_CONTRACT = "last-contract"
    LAST_MADE = "last-made"
    DECLARERS = "declarers"
    BIDDERS = "bidders"
    MUST_BID = "must-bid"
    MUST_BID_OR_SET = "must-bid-or-set"


class SpecialFamily(StrEnum):
    """What ``special_bids`` may hold (``pepper`` brings both pepper bids)."""

    CALL3 = "call3"
    CALL2 = "call2"
    CALL1 = "call1"
    BEST = "best"
    MOON = "moon"
    ALONE = "alone"
    PEPPER = "pepper"


SPECIAL_FAMILIES = tuple(SpecialFamily)
TIE_RULES = tuple(TieRule)
assert set(Deck) == set(DECKS), "every deck has its member"


# The trumps on offer for each value of the ``notrump`` option.
_TRUMP_CHOICES = {
    "none": SUIT_TRUMPS,
    "high": (*SUIT_TRUMPS, Trump.HIGH),
    "high-low": (*SUIT_TRUMPS, Trump.HIGH, Trump.LOW),
}


def _opt(kind: str, help: str, **extra: Any) -> dict[str, Any]:
    return {"kind": kind, "help": help, **extra}


@dataclass(frozen=True)
class Rules:
    """Every option of a rule system. Build with ``Rules(...)`` or a preset."""

    # --- seats and dealing ---
    players: int = field(default=4, metadata=_opt("choice", "number of players", choices=(3, 4, 6)))
    teams: int = field(
        default=2,
        metadata=_opt(
            "int",
            "number of teams; seat s plays for team s % teams (teams == players: everyone alone)",
            min=2,
            max=6,
        ),
    )
    deck: Deck = field(
        default=Deck.DOUBLE_32,
        metadata=_opt("choice", "the deck: single 24/28/32, double 32/40/48 or triple 60", choices=tuple(Deck)),
    )
    deal_packets: tuple[int, ...] = field(
        default=(3, 2, 3),
        metadata=_opt("ints", "packet sizes dealt to each player in turn, from the dealer's left; sum = cards each"),
    )
    # --- bidding ---
    bidding_rounds: BiddingRounds = field(
        default=BiddingRounds.SINGLE,
        metadata=_opt(
            "choice",
            "single: one turn each; two: up to two turns each, a pass may bid later; "
            "multiple: goes on until all others pass after the last bid",
            choices=tuple(BiddingRounds),
        ),
    )
    trump_timing: TrumpTiming = field(
        default=TrumpTiming.WITH_BID,
        metadata=_opt(
            "choice",
            "trick bids name trump with the bid, or the winner names trump after the auction",
            choices=tuple(TrumpTiming),
        ),
    )
    special_trump_timing: TrumpTiming = field(
        default=TrumpTiming.WITH_BID,
        metadata=_opt("choice", "special bids name trump with the bid, or after winning", choices=tuple(TrumpTiming)),
    )
    notrump: NoTrump = field(
        default=NoTrump.HIGH,
        metadata=_opt(
            "choice",
            "no-trump choices besides the four suits: none, high, or high and low",
            choices=tuple(NoTrump),
        ),
    )
    min_bid: int = field(default=1, metadata=_opt("int", "lowest trick bid", min=1, max=16))
    min_notrump_bid: int = field(default=1, metadata=_opt("int", "lowest trick bid in high or low", min=1, max=16))
    special_bids: tuple[SpecialFamily, ...] = field(
        default=(SpecialFamily.CALL2, SpecialFamily.CALL1, SpecialFamily.MOON),
        metadata=_opt(
            "set",
            "special bids allowed, ranked above every trick bid: call3 < call2 < call1 < best < moon < alone; "
            "pepper adds little-pepper and big-pepper in place of the top trick level",
            choices=SPECIAL_FAMILIES,
        ),
    )
    dealer_can_steal: DealerSteal = field(
        default=DealerSteal.NO,
        metadata=_opt(
            "choice",
            "the dealer may take the contract at the level of the standing bid: never, any bid, or special bids only",
            choices=tuple(DealerSteal),
        ),
    )
    stick_the_dealer: bool = field(
        default=True, metadata=_opt("bool", "the dealer may not pass when passing would throw the hand in")
    )
    stuck_dealer_min_bid: int | None = field(
        default=None,
        metadata=_opt(
            "optint", "lowest level a stuck dealer may bid ('min' = min_bid)", none_word="min", min=1, max=16
        ),
    )
    stuck_dealer_exact: bool = field(
        default=False,
        metadata=_opt("bool", "a stuck dealer bids exactly the lowest level it may (no higher level, no special bid)"),
    )
    right_bower_to_open: bool = field(
        default=False,
        metadata=_opt("bool", "1st and 2nd bidders need the jack of a suit they name in a bid (no-trump exempt)"),
    )
    notrump_ranks_lower: bool = field(
        default=False, metadata=_opt("bool", "at the same level a suit bid outranks a high/low bid")
    )
    call_exchange_order: CallExchangeOrder = field(
        default=CallExchangeOrder.GIVE_FIRST,
        metadata=_opt(
            "choice",
            "for call bids: partner gives then declarer discards, or declarer discards then partner gives",
            choices=tuple(CallExchangeOrder),
        ),
    )
    alone_exchange_cards: int = field(
        default=3,
        metadata=_opt("int", "cards swapped each way with partner on a going-alone bid", min=0, max=16),
    )
    # --- play ---
    initial_leader: InitialLeader = field(
        default=InitialLeader.DECLARER,
        metadata=_opt("choice", "who leads the first trick", choices=tuple(InitialLeader)),
    )
    # --- scoring ---
    defenders_score: bool = field(default=True, metadata=_opt("bool", "defenders score a point per trick"))
    overtricks: bool = field(
        default=True, metadata=_opt("bool", "a made trick bid scores the tricks taken (else only the level)")
    )
    made_bonus: int = field(default=0, metadata=_opt("int", "points added to a made trick bid", min=0, max=100))
    set_penalty: int | None = field(
        default=None,
        metadata=_opt(
            "optint", "points lost by a set trick bid ('bid' = the level bid)", none_word="bid", min=0, max=100
        ),
    )
    value_call3: int = field(default=15, metadata=_opt("int", "points for call3, won or lost", min=0, max=1000))
    value_call2: int = field(default=12, metadata=_opt("int", "points for call2, won or lost", min=0, max=1000))
    value_call1: int = field(default=18, metadata=_opt("int", "points for call1, won or lost", min=0, max=1000))
    value_best: int = field(default=16, metadata=_opt("int", "points for best, won or lost", min=0, max=1000))
    value_moon: int = field(default=24, metadata=_opt("int", "points for moon, won or lost", min=0, max=1000))
    value_alone: int = field(default=24, metadata=_opt("int", "points for going alone, won or lost", min=0, max=1000))
    value_little_pepper: int = field(
        default=6, metadata=_opt("int", "points for little pepper, won or lost", min=0, max=1000)
    )
    value_big_pepper: int = field(
        default=12, metadata=_opt("int", "points for big pepper, won or lost", min=0, max=1000)
    )
    # --- game end ---
    game_over: GameOver = field(
        default=GameOver.POINTS,
        metadata=_opt("choice", "the game ends at a score or after a number of hands", choices=tuple(GameOver)),
    )
    game_points: int = field(default=52, metadata=_opt("int", "score that ends the game", min=1, max=10000))
    game_hands: int = field(default=48, metadata=_opt("int", "hands dealt before the game ends", min=1, max=10000))
    tie_rule: TieRule = field(
        default=TieRule.DRAW,
        metadata=_opt(
            "choice",
            "who wins at game end; see docs/rules.md for each rule",
            choices=TIE_RULES,
        ),
    )
    mercy_loss: int | None = field(
        default=None,
        metadata=_opt(
            "optint", "a team at or below this score loses ('off' = never)", none_word="off", min=-10000, max=0
        ),
    )
    mercy_all_below: int | None = field(
        default=None,
        metadata=_opt(
            "optint", "if every team is below this score, all lose ('off' = never)", none_word="off", min=-10000, max=0
        ),
    )
    hand_limit: int = field(
        default=1000,
        metadata=_opt("int", "safety stop: the game ends after this many hands whatever else", min=1, max=100000),
    )

    def __post_init__(self) -> None:
        for f in dataclasses.fields(self):
            _check_value(f, getattr(self, f.name))
            choices = f.metadata.get("choices", ())
            if choices and isinstance(choices[0], StrEnum):  # text given for a choice: its member
                enum = type(choices[0])
                value = getattr(self, f.name)
                member = tuple(enum(v) for v in value) if isinstance(value, tuple) else enum(value)
                object.__setattr__(self, f.name, member)
        problem = self._consistency_problem()
        if problem:
            raise RulesError(problem)

    # --- derived values ---

    @property
    def cards_each(self) -> int:
        return deck_size(self.deck) // self.players

    @property
    def has_pepper(self) -> bool:
        return "pepper" in self.special_bids

    @property
    def max_level(self) -> int:
        """Highest plain trick bid (pepper takes the top level for itself)."""
        return self.cards_each - 1 if self.has_pepper else self.cards_each

    @property
    def team_size(self) -> int:
        return self.players // self.teams

    @property
    def trump_choices(self) -> tuple[Trump, ...]:
        return _TRUMP_CHOICES[self.notrump]

    @property
    def stuck_min(self) -> int:
        return self.min_bid if self.stuck_dealer_min_bid is None else self.stuck_dealer_min_bid

    def team_of(self, seat: int) -> int:
        return seat % self.teams

    def partners(self, seat: int) -> tuple[int, ...]:
        """Teammates of ``seat``, clockwise from it."""
        n = self.players
        return tuple((seat + k) % n for k in range(1, n) if (seat + k) % n % self.teams == seat % self.teams)

    def special_value(self, special: str) -> int:
        value: int = getattr(self, "value_" + special.replace("-", "_"))
        return value

    def _consistency_problem(self) -> str | None:
        n, deck = self.players, self.deck
        if self.teams > n or n % self.teams:
            return f"teams={self.teams} does not divide players={n} into equal teams"
        if deck_size(deck) % n:
            return f"deck {deck} ({deck_size(deck)} cards) cannot be dealt evenly to {n} players"
        each = self.cards_each
        if sum(self.deal_packets) != each:
            return (
                f"deal_packets {format_value('deal_packets', self.deal_packets)} add up to "
                f"{sum(self.deal_packets)}, but each player gets {each} cards"
            )
        top = self.max_level
        for name in ("min_bid", "min_notrump_bid"):
            if getattr(self, name) > top:
                return f"{name}={getattr(self, name)} is above the highest trick bid ({top})"
        if self.stuck_dealer_min_bid is not None and self.stuck_dealer_min_bid > top:
            return f"stuck_dealer_min_bid={self.stuck_dealer_min_bid} is above the highest trick bid ({top})"
        size = self.team_size
        for name in ("call3", "call2", "call1", "alone"):
            if name in self.special_bids and size != 2:
                return f"special bid {name} needs teams of two (one partner); here teams have {size} players"
        if "best" in self.special_bids and size < 2:
            return "special bid best needs partners; here everyone plays alone"
        for name, k in (("call3", 3), ("call2", 2), ("call1", 1)):
            if name in self.special_bids and k > each:
                return f"special bid {name} exchanges {k} cards but each player has only {each}"
        if "alone" in self.special_bids and self.alone_exchange_cards > each:
            return f"alone_exchange_cards={self.alone_exchange_cards} is more than a hand ({each} cards)"
        if self.has_pepper and each < 2:
            return "pepper needs at least two cards per player"
        return None

    # --- overrides and display ---

    def with_overrides(self, overrides: Mapping[str, str] | Iterable[str]) -> Rules:
        """A copy with options changed, from ``{"name": "text"}`` or ``["name=text"]``."""
        pairs = dict(parse_override(o) for o in overrides) if not isinstance(overrides, Mapping) else overrides
        changes = {name: parse_value(name, text) for name, text in pairs.items()}
        return dataclasses.replace(self, **changes)

    def as_dict(self) -> dict[str, Any]:
        """Every option as plain JSON-ready data (tuples become lists)."""
        return {f.name: _plain(getattr(self, f.name)) for f in dataclasses.fields(self)}

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> Rules:
        """Inverse of ``as_dict``; unknown names are errors."""
        unknown = sorted(set(data) - set(OPTION_NAMES))
        if unknown:
            raise unknown_option(unknown[0])
        values: dict[str, Any] = {k: tuple(v) if isinstance(v, list) else v for k, v in data.items()}
        return cls(**values)

    def describe(self) -> list[tuple[str, str, str]]:
        """(name, value as text, help) for every option, in a stable order."""
        return [
            (f.name, format_value(f.name, getattr(self, f.name)), f.metadata["help"]) for f in dataclasses.fields(self)
        ]


def _plain(value: Any) -> Any:
    """An option's value as JSON-ready data of the plain types: lists, text, numbers."""
    if isinstance(value, tuple):
        return [_plain(v) for v in value]
    return value.value if isinstance(value, StrEnum) else value


OPTION_NAMES: tuple[str, ...] = tuple(f.name for f in dataclasses.fields(Rules))
_FIELDS = {f.name: f for f in dataclasses.fields(Rules)}


def option_values(name: str) -> str:
    """A short description of the values an option takes, for error messages and docs."""
    meta = _field(name).metadata
    kind = meta["kind"]
    if kind == "bool":
        return "true or false"
    if kind == "choice":
        return " | ".join(str(c) for c in meta["choices"])
    if kind == "int":
        return f"an integer {meta['min']}..{meta['max']}"
    if kind == "optint":
        return f"{meta['none_word']!r} or an integer {meta['min']}..{meta['max']}"
    if kind == "ints":
        return "comma-separated positive integers, like 3,2,3"
    if kind == "set":
        return "'none' or a comma-separated list of " + ", ".join(meta["choices"])
    raise AssertionError(kind)


def unknown_option(name: str) -> RulesError:
    """The error for a rule option that does not exist: the closest name, else every name."""
    hint = did_you_mean(name, OPTION_NAMES)
    if hint:
        return RulesError(f"unknown rule option {name!r}{hint}; `arena presets PRESET` lists every option")
    return RulesError(f"unknown rule option {name!r}; known options: {', '.join(OPTION_NAMES)}")


def _field(name: str) -> dataclasses.Field[Any]:
    try:
        return _FIELDS[name]
    except KeyError:
        raise unknown_option(name) from None


def parse_override(text: str) -> tuple[str, str]:
    """``"min_bid=3"`` -> ``("min_bid", "3")``."""
    name, sep, value = text.partition("=")
    if not sep or not name.strip():
        raise RulesError(f"bad rule override {text!r}: expected name=value, like min_bid=3")
    name = name.strip()
    _field(name)
    return name, value.strip()


_TRUE = {"true", "yes", "on", "1"}
_FALSE = {"false", "no", "off", "0"}


def parse_value(name: str, text: Any) -> Any:
    """Turn the text of an option value into its typed value, or raise RulesError."""
    meta = _field(name).metadata
    kind = meta["kind"]
    if not isinstance(text, str):
        value = tuple(text) if isinstance(text, list) else text
        _check_value(_field(name), value)
        return value
    t = text.strip()
    bad = RulesError(f"bad value {text!r} for rule option {name}: expected {option_values(name)}")
    try:
        if kind == "bool":
            if t.lower() in _TRUE:
                return True
            if t.lower() in _FALSE:
                return False
            raise bad
        if kind == "choice":
            for c in meta["choices"]:
                if str(c) == t:
                    value = c
                    break
            else:
                raise bad
        elif kind == "int":
            value = int(t)
        elif kind == "optint":
            value = None if t.lower() == meta["none_word"] else int(t)
        elif kind == "ints":
            value = tuple(int(p) for p in t.split(","))
        elif kind == "set":
            parts = [] if t.lower() == "none" else [p.strip() for p in t.split(",")]
            value = tuple(dict.fromkeys(parts))
        else:  # pragma: no cover - table is fixed
            raise AssertionError(kind)
    except ValueError:
        raise bad from None
    _check_value(_field(name), value)
    return value


def _check_value(f: dataclasses.Field[Any], value: Any) -> None:
    meta = f.metadata
    kind = meta["kind"]
    name = f.name
    ok = True
    if kind == "bool":
        ok = isinstance(value, bool)
    elif kind == "choice":
        ok = value in meta["choices"]
    elif kind == "int":
        ok = isinstance(value, int) and not isinstance(value, bool) and meta["min"] <= value <= meta["max"]
    elif kind == "optint":
        ok = value is None or (
            isinstance(value, int) and not isinstance(value, bool) and meta["min"] <= value <= meta["max"]
        )
    elif kind == "ints":
        ok = (
            isinstance(value, tuple)
            and len(value) > 0
            and all(isinstance(v, int) and not isinstance(v, bool) and v > 0 for v in value)
        )
    elif kind == "set":
        ok = isinstance(value, tuple) and all(v in meta["choices"] for v in value) and len(set(value)) == len(value)
    if not ok:
        shown = format_value(name, value) if kind in ("ints", "set") and isinstance(value, tuple) else repr(value)
        raise RulesError(f"bad value {shown} for rule option {name}: expected {option_values(name)}")


def format_value(name: str, value: Any) -> str:
    """The text form of an option value; ``parse_value`` reads it back."""
    meta = _field(name).metadata
    kind = meta["kind"]
    if kind == "bool":
        return "true" if value else "false"
    if kind == "optint":
        return meta["none_word"] if value is None else str(value)
    if kind == "ints":
        return ",".join(str(v) for v in value)
    if kind == "set":
        return ",".join(value) if value else "none"
    return str(value)
