"""Referee speed against a bare gRPC round trip, measured side by side in one run.

(a) bare: a grpc.aio server plays strict-turn ping-pong with 4 client
    processes over one bidirectional stream each (raw bytes, a ping the size
    of a typical decision request, a tiny pong), the floor any referee pays;
    over a Unix socket, the transport of every bot the referee launches (one
    socket per seat), and over TCP on 127.0.0.1 for comparison;
(b) referee: ``arena``'s own server and match driver with 4 bot processes
    (example_bots.first_bot: the SDK runner, answering instantly, each in
    the sandbox where one can be made), playing full games and writing the
    JSONL log.

Prints decisions per second for each, the ratio of (b) to (a) on the same
transport, the CPU time per decision on either side, and the machine.

``--kits`` adds (d): the same referee with the bots of each language's kit
(the Python SDK's instant bot, the JavaScript, C++, Go and Java example bots,
each built as `make test` builds it), after one game to warm up; for each,
decisions per second and the bots' CPU time per decision (their whole process
trees: the sandbox's wrapper, and for the Java bot, which runs with --tcp, the
relay; the Go bot is measured through the relay too, to tell the relay's share),
and that CPU time against the Python SDK's.

    python bench/referee.py [--decisions N] [--preset P] [--relay] [--kits]
"""

from __future__ import annotations

import argparse
import asyncio
import os
import shutil
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

os.environ.setdefault("GRPC_ENABLE_FORK_SUPPORT", "false")

import grpc
from machine import cpu_seconds, describe  # bench/machine.py

PING_METHOD = "/bench.Bare/Ping"
PING_BYTES = 160  # about a mid-hand DecisionRequest
CLIENTS = 4


# --------------------------------------------------------------------- bare


async def bare_client(address: str) -> None:
    async with grpc.aio.insecure_channel(address) as channel:
        call = channel.stream_stream(PING_METHOD)()
        await call.write(b"hello")
        pong = b"\x12\x03\x08\x01\x10"
        while True:
            data = await call.read()
            if data is grpc.aio.EOF or data == b"bye":
                break
            await call.write(pong)
        await call.done_writing()


class BareServer:
    def __init__(self) -> None:
        self.contexts: list[grpc.aio.ServicerContext] = []
        self.ready = asyncio.Event()
        self.done = asyncio.Event()

    async def ping(self, _requests: object, context: grpc.aio.ServicerContext) -> None:
        await context.read()  # hello
        self.contexts.append(context)
        if len(self.contexts) == CLIENTS:
            self.ready.set()
        await self.done.wait()


@dataclass(frozen=True)
class Figures:
    per_second: float
    server_cpu_s: float  # CPU time of the server process per decision
    clients_cpu_s: float  # CPU time of the client (bot) processes per decision


def _children_cpu(pids: list[int]) -> float:
    """CPU seconds used so far by the given processes and everything under them (Linux /proc; 0 elsewhere).

    The tree counts because a sandboxed bot runs as a child of its wrapper (bwrap).
    """
    total = 0
    todo, seen = list(pids), set()
    while todo:
        pid = todo.pop()
        if pid in seen:
            continue
        seen.add(pid)
        try:
            fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
            for task in Path(f"/proc/{pid}/task").iterdir():
                todo.extend(int(c) for c in (task / "children").read_text().split())
        except (OSError, ValueError):
            continue
        total += int(fields[11]) + int(fields[12])  # utime, stime in clock ticks
    return total / os.sysconf("SC_CLK_TCK")


