"""``Bot.hand_end`` and ``Bot.seat_names``: the same under the referee (the runner) and in the simulator."""

from __future__ import annotations

import asyncio
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

from referee.deadline import TimeControl
from referee.engine.events import DealEvent, HandEndEvent, PlayEvent, TrickEvent
from referee.engine.presets import rules_for
from referee.engine.view import SeatView
from referee.gamelog import read_records
from referee.match import Match, MatchConfig, SeatBot
from sdk.bot import Bot
from sdk.runner import play_session
from sdk.simulator import simulate

RULES = ["game_over=hands", "game_hands=3"]


class Ends(Bot):
    """Plays the first legal card, bids when it can (so hands are played out); writes down each hand's end."""

    name = "ends"
    seen: list[tuple[SeatView, tuple[str, ...]]]

    def __init__(self) -> None:
        super().__init__()
        self.seen = []

    def bid(self, view, legal):
        return next((b for b in legal if not b.is_pass), legal[0])

    def hand_end(self, view: SeatView) -> None:
        self.seen.append((view, self.seat_names))


def check(bot: Ends, seat: int, hands: int, names: tuple[str, ...]) -> list[HandEndEvent]:
    assert len(bot.seen) == hands
    ends = []
    for number, (view, seat_names) in enumerate(bot.seen, start=1):
        assert seat_names == names
        assert view.seat == seat and view.hand_number == number and view.decision is None
        deal, end = view.events[0], view.events[-1]
        assert isinstance(deal, DealEvent) and isinstance(end, HandEndEvent) and end.hand == number
        assert view.dealer == deal.dealer and view.scores == end.scores
        assert deal.hands[seat] is not None and all(h is None for s, h in enumerate(deal.hands) if s != seat)
        # the whole hand, last trick included: as many trick winners as tricks played
        tricks = sum(isinstance(ev, TrickEvent) for ev in view.events)
        assert tricks == (max((ev.trick for ev in view.events if isinstance(ev, PlayEvent)), default=0))
        ends.append(end)
    return ends


def test_the_runner_calls_hand_end_once_per_hand_with_the_whole_hand(tmp_path: Path) -> None:
    rules = rules_for("pagat", RULES)
    config = MatchConfig(
        preset="pagat",
        rules=rules,
        seats=tuple(SeatBot(f"s{s}") for s in range(4)),
        clock=TimeControl(move_time_ms=5000),
        log_dir=tmp_path,
    )
    bots = [Ends() for _ in range(4)]

    async def go() -> Path:
        async with Match(config) as match:
            tasks = [
                asyncio.create_task(play_session(bot, match.server.address, player.token))
                for bot, player in zip(bots, match.players, strict=True)
            ]
            result = await match.play()
        await asyncio.gather(*tasks)
        return result.log_path

    with ThreadPoolExecutor(1) as pool:
        log = pool.submit(asyncio.run, go()).result()
    logged = [r for _, r in read_records(log) if r["event"] == "hand_end"]
    assert len(logged) == 3
    for seat, bot in enumerate(bots):
        ends = check(bot, seat, 3, ("ends",) * 4)
        assert [list(e.scores) for e in ends] == [r["scores"] for r in logged]


def test_the_simulator_calls_hand_end_the_same_way() -> None:
    made: list[Ends] = []

    def entrant() -> Ends:
        made.append(Ends())
        return made[-1]

    simulate([entrant, Bot], rules_for("pagat", RULES), deals=1, seed=3)
    names = ("ends", "bot", "ends", "bot")
    for bot, seat in zip(made, (0, 2), strict=True):
        check(bot, seat, 3, names)
