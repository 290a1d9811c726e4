"""Running the checks: one bot process, the real referee server and launcher, every position in turn.

``await check_bot(bot, presets=[...])`` starts an ``ArenaServer`` and the bot
through ``BotPool`` (as a match does), then:

- hello: the bot connects and its Hello names it (and its version);
- each position (``referee.checkbot.positions``): a GameStart for the
  bot's seat, a DecisionRequest at every turn of that seat until the hand
  (a one-hand game) is over, a GameOver. Each answer must name the open
  request (request id), use the Action field of the decision's kind
  (answer field), be legal (legal) and come within the move time plus
  grace (in time); a claim, the answer to a play that may be a claim, must
  be one the engine accepts (claim); the first failure ends the position;
- a whole game (``whole_game``): two hands dealt from the start on the first
  preset, the other seats bidding and playing at random, so that the bot
  lives through a hand's end (HandEnd events, then the next Deal) as in a
  match; a bot that fails only in a later hand fails here;
- error message: a position where the bot first gets an Error (not fatal)
  and must carry on;
- restart: a position where the bot's process is killed after its first
  answer; the launcher starts it again and the new process, told the game
  from its start, must finish the hand;
- shutdown: a Shutdown, after which the process must exit by itself, with
  status 0.

Every answer's round trip is timed (the bot's think time, as the referee
sees it).
"""

from __future__ import annotations

import asyncio
import json
import random
import statistics
import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from referee.bots import BotCommand, BotPool
from referee.checkbot.positions import Position, continue_action, positions, whole_game
from referee.deadline import TimeControl
from referee.engine.bids import Bid
from referee.engine.cards import Trump, card_str, cards_str
from referee.engine.events import GameEndEvent
from referee.engine.game import ClaimAnswer, Decision, DecisionKind, Game
from referee.engine.simulate import random_action, shuffled_deck
from referee.faults import ViolationKind
from referee.protocol.domain import PROTOCOL_VERSION, ErrorCode
from referee.protocol.encoder import RequestEncoder
from referee.protocol.messages import error_to_pb, game_over_to_pb, game_start_to_pb, shutdown_to_pb, to_bytes
from referee.sandbox import Sandbox
from referee.seat import SeatChannel
from referee.seeding import derive_seed
from referee.server import ArenaServer, Player

SHUTDOWN_WAIT_S = 5.0
# the checks beside the positions: hello, the whole game, error message, restart, shutdown
OTHER_CHECKS = 5
EXPECTED_FIELD = {
    DecisionKind.BID: "Action.bid",
    DecisionKind.TRUMP: "Action.trump",
    DecisionKind.GIVE: "Action.cards",
    DecisionKind.DISCARD: "Action.cards",
    DecisionKind.PLAY: "Action.card (or Action.claim)",
}
CLAIM_EXPECTED = "a claim only where the team takes every trick left, whatever the others play (else a card)"


@dataclass
class Check:
    """One check: passed, or the rule broken with what was expected and what came."""

    group: str  # a preset, or "protocol"
    name: str
    passed: bool = True
    rule: str = ""  # on failure: hello, request id, answer field, legal, in time, connection, error message ...
    expected: str = ""
    got: str = ""
    decisions: int = 0
    kinds: list[str] = field(default_factory=list)  # decision kinds answered, in order of first answer
    claims: int = 0  # claims the engine accepted (a refused one fails the check)

    def fail(self, rule: str, expected: str, got: str) -> Check:
        self.passed, self.rule, self.expected, self.got = False, rule, expected, got
        return self

    def answered(self, kind: DecisionKind) -> None:
        self.decisions += 1
        if kind.value not in self.kinds:
            self.kinds.append(kind.value)

    def record(self) -> dict[str, Any]:
        return {
            "group": self.group,
            "check": self.name,
            "passed": self.passed,
            "rule": self.rule or None,
            "expected": self.expected or None,
            "got": self.got or None,
            "decisions": self.decisions,
            "kinds": self.kinds,
            "claims": self.claims,
        }


