"""Bots claim over the wire: a real referee (``Match``: its server, the launcher, the sandbox) and real bot
processes (``bots/claim_bot.py`` through the SDK, the random bot beside it).

A claim that holds ends the hand; a refused one is logged, heard by every seat, and the claimer is asked the
same play again with the time its claim took gone from the limit; a second claim at that play is an illegal
answer; a claim at a bid is malformed; a flood of claims runs one search and is cut off by the flood guard.
Every log replays through the engine (``--verify``) and in the terminal.
"""

from __future__ import annotations

import asyncio
import random
import re
import sys
import threading
from collections import Counter
from collections.abc import Sequence
from pathlib import Path

import pytest

from referee.bots import BotCommand
from referee.deadline import TimeControl
from referee.engine.cards import Card
from referee.engine.events import Event
from referee.engine.game import CLAIM, ClaimAnswer, DecisionKind, Game
from referee.engine.presets import rules_for
from referee.engine.rules import Rules
from referee.engine.simulate import shuffled_deck
from referee.engine.view import SeatView
from referee.match import FaultPolicy, MatchResult, default_action
from referee.protocol.encoder import RequestEncoder
from referee.protocol.messages import game_start_to_pb, shutdown_to_pb, to_bytes
from referee.replay.logfile import load_log
from referee.replay.verify import verify_log
from referee.seat import Outcome, SeatChannel
from referee.server import ArenaServer
from sdk.bot import Bot
from sdk.runner import play_session
from tests.support.aio import run_async
from tests.support.arena import invoke
from tests.support.logs import Record, bot_outputs, records
from tests.support.referee import BOTS, RANDOM_BOT, run_match

MOVE_TIME_MS = 1000


def claimer(mode: str, *args: int) -> BotCommand:
    return BotCommand("claim", (sys.executable, str(BOTS / "claim_bot.py"), mode, *map(str, args)))


def play(
    tmp_path: Path, bot: BotCommand, policy: FaultPolicy = FaultPolicy.FORFEIT, rules: Sequence[str] = ("hand_limit=8",)
) -> MatchResult:
    """A match of neuralplay, ``bot`` for team 0 (seats 0 and 2), the random bot for team 1."""
    return run_match(tmp_path, "neuralplay", teams=[bot, RANDOM_BOT], rules=rules, policy=policy, seed=4)


def claims(recs: list[Record]) -> list[Record]:
    return [r for r in recs if r["event"] == "claim"]


def asked_lines(tmp_path: Path) -> list[dict[str, int]]:
    """Each play request the claim bots got, as they wrote it to their stderr (kept by the referee), with the
    seat."""
    lines = []
    for output in bot_outputs(tmp_path, "*-claim"):
        found = re.fullmatch(r"seat(\d+)-claim\.stderr", output.name)
        assert found is not None, output
        for line in output.read_text().splitlines():
            if line.startswith("asked ") and " kind=play " in line:
                fields = dict(part.split("=") for part in line.split()[1:] if not part.startswith("kind="))
                lines.append({"seat": int(found[1]), **{k: int(v) for k, v in fields.items()}})
    return lines


def assert_replays(result: MatchResult) -> None:
    assert verify_log(load_log(result.log_path)).games == len(result.games)
    code, _, err = invoke("replay", result.log_path)
    assert code == 0, err


def test_claims_that_hold_end_the_hand_and_refused_ones_are_asked_again(tmp_path: Path) -> None:
    result = play(tmp_path, claimer("last", 3))
    (game,) = result.games
    assert game.violations == () and game.reason == "hand-limit"
    recs = records(result.log_path)
    made = claims(recs)
    assert {r["seat"] % 2 for r in made} == {0}, "only the claim bot's team claims"
    assert {r["accepted"] for r in made} == {True, False}, "claims that hold, and claims refused"
    asked = asked_lines(tmp_path)
    for rec in made:
        k = recs.index(rec)
        assert isinstance(rec["ms"], int) and rec["tricks"] == 8 - rec["trick"] + 1 <= 3
        if rec["accepted"]:
            assert [r["event"] for r in recs[k + 1 : k + 3]] == ["reveal", "hand_end"]
            continue
        # refused: nothing changed, the claimer's own card of the same trick comes next ...
        after = recs[k + 1]
        assert (after["event"], after["seat"], after["trick"]) == ("play", rec["seat"], rec["trick"])
        # ... answering a request of the same play that tells it the claim was refused, with the time left
        again = [a for a in asked if (a["seat"], a["hand"], a["trick"]) == (rec["seat"], rec["hand"], rec["trick"])]
        assert [a["may_claim"] for a in again] == [1, 0]
        assert again[1]["refused"] == again[0]["refused"] + 1
        assert again[0]["limit"] == MOVE_TIME_MS and again[1]["limit"] == max(1, MOVE_TIME_MS - rec["ms"])
    # every seat heard every refused claim: the random bot's seats too (their SDK reads the claim events)
    assert_replays(result)
    code, out, _ = invoke("replay", result.log_path, "--seat", "1")
    assert code == 0
    assert out.count("refused, play goes on") == sum(1 for r in made if not r["accepted"])


def test_the_time_a_refused_claim_took_is_gone_from_the_play_asked_again(tmp_path: Path) -> None:
    """The bot thinks 300 ms before each claim: the request of the same play then allows what is left of the
    move time (the referee's search is not counted), and the bot, answering at once, is never late."""
    result = play(tmp_path, claimer("slow", 2, 300), rules=["hand_limit=3"])
    (game,) = result.games
    assert game.violations == ()
    refused = [r for r in claims(records(result.log_path)) if not r["accepted"]]
    assert refused, "the bot's claims in these hands should include refused ones"
    limits = {(a["seat"], a["hand"], a["trick"]): a["limit"] for a in asked_lines(tmp_path) if not a["may_claim"]}
    for rec in refused:
        assert rec["ms"] >= 300
        assert limits[(rec["seat"], rec["hand"], rec["trick"])] == MOVE_TIME_MS - rec["ms"]


