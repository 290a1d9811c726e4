"""The JSONL game log: one JSON object per line, flushed as it happens.

Record shapes (every record has ``event``; see docs/logs.md):

- ``match_start``: log_version, preset, rules (every option), seats (seat, team,
  bot), seed, games, move_time_ms, time_bank_ms, startup_allowance_ms, on_fault
- ``game_start``: game (1-based), game_id, seed, first_dealer, seats
- ``deal``: hand, dealer, hands (per seat: null while the hand is in play)
- ``bid``: hand, seat, bid (text: ``pass``, ``4``, ``4 S``, ``call2 H`` ...)
- ``contract``: hand, declarer, bid, trump (S H D C high low), alone, active
- ``exchange``: hand, from, to (null for a discard), cards (null while the hand is in play), count
- ``play``: hand, trick, seat, card
- ``trick``: hand, trick, winner
- ``claim``: hand, trick, seat, team, tricks, accepted: a claim of every remaining
  trick by the seat on turn to play; accepted, the hand_end follows (after the
  reveal); refused, nothing changed and the seat's card comes next
- ``hand_end``: hand, tricks, points, scores (per team), passed_out, declarer, made
- ``violation``: game, hand, seat, kind (timeout, illegal, malformed, crash,
  protocol, late), detail, penalty (forfeit, default-action, none). Under the
  default-action policy the action played for the bot follows as a normal
  record; under forfeit the game_end (reason ``forfeit``) follows.
- ``reveal``: hand, hands, exchanges, details: the hidden cards of the hand,
  written once it is over (before its hand_end, or before a game_end that cut it)
- ``game_end``: game, scores, winner (team or null), reason, detail
- ``match_end``: games, results (per game: winner, scores, reason)

Every record after match_start that belongs to a game carries the game number
(``game``) as well when the log holds several games.

While a hand is in play the log holds only public cards (``HandSecrets``):
a bot that reads the live log learns nothing its seat could not know.

The only clock values are the think times (``ms``, on the record of each
answer a bot gave): apart from them, the same seed and the same actions give
the same records (``without_think_times``). A log cut off by a crash is valid up to its last complete line.
"""

from __future__ import annotations

import json
import os
from collections.abc import Iterable, Iterator, Sequence
from pathlib import Path
from typing import Any, TextIO

from referee.engine.bids import Bid
from referee.engine.cards import Trump, card_str, cards_str, parse_card, parse_cards
from referee.engine.errors import InvalidActionError
from referee.engine.events import (
    BidEvent,
    ClaimEvent,
    ContractEvent,
    DealEvent,
    Event,
    ExchangeEvent,
    GameEndEvent,
    HandEndEvent,
    PlayEvent,
    TrickEvent,
)
from referee.engine.rules import Rules
from referee.errors import InputError
from referee.faults import Penalty, ViolationKind

LOG_VERSION = 3  # 2: hidden cards are written at hand end, in a reveal record; 3: claim records


class LogError(InputError):
    """A log line that cannot be read; the message names the file and line."""


class NotAGameLog(LogError):
    """A file that is no game log at all (its first record is not one): the message says what it is instead
    and where the game logs are."""


def event_record(event: Event, game: int | None = None) -> dict[str, Any]:
    """The log record of an engine event (the omniscient version), tagged with ``game`` if given."""
    rec = _event_fields(event)
    if game is None:
        return rec
    kind = rec.pop("event")
    return {"event": kind, "game": game, **rec}


