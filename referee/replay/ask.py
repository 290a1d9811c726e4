"""``--ask COMMAND --at ADDRESS``: serve one logged decision request again to a bot.

The log is replayed through the engine up to the decision at ADDRESS, which
then stands exactly where the seat was asked. The request is rebuilt the way
the referee builds it (``referee.protocol.encoder``, the events the seat had not
been told since its previous request, the snapshot, the legal choices, the
request id and time limit); a bot is started as a child process on a referee
server (``referee.server`` and ``referee.bots``, as ``arena match`` does),
told the game's start, asked, and shut down. Its answer is shown beside the
logged one, and applied to the engine to say whether it is legal.

A bot may keep state between requests (the SDK keeps the events of the hand
and reseeds its rng at each game start), so before the decision the bot is
served the seat's earlier requests of the game, byte for byte as the referee
sent them, and its answers to those are read and dropped (``prime``: the whole
game, the same hand only, or none). The bot also gets the ARENA_SEED it had in
the match. A seeded bot then stands exactly where it stood.

Addresses (game from ``--game``; hands, tricks and decisions count from 1):

- ``H.T.S``: seat S's card in trick T of hand H;
- ``H.bid.S`` or ``H.bid.S.K``: seat S's bid in hand H (its K-th turn, for
  rules with more than one bidding round; default 1);
- ``H.trump``: the declarer naming trump after the auction of hand H
  (``H.trump.S`` also, S being the declarer);
- ``H.give.S``: the cards seat S gives in hand H (a partner of a call or best
  bid, or either side of a lone exchange);
- ``H.discard``: the declarer's discard in hand H (``H.discard.S`` also);
- ``#N``: the N-th decision of the game, counting every kind.

A seat's requests are numbered across the match and carry the events since
its previous request, and what is left of its time bank and of its process's
start-up allowance, so these are worked out from every decision before (the
process taken to be the match's from its start, and a new one in the game
after a crash, as the referee restarts it; a tournament's table keeps its
processes from game to game, which its one-game logs cannot say): a
seat the referee stopped asking (its bot had crashed, under the default-action
policy) is not counted, and a crashed request is assumed never to have been
sent. A refused claim was the answer to a request of its own: the play it was
made at was asked again, with the claim among its events and the time the
claim took gone from its limit; an address names that last request of the
play, the one its card answered.
"""

from __future__ import annotations

import asyncio
import re
from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path

from referee.bots import BotCommand, BotPool, BotStartError
from referee.deadline import StartupUse, TimeControl
from referee.engine.bids import Bid
from referee.engine.cards import Trump, card_str
from referee.engine.events import ClaimEvent, Event
from referee.engine.game import ClaimAnswer, Decision, DecisionKind, Game
from referee.engine.view import Refused
from referee.errors import InputError
from referee.faults import ViolationKind
from referee.gamelog import THINK_FIELD, LogError
from referee.logging import configure
from referee.protocol.encoder import RequestEncoder
from referee.protocol.messages import game_start_to_pb, to_bytes
from referee.replay.logfile import LoggedGame, MatchLog
from referee.replay.steps import Claim, DecisionPoint, GameReplay, Item, Step
from referee.seat import SeatChannel, apply_action, read_answer, repeated_claim
from referee.server import ArenaServer, Closed

ADDRESS_FORMS = "HAND.TRICK.SEAT, HAND.bid.SEAT[.TURN], HAND.trump, HAND.give.SEAT, HAND.discard or #N"

_FORMS = {
    "play": re.compile(r"^(\d+)\.(\d+)\.(\d+)$"),
    "bid": re.compile(r"^(\d+)\.bid\.(\d+)(?:\.(\d+))?$"),
    "trump": re.compile(r"^(\d+)\.trump(?:\.(\d+))?$"),
    "give": re.compile(r"^(\d+)\.give\.(\d+)$"),
    "discard": re.compile(r"^(\d+)\.discard(?:\.(\d+))?$"),
    "index": re.compile(r"^#(\d+)$"),
}
_KINDS = {
    "play": DecisionKind.PLAY,
    "bid": DecisionKind.BID,
    "trump": DecisionKind.TRUMP,
    "give": DecisionKind.GIVE,
    "discard": DecisionKind.DISCARD,
}


class AskError(InputError):
    """The bot could not be asked, or did not answer; the message says why."""


