"""The browser table's client: an SDK bot whose decisions are clicked on a page, and the page's server.

``arena play --browser`` starts this module as a process of its own (``python -m referee.browserseat``), with
ARENA_ADDRESS and ARENA_TOKEN like any bot, as it starts the terminal client. Two things run in it:

- the seat's SDK session (``sdk.runner.play_session``), in a thread with its own event loop: ``BrowserSeat``
  hands each view to the page and waits for the person's answer. It sees exactly what a bot at that seat sees;
  the page is fed only from what it is given;
- the page's server (aiohttp, ``referee.webserve``: 127.0.0.1 only, every address under a random key), in the
  main event loop. The page gets the table as it changes through Server-Sent Events and answers with small
  JSON requests, each checked here (the page's tab, the decision it answers, a legal choice) before anything
  goes to the referee. The learning features' answers (``referee.browserseat.advice``) are worked out in a thread,
  off the event loop.

Addresses (all under ``/KEY/``): ``/`` the page; ``events?tab=T`` the table as it changes; ``act``,
``hint``, ``estimate``, ``compare`` (the person's choice against the AI's), ``chance`` (POST, JSON);
``replay/N`` a finished game's replay page; ``analysis/N`` (POST) the person's decisions in game N analysed,
worst first, and ``analysis/N.html`` the replay page with that analysis; ``practice`` (POST) a finished hand
dealt again for the person, ``practice/end`` back to the match; ``leave`` (POST) the person leaves the table.

Every game's record stays in what the page is sent until the match is over: its hands' results (the score
pad), its last hand, its verdict and its replay, so that game N's end is still there when game N+1 has begun.
After each hand, when the other seats are the arena's levels (``--others``), the strongest level plays the same
deal in the person's seat (``referee.browserseat.deal``), in a thread of its own, and the hand's record gets
what it did and scored.

The newest tab takes the table over: a second tab on the same address gets the table, the first is told so
and its requests are refused. A page that goes away (no tab open for ``GONE_S``) ends the session as the
terminal client's Ctrl-D does: the process ends with status 1, and ``arena play`` stops the match. After
the match the page stays up (for the replays and the analysis) until the person closes it or leaves.
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import contextlib
import json
import threading
from collections.abc import Callable
from importlib import resources
from pathlib import Path
from typing import Any

from aiohttp import web

from referee.analyze.driver import SeatChoice, analyse, plan_logs
from referee.analyze.evaluate import Budget
from referee.analyze.html import page_analysis
from referee.analyze.spread import run_here
from referee.browserseat import advice
from referee.browserseat.deal import DealTable, Others, duplicate_hand, practice_table
from referee.browserseat.state import (
    Refused,
    action_from,
    choice_text,
    decision_json,
    game_end_json,
    goal_text,
    typed_bid,
    view_json,
)
from referee.engine.events import GameEndEvent
from referee.engine.game import CLAIM, DecisionKind
from referee.engine.view import SeatView
from referee.gamelog import LogError
from referee.play.human import PERSON_NAME
from referee.play.settings import Features, HintMode
from referee.replay.html import viewer_page
from referee.replay.logfile import load_log
from referee.webserve import HEADERS, KEEPALIVE, new_key, sse_event, start_site
from sdk.bot import Bot

GONE_S = 5.0  # no tab open this long (a reload takes less): the person has left
_PING_S = 1.0  # a stream writes this often, so that a closed tab is noticed at once
_ANALYSIS_BUDGET = Budget(samples=24, screen=8, luck_samples=24)
_WORST = 8
# Why the table closed, when the person closed it: the match was over, or the person chose to leave.
LEFT = "you left the table"
PAGE_CLOSED = "the page was closed: you left the table"


class TableClosed(Exception):
    """The person left the table (the page was closed): the seat answers no more."""


class BrowserSeat(Bot):
    """The person's seat: each hook hands the view over to the page's server; ``decide`` waits for a click.

    Runs in the SDK session's thread; ``table`` lives in the main event loop.
    """

    name = PERSON_NAME
    version = "1"

    def __init__(self, table: TableServer) -> None:
        super().__init__()
        self.table = table

    def game_start(self, view: SeatView) -> None:
        self.table.from_session(self.table.game_started, view, self.seat_names)

    def hand_end(self, view: SeatView) -> None:
        self.table.from_session(self.table.hand_ended, view)

    def game_over(self, view: SeatView, winner: int | None, reason: str) -> None:
        self.table.from_session(self.table.game_ended, view, winner, reason)

    def decide(self, view: SeatView) -> object:
        answer: concurrent.futures.Future[object] = concurrent.futures.Future()
        self.table.from_session(self.table.decision_asked, view, answer)
        return answer.result()  # TableClosed when the person leaves


class _Pending:
    """A decision the page may answer: its number, the view that asks it, the answer the seat's session waits
    for (none for a deal played again), and the advice worked out for it (the weighing, once, a bid's chances)."""

    def __init__(
        self, number: int | str, view: SeatView, answer: concurrent.futures.Future[object] | None = None
    ) -> None:
        self.number = number
        self.view = view
        self.answer = answer
        self.advice: dict[str, asyncio.Future[Any]] = {}


class _Practice:
    """A finished hand dealt again for the person (``DealTable``, the person's seat without a bot)."""

    def __init__(self, game: int, hand: int, table: DealTable, seat: int) -> None:
        self.game = game
        self.hand = hand
        self.table = table
        self.seat = seat
        self.pending: _Pending | None = None
        self.decisions = 0
        self.busy = False  # the bots are deciding (in the advice thread)


class TableServer:
    """The page's server and the table's state as the seat sees it (every method runs in the main loop)."""

    def __init__(
        self,
        features: Features,
        budget: advice.AdviceBudget,
        *,
        port: int = 0,
        log_path: Path | None = None,
        others: Others | None = None,
        say: Callable[[str], None] = print,
    ) -> None:
        self.features = features
        self.budget = budget
        self.port = port
        self.log_path = log_path
        self.others = others if log_path is not None else None  # duplicate and practice need the log
        self.say = say
        self.key = new_key()
        self.url = ""
        self.loop: asyncio.AbstractEventLoop | None = None
        self.names: tuple[str, ...] = ()
        self.games = 0  # games started
        self.finished = 0  # games over
        self.view: SeatView | None = None
        self.seat = 0
        self.pending: _Pending | None = None
        self.practice: _Practice | None = None
        self.decisions = 0
        self.records: list[dict[str, Any]] = []  # per game: its score pad, last hand, verdict, replay
        self.match_over = False  # the referee ended the session (Shutdown)
        self.left: str | None = None  # why the table closed (the person left)
        self.owner: str | None = None  # the tab the table belongs to
        self.version = 0
        self.changed = asyncio.Event()
        self.done = asyncio.Event()
        self.streams: dict[asyncio.Task[Any], str] = {}  # stream task -> its tab
        self.seen_page = False
        self._gone: asyncio.TimerHandle | None = None
        # the answers the person waits for (advice, the practice's bots), and the ones that may take their time
        self._worker = concurrent.futures.ThreadPoolExecutor(max_workers=1, thread_name_prefix="table-advice")
        self._background = concurrent.futures.ThreadPoolExecutor(max_workers=1, thread_name_prefix="table-later")
        self._analyses: dict[int, asyncio.Future[dict[str, Any]]] = {}
        self._analysis_pages: dict[int, str] = {}
        self._site: Any = None

    # ------------------------------------------------------------ from the session's thread

    def from_session(self, method: Callable[..., None], *args: Any) -> None:
        """Run ``method(*args)`` in the main loop (called from the SDK session's thread)."""
        assert self.loop is not None
        self.loop.call_soon_threadsafe(method, *args)

    def game_started(self, view: SeatView, names: tuple[str, ...]) -> None:
        self.games += 1
        self.seat = view.seat
        self.names = tuple("you" if s == view.seat else n for s, n in enumerate(names))
        self.view = view
        self.records.append({"game": self.games, "pad": [], "lastHand": None, "over": None, "replay": None})
        self._notify()

    def hand_ended(self, view: SeatView) -> None:
        self.view = view
        record = self.records[-1]
        shown = view_json(view, self.names)
        record["lastHand"] = shown
        row = {"hand": view.hand_number, "dealer": view.dealer, "contract": shown["contract"], **shown["result"]}
        record["pad"].append(row)
        if self.others is not None and self.log_path is not None:
            row["duplicate"] = None  # worked out below
            self._duplicate(row, self.games, view.hand_number)
        self._notify()

    def game_ended(self, view: SeatView, winner: int | None, reason: str) -> None:
        end = next((ev for ev in view.events if isinstance(ev, GameEndEvent)), None)
        if end is None:
            end = GameEndEvent(view.scores, winner, reason)
        self.view = view
        self.finished = self.games
        record = self.records[-1]
        record["over"] = game_end_json(end)
        record["replay"] = f"replay/{self.games}" if self.log_path is not None else None
        self._notify()

    def decision_asked(self, view: SeatView, answer: concurrent.futures.Future[object]) -> None:
        if self.left is not None:
            answer.set_exception(TableClosed(self.left))
            return
        self.decisions += 1
        self.view = view
        self.pending = _Pending(self.decisions, view, answer)
        self._pending_ready(self.pending)

    def _pending_ready(self, pending: _Pending) -> None:
        if self.features.hints in (HintMode.ALWAYS, HintMode.DIFFERS):
            self._weighing(pending).add_done_callback(lambda _: self._notify())
        self._notify()

    def session_ended(self, problem: str | None) -> None:
        """The SDK session is over: the match ended (``problem`` None) or it broke."""
        self.match_over = True
        if problem is None:
            self.say("the match is over: the page stays up (replays, analysis) until you close it or press Ctrl-C")
        if problem is not None and self.left is None:
            self.left = problem
            self.done.set()
        self._notify()

    # ------------------------------------------------------------ the state the page is sent

    def _notify(self) -> None:
        self.version += 1
        self.changed.set()
        self.changed = asyncio.Event()

    def waiting(self) -> _Pending | None:
        """The decision the page answers now: the practice's while the person practises, else the match's."""
        if self.practice is not None:
            return self.practice.pending
        return self.pending

    def snapshot(self) -> dict[str, Any]:
        view = self.view
        pending = self.pending
        out: dict[str, Any] = {
            "version": self.version,
            "features": {**self.features.record(), "duplicate": self.others is not None},
            "game": self.games,
            "view": None if view is None else view_json(view, self.names),
            "goal": None if view is None else goal_text(view.rules),
            "decision": None,
            "games": self.records,
            "duplicate": self._duplicate_total(),
            "practice": None,
            "matchOver": self.match_over,
            "advice": {},
        }
        if self.practice is not None:
            out["practice"] = self._practice_json(self.practice)
        elif pending is not None and view is pending.view and pending.view.decision is not None:
            out["decision"] = decision_json(pending.view, pending.view.decision, pending.number)
        shown = self.waiting()
        if shown is not None and self.features.hints is HintMode.ALWAYS:
            weighing = shown.advice.get("weigh")
            if weighing is not None and weighing.done() and not weighing.exception():
                found = weighing.result()
                if found is not None:
                    table = advice.weighing_json(found)
                    out["advice"] = {"hint": {"choice": table["choice"], "reason": table["reason"]}}
        return out

    def _duplicate_total(self) -> dict[str, Any] | None:
        """The person's duplicate score so far: their team's points less the strongest level's, over the hands
        the level has played."""
        if self.others is None or self.view is None:
            return None
        team = self.view.team
        rows = [r for rec in self.records for r in rec["pad"] if isinstance(r.get("duplicate"), dict)]
        rows = [r for r in rows if "points" in r["duplicate"]]
        total = sum(r["points"][team] - r["duplicate"]["points"][team] for r in rows)
        return {"hands": len(rows), "total": total}

    def _practice_json(self, practice: _Practice) -> dict[str, Any]:
        table = practice.table
        view = table.view(practice.seat)
        out: dict[str, Any] = {
            "game": practice.game,
            "hand": practice.hand,
            "view": view_json(view, self.names),
            "decision": None,
            "result": table.summary(practice.seat) if table.over else None,
        }
        pending = practice.pending
        if pending is not None and pending.view.decision is not None:
            out["decision"] = decision_json(pending.view, pending.view.decision, pending.number)
        return out

    # ------------------------------------------------------------ serving

    async def __aenter__(self) -> TableServer:
        self.loop = asyncio.get_running_loop()
        app = web.Application(client_max_size=64 * 1024)
        base = f"/{self.key}"
        app.router.add_get(f"{base}/", self._page)
        app.router.add_get(f"{base}/events", self._events)
        for name, handler in (
            ("act", self._act),
            ("hint", self._hint),
            ("estimate", self._estimate),
            ("compare", self._compare),
            ("chance", self._chance),
            ("practice", self._practice_start),
            ("practice/end", self._practice_end),
            ("leave", self._leave),
        ):
            app.router.add_post(f"{base}/{name}", handler)
        app.router.add_get(base + "/replay/{game:\\d+}", self._replay)
        app.router.add_post(base + "/analysis/{game:\\d+}", self._analysis)
        app.router.add_get(base + "/analysis/{game:\\d+}.html", self._analysis_page)
        self._site = await start_site(app, self.port, self.key, "--browser")
        self.url = self._site.url
        return self

    async def __aexit__(self, *exc: object) -> None:
        self.left = self.left or "the table closed"
        self._fail_pending()
        self._notify()
        for task in list(self.streams):
            task.cancel()
        await asyncio.gather(*self.streams, return_exceptions=True)
        if self._site is not None:
            await self._site.stop()
        for pool in (self._worker, self._background):
            pool.shutdown(wait=False, cancel_futures=True)

    def leave(self, why: str) -> None:
        """The person left: the seat answers no more, the process ends."""
        if self.left is None:
            self.left = why
        self._fail_pending()
        self.done.set()
        self._notify()

    def _fail_pending(self) -> None:
        pending, self.pending = self.pending, None
        if pending is not None and pending.answer is not None and not pending.answer.done():
            pending.answer.set_exception(TableClosed(self.left or "the table closed"))

    # ------------------------------------------------------------ handlers

    async def _page(self, request: web.Request) -> web.Response:
        page = resources.files("referee.browserseat").joinpath("page.html").read_text(encoding="utf-8")
        return web.Response(text=page, content_type="text/html", headers=HEADERS)

    def _tab_of(self, request: web.Request, body: dict[str, Any] | None = None) -> str:
        tab = (body or {}).get("tab") if body is not None else request.query.get("tab")
        if not isinstance(tab, str) or not 8 <= len(tab) <= 64:
            raise _refusal(400, "the request names no tab")
        return tab

    async def _body(self, request: web.Request) -> dict[str, Any]:
        """The request's JSON object, from the tab that holds the table; refused (with why) otherwise."""
        try:
            body = await request.json()
        except (ValueError, UnicodeDecodeError):
            raise _refusal(400, "the request is not JSON") from None
        if not isinstance(body, dict):
            raise _refusal(400, "the request must be a JSON object")
        if self._tab_of(request, body) != self.owner:
            raise _refusal(
                409,
                "this table is open in another tab now: play there, or reload this page to take it back",
            )
        return body

    def _pending_for(self, body: dict[str, Any]) -> _Pending:
        pending = self.waiting()
        number = body.get("decision")
        if pending is None:
            raise _refusal(409, "no decision is waiting for you now")
        if number != pending.number:
            raise _refusal(
                409,
                f"that answer is for decision {number}, which is over; decision {pending.number} is waiting",
            )
        return pending

    def _action(self, pending: _Pending, answer: Any) -> object:
        """The engine action ``answer`` names for ``pending``'s decision; refused (422) when it is not legal."""
        decision = pending.view.decision
        assert decision is not None
        if isinstance(answer, dict) and answer.get("claim") is True:
            return self._claim(pending)
        try:
            return action_from(pending.view, decision, answer)
        except Refused as exc:
            raise _refusal(422, str(exc)) from None

    async def _act(self, request: web.Request) -> web.Response:
        body = await self._body(request)
        pending = self._pending_for(body)
        action = self._action(pending, body.get("action"))
        if pending.answer is None:
            assert self.practice is not None
            self._practice_answer(self.practice, action)
        else:
            self.pending = None
            pending.answer.set_result(action)
        self._notify()
        return _json({"ok": True})

    def _claim(self, pending: _Pending) -> object:
        """``CLAIM``, the SDK's answer that claims every remaining trick, when the person may claim now."""
        if not self.features.claim:
            raise _refusal(422, "claims are off at this table")
        if not pending.view.may_claim:
            raise _refusal(422, "you may claim only at your turn to play a card, once a play")
        return CLAIM

    def _work(self, pending: _Pending, what: str, job: Callable[[], Any]) -> asyncio.Future[Any]:
        """``job`` for ``pending``'s decision, worked out once in the advice thread and kept as ``what``."""
        future = pending.advice.get(what)
        if future is None:
            assert self.loop is not None
            future = asyncio.wrap_future(self._worker.submit(job), loop=self.loop)
            pending.advice[what] = future
        return future

    def _weighing(self, pending: _Pending) -> asyncio.Future[Any]:
        """The one weighing of ``pending``'s decision, from which its hint and its estimates both come."""
        view, budget = pending.view, self.budget
        return self._work(pending, "weigh", lambda: advice.weigh(view, budget))

    async def _answer(self, future: asyncio.Future[Any], pending: _Pending, shape: Callable[[Any], Any]) -> Any:
        """``shape`` of what ``future`` gives; a refusal with the reason when it cannot be had."""
        try:
            return shape(await asyncio.shield(future))
        except (ValueError, Refused) as exc:
            raise _refusal(422, str(exc)) from None
        except Exception as exc:  # a fault of the advice must reach the page as a message, never a bare 500
            self.say(f"the table's advice failed at decision {pending.number}: {type(exc).__name__}: {exc}")
            raise _refusal(500, f"the advice failed: {type(exc).__name__}: {exc}") from None

    def _refuse_unless(self, on: bool, what: str) -> None:
        if not on:
            raise _refusal(422, f"{what} are off at this table")

    async def _hint(self, request: web.Request) -> web.Response:
        body = await self._body(request)
        pending = self._pending_for(body)
        self._refuse_unless(self.features.hints is not HintMode.OFF, "hints")

        def hint(weighing: advice.Weighing | None) -> dict[str, Any]:
            table = advice.weighing_json(weighing)
            return {"choice": table["choice"], "reason": table["reason"], "worlds": table["worlds"]}

        found = await self._answer(self._weighing(pending), pending, hint)
        return _json({"decision": pending.number, **found})

    async def _estimate(self, request: web.Request) -> web.Response:
        body = await self._body(request)
        pending = self._pending_for(body)
        self._refuse_unless(self.features.estimates, "estimates")
        found = await self._answer(self._weighing(pending), pending, advice.weighing_json)
        return _json({"decision": pending.number, **found})

    async def _compare(self, request: web.Request) -> web.Response:
        """The person's choice against the AI's (``--hints differs``): both restated, and the cost."""
        body = await self._body(request)
        pending = self._pending_for(body)
        self._refuse_unless(self.features.hints is not HintMode.OFF, "hints")
        action = self._action(pending, body.get("action"))
        if action is CLAIM:
            raise _refusal(422, "a claim is not weighed: it ends the hand as the rules decide")
        found = await self._answer(self._weighing(pending), pending, lambda w: advice.versus_json(w, action))
        return _json({"decision": pending.number, **found})

    async def _chance(self, request: web.Request) -> web.Response:
        body = await self._body(request)
        pending = self._pending_for(body)
        self._refuse_unless(self.features.bid_analysis, "bid analyses")
        decision = pending.view.decision
        if decision is None or decision.kind is not DecisionKind.BID:
            raise _refusal(422, "a bid can be analysed only when it is your turn to bid")
        text = body.get("bid")
        if not isinstance(text, str) or not text.strip():
            raise _refusal(422, "type a bid, like '4 S' or '4s'")
        try:
            bid = typed_bid(text, decision)
        except Refused as exc:
            raise _refusal(422, str(exc)) from None
        view, budget = pending.view, self.budget
        future = self._work(pending, f"chance:{bid.text()}", lambda: advice.chance_json(view, bid, budget))
        found = await self._answer(future, pending, lambda x: x)
        return _json({"decision": pending.number, "text": choice_text(bid), **found})

    async def _leave(self, request: web.Request) -> web.Response:
        await self._body(request)
        self.leave(LEFT)
        return _json({"ok": True})

    # ------------------------------------------------------------ duplicate, and a deal played again

    def _duplicate(self, row: dict[str, Any], game: int, hand: int) -> None:
        """The strongest level's play of this hand's deal in the person's seat, into ``row`` when done."""
        assert self.log_path is not None and self.others is not None and self.loop is not None
        log, seat, others = self.log_path, self.seat, self.others
        future = asyncio.wrap_future(
            self._background.submit(lambda: duplicate_hand(log, game, hand, seat, others)), loop=self.loop
        )

        def done(f: asyncio.Future[dict[str, Any]]) -> None:
            if f.cancelled():
                return
            problem = f.exception()
            row["duplicate"] = {"error": f"{type(problem).__name__}: {problem}"} if problem else f.result()
            self._notify()

        future.add_done_callback(done)

    async def _practice_start(self, request: web.Request) -> web.Response:
        body = await self._body(request)
        if self.others is None or self.log_path is None:
            raise _refusal(422, "a deal can be played again only against the arena's levels (--level)")
        game, hand = body.get("game"), body.get("hand")
        record = next((r for r in self.records if r["game"] == game), None)
        if record is None or not any(row["hand"] == hand for row in record["pad"]):
            raise _refusal(422, f"game {game!r} hand {hand!r} is not over: only a finished hand is dealt again")
        if self.practice is not None and not self.practice.table.over:
            raise _refusal(409, "finish the deal you are playing again first, or go back to the match")
        log, seat, others = self.log_path, self.seat, self.others
        assert isinstance(game, int) and isinstance(hand, int) and self.loop is not None

        def deal_again() -> DealTable:
            table = practice_table(log, game, hand, seat, others)
            table.run_bots()
            return table

        try:
            table = await asyncio.wrap_future(self._worker.submit(deal_again), loop=self.loop)
        except (OSError, LogError) as exc:
            raise _refusal(500, f"game {game} hand {hand} cannot be dealt again: {exc}") from None
        self.practice = _Practice(game, hand, table, seat)
        self._practice_next(self.practice)
        return _json({"ok": True})

    def _practice_next(self, practice: _Practice) -> None:
        """The practice's next decision for the person (none once the hand is over)."""
        practice.pending = None
        if practice.table.waiting == practice.seat:
            practice.decisions += 1
            view = practice.table.view(practice.seat)
            practice.pending = _Pending(f"p{practice.decisions}", view)
            self._pending_ready(practice.pending)
        self._notify()

    def _practice_answer(self, practice: _Practice, action: object) -> None:
        """The person's answer in the practice: applied, then the bots decide (in the advice thread)."""
        practice.pending = None
        practice.busy = True
        assert self.loop is not None

        def step() -> None:
            practice.table.answer(action)
            practice.table.run_bots()

        future = asyncio.wrap_future(self._worker.submit(step), loop=self.loop)

        def done(f: asyncio.Future[None]) -> None:
            practice.busy = False
            if self.practice is practice and not f.cancelled():
                if f.exception() is not None:
                    self.say(f"the deal played again failed: {f.exception()}")
                    self.practice = None
                    self._notify()
                    return
                self._practice_next(practice)

        future.add_done_callback(done)

    async def _practice_end(self, request: web.Request) -> web.Response:
        await self._body(request)
        self.practice = None
        self._notify()
        return _json({"ok": True})

    # ------------------------------------------------------------ after a game

    def _finished_game(self, request: web.Request) -> int:
        game = int(request.match_info["game"])
        if not 1 <= game <= self.finished or self.log_path is None:
            raise _refusal(404, f"game {game} is not over yet")
        return game

    async def _replay(self, request: web.Request) -> web.Response:
        game = self._finished_game(request)
        assert self.log_path is not None
        path = self.log_path
        try:
            page = await asyncio.to_thread(lambda: viewer_page(load_log(path), game))
        except (OSError, LogError) as exc:
            raise _refusal(500, f"game {game}: {exc}") from None
        return web.Response(text=page, content_type="text/html", headers=HEADERS)

    async def _analysis(self, request: web.Request) -> web.Response:
        await self._body(request)
        game = self._finished_game(request)
        future = self._analyses.get(game)
        if future is None:
            assert self.log_path is not None and self.view is not None and self.loop is not None
            job = _Analysis(self.log_path, game, self.view.seat)
            future = asyncio.wrap_future(self._background.submit(job.run), loop=self.loop)
            self._analyses[game] = future
        try:
            result = await asyncio.shield(future)
        except (OSError, LogError, ValueError) as exc:
            raise _refusal(500, f"game {game} cannot be analysed: {exc}") from None
        self._analysis_pages[game] = result.pop("page", self._analysis_pages.get(game, ""))
        return _json({**result, "page": f"analysis/{game}.html"})

    async def _analysis_page(self, request: web.Request) -> web.Response:
        game = int(request.match_info["game"])
        page = self._analysis_pages.get(game)
        if not page:
            raise _refusal(404, f"game {game} has not been analysed yet: ask for its analysis first")
        return web.Response(text=page, content_type="text/html", headers=HEADERS)

    # ------------------------------------------------------------ the page's stream

    async def _events(self, request: web.Request) -> web.StreamResponse:
        tab = self._tab_of(request)
        response = web.StreamResponse(headers={**HEADERS, "Content-Type": "text/event-stream"})
        await response.prepare(request)
        task = asyncio.current_task()
        assert task is not None
        self.owner = tab  # the newest tab takes the table over
        self.seen_page = True
        if self._gone is not None:
            self._gone.cancel()
            self._gone = None
        self.streams[task] = tab
        self._notify()  # the other tabs learn they are no longer the table's
        sent = -1
        try:
            while True:
                changed = self.changed
                if self.owner != tab:
                    await response.write(sse_event("taken", "{}"))
                    break
                if self.version != sent:
                    sent = self.version
                    state = self.snapshot()
                    state["tab"] = tab
                    await response.write(sse_event("state", json.dumps(state, separators=(",", ":"))))
                if self.left is not None:
                    await response.write(sse_event("closed", json.dumps({"why": self.left})))
                    break
                try:
                    await asyncio.wait_for(changed.wait(), _PING_S)
                except TimeoutError:
                    await response.write(KEEPALIVE)
        except (ConnectionError, asyncio.CancelledError):
            pass
        finally:
            del self.streams[task]
            if not self.streams and self.left is None:
                self._gone = asyncio.get_running_loop().call_later(GONE_S, self._page_gone)
        return response

    def _page_gone(self) -> None:
        self._gone = None
        if not self.streams:
            self.leave(PAGE_CLOSED)


class _Analysis:
    """The person's decisions of one finished game, analysed as ``arena analyze --seat`` does (in a thread):
    the worst first, and the replay page with the analysis."""

    def __init__(self, log_path: Path, game: int, seat: int) -> None:
        self.log_path = log_path
        self.game = game
        self.seat = seat

    def run(self) -> dict[str, Any]:
        match = load_log(self.log_path)
        planned = plan_logs([match], {(str(match.path), self.game): (self.seat,)}, self.game)
        analysis = analyse(
            planned,
            source=str(self.log_path),
            budget=_ANALYSIS_BUDGET,
            seed=0,
            choice=SeatChoice(seat=self.seat),
            runner=run_here,
        )
        game = analysis.games[0]
        stats = analysis.seat_stats(game, _WORST)[self.seat]
        worst = [
            {
                "hand": d.hand,
                "trick": d.trick,
                "kind": d.kind,
                "taken": d.taken,
                "best": d.best,
                "loss": round(d.loss or 0.0, 2),
                "grade": d.grade,
            }
            for d in stats.worst
        ]
        analysed = sum(1 for d in game.decisions if d.analysed)
        page = viewer_page(match, self.game, start_seat=self.seat, analysis=page_analysis(analysis, {self.game: game}))
        return {"game": self.game, "decisions": analysed, "worst": worst, "page": page}


def _json(data: dict[str, Any], status: int = 200) -> web.Response:
    return web.json_response(data, status=status, headers=HEADERS)


def _refusal(status: int, message: str) -> web.HTTPException:
    """A refused request: the page shows ``message``; nothing reached the referee."""
    kinds: dict[int, type[web.HTTPException]] = {
        400: web.HTTPBadRequest,
        404: web.HTTPNotFound,
        409: web.HTTPConflict,
        422: web.HTTPUnprocessableEntity,
        500: web.HTTPInternalServerError,
    }
    return kinds[status](text=json.dumps({"error": message}), content_type="application/json", headers=HEADERS)


# ------------------------------------------------------------ the process


async def serve_table(
    address: str,
    token: str,
    features: Features,
    budget: advice.AdviceBudget,
    *,
    port: int = 0,
    log_path: Path | None = None,
    others: Others | None = None,
    say: Callable[[str], None] = print,
) -> str | None:
    """Serve the table and play the seat until the person leaves; why they left when it was before the
    match's end (None: the match ended and the page was closed, or the person left after it)."""
    from sdk.runner import SessionError, play_session

    async with TableServer(features, budget, port=port, log_path=log_path, others=others, say=say) as table:
        say(f"the table: {table.url}")
        loop = asyncio.get_running_loop()
        bot = BrowserSeat(table)

        def session() -> None:
            problem: str | None = None
            try:
                asyncio.run(play_session(bot, address, token))
            except TableClosed:
                problem = table.left
            except SessionError as exc:
                problem = str(exc)
            except Exception as exc:  # the session's thread must always say it is over
                problem = f"the seat's session failed: {type(exc).__name__}: {exc}"
            with contextlib.suppress(RuntimeError):  # the loop is closed: the table is gone already
                loop.call_soon_threadsafe(table.session_ended, problem)

        thread = threading.Thread(target=session, name="table-session", daemon=True)
        thread.start()
        await table.done.wait()
        ended_well = table.match_over and table.left in (PAGE_CLOSED, LEFT)
        why = None if ended_well else table.left
    await asyncio.to_thread(thread.join, 10.0)
    return why
