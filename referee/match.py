"""Driving games between connected bots: the match driver, built for reuse.

The unit is one game at one table::

    result = await play_game(players, rules=..., preset=..., game=1, game_id="g0001",
                             seed=..., clock=TimeControl(), policy=FaultPolicy.FORFEIT, log=writer)

``players`` holds one ``Player`` (see ``referee.server``) per seat; the same
player may sit at different seats in different games, and several tables may
run concurrently on one event loop (each ``play_game`` only touches its own
players). ``play_game`` never starts processes: ``BotPool.ready`` (in
``referee.bots``) does that before a game, and a seat whose bot is missing is
handled by the fault policy at its first decision.

Per game: GameStart to every seat, one DecisionRequest per turn carrying the
events that seat has not been told (filtered by ``visible_to``), GameOver to
every seat. The log gets every event, each violation, and the game_end; hidden
cards only once their hand is over (``gamelog.HandSecrets``).

A seat is asked through its ``SeatChannel`` (the wire); ``askers`` puts
something else in its place, such as a chooser in this process (the replay
tests make their logs so: the games and their logs are this driver's).

A claim (``referee.seat``, "Claims"): accepted, the hand is over and its
events are logged and told as any. Refused, it is not one of the game's
events: the driver logs it (a ``claim`` record with the think time of the
answer), every seat hears it from the game's shared list of refused claims,
and the claimer is asked the same play again.

``play_games`` plays the games of a match into one log, from match_start to
match_end. ``Match`` runs ``arena match`` and ``arena serve`` with it: one
server, one pool, a process per seat, N games, one JSONL log.
"""

from __future__ import annotations

import asyncio
import functools
import random
from collections.abc import Awaitable, Callable, Mapping, Sequence
from dataclasses import dataclass, field
from enum import StrEnum
from pathlib import Path
from typing import Any, Self

import structlog

from referee.bots import BotCommand, BotPool, BotStartError
from referee.deadline import TimeControl
from referee.engine.bids import PASS
from referee.engine.events import ClaimEvent, GameEndEvent
from referee.engine.game import Action, Decision, DecisionKind, Game, Phase
from referee.engine.rules import Rules
from referee.engine.simulate import shuffled_deck
from referee.engine.view import Refused
from referee.errors import ConfigError
from referee.faults import NOT_STARTED, Penalty, ViolationKind
from referee.gamelog import (
    THINK_FIELD,
    HandSecrets,
    LogWriter,
    event_record,
    game_start_record,
    match_end_record,
    match_start_record,
    violation_record,
)
from referee.protocol.domain import ErrorCode
from referee.protocol.encoder import RequestEncoder
from referee.protocol.messages import error_to_pb, game_over_to_pb, game_start_to_pb, to_bytes
from referee.runfolder import LOGS, MatchFolder
from referee.sandbox import Sandbox, default_sandbox
from referee.seat import Outcome, SeatChannel
from referee.seeding import derive_seed
from referee.server import ArenaServer, Limits, Player
from referee.thinktime import ThinkTime

log = structlog.get_logger("referee.match")

# Called as each hand is dealt: (game_id, hand number, scores so far per team).
OnHand = Callable[[str, int, tuple[int, ...]], None]
# Called with the game's records as they happen, every card shown (the organiser's view, for the live view:
# never sent to a bot): game_start, each engine event with its think time, each violation in full.
OnRecords = Callable[[list[dict[str, Any]]], None]
# Asks the bot at a seat for a decision and applies its answer to the game: what came of it (``SeatChannel.ask``).
# A claim is put to ``Game.claim`` (``Outcome.claim``); after a refused one the driver asks the same play again.
Asker = Callable[[Game, Decision], Awaitable[Outcome]]


class FaultPolicy(StrEnum):
    """What a timeout, crash, illegal or malformed answer costs."""

    FORFEIT = "forfeit"  # the offending team loses the game at once
    DEFAULT = "default"  # a default legal action is played for the bot


@dataclass(frozen=True)
class Violation:
    game: int
    hand: int
    seat: int
    kind: ViolationKind
    detail: str  # for a bot that never started, after the NOT_STARTED words, as the log writes it
    penalty: Penalty
    not_started: bool = False  # the bot could not be started or connected for the game

    @property
    def reason(self) -> str:
        """The detail without the NOT_STARTED words."""
        return self.detail.removeprefix(NOT_STARTED) if self.not_started else self.detail


