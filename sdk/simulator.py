"""Play bots against each other in one process, through the engine, with no referee.

For bot authors (a quick check that a bot completes games under every preset
without an illegal action) and for measuring strength::

    from sdk.simulator import simulate
    from example_bots.rules_bot import RulesBot
    from example_bots.random_bot import RandomBot

    result = simulate([RulesBot, RandomBot], "neuralplay", deals=100, seed=1, duplicate=True)
    print(result.summary())

Each *entrant* is one team's bot: a zero-argument callable (a ``Bot`` subclass,
or ``lambda: MyBot(depth=2)``) called once per seat of the team, so partners
are separate instances as they are separate processes under the referee.
Entrant ``i`` sits at the seats of team ``i`` (seat ``s`` is on team
``s % teams``). A bot sees exactly what the referee would send it: the
engine's ``seat_view`` of its seat, with ``bot.time_limit_ms`` set before
each decision and ``bot.rng`` reseeded for each game.

Claims go as under the referee: a ``CLAIM`` from ``play`` is put to
``Game.claim``; accepted, the hand ends; refused, every seat's view shows it
from then on and the claimer is asked the same play again. A second claim at
that play is a ``BotActionError``, as an illegal card is.

Duplicate deals: each deal sequence is played once per seating, the entrants
rotated across the teams (two seatings with two teams: the teams swapped), so
every entrant holds every hand once and the luck of the deal cancels out of
the comparison. Hand ``k`` of a deal sequence gets the same deck in every
seating; a game that lasts longer draws further decks from the same sequence.
"""

from __future__ import annotations

import math
import os
import random
import sys
import time
from collections.abc import Callable, Sequence
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path

from referee.engine.cards import NUM_CODES, cards_str
from referee.engine.errors import EngineError
from referee.engine.events import ClaimEvent, GameEndEvent, HandEndEvent
from referee.engine.game import ClaimAnswer, Decision, DecisionKind, Game
from referee.engine.presets import DEFAULT_PRESET, rules_for
from referee.engine.rules import Rules
from referee.engine.simulate import shuffled_deck
from referee.engine.view import Refused, game_over_view, hand_end_view, seat_view
from sdk.bot import Bot

BotFactory = Callable[[], Bot]


class BotActionError(Exception):
    """A bot answered a decision with an action the engine refused (or raised while deciding)."""


@dataclass(frozen=True)
class GameRecord:
    """The result of one game."""

    deal: int  # index of the deal sequence; the seatings of one deal share it
    seating: int  # 0 .. seatings-1: entrant (team + seating) % teams plays for team
    lineup: tuple[int, ...]  # entrant playing for each team
    seat_names: tuple[str, ...]  # bot name at each seat
    scores: tuple[int, ...]  # final score of each team
    winner: int | None  # winning team, or None (a draw, or every team lost)
    reason: str  # why the game ended: target, hands, mercy, hand-limit
    hands: int  # hands dealt, thrown-in hands included

    def team_of(self, entrant: int) -> int:
        return self.lineup.index(entrant)

    def outcome(self, entrant: int) -> str:
        """``win``, ``draw`` or ``loss`` for ``entrant``; a game with no winner is a draw."""
        if self.winner is None:
            return "draw"
        return "win" if self.lineup[self.winner] == entrant else "loss"

    def points_per_hand(self, entrant: int) -> float:
        return self.scores[self.team_of(entrant)] / self.hands


@dataclass
class EntrantTotals:
    """What one entrant did over a simulation."""

    name: str
    games: int = 0
    wins: int = 0
    draws: int = 0
    losses: int = 0
    points: int = 0
    hands: int = 0
    decisions: int = 0
    slowest_ms: float = 0.0  # the longest single decision
    late: int = 0  # decisions that took longer than the time limit

    @property
    def win_rate(self) -> float:
        """Wins plus half the draws, per game."""
        return (self.wins + 0.5 * self.draws) / self.games if self.games else 0.0

    @property
    def points_per_hand(self) -> float:
        return self.points / self.hands if self.hands else 0.0

    def add(self, other: EntrantTotals) -> None:
        for f in ("games", "wins", "draws", "losses", "points", "hands", "decisions", "late"):
            setattr(self, f, getattr(self, f) + getattr(other, f))
        self.slowest_ms = max(self.slowest_ms, other.slowest_ms)


@dataclass(frozen=True)
class Margin:
    """The mean per-deal difference in points per hand between two entrants, with a 95% interval."""

    mean: float
    half_width: float  # 1.96 standard errors; nan with fewer than two deals
    deals: int

    def __str__(self) -> str:
        return f"{self.mean:+.3f} ± {self.half_width:.3f} points/hand ({self.deals} deals)"