@pytest.mark.parametrize("policy", list(FaultPolicy))
def test_a_second_claim_at_the_same_play_is_an_illegal_answer(tmp_path: Path, policy: FaultPolicy) -> None:
    result = play(tmp_path, claimer("again", 8), policy, rules=["hand_limit=2"])
    (game,) = result.games
    recs = records(result.log_path)
    illegal = [v for v in game.violations if v.kind == "illegal"]
    assert illegal and {v.seat % 2 for v in game.violations} == {0}
    first = illegal[0]
    assert re.fullmatch(
        r"a second claim at the same play \(hand \d+, trick \d+\): the first was refused and nothing has changed "
        r"since, so play a card",
        first.detail,
    ), first.detail
    if policy is FaultPolicy.FORFEIT:
        assert game.reason == "forfeit" and game.winner == 1 and len(illegal) == 1
    else:
        assert game.reason == "hand-limit" and all(v.penalty == "default-action" for v in illegal)
    # one search per play at most: never two claim records for one seat at one trick
    per_play = Counter((r["hand"], r["trick"], r["seat"]) for r in claims(recs))
    assert per_play and max(per_play.values()) == 1
    assert_replays(result)


def test_a_claim_answering_a_bid_is_malformed_and_says_so(tmp_path: Path) -> None:
    result = play(tmp_path, claimer("bid"), FaultPolicy.DEFAULT, rules=["hand_limit=1"])
    (game,) = result.games
    malformed = [v for v in game.violations if v.kind == "malformed"]
    assert malformed and malformed[0].detail == "a bid decision is answered with Action.bid, got Action.claim"
    assert claims(records(result.log_path)) == []
    assert_replays(result)


def test_a_flood_of_claims_runs_one_search_and_is_cut_off(tmp_path: Path) -> None:
    """Each claim sent 31 times at once: the first answers the request (one search); the others name a request
    now closed, and the flood guard disconnects the bot (a crash: the default policy plays for it)."""
    result = play(tmp_path, claimer("flood", 8), FaultPolicy.DEFAULT, rules=["hand_limit=2"])
    (game,) = result.games
    recs = records(result.log_path)
    made = claims(recs)
    assert made and len(made) == len({(r["hand"], r["trick"], r["seat"]) for r in made})
    kinds = {v.kind for v in game.violations}
    assert {"protocol", "crash"} <= kinds and {v.seat % 2 for v in game.violations} == {0}
    flood = [v for v in game.violations if v.kind == "protocol" and v.detail.startswith("disconnected after")]
    assert flood, [v.detail for v in game.violations]
    assert game.reason == "hand-limit"
    assert_replays(result)


# ------------------------------------------------------------------ the search, off the event loop


class HeldGame(Game):
    """A game whose claim, before the engine's search, tells the event loop it has started (``started``) and
    waits (up to 5 s) until a task of the loop has seen it (``seen``); it notes the thread it ran in and
    whether the loop turned meanwhile."""

    def __init__(self, rules: Rules) -> None:
        super().__init__(rules)
        self.seen = threading.Event()
        self.thread = ""
        self.loop_turned = False

    def watch_from(self, loop: asyncio.AbstractEventLoop) -> asyncio.Event:
        self.loop, self.started = loop, asyncio.Event()
        return self.started

    def claim(self, seat: int) -> list[Event]:
        self.thread = threading.current_thread().name
        self.loop.call_soon_threadsafe(self.started.set)
        self.loop_turned = self.seen.wait(5)
        return super().claim(seat)


class Claimer(Bot):
    def play(self, view: SeatView, legal: Sequence[Card]) -> Card | ClaimAnswer:
        return CLAIM if view.may_claim else legal[0]


def test_the_claim_search_runs_off_the_event_loop() -> None:
    """The referee's loop goes on (another table, every deadline) while a claim is searched: here a task of the
    loop sees the search start and lets it go on; run on the loop itself, the search would wait in vain."""
    rules = rules_for("neuralplay")
    game = HeldGame(rules)
    game.deal(shuffled_deck(rules, random.Random(2)))
    while (decision := game.decision()) is not None and decision.kind is not DecisionKind.PLAY:
        game.apply(default_action(decision))
    assert decision is not None

    async def watch(started: asyncio.Event) -> None:
        await started.wait()
        game.seen.set()

    async def go() -> Outcome:
        async with ArenaServer(tcp=True) as server:
            player = server.add_player("p", "claimer")
            session = asyncio.create_task(play_session(Claimer(), server.address, player.token))
            await player.wait_connected()
            assert player.connection is not None
            start = game_start_to_pb(
                game_id="g1",
                preset="neuralplay",
                rules=rules,
                seat=decision.seat,
                seat_names=("claimer",) * 4,
                move_time_ms=5000,
                first_dealer=0,
            )
            await player.connection.send(to_bytes(start))
            channel = SeatChannel(decision.seat, player, "g1", RequestEncoder(), TimeControl(move_time_ms=5000))
            watcher = asyncio.create_task(watch(game.watch_from(asyncio.get_running_loop())))
            outcome = await channel.ask(game, decision)
            await watcher
            await player.connection.send(to_bytes(shutdown_to_pb("done")))
            await session
            return outcome

    outcome = run_async(go())
    assert outcome.action is CLAIM and outcome.claim is not None and outcome.fault is None
    assert game.thread.startswith("arena-claim") and game.loop_turned
