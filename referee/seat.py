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
   applies it to the game, so that the engine judges it; a claim goes to
   ``Game.claim``, whose search runs off the event loop (below);
4. says what came of it: an ``Outcome``, the action applied or a ``Fault``
   (timeout, crash, malformed, illegal), with the Error the bot is owed and
   the time charged.

What a fault costs (forfeit, default action) is the caller's policy.

Claims (docs/protocol.md, "Claims"). A seat may answer a play with a claim
(``may_claim`` in the request), once per play: the engine's answer to a
claim depends on the position only, and a refused claim leaves the position
as it was, so a second claim at the same play is an illegal answer. The
search (the compiled solver's, ``referee.engine.claim``) takes up to about
two seconds of CPU (``SOLVER_NODE_LIMIT``), and runs without Python's lock:
it runs in one thread of the referee process (``CLAIMS``), one search at a time, so that
the event loop goes on serving the other tables and every deadline, and a
bot cannot take more than one CPU of the referee's by claiming. Nothing else
touches the game meanwhile: its table waits for the answer. The search is
the referee's time, not the bot's: its clock stopped at the answer. A
refused claim is heard by every seat at its place among the game's events
(``refused``, shared by the game's channels: ``Game.events`` does not hold
it), and the claimer is asked the same play again with what is left of the
decision's time (``left_ms``: the move time less the time the claim took).
"""

from __future__ import annotations

import asyncio
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass

from referee.deadline import TimeControl
from referee.engine.errors import IllegalActionError
from referee.engine.events import ClaimEvent, Event, visible_to
from referee.engine.game import CLAIM, Action, Answer, ClaimAnswer, Decision, DecisionKind, Game
from referee.engine.view import Refused, with_refused
from referee.faults import ViolationKind
from referee.protocol.decoded import ActionMsg
from referee.protocol.domain import ErrorCode, ProtocolError, action_from_pb
from referee.protocol.encoder import RequestEncoder
from referee.server import Closed, Player

# Where claim searches run: one thread per referee process, one search at a time (see the module docstring).
CLAIMS = ThreadPoolExecutor(max_workers=1, thread_name_prefix="arena-claim")


@dataclass(frozen=True, slots=True)
class Fault:
    """A request that got no good answer: what went wrong, and the Error the bot is owed (None: no Error
    for a bot that is gone)."""

    kind: ViolationKind
    detail: str
    code: ErrorCode | None
    action: Answer | None = None  # an illegal answer's action, as read


@dataclass(frozen=True, slots=True)
class Outcome:
    """What came of one request: the action applied to the game (``CLAIM`` for a claim), or a fault."""

    request_id: int
    action: Answer | None
    fault: Fault | None
    think_ms: int | None  # the time charged for an answer that came (a bad one too); None: none came
    # the engine's answer to a claim: accepted, its events are the game's last (the hand is over); refused,
    # nothing changed (the caller tells the channel, ``claim_refused``, and asks the same play again)
    claim: ClaimEvent | None = None


class SeatChannel:
    """One seat of one game, and the player (bot) sitting there; with no player, it builds the requests
    only (``arena replay --ask`` rebuilds what the referee sent).

    ``refused``: the game's refused claims at their places (``referee.engine.view.Refused``), one list shared by
    the game's channels, so that every seat hears each of them.
    """

    def __init__(
        self,
        seat: int,
        player: Player | None,
        game_id: str,
        encoder: RequestEncoder,
        clock: TimeControl,
        bank_ms: int | None = None,
        refused: list[Refused] | None = None,
    ) -> None:
        self.seat = seat
        self.player = player
        self.game_id = game_id
        self.encoder = encoder
        self.clock = clock
        self.bank_ms = clock.time_bank_ms if bank_ms is None else bank_ms  # what is left of the seat's time bank
        self.refused: list[Refused] = [] if refused is None else refused
        self.told = 0  # events of the game told to the seat
        self.told_refused = 0  # refused claims told to the seat
        self.claimed: tuple[int, int] | None = None  # (hand, trick) of the seat's last refused claim
        self.spent_ms = 0  # of the play asked next: the time its refused claim took
        self.limit_ms = clock.move_time_ms  # the time limit of the last request built (time_limit_ms)

    def untold(self, game: Game, *, tell: bool = True) -> list[Event]:
        """The events the seat has not been told, as it may see them, refused claims included; with ``tell``,
        told from now on."""
        events, refused = game.events, self.refused
        start, heard = self.told, self.told_refused
        if tell:
            self.told, self.told_refused = len(events), len(refused)
        if start >= len(events) and heard >= len(refused):
            return []
        seat = self.seat
        if heard < len(refused):
            return [visible_to(ev, seat) for ev in with_refused(events, start, refused[heard:])]
        return [visible_to(ev, seat) for ev in events[start:]]

    def retell(self) -> None:
        """The seat is told the game from its start again (a new process in the seat)."""
        self.told = self.told_refused = 0

    def may_claim(self, game: Game, decision: Decision) -> bool:
        """The seat may answer ``decision`` with a claim: a play, and no claim of the seat's was refused at it."""
        return decision.kind is DecisionKind.PLAY and self.claimed != (game.hand_number, game.trick_number)

    def claim_refused(self, game: Game, claim: ClaimEvent, think_ms: int) -> None:
        """The seat's claim, which took it ``think_ms``, was refused: every seat hears it at its place, and the
        seat is asked the same play again with what is left of the decision's time."""
        self.refused.append((len(game.events), claim))
        self.claimed = (claim.hand, claim.trick)
        self.spent_ms = think_ms

    def request(self, game: Game, decision: Decision, request_id: int, *, tell: bool = True) -> bytes:
        """The bytes of the request for ``decision``, carrying the untold events (``tell``: as in ``untold``,
        and the time a refused claim took at this play is then counted)."""
        self.limit_ms = self.clock.left_ms(self.spent_ms)
        if tell:
            self.spent_ms = 0
        return self.encoder.decision(
            game,
            decision,
            request_id=request_id,
            game_id=self.game_id,
            events=self.untold(game, tell=tell),
            time_limit_ms=self.limit_ms,
            time_bank_ms=self.bank_ms,
            may_claim=self.may_claim(game, decision),
        )

    def charge(self, think_ms: int) -> None:
        """An answer to the last request took ``think_ms``: the time over its limit comes out of the bank."""
        self.bank_ms = max(0, self.bank_ms - max(0, think_ms - self.limit_ms))

    async def ask(self, game: Game, decision: Decision) -> Outcome:
        """Ask the seat's bot for ``decision`` and apply its answer to ``game``; what came of it."""
        if self.player is None:
            raise ValueError("a channel with no player asks no one")
        conn = self.player.connection
        if conn is None or conn.closed:
            return Outcome(0, None, Fault(ViolationKind.CRASH, "the bot is not connected", None), None)
        clock, bank, spent = self.clock, self.bank_ms, self.spent_ms
        may_claim = self.may_claim(game, decision)
        request_id = self.player.next_request_id()
        data = self.request(game, decision, request_id)
        free_s = self.limit_ms / 1000 if self.limit_ms else None  # None: no limit
        answer = await conn.ask(data, request_id, clock.limit_s(bank, spent), free_s=free_s)
        if answer is Closed.TIMEOUT:
            self.bank_ms = 0
            return timed_out(request_id, clock, bank, spent)
        if answer is Closed.DISCONNECTED:
            return Outcome(request_id, None, Fault(ViolationKind.CRASH, "the bot's connection closed", None), None)
        think_ms = round(conn.think_s * 1000)
        self.charge(think_ms)
        action, fault = read_answer(answer, decision)
        if fault is not None or action is None:
            return Outcome(request_id, None, fault, think_ms)
        if not isinstance(action, ClaimAnswer):
            fault = apply_action(game, action)
            return Outcome(request_id, None if fault else action, fault, think_ms)
        if not may_claim:
            return Outcome(request_id, None, repeated_claim(game), think_ms)
        loop = asyncio.get_running_loop()
        claim = (await loop.run_in_executor(CLAIMS, game.claim, decision.seat))[0]
        assert isinstance(claim, ClaimEvent)
        return Outcome(request_id, CLAIM, None, think_ms, claim)


def timed_out(request_id: int, clock: TimeControl, bank_ms: int, spent_ms: int = 0) -> Outcome:
    """What came of a request that got no answer within its time (``bank_ms`` left in the seat's bank, ``spent_ms``
    of the decision's time spent on a refused claim)."""
    detail = f"no answer within {clock.describe(bank_ms, spent_ms)}"
    return Outcome(request_id, None, Fault(ViolationKind.TIMEOUT, detail, ErrorCode.TIMEOUT), None)


def repeated_claim(game: Game) -> Fault:
    """The fault of a claim at a play where the seat's claim was refused already."""
    detail = (
        f"a second claim at the same play (hand {game.hand_number}, trick {game.trick_number}): the first was "
        "refused and nothing has changed since, so play a card"
    )
    return Fault(ViolationKind.ILLEGAL, detail, ErrorCode.ILLEGAL, CLAIM)


def read_answer(answer: ActionMsg, decision: Decision) -> tuple[Answer | None, Fault | None]:
    """The action in an answer to ``decision`` (``CLAIM`` for a claim), or the fault of a malformed one."""
    try:
        return action_from_pb(answer.body, decision), None
    except ProtocolError as exc:
        return None, Fault(ViolationKind.MALFORMED, str(exc), ErrorCode.MALFORMED)


def apply_action(game: Game, action: Action) -> Fault | None:
    """Apply ``action`` to ``game``: None, or the fault of an illegal one (the game is left as it was)."""
    try:
        game.apply(action)
    except IllegalActionError as exc:
        return Fault(ViolationKind.ILLEGAL, str(exc), ErrorCode.ILLEGAL, action)
    return None
