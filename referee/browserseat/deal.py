"""A finished hand's deal played again in the client's process: by the strongest level in the person's seat
(duplicate), or by the person at the page ("play this deal again").

The deal comes from the match's log, read once the hand is over (the log holds its hidden cards from then on,
``referee.gamelog.HandSecrets``): the logged game is replayed through the engine up to that hand's deal, so the
scores, the dealer and every hand are the match's. The other seats are the levels' bots built in this process
(``referee.play.levels.level_factory``), the Monte Carlo ones bounded by their worlds, not the clock, each
seeded from the game's seed, the hand and the seat (``bot_seed``): the same deal is played the same way
every time, and the tests play it again apart from the table to check. Each seat's bot sees only its own
view (``seat_view``), as at the referee; the page is sent only the person's seat's view.
"""

from __future__ import annotations

import time
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from example_bots.montecarlo_bot import MonteCarloBot
from referee.browserseat.state import choice_text
from referee.engine.events import BidEvent, ClaimEvent, ContractEvent, DealEvent, ExchangeEvent, HandEndEvent, PlayEvent
from referee.engine.game import ClaimAnswer, Game
from referee.engine.view import Refused, SeatView, seat_view
from referee.gamelog import LogError
from referee.play.levels import LEVELS, level_factory
from referee.replay.logfile import load_log
from referee.replay.steps import GameReplay, Step
from sdk.bot import Bot

NO_CLOCK_MS = 3_600_000  # what the bots are told they may take: their worlds, never the clock, bound them
STRONGEST = max(LEVELS)
LOG_WAIT_S = 10.0  # how long a hand's cards may take to reach the log after its end


def hand_start(log: Path, game: int, hand: int, wait_s: float = LOG_WAIT_S) -> tuple[Game, int]:
    """The match's game ``game`` just after hand ``hand`` was dealt, and the game's seed; LogError when the log
    does not hold that hand's cards within ``wait_s``."""
    deadline = time.monotonic() + wait_s
    while True:
        match = load_log(log)
        if game <= len(match.games):
            logged = match.game(game)
            replay = GameReplay(match, logged)
            for item in replay:
                if isinstance(item, Step) and isinstance(item.event, DealEvent) and item.event.hand == hand:
                    return replay.game.copy(), int(logged.start.record.get("seed", 0))
        if time.monotonic() > deadline:
            raise LogError(f"{log}: game {game} hand {hand} is not in the log")
        time.sleep(0.1)


def bot_seed(what: str, game_seed: int, hand: int, seat: int) -> str:
    """The seed of the bot at ``seat`` when hand ``hand`` of the game of seed ``game_seed`` is played again."""
    return f"{what}:{game_seed}:{hand}:{seat}"


def level_bot(level: int, seed: str, names: Sequence[str], start: Game, seat: int) -> Bot:
    """``level``'s bot for ``seat``, seeded, told it has no clock, its game started."""
    bot = level_factory(level)()
    bot.rng.seed(seed)
    bot.time_limit_ms = NO_CLOCK_MS
    if isinstance(bot, MonteCarloBot):
        bot.time_share = 1.0  # its search stops at its worlds
    bot.seat_names = tuple(names)
    bot.game_start(seat_view(start, seat))
    return bot