def _event_fields(event: Event) -> dict[str, Any]:
    if isinstance(event, PlayEvent):
        return {
            "event": "play",
            "hand": event.hand,
            "trick": event.trick,
            "seat": event.seat,
            "card": card_str(event.card),
        }
    if isinstance(event, TrickEvent):
        return {"event": "trick", "hand": event.hand, "trick": event.trick, "winner": event.winner}
    if isinstance(event, BidEvent):
        return {"event": "bid", "hand": event.hand, "seat": event.seat, "bid": event.bid.text()}
    if isinstance(event, DealEvent):
        hands = [cards_str(h) if h is not None else None for h in event.hands]
        return {"event": "deal", "hand": event.hand, "dealer": event.dealer, "hands": hands}
    if isinstance(event, ContractEvent):
        return {
            "event": "contract",
            "hand": event.hand,
            "declarer": event.declarer,
            "bid": event.bid.text(),
            "trump": event.trump.text(),
            "alone": event.alone,
            "active": list(event.active),
        }
    if isinstance(event, ExchangeEvent):
        return {
            "event": "exchange",
            "hand": event.hand,
            "from": event.from_seat,
            "to": event.to_seat,
            "cards": cards_str(event.cards) if event.cards is not None else None,
            "count": event.count,
        }
    if isinstance(event, ClaimEvent):
        return {
            "event": "claim",
            "hand": event.hand,
            "trick": event.trick,
            "seat": event.seat,
            "team": event.team,
            "tricks": event.tricks,
            "accepted": event.accepted,
        }
    if isinstance(event, HandEndEvent):
        return {
            "event": "hand_end",
            "hand": event.hand,
            "tricks": list(event.tricks),
            "points": list(event.points),
            "scores": list(event.scores),
            "passed_out": event.passed_out,
            "declarer": event.declarer,
            "made": event.made,
        }
    if isinstance(event, GameEndEvent):
        return {
            "event": "game_end",
            "scores": list(event.scores),
            "winner": event.winner,
            "reason": event.reason,
            "detail": event.detail,
        }
    raise TypeError(f"not an engine event: {event!r}")


def event_from_record(rec: dict[str, Any]) -> Event:
    """The engine event of a log record; raises KeyError/ValueError on a bad record."""
    kind = rec["event"]
    if kind == "play":
        return PlayEvent(rec["hand"], rec["trick"], rec["seat"], parse_card(rec["card"]))
    if kind == "trick":
        return TrickEvent(rec["hand"], rec["trick"], rec["winner"])
    if kind == "bid":
        return BidEvent(rec["hand"], rec["seat"], Bid.parse(rec["bid"]))
    if kind == "deal":
        hands = tuple(tuple(parse_cards(h)) if h is not None else None for h in rec["hands"])
        return DealEvent(rec["hand"], rec["dealer"], hands)
    if kind == "contract":
        return ContractEvent(
            rec["hand"],
            rec["declarer"],
            Bid.parse(rec["bid"]),
            Trump.parse(rec["trump"]),
            rec["alone"],
            tuple(rec["active"]),
        )
    if kind == "exchange":
        cards = tuple(parse_cards(rec["cards"])) if rec["cards"] is not None else None
        return ExchangeEvent(rec["hand"], rec["from"], rec["to"], cards, rec["count"])
    if kind == "claim":
        return ClaimEvent(rec["hand"], rec["trick"], rec["seat"], rec["team"], rec["tricks"], rec["accepted"])
    if kind == "hand_end":
        return HandEndEvent(
            rec["hand"],
            tuple(rec["tricks"]),
            tuple(rec["points"]),
            tuple(rec["scores"]),
            rec["passed_out"],
            rec["declarer"],
            rec["made"],
        )
    if kind == "game_end":
        return GameEndEvent(tuple(rec["scores"]), rec["winner"], rec["reason"], rec.get("detail", ""))
    raise ValueError(f"{kind!r} is not an engine event")


def seats_record(rules: Rules, bot_names: Sequence[str]) -> list[dict[str, Any]]:
    """``[{seat, team, bot}]`` for a game's seating (bot name per seat)."""
    return [{"seat": s, "team": rules.team_of(s), "bot": name} for s, name in enumerate(bot_names)]


def match_start_record(
    *,
    preset: str,
    rules: Rules,
    bot_names: Sequence[str],
    seed: int,
    games: int,
    move_time_ms: int,
    on_fault: str,
    time_bank_ms: int = 0,
    startup_allowance_ms: int = 0,
) -> dict[str, Any]:
    """The first line of every log. ``bot_names`` is the seating of the first game."""
    return {
        "event": "match_start",
        "log_version": LOG_VERSION,
        "preset": preset,
        "rules": rules.as_dict(),
        "seats": seats_record(rules, bot_names),
        "seed": seed,
        "games": games,
        "move_time_ms": move_time_ms,
        "time_bank_ms": time_bank_ms,
        "startup_allowance_ms": startup_allowance_ms,
        "on_fault": on_fault,
    }


