"""Shared by the referee tests: real matches, the log, what crossed the wire."""

from __future__ import annotations

import asyncio
import os
import re
import subprocess
import sys
import time
from collections.abc import Callable, Coroutine, Iterable, Sequence
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any, TypeVar

from referee.bots import BotCommand
from referee.deadline import TimeControl
from referee.engine.events import DealEvent, Event, ExchangeEvent, PlayEvent
from referee.engine.presets import rules_for
from referee.match import FaultPolicy, Match, MatchConfig, MatchResult, SeatBot, seat_bots
from referee.protocol.bideuchre.v1 import arena_pb2 as pb
from referee.replay.logfile import revealed_records
from referee.sandbox import Sandbox, default_sandbox
from referee.server import Limits
from sdk.bot import Bot
from sdk.runner import play_session

T = TypeVar("T")

BOTS = Path(__file__).parent / "bots"
RANDOM = BotCommand("random", (sys.executable, "-m", "example_bots.random_bot"))
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


def run_async(coro: Coroutine[Any, Any, T]) -> T:
    """``asyncio.run`` in a thread of its own: the test session may already hold a running
    event loop in the main thread (Playwright's sync API, used by the browser tests, keeps one)."""
    with ThreadPoolExecutor(1) as pool:
        return pool.submit(asyncio.run, coro).result()


def records(path: Path) -> list[dict[str, Any]]:
    return revealed_records(path)


def of_kind(recs: Iterable[dict[str, Any]], event: str) -> list[dict[str, Any]]:
    return [r for r in recs if r["event"] == event]


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


ARENA = str(Path(sys.executable).parent / "arena")


def start_serve(tmp_path: Path, *args: str) -> tuple[subprocess.Popen[str], list[tuple[str, str]], str]:
    """``arena serve`` with ``args``, read up to its seat tokens: the process, (address, token) per seat,
    and what it printed so far."""
    serve = subprocess.Popen(
        [ARENA, "serve", "--log-dir", str(tmp_path), *args], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True
    )
    assert serve.stdout is not None
    tokens: list[tuple[str, str]] = []
    head = []
    while True:
        line = serve.stdout.readline()
        if not line:
            serve.kill()
            raise AssertionError(serve.stderr.read() if serve.stderr else "arena serve printed no tokens")
        head.append(line)
        found = re.search(r"ARENA_ADDRESS=(\S+) ARENA_TOKEN=(\S+)", line)
        if found:
            tokens.append((found[1], found[2]))
        elif tokens:  # the line after the last token
            return serve, tokens, "".join(head)


def alive(pid: int) -> bool:
    """True while ``pid`` exists and is not a zombie."""
    try:
        stat = Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        return False
    return stat.rsplit(")", 1)[1].split()[0] != "Z"


def all_gone(pids: list[int], within_s: float = 10) -> bool:
    """True once none of ``pids`` is alive (waiting up to ``within_s``)."""
    deadline = time.monotonic() + within_s
    while time.monotonic() < deadline:
        if not any(alive(p) for p in pids):
            return True
        time.sleep(0.05)
    return False


def children_of(pid: int) -> list[int]:
    kids = []
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            stat = Path(f"/proc/{entry}/stat").read_text()
        except OSError:
            continue
        if int(stat.rsplit(")", 1)[1].split()[1]) == pid:
            kids.append(int(entry))
    return kids
