"""Bot child processes: launch, connect, restart, and never leave one behind.

A bot is given as ``NAME=COMMAND`` (``BotCommand.parse``). ``BotPool`` owns
the players of a match or tournament: each player is one seat-playing bot
identity (a token on the server) with at most one child process at a time.
``await pool.ready(players)`` starts whatever is not running (a crashed bot is
restarted here, before the next game) and waits for the bots to connect.

A child gets ARENA_ADDRESS, ARENA_TOKEN and ARENA_SEED in its environment.
ARENA_ADDRESS is the gRPC target of its seat's own Unix socket
(``unix:PATH``, ``ArenaServer.open_seat``), or for a bot whose gRPC library
cannot dial one (``BotCommand.tcp``) ``127.0.0.1:PORT``: a relay in its
sandbox, or without the sandbox a port of the seat's own. A child
runs in its own process group (killed as a group), writes stdout and stderr to
a file beside the game log, and on Linux is killed by the kernel if the
referee dies (PR_SET_PDEATHSIG). ``kill_all`` is also registered with atexit.
Bare, a stopped bot's processes that left its group are found by the
ARENA_TOKEN in their environment and killed too (``_kill_strays``).
Where the pool has a ``Sandbox`` (referee/sandbox/) the command runs inside
it, so what the bot starts dies with it too; its resource limits
(``sandbox.ResourceLimits``: memory, output file size) apply with or without one.
"""

from __future__ import annotations

import asyncio
import atexit
import contextlib
import ctypes
import dataclasses
import os
import re
import shlex
import shutil
import signal
import subprocess
import sys
import time
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from pathlib import Path

import structlog

from referee.errors import ArenaError, InputError, did_you_mean
from referee.protocol.messages import shutdown_to_pb, to_bytes
from referee.runqueue import WaitClock
from referee.sandbox import ResourceLimits, Sandbox, seccomp
from referee.seeding import derive_seed
from referee.server import ArenaServer, Player

log = structlog.get_logger("referee.bots")

_NAME = re.compile(r"^[A-Za-z0-9][A-Za-z0-9_.-]{0,31}$")

# Where the relay listens in the sandbox of a bot that needs a TCP address (BotCommand.tcp): the bot's
# network namespace is its own, so one port serves every bot.
RELAY_PORT = 50051


class BotSpecError(InputError):
    """A NAME=COMMAND argument that cannot be used; the message says why."""


class BotStartError(ArenaError, RuntimeError):
    """A bot that could not be started and connected before play (a setup error); the message names it."""


@dataclass(frozen=True)
class BotCommand:
    """A named bot and the command line that starts one process of it.

    ``tcp``: its gRPC library cannot dial a Unix socket, so ARENA_ADDRESS is a
    127.0.0.1 host:port (a relay in its sandbox, see docs/protocol.md).
    """

    name: str
    argv: tuple[str, ...]
    tcp: bool = False
    readable: tuple[str, ...] = ()  # folders its sandbox lets it read where others are hidden (its frozen copy)

    @property
    def command(self) -> str:
        return shlex.join(self.argv)

    @classmethod
    def parse(cls, spec: str) -> BotCommand:
        name, sep, command = spec.partition("=")
        name = name.strip()
        if not sep or not name or not command.strip():
            raise BotSpecError(
                f"bad bot {spec!r}: expected NAME=COMMAND, like random='python -m example_bots.random_bot'"
            )
        if not _NAME.match(name):
            raise BotSpecError(
                f"bad bot name {name!r}: use up to 32 letters, digits, '_', '-' or '.', starting with a letter or digit"
            )
        try:
            argv = tuple(shlex.split(command))
        except ValueError as exc:
            raise BotSpecError(f"bad command for bot {name!r}: {exc}") from None
        return cls(name, argv)

    def with_tcp(self, tcp: bool = True) -> BotCommand:
        return dataclasses.replace(self, tcp=tcp)

    def check_runnable(self, *, runs_here: bool = True) -> None:
        """Raise BotSpecError when the program cannot be found, or, for a bot that ``runs_here`` (in the folder
        arena runs in, not on a Ray node with a folder of its own), the script it is given (``python mybot.py``,
        ``node bot.js``: the first argument that is no option, when it names a script) is no file here."""
        program = self.argv[0]
        if shutil.which(program, path=child_path()) is None:
            raise BotSpecError(f"bot {self.name!r}: program {program!r} not found (command: {self.command})")
        script = next((arg for arg in self.argv[1:] if not arg.startswith("-")), None)
        if runs_here and script is not None and _names_a_script(script) and not Path(script).is_file():
            raise BotSpecError(
                f"bot {self.name!r}: no file {script!r} in {Path.cwd()} (command: {self.command}); bot commands run "
                "from the folder arena runs in"
            )


