"""``Bot.hand_end`` and ``Bot.seat_names``: the same under the referee (the runner) and in the simulator."""

from __future__ import annotations

import asyncio
import functools
import hashlib
import random
from collections.abc import Sequence
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest

from referee.deadline import TimeControl
from referee.engine.bids import PASS, Bid
from referee.engine.cards import Card, Trump
from referee.engine.events import ClaimEvent, DealEvent, GameEndEvent, HandEndEvent, PlayEvent, TrickEvent
from referee.engine.game import CLAIM, ClaimAnswer
from referee.engine.presets import PRESETS, rules_for
from referee.engine.rules import Rules
from referee.engine.view import SeatView
from referee.gamelog import read_records
from referee.match import Match, MatchConfig, SeatBot, play_game
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


# ------------------------------------------------------------------ the same hand, through both paths


class Chooser(Bot):
    """Chooses by the view alone (no randomness), so that the same deals make the same game on either path;
    claims now and then in the last tricks (some claims hold, most are refused); writes down every hand_end
    view, and the game_over view."""

    name = "chooser"

    def __init__(self, ends: dict[int, list[SeatView]], overs: dict[int, SeatView]) -> None:
        super().__init__()
        self.ends, self.overs = ends, overs

    def bid(self, view: SeatView, legal: Sequence[Bid]) -> Bid:
        if view.hand_number % 3 == 2 and PASS in legal:  # a hand thrown in, where the rules let every seat pass
            return PASS
        return legal[(3 * len(view.events) + view.seat + view.hand_number) % len(legal)]

    def trump(self, view: SeatView, legal: Sequence[Trump]) -> Trump:
        return legal[(view.seat + view.hand_number) % len(legal)]

    def play(self, view: SeatView, legal: Sequence[Card]) -> Card | ClaimAnswer:
        late = view.trick_number >= view.rules.cards_each - 2
        if view.may_claim and late and (len(view.events) + view.seat) % 3 != 0:
            return CLAIM
        return legal[len(view.events) % len(legal)]

    def hand_end(self, view: SeatView) -> None:
        self.ends.setdefault(view.seat, []).append(view)

    def game_over(self, view: SeatView, winner: int | None, reason: str) -> None:
        self.overs[view.seat] = view


def the_simulators_decks(seed: int) -> int:
    """The integer seed whose ``random.Random`` shuffles as the simulator's first deal of ``seed`` does (it
    seeds with the text ``SEED:deal:0``; CPython turns a text seed into this integer)."""
    text = f"{seed}:deal:0".encode()
    number = int.from_bytes(text + hashlib.sha512(text).digest(), "big")
    assert random.Random(number).getstate() == random.Random(text.decode()).getstate(), "random.seed changed"
    return number


Views = tuple[dict[int, list[SeatView]], dict[int, SeatView]]  # per seat: each hand_end view, the game_over view
SEED = 11


def through_the_simulator(rules: Rules, seed: int) -> Views:
    ends: dict[int, list[SeatView]] = {}
    overs: dict[int, SeatView] = {}
    simulate([functools.partial(Chooser, ends, overs)] * rules.teams, rules, deals=1, seed=seed)
    return ends, overs


def through_the_referee(rules: Rules, preset: str, seed: int, folder: Path) -> Views:
    ends: dict[int, list[SeatView]] = {}
    overs: dict[int, SeatView] = {}
    config = MatchConfig(
        preset=preset,
        rules=rules,
        seats=tuple(SeatBot(f"s{s}") for s in range(rules.players)),
        clock=TimeControl(move_time_ms=5000),
        log_dir=folder,
    )

    async def go() -> None:
        async with Match(config) as match:
            sessions = [
                asyncio.create_task(play_session(Chooser(ends, overs), match.server.address, player.token))
                for player in match.players
            ]
            assert await match.pool.ready(match.players) == {}
            result = await play_game(
                match.players, rules=rules, preset=preset, game=1, game_id="g1", seed=the_simulators_decks(seed)
            )
            assert result.violations == ()
        await asyncio.gather(*sessions)

    with ThreadPoolExecutor(1) as pool:
        pool.submit(asyncio.run, go()).result()
    return ends, overs


@pytest.mark.parametrize("preset", sorted(PRESETS))
def test_both_paths_give_the_same_views_of_every_hand_and_of_the_game(preset: str, tmp_path: Path) -> None:
    rules = PRESETS[preset].with_overrides({"hand_limit": "6"})
    simulated, wired = through_the_simulator(rules, SEED), through_the_referee(rules, preset, SEED, tmp_path)
    assert wired == simulated
    ends, overs = wired
    assert sorted(ends) == sorted(overs) == list(range(rules.players))
    hands = len(ends[0])
    for seat, views in ends.items():
        assert [(v.seat, v.hand_number, v.hand, v.decision) for v in views] == [
            (seat, number, (), None) for number in range(1, hands + 1)
        ]
        assert all(isinstance(v.events[0], DealEvent) and v.events[-1] == v.hand_result for v in views)
        over = overs[seat]
        assert (over.hand_number, over.hand, over.decision) == (hands, (), None)
        assert isinstance(over.events[-1], GameEndEvent) and over.scores == over.events[-1].scores


def test_the_hands_compared_include_thrown_in_hands_and_seats_that_sat_out() -> None:
    """The cases where a seat still holds cards when its hand is over: the views hold none on either path; and
    hands with claims, accepted (the hand ends) and refused (heard by every seat, the card follows)."""
    thrown, sat_out, all_in = 0, 0, 0
    claims: dict[bool, int] = {True: 0, False: 0}
    for rules in PRESETS.values():
        ends, _ = through_the_simulator(rules.with_overrides({"hand_limit": "6"}), SEED)
        for view in ends[0]:
            result, contract = view.hand_result, view.contract
            assert result is not None
            thrown += result.passed_out
            sat_out += contract is not None and len(contract.active) < rules.players
            all_in += contract is not None and len(contract.active) == rules.players
            for ev in view.events:
                if isinstance(ev, ClaimEvent):
                    claims[ev.accepted] += 1
    assert thrown >= 3 and sat_out >= 10 and all_in >= 10, (thrown, sat_out, all_in)
    assert claims[True] >= 5 and claims[False] >= 5, claims
