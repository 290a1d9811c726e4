"""One seat's line to its bot during a game: what the seat has not been told, and each request and its answer.

Every part of the arena that asks a bot something goes through
``SeatChannel``: the match driver (``referee.match``), ``arena check-bot``
(``referee.checkbot.session``) and ``arena replay --ask``
(``referee.replay.ask``). Per request it:

1. takes the events of the game the seat has not been told, as the seat
   may see them (``visible_to``), and builds the request's bytes
   (``referee.protocol.encoder.RequestEncoder``: one encoder per game,
   shared by its seats);
2. asks the bot on its stream (``referee.server.Connection.ask``: the
   deadline and the time given back are there);
3. reads the answer (``referee.protocol.domain.action_from_pb``) and
   applies it to the game, so that the engine judges it;
4. says what came of it: an ``Outcome``, the action applied or a ``Fault``
   (timeout, crash, malformed, illegal), with the Error the bot is owed and
   the time charged.

What a fault costs (forfeit, default action) is the caller's policy.
"""

from __future__ import annotations

from dataclasses import dataclass

from referee.deadline import TimeControl
from referee.engine.errors import IllegalActionError
from referee.engine.events import Event, visible_to
from referee.engine.game import Action, Decision, Game
from referee.faults import ViolationKind
from referee.protocol.decoded import ActionMsg
from referee.protocol.domain import ErrorCode, ProtocolError, action_from_pb
from referee.protocol.encoder import RequestEncoder
from referee.server import Closed, Player


@dataclass(frozen=True, slots=True)
class Fault:
    """A request that got no good answer: what went wrong, and the Error the bot is owed (None: no Error
    for a bot that is gone)."""

    kind: ViolationKind
    detail: str
    code: ErrorCode | None
    action: Action | None = None  # an illegal answer's action, as read


@dataclass(frozen=True, slots=True)
class Outcome:
    """What came of one request: the action applied to the game, or a fault."""

    request_id: int
    action: Action | None
    fault: Fault | None
    think_ms: int | None  # the time charged for an answer that came (a bad one too); None: none came


class SeatChannel:
    """One seat of one game, and the player (bot) sitting there; with no player, it builds the requests
    only (``arena replay --ask`` rebuilds what the referee sent)."""

    def __init__(
        self,
        seat: int,
        player: Player | None,
        game_id: str,
        encoder: RequestEncoder,
        clock: TimeControl,
        bank_ms: int | None = None,
    ) -> None:
        self.seat = seat
        self.player = player
        self.game_id = game_id
        self.encoder = encoder
        self.clock = clock
        self.bank_ms = clock.time_bank_ms if bank_ms is None else bank_ms  # what is left of the seat's time bank
        self.told = 0  # events of the game told to the seat

    def untold(self, game: Game, *, tell: bool = True) -> list[Event]:
        """The events the seat has not been told, as it may see them; with ``tell``, told from now on."""
        events = game.events
        start = self.told
        if tell:
            self.told = len(events)
        if start >= len(events):
            return []
        seat = self.seat
        return [visible_to(ev, seat) for ev in events[start:]]

    def request(self, game: Game, decision: Decision, request_id: int, *, tell: bool = True) -> bytes:
        """The bytes of the request for ``decision``, carrying the untold events (``tell``: as in ``untold``)."""
        return self.encoder.decision(
            game,
            decision,
            request_id=request_id,
            game_id=self.game_id,
            events=self.untold(game, tell=tell),
            time_limit_ms=self.clock.move_time_ms,
            time_bank_ms=self.bank_ms,
        )

    async def ask(self, game: Game, decision: Decision) -> Outcome:
        """Ask the seat's bot for ``decision`` and apply its answer to ``game``; what came of it."""
        if self.player is None:
            raise ValueError("a channel with no player asks no one")
        conn = self.player.connection
        if conn is None or conn.closed:
            return Outcome(0, None, Fault(ViolationKind.CRASH, "the bot is not connected", None), None)
        clock, bank = self.clock, self.bank_ms
        request_id = self.player.next_request_id()
        data = self.request(game, decision, request_id)
        free_s = clock.move_time_ms / 1000 if clock.move_time_ms else None  # None: no limit
        answer = await conn.ask(data, request_id, clock.limit_s(bank), free_s=free_s)
        if answer is Closed.TIMEOUT:
            self.bank_ms = 0
            return timed_out(request_id, clock, bank)
        if answer is Closed.DISCONNECTED:
            return Outcome(request_id, None, Fault(ViolationKind.CRASH, "the bot's connection closed", None), None)
        think_ms = round(conn.think_s * 1000)
        self.bank_ms = max(0, bank - max(0, think_ms - clock.move_time_ms))
        action, fault = settle(answer, game, decision)
        return Outcome(request_id, action, fault, think_ms)


def timed_out(request_id: int, clock: TimeControl, bank_ms: int) -> Outcome:
    """What came of a request that got no answer within its time (``bank_ms`` left in the seat's bank)."""
    detail = f"no answer within {clock.describe(bank_ms)}"
    return Outcome(request_id, None, Fault(ViolationKind.TIMEOUT, detail, ErrorCode.TIMEOUT), None)


def settle(answer: ActionMsg, game: Game, decision: Decision) -> tuple[Action | None, Fault | None]:
    """Read an answer to ``decision`` and apply it to ``game``: the action applied, or the fault."""
    try:
        action = action_from_pb(answer.body, decision)
    except ProtocolError as exc:
        return None, Fault(ViolationKind.MALFORMED, str(exc), ErrorCode.MALFORMED)
    try:
        game.apply(action)
    except IllegalActionError as exc:
        return None, Fault(ViolationKind.ILLEGAL, str(exc), ErrorCode.ILLEGAL, action)
    return action, None