@dataclass
class Report:
    bot: str
    command: str
    presets: list[str]
    move_time_ms: int
    rules: dict[str, str] = field(default_factory=dict)  # rule overrides on top of each preset (--rule)
    checks: list[Check] = field(default_factory=list)
    think_ms: list[float] = field(default_factory=list)  # per answered decision
    bot_name: str = ""  # from the Hello
    bot_version: str = ""
    output: str = ""  # where the bot's stdout and stderr went
    saved: str = ""  # where this report was written (JSON)

    @property
    def passed(self) -> bool:
        return bool(self.checks) and all(c.passed for c in self.checks)

    @property
    def failures(self) -> list[Check]:
        return [c for c in self.checks if not c.passed]

    def kinds(self) -> list[str]:
        seen = {k for c in self.checks for k in c.kinds}
        return [k.value for k in DecisionKind if k.value in seen]

    def think_summary(self) -> dict[str, float]:
        """Median, 99th percentile and maximum of the think times, in ms (empty with no answers)."""
        times = sorted(self.think_ms)
        if not times:
            return {}
        p99 = times[min(len(times) - 1, max(0, round(0.99 * len(times)) - 1))]
        return {"median": statistics.median(times), "p99": p99, "max": times[-1]}

    def record(self) -> dict[str, Any]:
        return {
            "bot": self.bot,
            "command": self.command,
            "hello": {"bot_name": self.bot_name, "bot_version": self.bot_version},
            "presets": self.presets,
            "rule_overrides": self.rules,
            "move_time_ms": self.move_time_ms,
            "passed": self.passed,
            "checks": [c.record() for c in self.checks],
            "failed": len(self.failures),
            "decisions": len(self.think_ms),
            "kinds": self.kinds(),
            "think_ms": {k: round(v, 3) for k, v in self.think_summary().items()},
            "bot_output": self.output,
            "report": self.saved,
        }


async def check_bot(
    bot: BotCommand,
    *,
    presets: list[str],
    rules: Mapping[str, str] | None = None,
    move_time_ms: int | None = None,
    output_dir: Path,
    connect_timeout_s: float = 10.0,
    shutdown_wait_s: float = SHUTDOWN_WAIT_S,
    on_check: Callable[[Check], None] | None = None,
    sandbox: Sandbox | None = None,
) -> Report:
    """Run every check on ``bot`` (on each preset with the rule overrides ``rules``, option -> value text); the
    report says what passed. Every process started is gone on return. ``sandbox``: what the bot runs in
    (None: bare), as in a match; ``output_dir`` is hidden from it. ``move_time_ms``: None, a match's."""
    clock = TimeControl() if move_time_ms is None else TimeControl(move_time_ms=move_time_ms)
    found, missing = positions(presets, rules)
    game = whole_game(presets[0], rules) if presets else None
    report = Report(bot.name, bot.command, presets, clock.move_time_ms, dict(rules or {}))
    server = ArenaServer(tcp=False)
    await server.start()
    stem = f"check-{bot.name}-{time.strftime('%Y%m%d-%H%M%S')}"
    box = None if sandbox is None else sandbox.with_hidden(output_dir)
    pool = BotPool(
        server, output_dir=output_dir, output_stem=stem, seed=1, connect_timeout_s=connect_timeout_s, sandbox=box
    )
    player = pool.add("checked", bot)
    run = _Run(report, pool, player, clock, on_check, shutdown_wait_s)
    try:
        await run.all(found, missing, game)
    finally:
        report.output = str(output_dir / f"{stem}.checked.stderr")
        player.on_violation = None
        try:
            await pool.close("check-bot finished")
        finally:
            await server.stop(0.5)
    output_dir.mkdir(parents=True, exist_ok=True)
    path = output_dir / f"{stem}.json"
    report.saved = str(path)
    path.write_text(json.dumps(report.record(), indent=2) + "\n", encoding="utf-8")
    return report