@dataclass(frozen=True)
class GameResult:
    game: int
    game_id: str
    seed: int
    bot_names: tuple[str, ...]  # per seat
    scores: tuple[int, ...]  # per team
    winner: int | None  # team, or None
    reason: str
    detail: str
    hands: int
    decisions: int  # requests answered by bots (default actions not counted)
    violations: tuple[Violation, ...]
    think: tuple[ThinkTime, ...] = ()  # per seat

    def record(self) -> dict[str, Any]:
        return {"game": self.game, "winner": self.winner, "scores": list(self.scores), "reason": self.reason}


def default_action(decision: Decision) -> Action:
    """The action played for a bot under the ``default`` policy: pass, else the first legal choice."""
    kind = decision.kind
    if kind is DecisionKind.BID:
        return PASS if PASS in decision.options else decision.options[0]
    if kind is DecisionKind.GIVE or kind is DecisionKind.DISCARD:
        return list(decision.cards[: decision.count])
    return decision.options[0]


async def play_game(
    players: Sequence[Player],
    *,
    rules: Rules,
    preset: str,
    game: int,
    game_id: str,
    seed: int,
    clock: TimeControl | None = None,
    policy: FaultPolicy = FaultPolicy.FORFEIT,
    log: LogWriter | None = None,
    absent: Mapping[Player, str] | None = None,
    seat_clocks: Mapping[int, TimeControl] | None = None,
    on_hand: OnHand | None = None,
    on_records: OnRecords | None = None,
    askers: Sequence[Asker] | None = None,
) -> GameResult:
    """Play one game; ``seed`` decides the first dealer and every shuffle (same seed, same deals).

    ``absent`` names players known not to be connected, with the reason (from
    ``BotPool.ready``); they are treated as crashed at their first decision.
    ``seat_clocks`` gives some seats a time control of their own (``clock``
    for the others). ``on_hand(game_id, hand, scores)`` is called as each hand is dealt.
    ``askers`` (one per seat) ask the seats instead of their channels.
    """
    if len(players) != rules.players:
        raise ValueError(f"{len(players)} players for a {rules.players}-player game")
    busy = [p.player_id for p in players if p.on_violation is not None]
    if busy or len(set(players)) != len(players):
        raise ValueError(f"a player sits in one game at one seat at a time (already seated: {busy or 'twice here'})")
    base = clock or TimeControl()
    clocks = [(seat_clocks or {}).get(seat, base) for seat in range(rules.players)]
    run = _GameRun(players, rules, preset, game, game_id, seed, clocks, policy, log, absent or {})
    run.on_hand = on_hand
    run.on_records = on_records
    if askers is not None:
        if len(askers) != rules.players:
            raise ValueError(f"{len(askers)} askers for a {rules.players}-player game")
        run.askers = list(askers)
    return await run.play()