async def bench_bare(decisions: int, transport: str) -> Figures:
    bare = BareServer()
    server = grpc.aio.server()
    handler = grpc.stream_stream_rpc_method_handler(bare.ping)
    server.add_generic_rpc_handlers((grpc.method_handlers_generic_handler("bench.Bare", {"Ping": handler}),))
    folder = tempfile.mkdtemp(prefix="bench-bare-")
    if transport == "unix":
        address = f"unix:{folder}/bare.sock"
        server.add_insecure_port(address)
    else:
        address = f"127.0.0.1:{server.add_insecure_port('127.0.0.1:0')}"
    await server.start()
    client = [sys.executable, __file__, "--bare-client", address]
    procs = [subprocess.Popen(client) for _ in range(CLIENTS)]  # noqa: ASYNC220 - before anything is timed
    try:
        await asyncio.wait_for(bare.ready.wait(), 30)
        ping = bytes(PING_BYTES)
        ctxs = bare.contexts
        for ctx in ctxs:  # warm up
            await ctx.write(ping)
            await ctx.read()
        pids = [p.pid for p in procs]
        start, cpu, ccpu = time.perf_counter(), cpu_seconds(), _children_cpu(pids)
        for i in range(decisions):
            ctx = ctxs[i % CLIENTS]
            await ctx.write(ping)
            await ctx.read()
        elapsed, cpu, ccpu = time.perf_counter() - start, cpu_seconds() - cpu, _children_cpu(pids) - ccpu
        for ctx in ctxs:
            await ctx.write(b"bye")
        bare.done.set()
    finally:
        for p in procs:
            try:
                p.wait(timeout=5)
            except subprocess.TimeoutExpired:
                p.kill()
        await server.stop(0.5)
        shutil.rmtree(folder, ignore_errors=True)
    return Figures(decisions / elapsed, cpu / decisions, ccpu / decisions)


# ------------------------------------------------------------------ referee


# (d) the kits: NAME=COMMAND from the repository's root, and whether it runs with --tcp
KITS = (
    ("Python SDK", f"first={sys.executable} -m example_bots.first_bot", False),
    ("JavaScript", "js=node example_bots/js/bot.js", False),
    ("C++", "cpp=example_bots/cpp/build/bot", False),
    ("Go", "go=example_bots/go/build/bot", False),
    ("Java", "java=example_bots/java/build/bot", True),
    ("Go", "go=example_bots/go/build/bot", True),  # the relay's share of the Java figure, by difference
)


async def bench_referee(
    decisions: int, preset: str, relay: bool = False, bot_spec: str | None = None, warmup: int = 0
) -> tuple[Figures, int]:
    from referee.bots import BotCommand
    from referee.engine.presets import rules_for
    from referee.gamelog import LogWriter
    from referee.match import Match, MatchConfig, SeatBot, play_game, seat_bots
    from referee.seeding import derive_seed

    rules = rules_for(preset)
    bot = BotCommand.parse(bot_spec or f"first={sys.executable} -m example_bots.first_bot").with_tcp(relay)
    with tempfile.TemporaryDirectory() as tmp:
        config = MatchConfig(
            preset=preset, rules=rules, seats=seat_bots(rules, [SeatBot(bot.name, bot)]), log_dir=Path(tmp)
        )
        async with Match(config) as match:
            absent = await match.pool.ready(match.players)
            if absent:
                raise SystemExit(f"bots did not start: {absent}")
            done, games = 0, 0
            with LogWriter(Path(tmp) / "bench.jsonl") as writer:
                for number in range(warmup):  # untimed: a JIT compiles, caches fill
                    seed = derive_seed(2, "warm-up", number)
                    game_id = f"w{number:04d}"
                    await play_game(
                        match.players, rules=rules, preset=preset, game=number, game_id=game_id, seed=seed, log=writer
                    )
                pids = [p.pid for p in (match.pool.process(pl) for pl in match.players) if p is not None]
                start, cpu, ccpu = time.perf_counter(), cpu_seconds(), _children_cpu(pids)
                while done < decisions:
                    games += 1
                    result = await play_game(
                        match.players,
                        rules=rules,
                        preset=preset,
                        game=games,
                        game_id=f"g{games:04d}",
                        seed=derive_seed(1, "bench", games),
                        log=writer,
                    )
                    done += result.decisions
                elapsed, cpu, ccpu = time.perf_counter() - start, cpu_seconds() - cpu, _children_cpu(pids) - ccpu
    return Figures(done / elapsed, cpu / done, ccpu / done), games