class DealTable:
    """One hand played from its deal: a bot at every seat but (maybe) one, asked through the engine."""

    def __init__(self, start: Game, bots: Sequence[Bot | None]) -> None:
        self.game = start
        self.bots = list(bots)
        self.refused: list[Refused] = []
        self.first = len(start.events) - 1  # the deal's index: what came before is other hands

    def view(self, seat: int) -> SeatView:
        return seat_view(self.game, seat, self.refused)

    @property
    def waiting(self) -> int | None:
        """The seat without a bot whose decision is due (None: a bot's turn, or the hand is over)."""
        decision = self.game.decision()
        if decision is None or self.bots[decision.seat] is not None:
            return None
        return decision.seat

    @property
    def over(self) -> bool:
        return self.game.decision() is None

    def run_bots(self) -> None:
        """The bots decide until the hand is over or a seat without a bot must."""
        while (decision := self.game.decision()) is not None:
            bot = self.bots[decision.seat]
            if bot is None:
                return
            self.answer(bot.decide(self.view(decision.seat)))

    def answer(self, action: object) -> None:
        """The answer of the seat to act (a refused claim is kept for every later view, as the referee does)."""
        events = self.game.answer(action)
        first = events[0] if events else None
        if isinstance(action, ClaimAnswer) and isinstance(first, ClaimEvent) and not first.accepted:
            self.refused.append((len(self.game.events), first))

    def summary(self, seat: int) -> dict[str, Any]:
        """The hand as ``seat`` played it: its own bids, trump, cards given and played (only its own cards),
        the contract and the result."""
        events = self.game.events[self.first :]
        mine: list[dict[str, Any]] = []
        contract: dict[str, Any] | None = None
        result: HandEndEvent | None = None
        for ev in events:
            if isinstance(ev, BidEvent) and ev.seat == seat:
                mine.append({"kind": "bid", "text": choice_text(ev.bid)})
            elif isinstance(ev, ContractEvent):
                contract = {"declarer": ev.declarer, "bid": ev.bid.text(), "trump": ev.trump.text(), "alone": ev.alone}
                if ev.declarer == seat and ev.bid.trump is None:
                    mine.append({"kind": "trump", "text": choice_text(ev.trump)})
            elif isinstance(ev, ExchangeEvent) and ev.from_seat == seat and ev.cards is not None:
                mine.append({"kind": "give" if ev.to_seat is not None else "discard", "text": choice_text(ev.cards)})
            elif isinstance(ev, PlayEvent) and ev.seat == seat:
                mine.append({"kind": "play", "text": choice_text(ev.card)})
            elif isinstance(ev, ClaimEvent) and ev.seat == seat and ev.accepted:
                mine.append({"kind": "claim", "text": "claim"})
            elif isinstance(ev, HandEndEvent):
                result = ev
        assert result is not None, "the hand is not over"
        return {
            "actions": mine,
            "contract": contract,
            "tricks": list(result.tricks),
            "points": list(result.points),
            "passedOut": result.passed_out,
            "made": result.made,
        }


@dataclass(frozen=True)
class Others:
    """Who plays the seats around the person when a deal is played again: the level of the match's bots."""

    level: int


def duplicate_hand(log: Path, game: int, hand: int, seat: int, others: Others) -> dict[str, Any]:
    """Hand ``hand`` of game ``game`` played by the strongest level in ``seat`` (the other seats by ``others``):
    what ``seat`` did and what it came to (``DealTable.summary``), with the level."""
    start, game_seed = hand_start(log, game, hand)
    names = [LEVELS[STRONGEST if s == seat else others.level].name for s in range(start.rules.players)]
    bots: list[Bot | None] = [
        level_bot(
            STRONGEST if s == seat else others.level,
            bot_seed("duplicate", game_seed, hand, s),
            names,
            start,
            s,
        )
        for s in range(start.rules.players)
    ]
    table = DealTable(start, bots)
    table.run_bots()
    return {"level": STRONGEST, "name": LEVELS[STRONGEST].name, **table.summary(seat)}


def practice_table(log: Path, game: int, hand: int, seat: int, others: Others) -> DealTable:
    """Hand ``hand`` of game ``game`` dealt again, with the person at ``seat`` and ``others`` round them."""
    start, game_seed = hand_start(log, game, hand)
    names = ["you" if s == seat else LEVELS[others.level].name for s in range(start.rules.players)]
    bots: list[Bot | None] = [
        None if s == seat else level_bot(others.level, bot_seed("practice", game_seed, hand, s), names, start, s)
        for s in range(start.rules.players)
    ]
    return DealTable(start, bots)