class _GameRun:
    def __init__(
        self,
        players: Sequence[Player],
        rules: Rules,
        preset: str,
        number: int,
        game_id: str,
        seed: int,
        clocks: Sequence[TimeControl],
        policy: FaultPolicy,
        writer: LogWriter | None,
        absent: Mapping[Player, str],
    ) -> None:
        self.players = list(players)
        self.rules = rules
        self.preset = preset
        self.number = number
        self.game_id = game_id
        self.seed = seed
        self.clocks = clocks  # per seat
        self.policy = policy
        self.writer = writer
        self.absent = absent
        self.rng = random.Random(seed)
        self.game = Game(rules, self.rng.randrange(rules.players))
        n = rules.players
        encoder = RequestEncoder()  # one per game: it keeps the game's events encoded once
        refused: list[Refused] = []  # the game's refused claims, heard by every seat
        self.channels = [
            SeatChannel(seat, player, game_id, encoder, clocks[seat], refused=refused)
            for seat, player in enumerate(self.players)
        ]
        self.askers: list[Asker] = [channel.ask for channel in self.channels]
        self.logged = 0  # events of game.events already logged
        self.think_unlogged: int | None = None  # the think time of the first event not logged yet
        self.secrets = HandSecrets(number)  # hidden cards reach the log when their hand is over
        self.gone = [False] * n  # crashed this game (default policy: play for it)
        self.violations: list[Violation] = []
        self.decisions = 0
        self.think = [ThinkTime()] * n
        self.names = tuple(p.bot_name for p in players)
        self.over = False  # the result is out: what still comes is a late answer to one of its requests
        self.on_hand: OnHand | None = None
        self.on_records: OnRecords | None = None

    # ------------------------------------------------------------------ flow

    async def play(self) -> GameResult:
        g = self.game
        self.loop = asyncio.get_running_loop()
        start = game_start_record(
            game=self.number,
            game_id=self.game_id,
            seed=self.seed,
            first_dealer=g.first_dealer,
            rules=self.rules,
            bot_names=self.names,
        )
        self._write(start)
        if self.on_records is not None:
            self.on_records([start])
        hooks = []
        for seat, player in enumerate(self.players):
            hook = functools.partial(self._reported, seat)
            player.on_violation = hook
            hooks.append(hook)
        try:
            await self._announce()
            rng, rules = self.rng, self.rules
            while not g.is_over:
                if g.phase is Phase.DEAL:
                    g.deal(shuffled_deck(rules, rng))
                    self._log_events()
                    if self.on_hand is not None:
                        self.on_hand(self.game_id, g.hand_number, tuple(g.scores))
                    continue
                decision = g.decision()
                assert decision is not None
                await self._turn(decision)
            await self._game_over()
        finally:
            if self.writer is None or not self.writer.closed:
                self._log_events()
            self.over = True
            for player, hook in zip(self.players, hooks, strict=True):
                if player.on_violation is hook:
                    player.on_violation = None
        end = g.events[-1]
        assert isinstance(end, GameEndEvent)
        return GameResult(
            game=self.number,
            game_id=self.game_id,
            seed=self.seed,
            bot_names=self.names,
            scores=tuple(g.scores),
            winner=g.winner,
            reason=end.reason,
            detail=end.detail,
            hands=g.hand_number,
            decisions=self.decisions,
            violations=tuple(self.violations),
            think=tuple(self.think),
        )

    async def _announce(self) -> None:
        g, rules = self.game, self.rules
        sends = []
        for seat, player in enumerate(self.players):
            conn = player.connection
            if conn is None:
                continue
            msg = game_start_to_pb(
                game_id=self.game_id,
                preset=self.preset,
                rules=rules,
                seat=seat,
                seat_names=self.names,
                move_time_ms=self.clocks[seat].move_time_ms,
                first_dealer=g.first_dealer,
            )
            sends.append(conn.send(to_bytes(msg)))
        await asyncio.gather(*sends)

    async def _turn(self, decision: Decision) -> None:
        seat = decision.seat
        if self.gone[seat]:
            self._apply_default(decision)
            return
        outcome = await self.askers[seat](self.game, decision)
        while outcome.claim is not None and not outcome.claim.accepted:
            self._claim_refused(seat, outcome.claim, outcome.think_ms)
            outcome = await self.askers[seat](self.game, decision)  # the same play, with the time left
        fault = outcome.fault
        if outcome.think_ms is not None:
            self.decisions += 1
            self.think[seat] = self.think[seat].add(outcome.think_ms)
        if fault is None:
            # logged once the next request is on its way (the loop's next turn: the first await of the next
            # ask, or of anything else), so that writing the log overlaps the next bot's thinking; whatever
            # logs first (a violation, a deal, the game's end) logs these events first, think time included
            self.think_unlogged = outcome.think_ms
            self.loop.call_soon(self._log_events)
            return
        why = self.absent.get(self.players[seat]) if outcome.request_id == 0 else None
        if why:  # it could not be started or connected: no game to play for it
            await self._fault(decision, ViolationKind.CRASH, f"{NOT_STARTED}{why}", None, 0, forfeit=True)
            return
        await self._fault(decision, fault.kind, fault.detail, fault.code, outcome.request_id)

    def _claim_refused(self, seat: int, claim: ClaimEvent, think_ms: int | None) -> None:
        """A refused claim (not one of the game's events): every seat hears it, the claimer's next request is for
        the time left; logged after what came before it."""
        self.channels[seat].claim_refused(self.game, claim, think_ms or 0)
        if think_ms is not None:
            self.decisions += 1
            self.think[seat] = self.think[seat].add(think_ms)
        self._log_events()
        log.debug("claim refused", game=self.game_id, seat=seat, hand=claim.hand, trick=claim.trick)
        (record,) = self.secrets.records([claim])
        if think_ms is not None:
            record[THINK_FIELD] = think_ms
        self._write(record)
        if self.on_records is not None:
            self.on_records([dict(record)])

    async def _game_over(self) -> None:
        g = self.game
        end = g.events[-1]
        assert isinstance(end, GameEndEvent)
        sends = []
        for channel in self.channels:
            events = channel.untold(g)
            assert channel.player is not None  # a match seats a player at every channel
            conn = channel.player.connection
            if conn is None:
                continue
            msg = game_over_to_pb(self.game_id, end, events)
            sends.append(conn.send(to_bytes(msg)))
        await asyncio.gather(*sends)

    # ---------------------------------------------------------------- faults

    async def _fault(
        self,
        decision: Decision,
        kind: ViolationKind,
        detail: str,
        code: ErrorCode | None,
        rid: int,
        *,
        forfeit: bool = False,
    ) -> None:
        """A timeout, crash, illegal or malformed answer by the seat to act: apply the policy (``forfeit``:
        the team forfeits whatever the policy)."""
        seat = decision.seat
        player = self.players[seat]
        forfeit = forfeit or self.policy is FaultPolicy.FORFEIT
        self._violation(seat, kind, detail, Penalty.FORFEIT if forfeit else Penalty.DEFAULT_ACTION)
        if code is not None and player.connection is not None:
            consequence = "your team forfeits the game" if forfeit else "a default action was played for you"
            msg = error_to_pb(code, f"{detail}: {consequence}", rid)
            await player.connection.send(to_bytes(msg))
        if forfeit:
            team = self.rules.team_of(seat)
            self.game.forfeit(team, f"seat {seat} ({player.bot_name}) {kind}: {detail}")
            self._log_events()
            return
        if kind is ViolationKind.CRASH:
            self.gone[seat] = True
        self._apply_default(decision)

    def _apply_default(self, decision: Decision) -> None:
        self.game.apply(default_action(decision))
        self._log_events()

    def _reported(self, seat: int, kind: ViolationKind, detail: str) -> None:
        """A protocol fault the server saw from a seated bot (out of turn, stale answer ...).

        After the game it can only be a late answer to one of the game's
        requests (the server charges it to the game it answers): it goes in
        this game's log while that is open (a match's log, which the next
        game shares), never into another game.
        """
        if not self.over:
            self._violation(seat, kind, detail, Penalty.NONE)
            return
        log.info(
            "violation after its game", game=self.game_id, seat=seat, bot=self.names[seat], kind=kind, detail=detail
        )
        if self.writer is not None and not self.writer.closed:
            hand = self.game.hand_number
            record = violation_record(
                game=self.number, hand=hand, seat=seat, kind=kind, detail=detail, penalty=Penalty.NONE
            )
            self._write(record)

    def _violation(self, seat: int, kind: ViolationKind, detail: str, penalty: Penalty) -> None:
        hand = self.game.hand_number
        not_started = kind is ViolationKind.CRASH and detail.startswith(NOT_STARTED)
        self.violations.append(Violation(self.number, hand, seat, kind, detail, penalty, not_started))
        self._log_events()  # what happened before it comes first
        shown = self.secrets.violation_detail(kind, detail)  # no hidden card in anything written mid-hand
        log.info("violation", game=self.game_id, seat=seat, bot=self.names[seat], kind=kind, detail=shown)
        self._write(violation_record(game=self.number, hand=hand, seat=seat, kind=kind, detail=shown, penalty=penalty))
        if self.on_records is not None:
            self.on_records(
                [violation_record(game=self.number, hand=hand, seat=seat, kind=kind, detail=detail, penalty=penalty)]
            )

    # ------------------------------------------------------------------- log

    def _write(self, record: dict[str, Any]) -> None:
        if self.writer is not None:
            self.writer.write(record)

    def _log_events(self) -> None:
        """Log the events not logged yet; ``think_unlogged`` goes on the first (the record of a bot's answer)."""
        events = self.game.events
        think_ms, self.think_unlogged = self.think_unlogged, None
        if self.logged < len(events):
            records = self.secrets.records(events[self.logged :])
            if think_ms is not None:
                records[0][THINK_FIELD] = think_ms
            if self.writer is not None:
                self.writer.write_many(records)
            if self.on_records is not None:
                shown = [event_record(event, self.number) for event in events[self.logged :]]
                if think_ms is not None:
                    shown[0][THINK_FIELD] = think_ms
                self.on_records(shown)
            self.logged = len(events)