def bench_kits(decisions: int, preset: str) -> None:
    """(d): each kit's bots in the referee, their CPU per decision against the Python SDK's."""
    python_cpu = None
    for language, spec, tcp in KITS:
        program = spec.split("=", 1)[1].split()[0]
        if not (ROOT / program).exists() and shutil.which(program) is None:
            print(f"(d) {language}: not built ({program}; `make test` builds every kit)")
            continue
        os.chdir(ROOT)  # the commands are relative to the repository's root
        figures, games = asyncio.run(bench_referee(decisions, preset, relay=tcp, bot_spec=spec, warmup=1))
        python_cpu = python_cpu or figures.clients_cpu_s
        print(
            f"(d) referee with {CLIENTS} {language} bots{' (--tcp: through the relay)' if tcp else ''}, {preset} "
            f"({games} games): {figures.per_second:8.0f} decisions/s (CPU per decision: referee "
            f"{figures.server_cpu_s * 1e6:.0f} us, bots {figures.clients_cpu_s * 1e6:.0f} us, "
            f"{figures.clients_cpu_s / python_cpu:.2f} x the Python SDK's)"
        )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--decisions", type=int, default=10000, help="decisions per measurement")
    parser.add_argument("--rounds", type=int, default=3, help="alternate (a) and (b) this often; medians are shown")
    parser.add_argument("--preset", default="neuralplay")
    parser.add_argument(
        "--relay",
        action="store_true",
        help="also (c): the bots dial 127.0.0.1 through the relay in their sandbox (--tcp)",
    )
    parser.add_argument(
        "--kits",
        action="store_true",
        help="also (d): the bots of each language's kit (Python SDK, JavaScript, C++, Go, Java), one round each",
    )
    parser.add_argument("--bare-client", metavar="ADDRESS", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.bare_client:
        asyncio.run(bare_client(args.bare_client))
        return
    from referee.logging import configure

    configure("warning")
    print(f"machine: {describe(grpc=True)}")
    rounds: dict[str, list[Figures]] = {"unix": [], "tcp": [], "referee": [], "relay": []}
    games = 0
    for _ in range(args.rounds):  # alternating, so a change in the machine's load hits all alike
        for transport in ("unix", "tcp"):
            rounds[transport].append(asyncio.run(bench_bare(args.decisions, transport)))
        ref, games = asyncio.run(bench_referee(args.decisions, args.preset))
        rounds["referee"].append(ref)
        if args.relay:
            rounds["relay"].append(asyncio.run(bench_referee(args.decisions, args.preset, relay=True))[0])
    if not args.relay:
        del rounds["relay"]
    unix, tcp, ref = (sorted(f, key=lambda x: x.per_second)[len(f) // 2] for f in list(rounds.values())[:3])
    for name, bare in (("Unix socket", unix), ("TCP 127.0.0.1", tcp)):
        print(
            f"(a) bare grpc.aio ping-pong, {CLIENTS} client processes, {name}: {bare.per_second:8.0f} round trips/s "
            f"(CPU per round trip: server {bare.server_cpu_s * 1e6:.0f} us, clients {bare.clients_cpu_s * 1e6:.0f} us)"
        )
    print(
        f"(b) referee, {CLIENTS} instant bots, Unix sockets, {args.preset} ({games} games): {ref.per_second:8.0f} "
        f"decisions/s (CPU per decision: referee {ref.server_cpu_s * 1e6:.0f} us, "
        f"bots {ref.clients_cpu_s * 1e6:.0f} us)"
    )
    if args.relay:
        relay = sorted(rounds["relay"], key=lambda x: x.per_second)[len(rounds["relay"]) // 2]
        print(
            f"(c) referee, the same bots through the relay (--tcp): {relay.per_second:8.0f} decisions/s "
            f"(CPU per decision: referee {relay.server_cpu_s * 1e6:.0f} us, bots and relays "
            f"{relay.clients_cpu_s * 1e6:.0f} us; "
            f"{(1 / relay.per_second - 1 / ref.per_second) * 1e6:+.0f} us a decision)"
        )
    if args.kits:
        bench_kits(args.decisions, args.preset)
    shown = {name: [round(f.per_second) for f in figures] for name, figures in rounds.items()}
    print(f"    each round: {shown}")
    print(
        f"ratio referee/bare on the same transport (medians of {args.rounds} rounds): "
        f"{ref.per_second / unix.per_second:.2f}; CPU referee/bare server "
        f"{ref.server_cpu_s / unix.server_cpu_s:.2f}, bots/bare clients {ref.clients_cpu_s / unix.clients_cpu_s:.2f}"
    )


if __name__ == "__main__":
    main()