def game_start_record(
    *, game: int, game_id: str, seed: int, first_dealer: int, rules: Rules, bot_names: Sequence[str]
) -> dict[str, Any]:
    """Opens one game (1-based ``game`` within the log); its seating may differ from the match's."""
    return {
        "event": "game_start",
        "game": game,
        "game_id": game_id,
        "seed": seed,
        "first_dealer": first_dealer,
        "seats": seats_record(rules, bot_names),
    }


def violation_record(
    *, game: int | None, hand: int | None, seat: int, kind: ViolationKind, detail: str, penalty: Penalty
) -> dict[str, Any]:
    """A fault by the bot in ``seat``, and what it cost."""
    return {
        "event": "violation",
        "game": game,
        "hand": hand,
        "seat": seat,
        "kind": ViolationKind(kind).value,
        "detail": detail,
        "penalty": Penalty(penalty).value,
    }


def match_end_record(*, games: int, results: list[dict[str, Any]]) -> dict[str, Any]:
    """The last line: one result per game (winner team or null, scores, reason)."""
    return {"event": "match_end", "games": games, "results": results}


# the violations whose detail may name a card the seat holds (the engine's and the decoder's messages)
WITHHELD_KINDS = frozenset({ViolationKind.ILLEGAL, ViolationKind.MALFORMED})
WITHHELD = "withheld until the hand ends (see its reveal record)"


def public_event(event: Event) -> Event:
    """The event as every seat may see it: no seat's dealt cards, no exchanged cards."""
    if isinstance(event, DealEvent):
        return DealEvent(event.hand, event.dealer, tuple(None for _ in event.hands))
    if isinstance(event, ExchangeEvent):
        return ExchangeEvent(event.hand, event.from_seat, event.to_seat, None, event.count)
    return event


class HandSecrets:
    """Keeps a game's hidden cards out of its log until the hand they belong to is over.

    ``records`` turns engine events into log records holding only public
    cards; when the hand ends (its hand_end, or a game_end cutting it short)
    a ``reveal`` record comes first, giving the dealt hands, the cards of each
    exchange and the withheld violation details, in the order of the hand's
    records. ``referee.replay.logfile`` puts them back in place.
    """

    def __init__(self, game: int | None = None) -> None:
        self.game = game
        self._deal: DealEvent | None = None
        self._exchanges: list[list[str] | None] = []
        self._details: list[str] = []

    @property
    def in_hand(self) -> bool:
        return self._deal is not None

    def records(self, events: Iterable[Event]) -> list[dict[str, Any]]:
        out = []
        for event in events:
            if isinstance(event, HandEndEvent | GameEndEvent) and self._deal is not None:
                out.append(self._reveal(self._deal))
            if isinstance(event, DealEvent):
                self._deal = event
            elif isinstance(event, ExchangeEvent):
                self._exchanges.append(cards_str(event.cards) if event.cards is not None else None)
            out.append(event_record(public_event(event), self.game))
        return out

    def violation_detail(self, kind: str, detail: str) -> str:
        """The detail to log now: withheld (until the reveal) when it may name a hidden card."""
        if self._deal is None or kind not in WITHHELD_KINDS:
            return detail
        self._details.append(detail)
        return WITHHELD

    def _reveal(self, deal: DealEvent) -> dict[str, Any]:
        rec: dict[str, Any] = {"event": "reveal"}
        if self.game is not None:
            rec["game"] = self.game
        rec |= {
            "hand": deal.hand,
            "hands": [cards_str(h) if h is not None else None for h in deal.hands],
            "exchanges": self._exchanges,
            "details": self._details,
        }
        self._deal, self._exchanges, self._details = None, [], []
        return rec


ENGINE_EVENTS = frozenset({"deal", "bid", "contract", "exchange", "play", "trick", "claim", "hand_end", "game_end"})
KNOWN_EVENTS = ENGINE_EVENTS | {"match_start", "game_start", "violation", "reveal", "match_end"}


THINK_FIELD = "ms"  # the time charged for the bot's answer that made the record, in milliseconds


def without_think_times(records: Iterable[dict[str, Any]]) -> list[dict[str, Any]]:
    """The records without their think times: what the same seed and actions reproduce exactly."""
    return [{k: v for k, v in r.items() if k != THINK_FIELD} for r in records]


# json.dumps with these options would build a new encoder for every record: one serves them all.
_ENCODER = json.JSONEncoder(separators=(",", ":"), ensure_ascii=False)


def dumps(record: dict[str, Any]) -> str:
    """One log line (no newline): compact, keys in insertion order."""
    return _ENCODER.encode(record)


