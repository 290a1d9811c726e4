"""Matches played in this process on a real referee server (``referee.match.Match``): bots launched as
processes or played by SDK clients in this process; and what crossed the wire to a recording bot, held
against the engine (``check_wire``)."""

from __future__ import annotations

import asyncio
import os
import re
import sys
from collections import Counter
from collections.abc import Callable, Iterable, Sequence
from pathlib import Path
from typing import Any

from referee.bots import BotCommand
from referee.deadline import TimeControl
from referee.engine.cards import card_str
from referee.engine.events import DealEvent, Event, ExchangeEvent, PlayEvent, visible_to
from referee.engine.game import Game
from referee.engine.presets import rules_for
from referee.engine.view import seat_view
from referee.match import FaultPolicy, Match, MatchConfig, MatchResult, SeatBot, seat_bots
from referee.protocol.bideuchre.v1 import arena_pb2 as pb
from referee.protocol.decoded import RequestInfo, decode_referee_message, view_from_request
from referee.replay.logfile import load_log
from referee.replay.steps import DecisionPoint, GameReplay
from referee.sandbox import Sandbox, default_sandbox
from referee.server import Limits
from sdk.bot import Bot
from sdk.runner import play_session
from tests.support.aio import run_async
from tests.support.arena import RANDOM, TESTS

# the referee tests' own bots (faulty, recording ...)
BOTS = TESTS / "referee" / "bots"
RANDOM_BOT = BotCommand.parse(RANDOM)
RECORDING = BotCommand("recording", (sys.executable, str(BOTS / "recording_bot.py")))


def faulty(mode: str, at: int, marker: Path | None = None) -> BotCommand:
    args = [sys.executable, str(BOTS / "faulty_bot.py"), mode, str(at)]
    if marker is not None:
        args.append(str(marker))
    return BotCommand("faulty", tuple(args))


def recording_sandbox() -> Sandbox | None:
    """The default sandbox, in which the recording bot may write to $RECORD_DIR."""
    sandbox = default_sandbox()
    record_dir = os.environ.get("RECORD_DIR")
    if sandbox is None or record_dir is None:
        return sandbox
    return sandbox.with_writable(Path(record_dir))


def in_process(name: str = "inproc") -> SeatBot:
    """A seat played by an SDK client inside the test process (``run_match`` starts it)."""
    return SeatBot(name, None)


def run_match(
    log_dir: Path,
    preset: str,
    seats: Sequence[SeatBot] | None = None,
    *,
    teams: Sequence[BotCommand] | None = None,
    rules: Iterable[str] = (),
    games: int = 1,
    seed: int = 1,
    policy: FaultPolicy = FaultPolicy.FORFEIT,
    move_time_ms: int = 1000,
    time_bank_ms: int = 0,
    grace_ms: int = 100,
    connect_timeout_s: float = 20.0,
    limits: Limits | None = None,
    in_process_bot: Callable[[], Bot] = Bot,
    during: Callable[[Match], Any] | None = None,
) -> MatchResult:
    """Play a match on a real server; ``seats`` (one per seat) or ``teams`` (one bot per team)."""
    rule_set = rules_for(preset, list(rules))
    if seats is None:
        assert teams is not None
        seats = seat_bots(rule_set, [SeatBot(c.name, c) for c in teams])
    config = MatchConfig(
        preset=preset,
        rules=rule_set,
        seats=tuple(seats),
        games=games,
        seed=seed,
        clock=TimeControl(move_time_ms, grace_ms, time_bank_ms),
        policy=policy,
        log_dir=log_dir,
        connect_timeout_s=connect_timeout_s,
        limits=limits or Limits(),
        sandbox=recording_sandbox(),
    )

    async def go() -> MatchResult:
        async with Match(config) as match:
            clients = [
                asyncio.create_task(play_session(in_process_bot(), match.server.address, player.token))
                for seat, player in enumerate(match.players)
                if config.seats[seat].command is None
            ]
            if during is not None:
                during(match)
            result = await match.play()
        await asyncio.gather(*clients)
        return result

    return run_async(go())


# ------------------------------------------------------------ the wire

