"""The game in play at one table, as the replay viewer's steps, made from the records the table sends.

A table hands over its game's records as they happen (``referee.match.OnRecords``: every card shown, the
organiser's view): ``match_start``, ``game_start``, then each event. ``LiveTable.add`` only keeps them, so a
table nobody watches costs next to nothing; ``steps()`` turns the new ones into steps when a page asks, through
the same code as ``arena replay --html``: ``referee.replay.steps.GameReplay`` checks each record against the
engine and ``referee.replay.html.StepMaker`` makes the step.

``GameReplay`` walks a list of entries; here the list grows while it walks. It is asked for its next item
only when an entry it has not read is there, and an entry always ends in a ``Step`` or a ``Violation`` item,
so it never runs out of entries before the game is over.

Line numbers are those of the game's log file, which also holds a ``reveal`` record before each hand's
``hand_end`` (and before a ``game_end`` that cuts a hand short): the live step of a record shows the line
the record will have in the log.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

from referee.engine.errors import RulesError
from referee.engine.rules import Rules
from referee.gamelog import LogError
from referee.replay.html import StepMaker
from referee.replay.logfile import Entry, LoggedGame, MatchLog
from referee.replay.steps import GameReplay, Item, Step, Violation


class LiveTable:
    """One table's game in play."""

    def __init__(self, number: int) -> None:
        self.number = number
        self.game_id: str | None = None  # of the game in play (or the last one played)
        self.teams: list[str] = []
        self.preset = ""
        self.rules: Rules | None = None
        self.seats: list[dict[str, Any]] = []
        self.records: list[dict[str, Any]] = []  # of the game in play, as received
        self.done = 0  # records turned into steps so far
        self.step_list: list[dict[str, Any]] = []
        self.error: str | None = None
        self.over = False  # the game in play has ended
        self.version = 0  # grows with every record: pages compare it to know there is more
        self._line = 0  # the log line of the last record received
        self._in_hand = False
        self._lines: list[int] = []  # per record, its log line
        self._start: Entry | None = None  # the game's match_start
        self._logged: LoggedGame | None = None
        self._walk: Iterator[Item] | None = None
        self._maker: StepMaker | None = None

    def add(self, records: list[dict[str, Any]]) -> None:
        """More records of the table's game (a ``match_start`` begins a new game)."""
        for record in records:
            event = record.get("event")
            if event == "match_start":
                self._new_game(record)
                continue
            if self.rules is None:
                continue  # records of a game whose start this view missed
            if event in ("hand_end", "game_end") and self._in_hand:
                self._line += 1  # the log has the hand's reveal record just before
            if event == "deal":
                self._in_hand = True
            elif event == "hand_end":
                self._in_hand = False
            elif event == "game_start":
                self.game_id = str(record.get("game_id"))
                self.seats = [{"name": s.get("bot"), "team": s.get("team")} for s in record.get("seats", [])]
            elif event == "game_end":
                self.over = True
            self._line += 1
            self.records.append(record)
            self._lines.append(self._line)
        self.version += 1

    def _new_game(self, record: dict[str, Any]) -> None:
        self.records, self._lines, self.done, self.step_list = [], [], 0, []
        self.error, self.over, self._in_hand = None, False, False
        self._line = 1  # the match_start is line 1
        self._logged = self._walk = self._maker = None
        self.preset = str(record.get("preset", ""))
        self.teams = []
        try:
            self.rules = Rules.from_dict(record.get("rules") or {})
        except (RulesError, TypeError, ValueError) as exc:
            self.rules, self.error = None, f"the table's rules cannot be read: {exc}"
            return
        self.teams = [s.get("bot") for s in record.get("seats", [])][: self.rules.teams]
        self._start = Entry(1, record)

    def steps(self) -> list[dict[str, Any]]:
        """The steps of the game in play, up to its last record received (made now for the records not yet
        made into steps)."""
        if self.rules is None or self.error is not None:
            return self.step_list
        while self.done < len(self.records):
            record, line = self.records[self.done], self._lines[self.done]
            self.done += 1
            if self._logged is None:
                if record.get("event") != "game_start":
                    self.error = f"the game's records start with {record.get('event')}, not game_start"
                    break
                self._begin(Entry(line, record))
                continue
            self._logged.entries.append(Entry(line, record))
            try:
                self._take()
            except LogError as exc:
                self.error = str(exc)
                break
        return self.step_list

    def _begin(self, start: Entry) -> None:
        assert self.rules is not None and self._start is not None
        match = MatchLog(
            path=Path(f"table {self.number}"),
            start=self._start,
            rules=self.rules,
            games=[],
            violations=[],
            end=None,
            last_line=start.line,
            partial_tail=False,
        )
        self._logged = LoggedGame(1, start, last=True)
        match.games.append(self._logged)
        replay = GameReplay(match, self._logged)
        self._maker = StepMaker(match, self._logged, replay)
        self._walk = iter(replay)

    def _take(self) -> None:
        """Walk the replay over the entry just added: to its Step (or its Violation)."""
        assert self._walk is not None and self._maker is not None
        for item in self._walk:
            step = self._maker.take(item)
            if step is not None:
                self.step_list.append(step)
            if isinstance(item, Step | Violation):
                return

    def game_data(self, title: str) -> dict[str, Any]:
        """The viewer's data for the game in play (one game, its steps so far)."""
        steps = self.steps()
        rules = self.rules
        return {
            "title": title,
            "preset": self.preset,
            "players": rules.players if rules else 4,
            "teams": rules.teams if rules else 2,
            "games": [self.game()],
            "start": {"hand": None, "seat": None},
            "cutOff": False,
            "liveSteps": len(steps),
        }

    def game(self) -> dict[str, Any]:
        """The viewer's game entry, steps so far."""
        return {
            "number": 1,
            "id": self.game_id or "(waiting)",
            "seats": self.seats,
            "steps": list(self.steps()),
            "cutOff": None,
            "error": self.error,
            "notes": [],
        }

    def describe(self) -> dict[str, Any]:
        return {"table": self.number, "game": self.game_id, "teams": self.teams, "over": self.over}