@dataclass(frozen=True, slots=True)
class Address:
    """Which decision of a game: see the module docstring for the forms."""

    text: str
    form: str  # play, bid, trump, give, discard, index
    hand: int = 0
    trick: int = 0
    seat: int | None = None
    turn: int = 1
    number: int = 0

    @classmethod
    def parse(cls, text: str) -> Address:
        t = text.strip()
        for form, pattern in _FORMS.items():
            m = pattern.match(t)
            if m is None:
                continue
            g = [int(x) if x is not None else None for x in m.groups()]
            if form == "index":
                address, counts = cls(t, form, number=g[0] or 0), [g[0]]
            elif form == "play":
                address, counts = cls(t, form, hand=g[0] or 0, trick=g[1] or 0, seat=g[2]), [g[0], g[1]]
            elif form == "bid":
                address, counts = cls(t, form, hand=g[0] or 0, seat=g[1], turn=g[2] or 1), [g[0], g[2]]
            else:
                address, counts = cls(t, form, hand=g[0] or 0, seat=g[1]), [g[0]]
            if 0 in counts:
                raise AskError(f"bad address {text!r}: hands, tricks, turns and decisions count from 1")
            return address
        raise AskError(f"bad address {text!r}: expected {ADDRESS_FORMS}")

    def matches(self, point: DecisionPoint) -> bool:
        if self.form == "index":
            return point.number == self.number
        d = point.decision
        if d.kind is not _KINDS[self.form] or point.hand != self.hand:
            return False
        if self.seat is not None and d.seat != self.seat:
            return False
        if self.form == "play":
            return point.trick == self.trick
        if self.form == "bid":
            return point.turn == self.turn
        return True


def action_text(kind: DecisionKind, action: object) -> str:
    """An engine action in the log's notation (``claim`` for a play decision answered by a claim)."""
    if isinstance(action, Claim | ClaimAnswer):
        return "claim"
    if kind is DecisionKind.BID:
        assert isinstance(action, Bid)
        return action.text()
    if kind is DecisionKind.TRUMP:
        assert isinstance(action, int)
        return Trump(action).text()
    if kind is DecisionKind.PLAY:
        assert isinstance(action, int)
        return card_str(action)
    assert isinstance(action, Iterable)
    return " ".join(card_str(c) for c in action)


def same_action(kind: DecisionKind, a: object, b: object) -> bool:
    """Equal actions; the cards of a give or discard in any order; a claim answered and one logged."""
    if isinstance(a, Claim | ClaimAnswer) or isinstance(b, Claim | ClaimAnswer):
        return isinstance(a, Claim | ClaimAnswer) and isinstance(b, Claim | ClaimAnswer)
    if kind is DecisionKind.GIVE or kind is DecisionKind.DISCARD:
        assert isinstance(a, Iterable) and isinstance(b, Iterable)
        return Counter(a) == Counter(b)
    return a == b


@dataclass(frozen=True, slots=True)
class Sent:
    """One request as the referee sent it (bytes on the wire), and when the referee called time on it (its time
    limit, what was left of the start-up allowance and of the time bank, and the grace)."""

    request_id: int
    hand: int
    data: bytes
    limit_s: float


PRIMING = ("game", "hand", "none")


@dataclass
class Request:
    """The decision request as the referee sent it, and what the log says came of it."""

    replay: GameReplay  # stands at the decision
    point: DecisionPoint
    request_id: int
    events: tuple[Event, ...]  # untold events, as the seat sees them
    game_start: bytes
    data: bytes
    time_limit_ms: int
    time_bank_ms: int  # what was left of the seat's time bank
    was_asked: bool  # False: the referee played for a crashed bot without asking
    earlier: tuple[Sent, ...]  # the seat's earlier requests of the game, to bring a bot's state up to date
    may_claim: bool = False  # the request let the seat claim (a play, no claim of its refused at it)
    startup_allowance_ms: int = 0  # what was left of the start-up allowance of the seat's process

    @property
    def decision(self) -> Decision:
        return self.point.decision


def find_request(match: MatchLog, game_number: int, address: Address, prime: str = "game") -> Request:
    """Replay up to ``address`` and rebuild the request served there.

    ``prime`` chooses which of the seat's earlier requests come with it: those
    of the whole game, of the same hand, or none.
    """
    if prime not in PRIMING:
        raise AskError(f"bad priming {prime!r}: expected one of {', '.join(PRIMING)}")
    logged = match.game(game_number)
    seats = _Seats(match)
    for earlier in match.games[: game_number - 1]:
        seats.walk(earlier)
    request = seats.walk(logged, address, prime)
    if request is None:
        raise AskError(f"game {game_number} has no decision {address.text}")
    return request


