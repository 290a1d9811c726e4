"""A game log split into its match and its games, each record with its line number.

``load_log(path)`` reads the whole file (``gamelog.read_records`` does the
line-level checks) and checks the frame around the game records: the log opens
with ``match_start``, each game with ``game_start`` (numbered 1, 2, ...), game
records carry their game's number when they carry one, and nothing follows
``match_end``. Since log version 2 the hidden cards of a hand come in its
``reveal`` record, written when the hand is over: ``load_log`` puts them back
into the hand's ``deal``, ``exchange`` and withheld ``violation`` records, so
readers see every card where it was dealt or passed; a hand cut off before its
reveal is dropped (its cards were never written). The game records themselves
are checked by replaying them (``referee.replay.steps``). Every error is a
``LogError`` naming the line; a file whose first record is no log's
(standings.json, results.jsonl, a bot's output) is ``NotAGameLog``, which
says where the game logs are.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, TypeGuard

from referee.engine.errors import RulesError
from referee.engine.rules import Rules
from referee.gamelog import WITHHELD, LogError, NotAGameLog, read_records, truncated_tail
from referee.runfolder import GAMES, LOGS, MATCH_LOG

Record = dict[str, Any]


@dataclass(frozen=True, slots=True)
class Entry:
    """One record of the log and the line it is on."""

    line: int
    record: Record

    @property
    def event(self) -> str:
        return self.record["event"]


@dataclass
class LoggedGame:
    """One game: its ``game_start`` and the records after it, up to the next game."""

    number: int  # 1-based within the log
    start: Entry
    entries: list[Entry] = field(default_factory=list)
    last: bool = False  # nothing follows it in the file (no next game, no match_end)

    @property
    def game_id(self) -> str:
        return str(self.start.record.get("game_id", f"g{self.number}"))

    @property
    def first_dealer(self) -> int:
        return self.start.record["first_dealer"]

    @property
    def seat_names(self) -> list[str]:
        return [s["bot"] for s in self.start.record["seats"]]

    @property
    def has_end(self) -> bool:
        return any(e.event == "game_end" for e in self.entries)


@dataclass
class MatchLog:
    """A whole log file."""

    path: Path
    start: Entry  # match_start
    rules: Rules
    games: list[LoggedGame]
    violations: list[Entry]  # violations outside the game they follow (for example a bot that never connected)
    end: Entry | None  # match_end, absent when the log was cut off
    last_line: int  # the last complete line read
    partial_tail: bool  # the file ends in a partial line (cut off mid-write)

    @property
    def preset(self) -> str:
        return str(self.start.record.get("preset", "?"))

    @property
    def cut_off(self) -> bool:
        """The match did not finish writing its log."""
        return self.end is None

    def where(self, line: int) -> str:
        return f"{self.path}:{line}"

    def game(self, number: int) -> LoggedGame:
        if not 1 <= number <= len(self.games):
            held = f"{len(self.games)} game" + ("" if len(self.games) == 1 else "s")
            raise LogError(f"{self.path} holds {held}; there is no game {number}")
        return self.games[number - 1]


def _is_int(value: object) -> TypeGuard[int]:
    return isinstance(value, int) and not isinstance(value, bool)


def _check_seats(path: Path, entry: Entry, rules: Rules) -> None:
    seats = entry.record.get("seats")
    ok = (
        isinstance(seats, list)
        and len(seats) == rules.players
        and all(
            isinstance(s, dict) and s.get("seat") == i and isinstance(s.get("bot"), str) for i, s in enumerate(seats)
        )
    )
    if not ok:
        raise LogError(
            f"{path}:{entry.line}: {entry.event} needs 'seats': one {{seat, team, bot}} per seat, "
            f"seats 0..{rules.players - 1} in order"
        )


def _match_rules(path: Path, entry: Entry) -> Rules:
    rules = entry.record.get("rules")
    if not isinstance(rules, dict):
        raise LogError(f"{path}:{entry.line}: match_start needs 'rules' (every rule option)")
    try:
        return Rules.from_dict(rules)
    except (RulesError, TypeError, ValueError) as exc:
        raise LogError(f"{path}:{entry.line}: bad rules in match_start: {exc}") from None


def not_a_game_log(path: Path, why: str) -> NotAGameLog:
    """The error for a file that is no game log: ``why``, what a game log is, and where the game logs are (the
    run folder's ``games/`` beside the file, when there is one)."""
    folder = path.parent
    run = next((f for f in (folder, folder.parent) if (f / GAMES).is_dir()), None)  # a file of a run, or of bots/
    if folder.name == GAMES:
        where = f"the game logs of {folder.parent} are the g*.jsonl files of {folder}/"
    elif run is not None:
        where = f"the game logs of {run} are in {run / GAMES}/"
    else:
        where = f"arena match writes them to {LOGS}/match-DATE-TIME/{MATCH_LOG}, a tournament to {LOGS}/NAME/{GAMES}/"
    return NotAGameLog(
        f"{path} is not a game log ({why}): a game log has one JSON record per line, from match_start on; {where}"
    )


def _opens_a_log(path: Path) -> bool:
    """Whether the file's first line is a match_start record: a game log, whatever is wrong with it."""
    try:
        with path.open("rb") as f:
            first = json.loads(f.readline(1 << 20))
    except (OSError, ValueError, RecursionError):
        return False
    return isinstance(first, dict) and first.get("event") == "match_start"


def _what_it_holds(path: Path, error: LogError | None) -> str:
    """Why a file whose first line is no log's is not a log, in a few words (``error``: the first line's, if
    there is a complete one)."""
    try:
        if path.stat().st_size == 0:
            return "it is empty"
        if error is None or "not valid JSON" in str(error):
            json.loads(path.read_bytes())
            return "it holds one JSON document"
    except (OSError, ValueError, RecursionError):
        pass
    if error is None:
        return "it holds no complete line"
    return str(error).removeprefix(f"{path}:").split(": ", 1)[-1]


def load_log(path: Path) -> MatchLog:
    """Read and frame a whole log; raises ``LogError`` naming the first bad line (``NotAGameLog`` when the first
    one is no log's)."""
    records: list[Entry] = []
    try:
        for line, record in read_records(path):
            records.append(Entry(line, record))
            if len(records) == 1 and record["event"] != "match_start":
                raise not_a_game_log(path, f"line {line} is a {record['event']} record, not match_start")
    except NotAGameLog:
        raise
    except LogError as exc:
        if records or _opens_a_log(path):  # a log with a bad line (a newer version, say): the error says which
            raise
        raise not_a_game_log(path, _what_it_holds(path, exc)) from None
    if not records:
        raise not_a_game_log(path, _what_it_holds(path, None))
    first = records[0]
    rules = _match_rules(path, first)
    _check_seats(path, first, rules)
    games: list[LoggedGame] = []
    loose: list[Entry] = []
    end: Entry | None = None
    for entry in records[1:]:
        rec = entry.record
        kind = entry.event
        if end is not None:
            raise LogError(f"{path}:{entry.line}: {kind} record after match_end")
        if kind == "match_start":
            raise LogError(f"{path}:{entry.line}: a second match_start (one log holds one match)")
        if kind == "match_end":
            end = entry
            continue
        if kind == "game_start":
            number = rec.get("game")
            if number != len(games) + 1:
                raise LogError(f"{path}:{entry.line}: game_start of game {number!r}; expected game {len(games) + 1}")
            first_dealer = rec.get("first_dealer")
            if not _is_int(first_dealer) or not 0 <= first_dealer < rules.players:
                raise LogError(f"{path}:{entry.line}: game_start needs 'first_dealer', a seat 0..{rules.players - 1}")
            _check_seats(path, entry, rules)
            games.append(LoggedGame(number, entry))
            continue
        tag = rec.get("game")
        if kind == "violation" and (tag is None or not games or tag != games[-1].number):
            loose.append(entry)
            continue
        if not games:
            raise LogError(f"{path}:{entry.line}: {kind} record before any game_start")
        current = games[-1]
        if tag is not None and tag != current.number:
            raise LogError(f"{path}:{entry.line}: {kind} record of game {tag!r} inside game {current.number}")
        current.entries.append(entry)
    if games and end is None:
        games[-1].last = True
    for game in games:
        game.entries = _restore_secrets(path, game.entries, cut_off=game.last)
    return MatchLog(
        path=path,
        start=first,
        rules=rules,
        games=games,
        violations=loose,
        end=end,
        last_line=records[-1].line,
        partial_tail=truncated_tail(path),
    )


def revealed_records(path: Path) -> list[Record]:
    """Every complete record of a log, each hand's ``reveal`` merged into its records and left out.

    The result reads as a version-1 log does (every card where it was dealt
    or passed); a hand the log stops inside is dropped.
    """
    entries = _restore_secrets(path, [Entry(n, r) for n, r in read_records(path)], cut_off=True)
    return [e.record | {"log_version": 1} if e.event == "match_start" else e.record for e in entries]


def _restore_secrets(path: Path, entries: list[Entry], *, cut_off: bool) -> list[Entry]:
    """The game's entries with each ``reveal`` merged into its hand's records (and itself left out)."""
    out: list[Entry] = []
    hand: list[int] = []  # indexes in ``out`` of the open hand's deal, exchanges and withheld violations
    for entry in entries:
        kind = entry.event
        if kind == "deal":
            hidden = entry.record.get("hands")
            hand = [len(out)] if isinstance(hidden, list) and all(h is None for h in hidden) else []
        elif hand and (kind == "exchange" or (kind == "violation" and entry.record.get("detail") == WITHHELD)):
            hand.append(len(out))
        if kind != "reveal":
            out.append(entry)
            continue
        if not hand:
            raise LogError(f"{path}:{entry.line}: a reveal record with no hand whose cards are hidden before it")
        _reveal(path, entry, out, hand)
        hand = []
    if hand and cut_off:
        del out[hand[0] :]  # the log stops inside a hand whose cards it never got
    return out


def _reveal(path: Path, reveal: Entry, out: list[Entry], where: list[int]) -> None:
    """Fill the hidden fields of ``out[i]`` for i in ``where`` (the deal first) from ``reveal``."""
    hidden = [out[i] for i in where]
    rec = reveal.record
    hands, exchanges, details = rec.get("hands"), rec.get("exchanges"), rec.get("details")
    n_exchanges = sum(1 for e in hidden if e.event == "exchange")
    n_details = len(hidden) - 1 - n_exchanges
    if not (isinstance(hands, list) and isinstance(exchanges, list) and isinstance(details, list)):
        raise LogError(f"{path}:{reveal.line}: a reveal record needs 'hands', 'exchanges' and 'details' (lists)")
    if rec.get("hand") != hidden[0].record.get("hand") or len(exchanges) != n_exchanges or len(details) != n_details:
        raise LogError(
            f"{path}:{reveal.line}: the reveal does not fit hand {hidden[0].record.get('hand')!r} (line "
            f"{hidden[0].line}): it has {len(exchanges)} exchanges and {len(details)} details, the hand "
            f"{n_exchanges} and {n_details}"
        )
    more_cards, more_details = iter(exchanges), iter(details)
    for index, entry in zip(where, hidden, strict=True):
        if entry.event == "deal":
            fill = {"hands": hands}
        elif entry.event == "exchange":
            fill = {"cards": next(more_cards)}
        else:
            fill = {"detail": next(more_details)}
        out[index] = Entry(entry.line, entry.record | fill)