# ---------------------------------------------------------------- matches


@dataclass(frozen=True)
class SeatBot:
    """Who plays a seat: a command to launch, or (command None) a bot started by hand.

    ``clock``: the seat's own time control (None: the match's).
    """

    name: str
    command: BotCommand | None = None
    clock: TimeControl | None = None


@dataclass(frozen=True)
class MatchConfig:
    preset: str
    rules: Rules
    seats: tuple[SeatBot, ...]  # one per seat
    games: int = 1
    seed: int = 1
    clock: TimeControl = field(default_factory=TimeControl)
    policy: FaultPolicy = FaultPolicy.FORFEIT
    log_dir: Path = LOGS
    host: str = "127.0.0.1"
    port: int = 0
    connect_timeout_s: float = 10.0
    limits: Limits = field(default_factory=Limits)
    sandbox: Sandbox | None = field(default_factory=default_sandbox)  # None: bots run bare (referee/sandbox.py)

    def __post_init__(self) -> None:
        if len(self.seats) != self.rules.players:
            raise ConfigError(f"{len(self.seats)} seats given for a {self.rules.players}-player game")
        if self.games < 1:
            raise ConfigError(f"games must be at least 1, got {self.games}")


def seat_bots(rules: Rules, team_bots: Sequence[SeatBot]) -> tuple[SeatBot, ...]:
    """Bots fill the teams in order (team t gets the t-th); a single bot plays every team."""
    if len(team_bots) == 1:
        team_bots = list(team_bots) * rules.teams
    if len(team_bots) != rules.teams:
        raise ConfigError(
            f"{len(team_bots)} bots for {rules.teams} teams: give one bot per team (or one bot for all teams)"
        )
    return tuple(team_bots[rules.team_of(seat)] for seat in range(rules.players))