class LogWriter:
    """Appends records to a JSONL file, one flushed line each.

    ``write_last`` writes the log's last record (its match_end): from then on the
    writer is ``closed`` to records, though the file may still be synced, so that
    nothing (a bot's late answer) can follow that record.
    """

    def __init__(self, path: Path, *, append: bool = False) -> None:
        self.path = path
        path.parent.mkdir(parents=True, exist_ok=True)
        self._file: TextIO = path.open("a" if append else "x", encoding="utf-8")
        self._ended = False

    def write(self, record: dict[str, Any]) -> None:
        self.write_many((record,))

    def write_many(self, records: Iterable[dict[str, Any]]) -> None:
        """Several records that happened at once (the events of one action): whole lines, one flush."""
        if self._ended:
            raise ValueError(f"{self.path}: the log's last record is written; nothing may follow it")
        self._file.write("".join([dumps(r) + "\n" for r in records]))
        self._file.flush()

    def write_last(self, record: dict[str, Any]) -> None:
        """The log's last record: no record is taken after it."""
        self.write(record)
        self._ended = True

    def sync(self) -> None:
        """Flush to disk (fsync), for records that must survive a power cut or kill -9."""
        self._file.flush()
        os.fsync(self._file.fileno())

    @property
    def closed(self) -> bool:
        """No record is taken any more (the last is written, or the file is closed)."""
        return self._ended or self._file.closed

    def close(self) -> None:
        if not self._file.closed:
            self._file.close()

    def __enter__(self) -> LogWriter:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


def read_json_lines(path: Path) -> Iterator[tuple[int, Any]]:
    """(line number, parsed JSON) for each complete, non-blank line of a JSONL file; errors name the line.

    A final line without a newline (cut off mid-write) is ignored: the file
    is valid up to its last complete line. Callers can tell from
    ``truncated_tail(path)``.
    """
    with path.open("rb") as f:
        for number, raw in enumerate(f, start=1):
            if not raw.endswith(b"\n"):
                return
            try:
                line = raw.decode("utf-8")
            except UnicodeDecodeError:
                raise LogError(f"{path}:{number}: not UTF-8 text") from None
            if not line.strip():
                continue
            try:
                value = json.loads(line)
            except json.JSONDecodeError as exc:
                raise LogError(f"{path}:{number}: not valid JSON ({exc.msg})") from None
            except RecursionError:
                raise LogError(f"{path}:{number}: JSON nested too deeply") from None
            yield number, value


def read_records(path: Path) -> Iterator[tuple[int, dict[str, Any]]]:
    """(line number, record) for each complete line of a game log; errors name the line.

    A final line without a newline (a log cut off mid-write) is ignored (see
    ``read_json_lines``).
    """
    for number, record in read_json_lines(path):
        if not isinstance(record, dict) or not isinstance(record.get("event"), str):
            raise LogError(f"{path}:{number}: a log line must be a JSON object with an 'event' field")
        if record["event"] not in KNOWN_EVENTS:
            raise LogError(f"{path}:{number}: unknown event {record['event']!r}")
        version = record.get("log_version", 0) if record["event"] == "match_start" else 0
        if not isinstance(version, int) or isinstance(version, bool):
            raise LogError(f"{path}:{number}: log_version must be a whole number, got {version!r}")
        if version > LOG_VERSION:
            raise LogError(
                f"{path}:{number}: log version {record['log_version']} is newer than this arena reads "
                f"({LOG_VERSION}); upgrade the arena"
            )
        yield number, record


def truncated_tail(path: Path) -> bool:
    """True when the file ends in a partial line (cut off mid-write)."""
    with path.open("rb") as f:
        f.seek(0, os.SEEK_END)
        if f.tell() == 0:
            return False
        f.seek(-1, os.SEEK_END)
        return f.read(1) != b"\n"


def parse_event_record(path: Path, number: int, record: dict[str, Any]) -> Event:
    """``event_from_record`` with an error that names the file and line."""
    try:
        return event_from_record(record)
    except (KeyError, TypeError, ValueError, AttributeError, InvalidActionError) as exc:
        what = f"missing field {exc}" if isinstance(exc, KeyError) else str(exc)
        raise LogError(f"{path}:{number}: bad {record.get('event')} record: {what}") from None