# What the script of an interpreter's command line ends with (``python mybot.py``, ``java -jar bot.jar``).
SCRIPT_SUFFIXES = frozenset({".py", ".js", ".mjs", ".cjs", ".ts", ".jar", ".rb", ".pl", ".php", ".lua", ".sh"})


def _names_a_script(arg: str) -> bool:
    """Whether a command-line argument reads as a script's path: one word ending in a script's suffix (not
    ``bash -c 'python x.py'``'s code, nor ``python -m mod``'s module)."""
    return not any(ch.isspace() for ch in arg) and Path(arg).suffix.lower() in SCRIPT_SUFFIXES


def with_tcp(bots: Iterable[BotCommand], names: Iterable[str]) -> tuple[BotCommand, ...]:
    """The bots, each named in ``names`` (``--tcp NAME``) given a TCP address and the others not; a name
    that is no bot's raises BotSpecError."""
    bots = tuple(bots)
    wanted = set(names)
    unknown = sorted(wanted - {b.name for b in bots})
    if unknown:
        known = [b.name for b in bots]
        hint = did_you_mean(unknown[0], known)
        raise BotSpecError(f"--tcp {unknown[0]!r}: no bot has that name{hint} (the bots: {', '.join(known)})")
    return tuple(b.with_tcp(b.name in wanted) for b in bots)


# ---------------------------------------------------------------- processes


def child_path() -> str:
    """PATH for bot processes: the referee's own interpreter directory first, so that
    ``python -m mybot`` runs with the packages the arena is installed with (its venv)."""
    here = os.path.dirname(sys.executable)
    rest = os.environ.get("PATH", os.defpath)
    return here if not rest else f"{here}{os.pathsep}{rest}"


_PR_SET_PDEATHSIG = 1
_prctl = None
if sys.platform.startswith("linux"):
    with contextlib.suppress(OSError, AttributeError):
        _prctl = ctypes.CDLL(None, use_errno=True).prctl


def die_with_parent() -> None:
    """Runs in the child between fork and exec: SIGKILL when the referee's thread ends."""
    if _prctl is not None:
        _prctl(_PR_SET_PDEATHSIG, signal.SIGKILL, 0, 0, 0)


def output_lines(path: Path, count: int, limit: int = 300) -> list[str]:
    """The last ``count`` lines a bot wrote (not the launcher's ``--- COMMAND`` lines), each at most ``limit``
    characters and printable (a control character shows as ``?``); none when the file cannot be read."""
    try:
        with path.open("rb") as f:
            f.seek(max(0, f.seek(0, os.SEEK_END) - 4096))
            text = f.read().decode(errors="replace")
    except OSError:
        return []
    lines = [line.strip() for line in text.splitlines() if line.strip() and not line.startswith("--- ")]
    shown = ["".join(ch if ch.isprintable() else "?" for ch in line) for line in lines[-count:]]
    return [line if len(line) <= limit else "..." + line[-limit:] for line in shown]


def output_tail(path: Path, limit: int = 300) -> str:
    """The last line a bot wrote that names an error (else its last line), at most ``limit`` characters, or ''."""
    lines = output_lines(path, 64, limit)
    errors = [line for line in lines if "error" in line.lower()]  # a traceback's last line, Node's "Error: ..."
    return (errors or lines or [""])[-1]