@dataclass
class MatchResult:
    log_path: Path
    config: MatchConfig
    games: list[GameResult]
    seat_names: list[str]

    def team_names(self) -> list[str]:
        """The bot of each team (seat t is on team t)."""
        return self.seat_names[: self.config.rules.teams]

    def wins(self) -> list[int]:
        wins = [0] * self.config.rules.teams
        for r in self.games:
            if r.winner is not None:
                wins[r.winner] += 1
        return wins

    def draws(self) -> int:
        return sum(1 for r in self.games if r.winner is None)

    def points_per_hand(self) -> list[float]:
        """Each team's final scores summed over the games, per hand dealt: the standings' measure
        (``referee.games.standings``), so a match and a tournament read alike."""
        hands = sum(r.hands for r in self.games)
        totals = [0] * self.config.rules.teams
        for r in self.games:
            for t, s in enumerate(r.scores):
                totals[t] += s
        return [t / hands if hands else 0.0 for t in totals]


class Match:
    """One match: ``async with Match(config) as m: result = await m.play()``.

    Entering makes the match's folder in ``config.log_dir``
    (``referee.runfolder.MatchFolder``: its log and its bots' output), starts
    the server and registers a player (token) per seat; ``players``,
    ``server.address`` and ``log_path`` are then known (``arena serve`` prints
    them); the log itself is written from the first game on. Leaving shuts the
    bots down and stops the server, also on errors and cancellation; a match
    that never got to its first game leaves no folder behind, or only the
    output of the bot that could not start (``failed_output``), which says why.
    """

    def __init__(self, config: MatchConfig) -> None:
        self.config = config
        # TCP for seats played by bots started by hand (arena serve, arena play's client); launched bots
        # get a socket of their own
        by_hand = any(seat.command is None for seat in config.seats)
        self.server = ArenaServer(config.host, config.port, config.limits, tcp=by_hand)
        self.players: list[Player] = []
        self.failed_output: Path | None = None  # the output of the bot that stopped the match before it began
        self._folder: MatchFolder | None = None
        self._pool: BotPool | None = None
        self._writer: LogWriter | None = None

    @property
    def folder(self) -> MatchFolder:
        assert self._folder is not None, "the match's folder is made on entering it"
        return self._folder

    @property
    def log_path(self) -> Path:
        """Where the match's log is written (it exists once the first game starts)."""
        return self.folder.log

    @property
    def pool(self) -> BotPool:
        assert self._pool is not None, "the match's bots are added on entering it"
        return self._pool

    async def __aenter__(self) -> Self:
        config = self.config
        self._folder = MatchFolder.create(config.log_dir)
        try:
            self._pool = BotPool(
                self.server,
                output_dir=self.folder.path,
                output_stem="",
                seed=config.seed,
                connect_timeout_s=config.connect_timeout_s,
                sandbox=None if config.sandbox is None else config.sandbox.with_hidden(config.log_dir),
            )
            await self.server.start()
        except BaseException:
            self.folder.discard()
            raise
        for seat, bot in enumerate(config.seats):
            # the slot of a bot started by hand is "seat<S>" (the bot names itself in its Hello); of a launched
            # one, "seat<S>-<NAME>"
            player_id = f"seat{seat}" if bot.command is None else f"seat{seat}-{bot.name}"
            self.players.append(self.pool.add(player_id, bot.command, bot.name))
        return self

    async def __aexit__(self, *exc: object) -> None:
        try:
            await self.pool.close("match finished" if exc[0] is None else "match interrupted")
        finally:
            await self.server.stop(0.5)
            if self._writer is not None:
                self._writer.close()
            else:  # not one game began: nothing to keep but what says why
                self.folder.discard(frozenset({self.failed_output} if self.failed_output is not None else ()))

    async def play(
        self,
        on_game: Callable[[GameResult], None] | None = None,
        on_hand: OnHand | None = None,
        *,
        start_required: bool = False,
        on_start: Callable[[Path], None] | None = None,
    ) -> MatchResult:
        """Play the games. With ``start_required``, a bot that cannot be started and connected before the
        first game raises BotStartError (a setup error); otherwise its team forfeits the game. ``on_start``
        is given the log's path once the log exists, before the first game."""
        cfg = self.config
        # first every bot connects (a bot started by hand is named by its Hello)
        absent = await self.pool.ready(self.players)
        if absent and start_required:
            player, why = next(iter(absent.items()))
            seat = self.players.index(player)
            self.failed_output = self.pool.output_of(player)
            raise BotStartError(f"bot {player.bot_name!r} (seat {seat}) {why}")
        names = [p.bot_name for p in self.players]
        self._writer = writer = LogWriter(self.log_path)
        if on_start is not None:
            on_start(self.log_path)
        results = await play_games(
            self.players,
            cfg,
            writer,
            absent=absent,
            ready=functools.partial(self.pool.ready, self.players),
            on_game=on_game,
            on_hand=on_hand,
        )
        writer.close()  # the last line: a late answer from now on goes to the referee's own log only
        return MatchResult(self.log_path, cfg, results, names)