@dataclass
class SimulationResult:
    """What ``simulate`` played: every game (``games``), each entrant's totals (``totals``), the ``margin``
    between two entrants with its interval, and a ``summary`` to print."""

    rules: Rules
    names: tuple[str, ...]  # entrant names, in entrant order
    games: list[GameRecord] = field(default_factory=list)
    totals: list[EntrantTotals] = field(default_factory=list)

    def margin(self, a: int = 0, b: int = 1) -> Margin:
        """Points per hand of entrant ``a`` minus entrant ``b``, averaged over each deal's seatings."""
        per_deal: dict[int, list[float]] = {}
        for g in self.games:
            per_deal.setdefault(g.deal, []).append(g.points_per_hand(a) - g.points_per_hand(b))
        values = [sum(v) / len(v) for v in per_deal.values()]
        return _mean_interval(values)

    def summary(self) -> str:
        lines = [f"{len(self.games)} games"]
        for t in self.totals:
            lines.append(
                f"  {t.name}: {t.wins} won, {t.draws} drawn, {t.losses} lost "
                f"(win rate {t.win_rate:.1%}); {t.points_per_hand:+.3f} points/hand; "
                f"{t.decisions} decisions, slowest {t.slowest_ms:.1f} ms, {t.late} late"
            )
        if len(self.names) >= 2:
            lines.append(f"  margin {self.names[0]} - {self.names[1]}: {self.margin(0, 1)}")
        return "\n".join(lines)


def _mean_interval(values: Sequence[float]) -> Margin:
    n = len(values)
    if n == 0:
        return Margin(math.nan, math.nan, 0)
    mean = sum(values) / n
    if n < 2:
        return Margin(mean, math.nan, n)
    variance = sum((v - mean) ** 2 for v in values) / (n - 1)
    return Margin(mean, 1.96 * math.sqrt(variance / n), n)


def simulate(
    entrants: Sequence[BotFactory],
    rules: Rules | str = DEFAULT_PRESET,
    deals: int = 1,
    seed: int = 0,
    duplicate: bool = False,
    time_limit_ms: int = 1000,
    workers: int = 1,
    on_game: Callable[[GameRecord], None] | None = None,
) -> SimulationResult:
    """Play ``deals`` deal sequences (each once per seating when ``duplicate``) between ``entrants``.

    ``rules`` is a ``Rules`` value or a preset name. ``workers`` > 1 spreads
    the deals over processes (then the entrant factories must be picklable:
    classes or ``functools.partial``, not lambdas). ``on_game`` is called
    after each game (in the parent process, in deal order).
    """
    rules = rules_for(rules) if isinstance(rules, str) else rules
    if len(entrants) != rules.teams:
        raise ValueError(f"these rules have {rules.teams} teams: give one entrant per team, got {len(entrants)}")
    seatings = rules.teams if duplicate else 1
    chunks = _chunks(range(deals), workers)
    if workers > 1 and len(chunks) > 1:
        with ProcessPoolExecutor(max_workers=workers) as pool:
            futures = [
                pool.submit(_play_deals, entrants, rules, chunk, seatings, seed, time_limit_ms) for chunk in chunks
            ]
            parts = [f.result() for f in futures]
    else:
        parts = [_play_deals(entrants, rules, chunk, seatings, seed, time_limit_ms, on_game) for chunk in chunks]
        on_game = None  # already called as each game finished
    result = SimulationResult(rules, parts[0][2] if parts else entrant_names([e() for e in entrants]))
    result.totals = [EntrantTotals(name) for name in result.names]
    for records, totals, _ in parts:
        result.games.extend(records)
        for mine, theirs in zip(result.totals, totals, strict=True):
            mine.add(theirs)
        if on_game is not None:
            for record in records:
                on_game(record)
    return result


def _chunks(deals: range, workers: int) -> list[range]:
    if workers <= 1 or len(deals) <= 1:
        return [deals]
    size = math.ceil(len(deals) / workers)
    return [deals[i : i + size] for i in range(0, len(deals), size)]


def entrant_names(bots: Sequence[Bot]) -> tuple[str, ...]:
    """Each entrant's label, from one of its bots: the bot's name, and where entrants share a name (two
    versions of one bot), the name with what tells them apart: the version (``trumpcount@2``), else the file
    its class is in (``trumpcount (old.py)``), else the entrant's number (``trumpcount#1``)."""
    labels = []
    for i, bot in enumerate(bots):
        same = [b for b in bots if b.name == bot.name]
        versions = [b.version for b in same]
        files = _files(same)
        if len(same) == 1:
            labels.append(bot.name)
        elif len(set(versions)) == len(same):
            labels.append(f"{bot.name}@{bot.version}")
        elif files is not None:
            labels.append(f"{bot.name} ({files[same.index(bot)]})")
        else:
            labels.append(f"{bot.name}#{i}")
    return tuple(labels)


def _files(bots: Sequence[Bot]) -> list[str] | None:
    """The file of each bot's class, as few folders as tell them apart (its name, else its path from here);
    None when two bots' classes share a file, or one's file is not known."""
    paths = []
    for bot in bots:
        file = getattr(sys.modules.get(type(bot).__module__), "__file__", None)
        if file is None:
            return None
        paths.append(Path(file).resolve())
    for shown in ([p.name for p in paths], [os.path.relpath(p) for p in paths]):
        if len(set(shown)) == len(shown):
            return shown
    return None