_LIVE: set[BotProcess] = set()


class BotProcess:
    """One running child of a bot command."""

    def __init__(
        self,
        argv: Sequence[str],
        env: dict[str, str],
        output: Path,
        sandbox: Sandbox | None = None,
        *,
        socket: str | None = None,
        relay_port: int | None = None,
    ) -> None:
        """``socket``: the seat's Unix socket, bound into the sandbox; ``relay_port``: a relay inside the
        sandbox listens there and forwards to the socket."""
        self.limits = sandbox.limits if sandbox is not None else ResourceLimits()
        self.output = output
        output.parent.mkdir(parents=True, exist_ok=True)
        filter_fd = seccomp.memfd() if sandbox is not None and sandbox.kind == "bwrap" else None
        if sandbox is None:
            command = list(argv)
        else:
            command = sandbox.wrap(
                argv, socket=socket, relay_port=relay_port, search_path=env.get("PATH"), seccomp_fd=filter_fd
            )
        limits_now = self.limits

        def in_child() -> None:
            limits_now.apply()
            die_with_parent()

        with output.open("ab") as out:
            where = "" if sandbox is None else f" (in a {sandbox.kind} sandbox)"
            out.write(f"--- {shlex.join(argv)}{where}\n".encode())
            out.flush()
            # PR_SET_PDEATHSIG fires when the thread that forked exits: the
            # referee launches from its event loop's (main) thread.
            try:
                self.popen = subprocess.Popen(
                    command,
                    env=env,
                    stdin=subprocess.DEVNULL,
                    stdout=out,
                    stderr=out,
                    start_new_session=True,  # own process group; the terminal's Ctrl-C goes to the referee only
                    preexec_fn=in_child,
                    close_fds=True,
                    pass_fds=() if filter_fd is None else (filter_fd,),
                )
            finally:
                if filter_fd is not None:
                    os.close(filter_fd)
        self.pid = self.popen.pid
        # bare, what the bot starts outside its process group is found by the token it inherits
        self.stray_marker = None if sandbox is not None or "ARENA_TOKEN" not in env else env["ARENA_TOKEN"]
        _LIVE.add(self)

    @property
    def returncode(self) -> int | None:
        return self.popen.poll()

    @property
    def running(self) -> bool:
        return self.popen.poll() is None

    async def wait_exit(self, timeout_s: float) -> bool:
        """True when the process has exited within ``timeout_s``."""
        deadline = time.monotonic() + timeout_s
        while self.popen.poll() is None:
            if time.monotonic() >= deadline:
                return False
            await asyncio.sleep(0.02)
        return True

    def signal_group(self, sig: int) -> None:
        with contextlib.suppress(ProcessLookupError, PermissionError):
            os.killpg(self.pid, sig)

    async def stop(self, grace_s: float = 2.0) -> None:
        """SIGTERM the group, then SIGKILL what is left after ``grace_s``."""
        if self.running:
            self.signal_group(signal.SIGTERM)
            await self.wait_exit(grace_s)
        self.kill()

    def kill(self) -> None:
        """SIGKILL the whole group now and reap the child (bare: and the processes it left, see ``_kill_strays``)."""
        self.signal_group(signal.SIGKILL)
        with contextlib.suppress(subprocess.TimeoutExpired):
            self.popen.wait(timeout=5)
        if self.stray_marker is not None:
            _kill_strays(self.stray_marker)
        if self in _LIVE:
            _LIVE.discard(self)
            self._note_output_cap()

    def _note_output_cap(self) -> None:
        """The kernel stopped the bot's writes at ``limits.output_bytes`` (RLIMIT_FSIZE): say so in the file."""
        with contextlib.suppress(OSError):
            if self.output.stat().st_size >= self.limits.output_bytes:
                with self.output.open("ab") as out:
                    out.write(f"\n--- output cut at {self.limits.output_bytes} bytes (the bot's limit)\n".encode())