async def play_games(
    players: Sequence[Player],
    config: MatchConfig,
    writer: LogWriter,
    *,
    absent: Mapping[Player, str] | None = None,
    ready: Callable[[], Awaitable[Mapping[Player, str]]] | None = None,
    askers: Sequence[Asker] | None = None,
    on_game: Callable[[GameResult], None] | None = None,
    on_hand: OnHand | None = None,
) -> list[GameResult]:
    """Play the games of a match between ``players`` (one per seat) and log them to ``writer``, from its
    match_start to its match_end (written last: the writer takes no record after it).

    ``absent`` names the players not connected for the first game (``play_game``); before each later game
    ``ready()`` says it again, having restarted what crashed. ``askers``: as ``play_game``'s.
    """
    writer.write(
        match_start_record(
            preset=config.preset,
            rules=config.rules,
            bot_names=[p.bot_name for p in players],
            seed=config.seed,
            games=config.games,
            move_time_ms=config.clock.move_time_ms,
            time_bank_ms=config.clock.time_bank_ms,
            on_fault=config.policy.value,
        )
    )
    results: list[GameResult] = []
    for number in range(1, config.games + 1):
        if number > 1 and ready is not None:  # restart what crashed in the last game
            absent = await ready()
        result = await play_game(
            players,
            rules=config.rules,
            preset=config.preset,
            game=number,
            game_id=f"g{number:04d}",
            seed=derive_seed(config.seed, "game", number),
            clock=config.clock,
            policy=config.policy,
            log=writer,
            absent=absent,
            seat_clocks={s: b.clock for s, b in enumerate(config.seats) if b.clock is not None},
            on_hand=on_hand,
            askers=askers,
        )
        results.append(result)
        log.info("game over", game=number, winner=result.winner, scores=list(result.scores), reason=result.reason)
        if on_game is not None:
            on_game(result)
    writer.write_last(match_end_record(games=len(results), results=[r.record() for r in results]))
    return results
