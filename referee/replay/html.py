"""``--html``: one self-contained page that steps through logged games on a card table.

The page is ``viewer.html`` (inline CSS and JavaScript, cards drawn with CSS,
no network, no external files) with the replay embedded as JSON. There is one
step per checked event; each step carries what every seat holds then (each
seat's own hand, from the engine's ``seat_view``), the trick on the table, the
contract, the auction so far, tricks and scores, and the event's text as a
whole and as each seat saw it (from the seat's view, so the cards of an
exchange it took no part in stay hidden). The script in the page only shows
steps: no rule is decided in the browser.
"""

from __future__ import annotations

import json
import re
from importlib import resources
from typing import Any

from referee import webassets
from referee.engine.cards import card_str
from referee.engine.events import (
    BidEvent,
    ClaimEvent,
    ContractEvent,
    DealEvent,
    GameEndEvent,
    HandEndEvent,
    PlayEvent,
    TrickEvent,
)
from referee.gamelog import LogError
from referee.replay.logfile import LoggedGame, MatchLog
from referee.replay.steps import GameReplay, Item, Step, Violation
from referee.replay.text import Cards, Words

_DATA_MARK = "/*REPLAY-DATA*/null"
_ANALYSIS_MARK = "/*ANALYSIS-DATA*/null"
_CHART_MARK = "<!--CHART-JS-->"


def _holding(cards: tuple[int, ...]) -> str:
    """A holding as one string of two-letter cards (the page splits it)."""
    return "".join(card_str(c) for c in cards)


class StepMaker:
    """Turns a replay's items into the page's steps, one at a time (the live view feeds it as a game is played).

    ``take(item)`` gives the step of a checked event, None for the other items (a violation becomes a note
    on the next step). Call it while the replay stands at the item.
    """

    def __init__(self, match: MatchLog, logged: LoggedGame, replay: GameReplay) -> None:
        rules = match.rules
        self.rules = rules
        self.words = Words(Cards(fancy=True), rules, logged.seat_names)
        self.replay = replay
        self.notes: list[str] = []
        self.table: list[list[Any]] = []  # the trick on the table: [seat, card]
        self.winner: int | None = None  # set once the trick on the table is complete
        self.contract: dict[str, Any] | None = None
        self.auction: list[str] = []
        self.tricks = [0] * rules.teams  # tricks won this hand, per team
        self.scores = [0] * rules.teams  # running totals, as of the last hand scored

    def take(self, item: Item) -> dict[str, Any] | None:
        rules, words, game = self.rules, self.words, self.replay.game
        if isinstance(item, Violation):
            self.notes.append(words.violation(item).plain)
            return None
        if not isinstance(item, Step):
            return None
        event = item.event
        text = words.event(event).plain
        if isinstance(event, DealEvent):
            self.table, self.winner, self.contract, self.auction = [], None, None, []
            self.tricks = [0] * rules.teams
        elif isinstance(event, BidEvent):
            self.auction = [*self.auction, text]
        elif isinstance(event, ContractEvent):
            self.contract = {"declarer": event.declarer, "text": text, "active": list(event.active)}
        elif isinstance(event, PlayEvent):
            if self.winner is not None:
                self.table, self.winner = [], None
            self.table = [*self.table, [event.seat, card_str(event.card)]]
        elif isinstance(event, TrickEvent):
            self.winner = event.winner
            self.tricks = [t + (team == rules.team_of(event.winner)) for team, t in enumerate(self.tricks)]
        elif isinstance(event, ClaimEvent) and event.accepted:
            self.tricks = [t + (team == event.team) * event.tricks for team, t in enumerate(self.tricks)]
        elif isinstance(event, HandEndEvent):
            self.table, self.winner, self.scores = [], None, list(event.scores)
        elif isinstance(event, GameEndEvent):
            self.scores = list(event.scores)
        holdings, seat_texts = [], {}
        for s in range(rules.players):
            view, seen = self.replay.seat_view_at(item, s)
            holdings.append(_holding(view.hand))
            own_text = words.event(seen[-1]).plain if seen else text
            if own_text != text:
                seat_texts[str(s)] = own_text
        step = {
            "line": item.line,
            "actor": item.point.decision.seat if item.point is not None else None,
            "hand": game.hand_number,
            "dealer": game.dealer,
            "text": text,
            "seatText": seat_texts,
            "notes": self.notes,
            "hands": holdings,
            "table": self.table,
            "winner": self.winner,
            "contract": self.contract,
            "auction": self.auction,
            "tricks": self.tricks,
            "scores": self.scores,
        }
        self.notes = []
        return step


def game_data(match: MatchLog, logged: LoggedGame) -> dict[str, Any]:
    """One game's steps for the page. A mismatch with the engine ends the steps and is kept in ``error``."""
    rules = match.rules
    replay = GameReplay(match, logged)
    maker = StepMaker(match, logged, replay)
    steps: list[dict[str, Any]] = []
    error: str | None = None
    try:
        for item in replay:
            step = maker.take(item)
            if step is not None:
                steps.append(step)
    except LogError as exc:
        error = str(exc)
    return {
        "number": logged.number,
        "id": logged.game_id,
        "seats": [{"name": name, "team": rules.team_of(s)} for s, name in enumerate(logged.seat_names)],
        "steps": steps,
        "cutOff": replay.cut_off,
        "error": error,
        "notes": maker.notes,
    }


def _script_json(data: Any) -> str:
    """JSON inside a <script> element: what could end it or start markup is escaped."""
    text = json.dumps(data, ensure_ascii=False, separators=(",", ":"))
    return text.replace("<", "\\u003c").replace(">", "\\u003e").replace("&", "\\u0026")


def viewer_page(
    match: MatchLog,
    game: int | None = None,
    *,
    start_hand: int | None = None,
    start_seat: int | None = None,
    analysis: dict[str, Any] | None = None,
) -> str:
    """The whole HTML page for the chosen game (None: every game of the log); ``analysis``: see
    ``referee.analyze.html.page_analysis``."""
    games = match.games if game is None else [match.game(game)]
    if not games:
        raise LogError(f"{match.path}: the log holds no game yet (it stops after line {match.last_line})")
    rules = match.rules
    shown = [game_data(match, logged) for logged in games]
    data = {
        "title": f"{match.path.name}: {match.preset}",
        "preset": match.preset,
        "players": rules.players,
        "teams": rules.teams,
        "games": shown,
        "start": {"hand": start_hand, "seat": start_seat},
        "cutOff": match.cut_off,
    }
    if start_hand is not None and not any(s["hand"] == start_hand for s in shown[0]["steps"]):
        raise LogError(f"game {games[0].number} has no hand {start_hand}")
    return viewer_html(data, analysis)


def viewer_html(data: dict[str, Any], analysis: dict[str, Any] | None = None) -> str:
    """``viewer.html`` holding ``data`` (a title, the preset, players, teams, games, start, cutOff) and,
    when given, the analysis with the chart library."""
    page = resources.files("referee.replay").joinpath("viewer.html").read_text(encoding="utf-8")
    for mark in (_DATA_MARK, _ANALYSIS_MARK, _CHART_MARK):
        if page.count(mark) != 1:
            raise RuntimeError(f"viewer.html must hold the mark {mark} exactly once")
    fills = {
        _DATA_MARK: _script_json(data),
        _ANALYSIS_MARK: _script_json(analysis) if analysis is not None else "null",
        _CHART_MARK: webassets.script_tag() if analysis is not None else "",
    }
    # One pass over the page: no filling is searched for marks again.
    return re.sub("|".join(map(re.escape, fills)), lambda m: fills[m.group(0)], page)