def _kill_strays(token: str) -> None:
    """SIGKILL every process (but this one) whose environment holds ``ARENA_TOKEN=token``.

    Without the sandbox, a bot's children that left its process group (setsid,
    double forks) are not killed with the group; they keep the environment the
    bot was started with, unless they clear it. Linux only (/proc); a no-op elsewhere.
    """
    wanted = f"ARENA_TOKEN={token}".encode()
    try:
        entries = os.listdir("/proc")
    except OSError:
        return
    for entry in entries:
        if not entry.isdigit() or int(entry) == os.getpid():
            continue
        try:
            with open(f"/proc/{entry}/environ", "rb") as f:
                found = wanted in f.read().split(b"\0")
        except OSError:  # gone, or not ours
            continue
        if found:
            with contextlib.suppress(ProcessLookupError, PermissionError):
                os.kill(int(entry), signal.SIGKILL)


def kill_all() -> None:
    """Kill every child still alive (atexit, and the last resort of a signal handler)."""
    for proc in list(_LIVE):
        proc.kill()


atexit.register(kill_all)


# ---------------------------------------------------------------- the pool


@dataclass(eq=False)
class PoolPlayer:
    """A player of the pool: the server-side identity and the command that runs it."""

    player: Player
    bot: BotCommand | None  # None: started by hand (arena serve)
    seed: int
    process: BotProcess | None = None
    starts: int = 0
    output: Path | None = None
    failures: list[str] = field(default_factory=list)


