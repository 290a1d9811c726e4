"""What to analyse in a log: each complete hand's decisions of the chosen seats, as those seats saw them.

``plan_log(match, seats)`` replays every game of a log through the engine
(``referee.replay.steps``, which checks every record) and keeps, per hand:

- for each chosen seat, its view right after the deal (for its luck);
- for each decision of a chosen seat, its view at the decision (the engine's
  ``seat_view``: what that seat knew, nothing more), the action the log says
  it took, and where the decision is: its number in the game (``#N``), its
  log line and its address for ``arena replay --at``. A card decision the seat
  answered with an accepted claim is kept with the claim as its action; claims
  the engine refused are counted on the decision that followed them.

The views are all the analysis gets (``referee.analyze.spread``): a hidden card
reaches it only if the seat could see it.

Only complete hands are kept. A log cut off in the middle of a hand (a crash,
a match still running) is analysed up to its last complete hand, and
``GamePlan.cut_off`` says where it stopped. A hand ended by a forfeit is
complete: it ended there.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path

from referee.engine.events import DealEvent, GameEndEvent, HandEndEvent
from referee.engine.game import DecisionKind
from referee.engine.rules import Rules
from referee.engine.view import SeatView, seat_view
from referee.replay.logfile import LoggedGame, MatchLog
from referee.replay.steps import Claim, DecisionPoint, GameReplay, Step


@dataclass(frozen=True, slots=True)
class DecisionItem:
    """One decision of a chosen seat, with the seat's view as it was asked."""

    number: int  # the game's N-th decision, every kind counted (``--at #N``)
    hand: int
    trick: int  # 0 for decisions outside the play
    seat: int
    line: int  # the log record of the action taken
    address: str  # for ``arena replay LOG --at ADDRESS``
    view: SeatView
    taken: object  # the engine action the log records
    forced: bool  # only one legal choice
    by_referee: bool  # the referee played it for the bot (after a timeout, crash or bad answer)
    refused_claims: int = 0  # claims of the seat the engine refused at this decision, before it played

    @property
    def claimed(self) -> bool:
        """The seat answered with a claim of every remaining trick, and the engine accepted it."""
        return isinstance(self.taken, Claim)

    @property
    def kind(self) -> DecisionKind:
        decision = self.view.decision
        assert decision is not None
        return decision.kind

    @property
    def status(self) -> str:
        """What the analysis does with it: ``rate`` it, or not: a ``claim`` (accepted), ``forced`` (one legal
        choice), ``referee`` (played for the bot after a fault)."""
        if self.claimed:
            return "claim"
        if self.forced:
            return "forced"
        return "referee" if self.by_referee else "rate"


@dataclass(frozen=True, slots=True)
class HandPlan:
    """One complete hand: what the analysis of the chosen seats needs, and nothing more."""

    game_id: str
    hand: int
    dealer: int
    deal_views: tuple[SeatView, ...]  # each chosen seat's view right after the deal
    decisions: tuple[DecisionItem, ...]

    @property
    def rules(self) -> Rules:
        return self.deal_views[0].rules


@dataclass
class GamePlan:
    """One game of a log: its seating, the chosen seats and its complete hands."""

    log: Path
    number: int
    game_id: str
    seat_names: tuple[str, ...]
    seats: tuple[int, ...]  # the seats analysed
    hands: list[HandPlan] = field(default_factory=list)
    cut_off: str | None = None  # where the log stops, when it stops inside this game
    last_hand: int = 0  # the last complete hand


def address_of(point: DecisionPoint) -> str:
    """The decision's address in ``arena replay --at`` form (``3.5.2``, ``3.bid.1``, ``3.bid.1.2``, ``3.trump`` ...)."""
    d = point.decision
    kind, hand, seat = d.kind, point.hand, d.seat
    if kind is DecisionKind.PLAY:
        return f"{hand}.{point.trick}.{seat}"
    if kind is DecisionKind.BID:
        return f"{hand}.bid.{seat}" + (f".{point.turn}" if point.turn > 1 else "")
    if kind is DecisionKind.TRUMP:
        return f"{hand}.trump"
    if kind is DecisionKind.GIVE:
        return f"{hand}.give.{seat}"
    return f"{hand}.discard"


def plan_game(match: MatchLog, logged: LoggedGame, seats: Sequence[int]) -> GamePlan:
    """The plan of one game for ``seats`` (raises ``LogError``/``Mismatch`` where the log disagrees with the engine)."""
    plan = GamePlan(match.path, logged.number, logged.game_id, tuple(logged.seat_names), tuple(seats))
    replay = GameReplay(match, logged)
    game = replay.game
    deal_views: list[SeatView] = []
    decisions: list[DecisionItem] = []
    open_hand = 0
    for item in replay:
        if isinstance(item, DecisionPoint):
            seat = item.decision.seat
            if seat not in seats:
                continue
            options = item.decision.options
            forced = item.decision.kind not in (DecisionKind.GIVE, DecisionKind.DISCARD) and len(options) == 1
            decisions.append(
                DecisionItem(
                    number=item.number,
                    hand=item.hand,
                    trick=item.trick,
                    seat=seat,
                    line=item.line,
                    address=address_of(item),
                    view=seat_view(game, seat),
                    taken=item.action,
                    forced=forced,
                    by_referee=bool(item.violations),
                    refused_claims=item.refused_claims,
                )
            )
        elif isinstance(item, Step):
            event = item.event
            if isinstance(event, DealEvent):
                open_hand = event.hand
                deal_views = [seat_view(game, s) for s in seats]
                decisions = []
            elif isinstance(event, HandEndEvent | GameEndEvent) and open_hand:
                plan.hands.append(HandPlan(logged.game_id, open_hand, game.dealer, tuple(deal_views), tuple(decisions)))
                plan.last_hand = open_hand
                open_hand = 0
    if replay.cut_off is not None:
        plan.cut_off = replay.cut_off
    return plan