def _play_deals(
    entrants: Sequence[BotFactory],
    rules: Rules,
    deals: range,
    seatings: int,
    seed: int,
    time_limit_ms: int,
    on_game: Callable[[GameRecord], None] | None = None,
) -> tuple[list[GameRecord], list[EntrantTotals], tuple[str, ...]]:
    teams, size = rules.teams, rules.team_size
    # One instance per seat an entrant can occupy, reused across games as a bot process is.
    bots = [[factory() for _ in range(size)] for factory in entrants]
    names = entrant_names([b[0] for b in bots])
    totals = [EntrantTotals(name) for name in names]
    records = []
    for deal in deals:
        for seating in range(seatings):
            lineup = tuple((team + seating) % teams for team in range(teams))
            seat_bots = [bots[lineup[s % teams]][s // teams] for s in range(rules.players)]
            record = _play_game(rules, deal, seating, lineup, seat_bots, seed, time_limit_ms, totals)
            records.append(record)
            if on_game is not None:
                on_game(record)
    return records, totals, names


def _play_game(
    rules: Rules,
    deal: int,
    seating: int,
    lineup: tuple[int, ...],
    seat_bots: list[Bot],
    seed: int,
    time_limit_ms: int,
    totals: list[EntrantTotals],
) -> GameRecord:
    # Every seating of a deal draws the same first dealer and the same decks.
    deck_rng = random.Random(f"{seed}:deal:{deal}")
    game = Game(rules, deck_rng.randrange(rules.players))
    names = tuple(b.name for b in seat_bots)
    for seat, bot in enumerate(seat_bots):
        bot.rng.seed(f"{seed}:bot:{deal}:{seating}:{seat}")
        bot.seat_names = names
        bot.game_start(seat_view(game, seat))
    refused: list[Refused] = []  # the game's refused claims, which every view shows (not in game.events)
    while not game.is_over:
        game.deal(shuffled_deck(rules, deck_rng))
        while (decision := game.decision()) is not None:
            seat = decision.seat
            bot = seat_bots[seat]
            view = seat_view(game, seat, refused)
            bot.time_limit_ms = time_limit_ms
            tally = totals[lineup[rules.team_of(seat)]]
            started = time.perf_counter()
            try:
                action = bot.decide(view)
            except Exception as exc:
                exc.add_note(_describe(bot, game, decision, deal, seating))
                raise
            elapsed_ms = (time.perf_counter() - started) * 1000
            tally.decisions += 1
            tally.slowest_ms = max(tally.slowest_ms, elapsed_ms)
            tally.late += elapsed_ms > time_limit_ms
            if isinstance(action, ClaimAnswer) and decision.kind is DecisionKind.PLAY and not view.may_claim:
                raise BotActionError(
                    f"{_describe(bot, game, decision, deal, seating)} claimed again at the same play: its claim "
                    "was refused and nothing has changed since, so it must play a card"
                )
            try:
                events = game.answer(action)
            except EngineError as exc:
                raise BotActionError(
                    f"{_describe(bot, game, decision, deal, seating)} answered {_show(action, decision)}: {exc}"
                ) from exc
            first = events[0]
            if isinstance(first, ClaimEvent) and not first.accepted:
                refused.append((len(game.events), first))
        for seat, bot in enumerate(seat_bots):
            bot.hand_end(hand_end_view(rules, seat, seat_view(game, seat, refused).events))
    for seat, bot in enumerate(seat_bots):
        bot.game_over(
            game_over_view(rules, seat, game.first_dealer, seat_view(game, seat, refused).events),
            game.winner,
            game.end_reason or "",
        )
    hands = sum(1 for ev in game.events if isinstance(ev, HandEndEvent))
    end = game.events[-1]
    assert isinstance(end, GameEndEvent)
    record = GameRecord(
        deal=deal,
        seating=seating,
        lineup=lineup,
        seat_names=tuple(b.name for b in seat_bots),
        scores=end.scores,
        winner=end.winner,
        reason=end.reason,
        hands=hands,
    )
    for team, entrant in enumerate(lineup):
        t = totals[entrant]
        t.games += 1
        t.points += record.scores[team]
        t.hands += hands
        outcome = record.outcome(entrant)
        t.wins += outcome == "win"
        t.draws += outcome == "draw"
        t.losses += outcome == "loss"
    return record


def _describe(bot: Bot, game: Game, decision: Decision, deal: int, seating: int) -> str:
    return (
        f"bot {bot.name!r} at seat {decision.seat} (deal {deal}, seating {seating}, hand {game.hand_number}), "
        f"deciding {decision.kind.value}"
    )


def _show(action: object, decision: Decision) -> str:
    """The action as given, with card codes spelled out (``[3, 12]`` -> ``[3, 12] (AS QH)``)."""
    cards = [action] if decision.kind is DecisionKind.PLAY else action
    if (
        decision.kind in _CARD_DECISIONS
        and isinstance(cards, (list, tuple))
        and all(type(c) is int and 0 <= c < NUM_CODES for c in cards)
    ):
        return f"{action!r} ({' '.join(cards_str(cards))})"
    return repr(action)


_CARD_DECISIONS = (DecisionKind.PLAY, DecisionKind.GIVE, DecisionKind.DISCARD)