class BotPool:
    """The players of a match or tournament and their processes.

    Each process writes its stdout and stderr to ``OUTPUT_DIR/OUTPUT_STEM.PLAYER.stderr`` (with an empty
    ``output_stem``, ``OUTPUT_DIR/PLAYER.stderr``: a match's folder is the match's alone).
    """

    def __init__(
        self,
        server: ArenaServer,
        *,
        output_dir: Path,
        output_stem: str,
        seed: int,
        connect_timeout_s: float = 10.0,
        sandbox: Sandbox | None = None,
    ) -> None:
        self.sandbox = sandbox
        self.server = server
        self.output_dir = output_dir
        self.output_stem = output_stem
        self.seed = seed
        self.connect_timeout_s = connect_timeout_s
        self._members: dict[Player, PoolPlayer] = {}

    def add(self, player_id: str, bot: BotCommand | None, bot_name: str | None = None) -> Player:
        """A new player; ``bot`` None means it is started by hand with the printed token."""
        name = bot.name if bot is not None else (bot_name or player_id)
        player = self.server.add_player(player_id, name, name_from_hello=bot is None)
        self._members[player] = PoolPlayer(player, bot, derive_seed(self.seed, "bot", player_id))
        return player

    @property
    def players(self) -> list[Player]:
        return list(self._members)

    def process(self, player: Player) -> BotProcess | None:
        return self._members[player].process

    def output_of(self, player: Player) -> Path | None:
        """The file the player's process writes its stdout and stderr to (None: never started by the pool)."""
        return self._members[player].output

    def starts(self, player: Player) -> int:
        """How many processes the player has had (2 after one restart)."""
        return self._members[player].starts

    async def ready(self, players: Iterable[Player]) -> dict[Player, str]:
        """Start what is not running, wait for every bot to connect.

        Returns the players that could not be made ready, with the reason
        (did not start, exited, or did not connect in time).
        """
        members = [self._members[p] for p in players]
        for m in members:
            exited = m.process is not None and not m.process.running  # its stream may not have noticed yet
            if not m.player.connected or exited:
                await self._launch(m)
        waits = [self._wait_connected(m) for m in members if not m.player.connected]
        problems = await asyncio.gather(*waits)
        return {m.player: why for m, why in problems if why}

    async def _launch(self, m: PoolPlayer) -> None:
        if m.bot is None:
            return
        m.player.drop()  # a stream left by a process that is gone: wait for the new one
        if m.process is not None:
            if m.process.running:  # alive but not connected: it left its stream; start afresh
                m.process.kill()
            log.info("restarting bot", player=m.player.player_id, exit_code=m.process.returncode)
        m.starts += 1
        prefix = f"{self.output_stem}." if self.output_stem else ""
        m.output = self.output_dir / f"{prefix}{m.player.player_id}.stderr"
        relay = m.bot.tcp and self.sandbox is not None
        try:
            seat = await self.server.open_seat(m.player, tcp=m.bot.tcp and not relay)
        except OSError as exc:
            m.process = None
            m.failures.append(f"no seat socket for it: {exc}")
            return
        if relay:
            address = f"127.0.0.1:{RELAY_PORT}"
        elif m.bot.tcp:
            assert seat.tcp_address is not None  # open_seat(tcp=True) gave the seat a port
            address = seat.tcp_address
        else:
            address = seat.target
        env = dict(os.environ)
        env.update(
            ARENA_ADDRESS=address,
            ARENA_TOKEN=m.player.token,
            ARENA_SEED=str(m.seed),
            PATH=child_path(),
        )
        if m.player.wait_clock is not None:
            m.player.wait_clock.close()
            m.player.wait_clock = None
        try:
            sandbox = self.sandbox
            if sandbox is not None and m.bot.readable:
                sandbox = sandbox.with_readable(*map(Path, m.bot.readable))
            m.process = BotProcess(
                m.bot.argv,
                env,
                m.output,
                sandbox,
                socket=seat.socket,
                relay_port=RELAY_PORT if relay else None,
            )
        except OSError as exc:
            m.process = None
            m.failures.append(f"cannot start {m.bot.command!r}: {exc.strerror or exc}")
            return
        m.player.wait_clock = WaitClock(m.process.pid)

    async def _wait_connected(self, m: PoolPlayer) -> tuple[PoolPlayer, str]:
        player = m.player
        if m.bot is not None and m.process is None:
            return m, m.failures[-1] if m.failures else "not started"
        connect = asyncio.ensure_future(player.wait_connected())
        waiters: set[asyncio.Future[None] | asyncio.Future[bool]] = {connect}
        exited = None
        if m.process is not None:
            exited = asyncio.ensure_future(m.process.wait_exit(self.connect_timeout_s))
            waiters.add(exited)
        timeout = self.connect_timeout_s if m.bot is not None else None
        try:
            await asyncio.wait(waiters, timeout=timeout, return_when=asyncio.FIRST_COMPLETED)
        finally:
            for w in waiters:
                w.cancel()
        if player.connected:
            return m, ""
        if m.process is not None and not m.process.running:
            why = f"exited with code {m.process.returncode} before connecting"
        else:
            why = f"did not connect within {self.connect_timeout_s:g} s"
            if m.process is not None:
                m.process.kill()
        if m.output is not None:
            why += f" (its output: {m.output})"
            tail = output_tail(m.output)
            if tail:
                why += f"; it ended: {tail!r}"
        if self.sandbox is not None and m.process is not None:
            why += " (in the sandbox: read-only files but /tmp, see docs/security.md)"
        m.failures.append(why)
        log.info("bot not ready", player=player.player_id, reason=why)
        return m, why

    async def close(self, reason: str = "match finished", players: Iterable[Player] | None = None) -> None:
        """Shutdown to every connected bot, a moment to exit, then kill what is left.

        With ``players``, only those: they leave the pool (a tournament table
        whose next game has other bots).
        """
        bye = to_bytes(shutdown_to_pb(reason))
        members = list(self._members.values()) if players is None else [self._members.pop(p) for p in players]
        await asyncio.gather(*(m.player.connection.send(bye) for m in members if m.player.connection is not None))
        procs = [m.process for m in members if m.process is not None]
        # a bot started by hand has no process to wait for: its stream ends when it half-closes (status OK)
        by_hand = [m.player.connection for m in members if m.process is None and m.player.connection is not None]
        await asyncio.gather(*(p.wait_exit(2.0) for p in procs), *(c.wait_ended(2.0) for c in by_hand))
        for p in procs:
            await p.stop(grace_s=1.0)
        for m in members:
            await self.server.remove_player(m.player)
            if m.player.wait_clock is not None:
                m.player.wait_clock.close()
                m.player.wait_clock = None