class _Seats:
    """What the referee knew of each seat as it went through a log's games: the requests it was sent (their ids
    count across the match) and how far its process was into its start-up allowance (a process from the
    match's start, and a new one after the seat crashed: the referee restarts it for the next game)."""

    def __init__(self, match: MatchLog) -> None:
        self.match = match
        n = match.rules.players
        self.asked = [0] * n
        self.startup = [StartupUse() for _ in range(n)]
        self.move_time_ms = _move_time_ms(match)
        self.clock = TimeControl(
            move_time_ms=self.move_time_ms,
            time_bank_ms=_time_bank_ms(match),
            startup_allowance_ms=_startup_allowance_ms(match),
        )

    def walk(self, logged: LoggedGame, address: Address | None = None, prime: str = "game") -> Request | None:
        """Go through one game: the request at ``address`` (None: through the whole game, and None)."""
        match, asked = self.match, self.asked
        n = match.rules.players
        replay = GameReplay(match, logged)
        gone = [False] * n  # the referee plays for the seat, not asking it (it crashed, under the default policy)
        crashed: set[int] = set()
        sent: list[list[Sent]] = [[] for _ in range(n)]
        # each seat's channel, as in the match: what it was told, its time bank and start-up allowance drawn down
        # by the think time (ms) of answers over the move time; the requests are built again byte for byte, but
        # sent to no bot
        encoder = RequestEncoder()
        refused: list[Refused] = []
        channels = [
            SeatChannel(seat, None, logged.game_id, encoder, self.clock, refused=refused, startup=self.startup[seat])
            for seat in range(n)
        ]
        think = {e.line: e.record.get(THINK_FIELD) for e in logged.entries}
        for item in replay:
            game = replay.game
            claim = _refused_claim(item)
            if claim is not None:  # the claimer's answer to a request of its own; then the play is asked again
                channel = channels[claim.seat]
                decision = game.decision()
                assert decision is not None  # a refused claim leaves the play to be decided
                ms = think.get(item.line)
                if not gone[claim.seat]:
                    asked[claim.seat] += 1
                    sent[claim.seat].append(self._sent(channel, game, decision, asked[claim.seat], game.hand_number))
                    channel.charge(ms if isinstance(ms, int) else 0)
                channel.claim_refused(game, claim, ms if isinstance(ms, int) else 0)
                continue
            if not isinstance(item, DecisionPoint):
                continue
            seat = item.decision.seat
            channel = channels[seat]
            crash = any(v.kind == "crash" for v in item.violations)
            was_asked = not gone[seat] and not crash
            events = tuple(channel.untold(game, tell=False))
            bank, startup = channel.bank_ms, channel.startup_left_ms
            may_claim = channel.may_claim(game, item.decision)
            built = self._sent(channel, game, item.decision, asked[seat] + 1, item.hand, tell=was_asked)
            if address is not None and address.matches(item):
                start = game_start_to_pb(
                    game_id=logged.game_id,
                    preset=match.preset,
                    rules=match.rules,
                    seat=seat,
                    seat_names=logged.seat_names,
                    move_time_ms=self.move_time_ms,
                    first_dealer=logged.first_dealer,
                )
                primed = [r for r in sent[seat] if prime == "game" or (prime == "hand" and r.hand == item.hand)]
                return Request(
                    replay,
                    item,
                    built.request_id,
                    events,
                    to_bytes(start),
                    built.data,
                    channel.limit_ms,
                    bank,
                    was_asked,
                    tuple(primed),
                    may_claim,
                    startup,
                )
            if was_asked:
                asked[seat] += 1
                sent[seat].append(built)
                ms = think.get(item.line)
                if any(v.kind == "timeout" for v in item.violations):
                    channel.time_up()
                else:  # an answer (a faulty one's time is not logged: nothing drawn)
                    channel.charge(ms if isinstance(ms, int) else 0)
            if crash:
                crashed.add(seat)
                if any(v.penalty == "default-action" for v in item.violations):
                    gone[seat] = True
        for seat in crashed:  # restarted before the next game: a new process
            self.startup[seat] = StartupUse()
        if address is not None and replay.cut_off:
            number, cut = logged.number, replay.cut_off
            where = f"the log is cut off: game {number} stops {cut}"
            raise AskError(f"game {number} has no decision {address.text} ({where})")
        return None

    def _sent(
        self, channel: SeatChannel, game: Game, decision: Decision, request_id: int, hand: int, *, tell: bool = True
    ) -> Sent:
        """The request the channel builds, with when time was called on it."""
        limit_s = channel.clock.limit_s(channel.bank_ms, channel.spent_ms, channel.startup_left_ms)
        return Sent(request_id, hand, channel.request(game, decision, request_id, tell=tell), limit_s)


def _refused_claim(item: Item) -> ClaimEvent | None:
    """The refused claim a replay item is, if it is one."""
    if isinstance(item, Step) and isinstance(item.event, ClaimEvent) and not item.event.accepted:
        return item.event
    return None