CARD_TEXT = re.compile(r"^[789TJQKA][SHDC]$")


def recorded_messages(record_dir: Path) -> dict[str, list[pb.RefereeMessage]]:
    """Every message each recording bot process received, by process (its file's name), in order."""
    out = {}
    for path in sorted(record_dir.glob("*.msgs")):
        lines = path.read_text(encoding="ascii").split()
        out[path.stem] = [pb.RefereeMessage.FromString(bytes.fromhex(line)) for line in lines]
    return out


def cards_in(message: Any) -> set[str]:
    """Every string anywhere in a protobuf message that is a card's text."""
    return set(card_texts(message))


def card_texts(message: Any) -> list[str]:
    """Each string anywhere in a protobuf message that is a card's text, repeats included."""
    found: list[str] = []
    for field, value in message.ListFields():
        if field.message_type is not None and field.message_type.GetOptions().map_entry:
            continue  # the rules map: option names and values, no cards
        values = value if field.is_repeated else [value]
        for v in values:
            if field.message_type is not None:
                found += card_texts(v)
            elif isinstance(v, str) and CARD_TEXT.match(v):
                found.append(v)
    return found


def cards_seen(events: Iterable[Event], seat: int) -> set[int]:
    """Cards appearing in events as ``seat`` may see them (dealt to it, exchanged with it, played)."""
    seen: set[int] = set()
    for ev in events:
        if isinstance(ev, DealEvent):
            seen.update(ev.hands[seat] or ())
        elif isinstance(ev, ExchangeEvent) and ev.cards is not None:
            seen.update(ev.cards)
        elif isinstance(ev, PlayEvent):
            seen.add(ev.card)
    return seen


def unseen_cards(message: pb.RefereeMessage, game: Game, seat: int) -> set[str]:
    """Card texts in ``message`` that ``seat`` has not seen in ``game`` so far."""
    seen = cards_seen([visible_to(ev, seat) for ev in game.events], seat) | set(game.hands[seat])
    return cards_in(message) - {card_str(c) for c in seen}


def check_wire(log_path: Path, record_dir: Path) -> Counter[str]:
    """Replay the log and hold every recorded message against the engine; returns what was seen."""
    match = load_log(log_path)
    rules = match.rules
    streams: dict[tuple[str, int], list[pb.RefereeMessage]] = {}
    for msgs in recorded_messages(record_dir).values():
        key = None
        for msg in msgs:
            if msg.WhichOneof("message") == "game_start":
                key = (msg.game_start.game_id, msg.game_start.seat)
                assert key not in streams, f"two processes played seat {key[1]} of {key[0]}"
                streams[key] = []
            elif key is not None:
                streams[key].append(msg)
    stats: Counter[str] = Counter()
    for logged in match.games:
        replay = GameReplay(match, logged)
        queues = {seat: iter(streams[(logged.game_id, seat)]) for seat in range(rules.players)}
        hand_events: dict[int, list[Event]] = {seat: [] for seat in range(rules.players)}
        for item in replay:
            if not isinstance(item, DecisionPoint):
                continue
            seat = item.decision.seat
            game = replay.game
            msg = next(queues[seat])
            assert msg.WhichOneof("message") == "decision", msg
            assert not unseen_cards(msg, game, seat), (seat, msg)
            stats["card observations"] += len(card_texts(msg))
            info = decode_referee_message(msg.SerializeToString(), seat=seat, players=rules.players)
            assert isinstance(info, RequestInfo)
            for ev in info.events:
                hand_events[seat] = [ev] if isinstance(ev, DealEvent) else [*hand_events[seat], ev]
                if isinstance(ev, ExchangeEvent) and seat not in (ev.from_seat, ev.to_seat):
                    stats["exchanges hidden from a seat"] += 1
            assert view_from_request(info, rules, hand_events[seat]) == seat_view(game, seat)
            stats[str(item.decision.kind)] += 1
        for seat in range(rules.players):
            msg = next(queues[seat])
            assert msg.WhichOneof("message") == "game_over", msg
            assert not unseen_cards(msg, replay.game, seat), (seat, msg)
            stats["card observations"] += len(card_texts(msg))
        stats["games"] += 1
    return stats