@dataclass(eq=False)
class _Run:
    report: Report
    pool: BotPool
    player: Player
    clock: TimeControl
    on_check: Callable[[Check], None] | None
    shutdown_wait_s: float
    faults: list[tuple[str, str]] = field(default_factory=list)  # protocol faults seen during the open request
    games: int = 0
    lost: str | None = None  # why the bot could not be started again, once that happened
    silent: bool = False  # after a timeout, no late answer came

    def __post_init__(self) -> None:
        self.player.on_violation = lambda kind, detail: self.faults.append((kind, detail))

    def _add(self, check: Check) -> None:
        self.report.checks.append(check)
        if self.on_check is not None:
            self.on_check(check)

    async def all(self, found: list[Position], missing: list[tuple[str, str]], game: Position | None) -> None:
        if not await self._hello():
            return
        for preset, name in missing:
            self._add(Check(preset, name).fail("position", "a deal giving this situation", "none found"))
        for position in found:
            self._add(await self._position(Check(position.preset, position.name), position))
        if not found:
            return
        if game is not None:
            self._add(await self._position(Check(game.preset, game.name), game, others=random_action))
        probe = _longest(found)
        error = Check("protocol", "error message: carries on after an Error")
        self._add(await self._position(error, probe, error_first=True))
        restart = Check("protocol", "restart: a new process after the bot is killed")
        self._add(await self._position(restart, probe, kill_after=1))
        self._add(await self._shutdown())

    # ----------------------------------------------------------------- hello

    async def _hello(self) -> bool:
        check = Check("protocol", "hello: connects and names itself")
        expected = f"a Hello with a bot name and version, protocol {PROTOCOL_VERSION}"
        absent = await self.pool.ready([self.player])
        if absent:
            self._add(check.fail("hello", expected, f"no connection: {absent[self.player]}"))
            return False
        hello = self.player.hello
        assert hello is not None
        self.report.bot_name, self.report.bot_version = hello.bot_name, hello.bot_version
        got = f"name {hello.bot_name!r}, version {hello.bot_version!r}"
        if not hello.bot_name.strip() or not hello.bot_version.strip():
            check.fail("hello", expected, got)
        else:
            check.got = got
        self._add(check)
        return True

    # ------------------------------------------------------------- positions

    async def _position(
        self,
        check: Check,
        position: Position,
        *,
        error_first: bool = False,
        kill_after: int | None = None,
        others: Callable[[Decision, random.Random], object] = continue_action,
    ) -> Check:
        """Play the position's game to its end: the bot's seat asked at each of its turns, the other seats played
        by ``others``, each hand after the position's own dealt from the position's seed."""
        player, clock = self.player, self.clock
        expected = "the bot connected (started again after it left)"
        if self.lost is not None:
            return check.fail("connection", expected, f"it could not be started again earlier: {self.lost}")
        if not player.connected:
            absent = await self.pool.ready([player])
            if absent:
                self.lost = absent[player]  # no more waiting for it: the other positions fail at once
                return check.fail("connection", expected, self.lost)
        game = position.game.copy()
        seat, rng = position.seat, random.Random(position.seed)
        rules = game.rules
        self.games += 1
        game_id = f"check{self.games:04d}"
        names = tuple(self.report.bot if s == seat else "script" for s in range(rules.players))
        start = to_bytes(
            game_start_to_pb(
                game_id=game_id,
                preset=position.preset,
                rules=rules,
                seat=seat,
                seat_names=names,
                move_time_ms=clock.move_time_ms,
                first_dealer=game.first_dealer,
            )
        )
        await self._send(start)
        if error_first:
            note = "check-bot: a test Error (not a fault of yours); carry on with the game"
            await self._send(to_bytes(error_to_pb(ErrorCode.STALE_REQUEST, note)))
        channel = SeatChannel(seat, player, game_id, RequestEncoder(), clock)
        deals = random.Random(derive_seed(position.seed, "deals"))
        while not game.is_over:
            decision = game.decision()
            if decision is None:  # between two hands: the next deal
                game.deal(shuffled_deck(rules, deals))
                continue
            if decision.seat != seat:
                game.apply(others(decision, rng))
                continue
            if kill_after is not None and check.decisions == kill_after:
                kill_after = None
                if not await self._kill_and_restart(check):
                    return check
                channel.retell()  # the new process hears the game from its start
                await self._send(start)
            failure = await self._ask(check, game, decision, channel)
            if failure is not None:
                await self._end(game_id, game, channel, failure)
                if failure[0] is ErrorCode.TIMEOUT:
                    await self._let_late_answer_pass()
                return check
        await self._end(game_id, game, channel, None)
        return check

    async def _let_late_answer_pass(self) -> None:
        """After a timeout, wait (up to one more limit and a second) for the bot's late answer, so that it is
        not taken for a wrong request id in the next position. A bot that never answered late is not waited
        for again."""
        if self.silent:
            return
        deadline = time.monotonic() + self.clock.limit_s() + 1.0
        while not any(kind == "late" for kind, _ in self.faults):  # the server names a late answer so
            if time.monotonic() >= deadline:
                self.silent = True
                return
            await asyncio.sleep(0.01)

    async def _send(self, data: bytes) -> None:
        """A message to the bot, if it is connected (if not, the next request finds out)."""
        conn = self.player.connection
        if conn is not None:
            await conn.send(data)

    async def _ask(
        self, check: Check, game: Game, decision: Decision, channel: SeatChannel
    ) -> tuple[ErrorCode, str] | None:
        """One request: None when the answer was good and applied, else the Error (code, text) for the bot."""
        clock = self.clock
        kind = decision.kind
        self.faults.clear()
        began = time.perf_counter()
        outcome = await channel.ask(game, decision)
        took_ms = (time.perf_counter() - began) * 1000
        later = f" in hand {game.hand_number}" if game.hand_number > 1 else ""
        where = f"{kind} decision{later} (request {outcome.request_id})"
        fault = outcome.fault
        if fault is None:
            self.report.think_ms.append(took_ms)
            check.answered(kind)
            claim = outcome.claim
            if claim is None:
                return None
            tricks = "the last trick" if claim.tricks == 1 else f"the last {claim.tricks} tricks"
            if claim.accepted:
                check.claims += 1
                check.got = f"claimed {tricks} (from trick {claim.trick}): accepted"
                return None
            why = (
                f"a claim of {tricks} (from trick {claim.trick}), refused: the other side can take a trick against "
                "every line of play of your team"
            )
            check.fail("claim", CLAIM_EXPECTED, why)
            return ErrorCode.ILLEGAL, why
        if fault.kind is ViolationKind.CRASH:
            process = self.pool.process(self.player)
            if process is not None and await process.wait_exit(1.0):
                gone = f"the connection closed: the process exited with status {process.returncode}"
            else:
                gone = "the connection closed (the process is still running)"
            check.fail("connection", f"an answer to the {where}", gone)
            return ErrorCode.MALFORMED, "the connection closed"
        if fault.kind is ViolationKind.TIMEOUT:
            # (a late answer to an earlier request that timed out was let pass after it: see _position)
            # (an answer naming a request whose time ran out is 'late': by now it names the wrong one)
            misplaced = [d for k, d in self.faults if k in ("protocol", "late")]
            garbled = [d for k, d in self.faults if k == "malformed"]
            if misplaced:
                check.fail("request id", f"an Action naming request {outcome.request_id}", misplaced[0])
            elif garbled:
                check.fail("answer field", f"an Action with {EXPECTED_FIELD[kind]} for the {where}", garbled[0])
            else:
                check.fail("in time", f"an answer to the {where} within {clock.describe()}", "no answer in time")
            return ErrorCode.TIMEOUT, f"no valid answer within {clock.describe()}"
        self.report.think_ms.append(took_ms)
        if fault.kind is ViolationKind.MALFORMED:
            check.fail("answer field", f"{EXPECTED_FIELD[kind]} for the {where}", fault.detail)
            return ErrorCode.MALFORMED, fault.detail
        action = _action_text(fault.action)
        check.fail("legal", f"a legal {kind}: {_legal_text(decision)}", f"{action}: {fault.detail}")
        return ErrorCode.ILLEGAL, fault.detail

    async def _end(self, game_id: str, game: Game, channel: SeatChannel, failure: tuple[ErrorCode, str] | None) -> None:
        """The Error for a bad answer (if any), then GameOver: the game's own end (one hand), or a forfeit."""
        seat = channel.seat
        if failure is not None:
            code, text = failure
            if not game.is_over:
                game.forfeit(game.rules.team_of(seat), f"seat {seat} ({self.report.bot}): {text}")
        conn = self.player.connection
        if conn is None or conn.closed:
            return
        if failure is not None:
            await conn.send(to_bytes(error_to_pb(code, f"check-bot: {text}")))
        end = game.events[-1]
        assert isinstance(end, GameEndEvent), "a position's game is played to its end"
        await conn.send(to_bytes(game_over_to_pb(game_id, end, channel.untold(game))))

    async def _kill_and_restart(self, check: Check) -> bool:
        process = self.pool.process(self.player)
        if process is None:
            check.fail("restart", "a bot process to kill", "none is running")
            return False
        process.kill()
        starts = self.pool.starts(self.player)
        absent = await self.pool.ready([self.player])
        if absent or self.pool.starts(self.player) != starts + 1:
            check.fail(
                "restart", "the killed bot started again and connected", absent.get(self.player, "not restarted")
            )
            return False
        return True

    # -------------------------------------------------------------- shutdown

    async def _shutdown(self) -> Check:
        check = Check("protocol", "shutdown: exits by itself with status 0")
        wait = self.shutdown_wait_s
        expected = f"the process exits with status 0 within {wait:g} s of the Shutdown"
        conn, process = self.player.connection, self.pool.process(self.player)
        if conn is None or conn.closed or process is None:
            return check.fail("shutdown", expected, "the bot was not connected to be told")
        await conn.send(to_bytes(shutdown_to_pb("check-bot finished")))
        if not await process.wait_exit(wait):
            process.kill()
            return check.fail("shutdown", expected, f"still running after {wait:g} s (killed)")
        if process.returncode != 0:
            return check.fail("shutdown", expected, f"exited with status {process.returncode}")
        check.got = "exited with status 0"
        return check


def _longest(found: list[Position]) -> Position:
    """A position where the bot has many decisions ahead: playing a trick bid from the first trick."""
    plays = [p for p in found if p.decision.kind is DecisionKind.PLAY and p.game.trick_number == 1]
    return plays[0] if plays else found[0]


def _legal_text(decision: Decision) -> str:
    if decision.kind in (DecisionKind.GIVE, DecisionKind.DISCARD):
        return f"{decision.count} card(s) of the hand {' '.join(cards_str(decision.cards))}"
    options = [_action_text(o) for o in decision.options]
    shown = ", ".join(options[:12]) + (f" ... ({len(options)} in all)" if len(options) > 12 else "")
    return f"one of {shown}"


def _action_text(action: object) -> str:
    if isinstance(action, ClaimAnswer):
        return "claim"
    if isinstance(action, Bid):
        return action.text()
    if isinstance(action, Trump):
        return action.text()
    if isinstance(action, int) and not isinstance(action, bool):
        return card_str(action)
    if isinstance(action, list | tuple):
        return " ".join(cards_str(action))
    return repr(action)