def _move_time_ms(match: MatchLog) -> int:
    return _start_ms(match, "move_time_ms", TimeControl.move_time_ms, least=1)


def _time_bank_ms(match: MatchLog) -> int:
    return _start_ms(match, "time_bank_ms", 0, least=0)  # absent in logs written before time banks


def _startup_allowance_ms(match: MatchLog) -> int:
    return _start_ms(match, "startup_allowance_ms", 0, least=0)  # absent in logs written before the allowance


def _start_ms(match: MatchLog, key: str, default: int, *, least: int) -> int:
    value = match.start.record.get(key, default)
    if not isinstance(value, int) or isinstance(value, bool) or value < least:
        raise LogError(f"{match.where(match.start.line)}: match_start {key!r} must be a whole number >= {least}")
    return value


def bot_command(spec: str) -> BotCommand:
    """``NAME=COMMAND`` as for ``arena match --bot``, or a plain COMMAND (then named ``asked``).

    It is NAME=COMMAND when the text before the first ``=`` is one word.
    """
    head, sep, _ = spec.partition("=")
    if sep and head.strip() and len(head.split()) == 1:
        return BotCommand.parse(spec)
    return BotCommand.parse(f"asked={spec}")


@dataclass(frozen=True, slots=True)
class Answer:
    """What the bot said: an engine action (``CLAIM`` for a claim), or why there is none; and where what it
    printed went."""

    action: object | None
    problem: str | None  # timeout, disconnect, malformed or illegal: what went wrong
    legal: bool
    claim: ClaimEvent | None = None  # the engine's answer to a claim
    output: Path | None = None  # the bot's stdout and stderr


async def ask_bot(match: MatchLog, request: Request, bot: BotCommand, output_dir: Path) -> Answer:
    """Start ``bot``, serve it the game start and the request, read its answer, shut it down."""
    logged = request.replay.logged
    seat = request.decision.seat
    clock = TimeControl(move_time_ms=request.time_limit_ms)
    bank, startup = request.time_bank_ms, request.startup_allowance_ms  # beyond the time limit, as the request told
    seed = match.start.record.get("seed", 0)
    async with ArenaServer(tcp=False) as server:
        pool = BotPool(
            server,
            output_dir=output_dir,
            output_stem=f"{match.path.stem}.ask",
            seed=seed if isinstance(seed, int) else 0,
        )
        # the player id arena match gives the seat, so the bot gets the same ARENA_SEED
        player = pool.add(f"seat{seat}-{logged.seat_names[seat]}", bot)
        try:
            problems = await pool.ready([player])
            if problems:
                raise BotStartError(f"bot {bot.name!r} {problems[player]}")
            output = pool.output_of(player)
            conn = player.connection
            assert conn is not None
            await conn.send(request.game_start)
            for earlier in request.earlier:  # bring the bot's state up to the decision; answers are not used
                if await conn.ask(earlier.data, earlier.request_id, earlier.limit_s) is Closed.DISCONNECTED:
                    raise BotStartError(
                        f"bot {bot.name!r} left while being brought up to the decision (at request "
                        f"{earlier.request_id}, hand {earlier.hand}; its output: {output})"
                    )
            reply = await conn.ask(request.data, request.request_id, clock.limit_s(bank, startup_ms=startup))
        finally:
            await pool.close("replay: one request asked")
    if reply is Closed.TIMEOUT:
        return Answer(None, f"no answer within {clock.describe(bank, startup_ms=startup)}", False, output=output)
    if reply is Closed.DISCONNECTED:
        return Answer(None, "the bot's connection closed before it answered", False, output=output)
    game, decision = request.replay.game, request.decision
    action, fault = read_answer(reply, decision)
    if fault is None and action is not None:
        if not isinstance(action, ClaimAnswer):
            fault = apply_action(game, action)
        elif not request.may_claim:
            fault = repeated_claim(game)
        else:  # the search runs here: a tool's one request, with nothing else on its event loop
            claim = game.claim(decision.seat)[0]
            assert isinstance(claim, ClaimEvent)
            return Answer(action, None, True, claim, output)
    if fault is None:
        return Answer(action, None, True, output=output)
    if fault.kind is ViolationKind.MALFORMED:
        return Answer(None, f"malformed answer: {fault.detail}", False, output=output)
    return Answer(fault.action, f"illegal: {fault.detail}", False, output=output)


def run_ask(match: MatchLog, request: Request, bot: BotCommand, output_dir: Path) -> Answer:
    """``ask_bot`` on a fresh event loop; the server's and pool's own warnings stay quiet (errors are ours)."""
    configure("error")
    return asyncio.run(ask_bot(match, request, bot, output_dir))
