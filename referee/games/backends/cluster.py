"""Tables on a Ray cluster (``arena tournament --ray [ADDRESS]``).

Each table is a Ray actor asking for one CPU, placed by Ray on a node with
room. The actor runs the table's referee (a ``TableHost``: gRPC server on
the node's loopback) and starts the table's bot processes there, so a game
never crosses the network; only its result, its log and the bots' new
output come back to the driver (the arena process that started the
tournament), which writes them into the --out folder, game by game.

A lost node takes its actors with it: the game each was playing raises
``TableLost`` in the driver, goes back to the queue and is played from the
start by another table; a new actor is asked for in place of the lost one,
and Ray places it when a node has room. Only the driver records games, so
none is lost or counted twice.

What a node needs: the arena installed with its Ray extra (``pip install -e '.[ray]'`` in a checkout,
the same Python and Ray version as the driver) and the bots' commands. A ladder's frozen versions (a bot's
``readable`` folder, ``referee.frozen``) travel by themselves: the driver puts each in Ray's object store
once, as a tar, and a node that runs a table of it unpacks it into a store of its own (by its hash, checked:
once per node) and runs it from there.
Commands run in the driver's working folder when the node has that path
(install the bots at the same path on every node), or, with
``--ray-working-dir DIR``, in a copy of DIR that Ray ships to each node
(Ray's runtime_env ``working_dir``).

Ray is an optional extra: this module imports it only in ``connect``.
"""

from __future__ import annotations

import asyncio
import contextlib
import dataclasses
import io
import logging
import os
import shutil
import socket
import tempfile
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import structlog

from referee.frozen import tree as frozen_tree
from referee.frozen.archive import unpack_tar
from referee.frozen.store import FrozenStore, packed
from referee.games.backends import Table, TableLost, TablesError
from referee.games.backends.local import cpu_count
from referee.games.scheduled import ScheduledGame
from referee.games.settings import GameSettings
from referee.games.tables import PlayedGame, TableHost, TableRecords
from referee.match import OnHand
from referee.server import Limits
from referee.setting import SettingsError

log = structlog.get_logger("referee.games.cluster")

LOCAL = "local"  # --ray alone: start a Ray on this machine (Ray's own name for it)
INSTALL = "pip install -e '.[ray]' in the arena's checkout"  # the package is on no index: from the checkout
_OBJECT_STORE_BYTES = 128 * 1024 * 1024  # a local Ray's object store: game logs pass through it
_REACH_TIMEOUT_S = 5.0  # to open a connection to the head given with --ray
_CLOSE_WAIT_S = 10.0  # for a table to shut its bots down before its actor is killed
_WATCH_WAIT_S = 1.0  # the longest a live-view poll of a table waits for records
SHIPPED = frozen_tree.Limits(
    upload_bytes=1 << 62, unpacked_bytes=4096 * frozen_tree.MIB, files=100_000
)  # a frozen version, on a node


def connect(address: str, *, working_dir: Path | None = None, verbose: bool = False) -> RayBackend:
    """Join the Ray cluster at ``address`` (host:port, ``auto``), or start one here (``local``).

    SettingsError, one line, when Ray is not installed or the cluster cannot be reached.
    """
    try:
        import ray
    except ImportError:
        raise SettingsError(f"--ray needs Ray, an optional extra of the arena: {INSTALL}") from None
    if working_dir is not None and not working_dir.is_dir():
        raise SettingsError(f"--ray-working-dir {working_dir}: no such folder")
    options: dict[str, Any] = {
        "include_dashboard": False,
        "log_to_driver": verbose,
        "logging_level": logging.INFO if verbose else logging.WARNING,
        "runtime_env": {"working_dir": str(working_dir)} if working_dir is not None else None,
    }
    if address == LOCAL:
        options.update(num_cpus=cpu_count(), object_store_memory=_OBJECT_STORE_BYTES)
    else:
        _check_reachable(address)
    try:
        ray.init(address=address, **options)
    except Exception as exc:
        first = str(exc).strip().splitlines()[0] if str(exc).strip() else type(exc).__name__
        raise SettingsError(f"--ray {address}: cannot start or join the Ray cluster: {first}") from None
    if ray.cluster_resources().get("CPU", 0) < 1:
        ray.shutdown()
        raise SettingsError(f"--ray {address}: the Ray cluster has no CPU to run a table on (a table takes one)")
    return RayBackend(cwd=None if working_dir is not None else os.getcwd())


def _check_reachable(address: str) -> None:
    """A HOST:PORT that nothing answers on is a one-line error at once (Ray itself would retry for minutes)."""
    host, sep, port = address.removeprefix("ray://").rpartition(":")
    if not sep or not port.isdigit():
        return  # "auto", or a form Ray knows better than this
    try:
        socket.create_connection((host.strip("[]"), int(port)), timeout=_REACH_TIMEOUT_S).close()
    except OSError as exc:
        raise SettingsError(
            f"--ray {address}: no Ray head answers there ({exc.strerror or exc}); start one with "
            "`ray start --head`, or give --ray alone for a Ray on this machine"
        ) from None


class RayTable:
    """A table in a Ray actor: its referee and bot processes on the actor's node, logs in a scratch folder."""

    def __init__(
        self,
        settings: dict[str, Any],
        number: int,
        limits: dict[str, Any],
        connect_timeout_s: float,
        cwd: str | None,
        live: bool = False,
        frozen: dict[str, Any] | None = None,
    ) -> None:
        self.settings = GameSettings.from_record(settings, "the driver's settings")
        self.frozen = frozen or {}  # a frozen version's folder on the driver -> its tar, in the object store
        self.live = live  # keep the records of the game in play for the driver's live view (``watch``)
        self._records: list[dict[str, Any]] = []  # of the game in play, when live
        self._playing = 0  # the number of the game in play, 0 before the first
        self._more: asyncio.Event | None = None
        self.number = number
        self.limits = Limits(**limits)
        self.connect_timeout_s = connect_timeout_s
        self.cwd = cwd
        self.scratch: Path | None = None
        self.host: TableHost | None = None

    async def start(self) -> str:
        """Start the table's referee; the id of the node it runs on."""
        import ray

        if self.cwd is not None and os.path.isdir(self.cwd):
            os.chdir(self.cwd)  # bot commands with relative paths, as on the driver
        if self.frozen:
            self.settings = _on_this_node(self.settings, self.frozen)
        self.scratch = Path(tempfile.mkdtemp(prefix=f"arena-table{self.number}-"))
        self.host = TableHost(
            self.settings,
            self.scratch,
            [self.number],
            limits=self.limits,
            connect_timeout_s=self.connect_timeout_s,
            ship=True,
            sandbox=self.settings.sandbox,
            on_records=self._keep_records if self.live else None,
        )
        self._more = asyncio.Event()
        await self.host.start()
        return str(ray.get_runtime_context().get_node_id())

    async def play(self, game: dict[str, Any]) -> dict[str, Any]:
        """Play the game (``ScheduledGame.to_json``); the ``PlayedGame`` as a dict."""
        assert self.host is not None
        scheduled = ScheduledGame.from_json(game)
        self._records, self._playing = [], scheduled.number
        if self._more is not None:
            self._more.set()  # a watch waiting for this game to begin
        played = await self.host.play(self.number, scheduled)
        return played.as_dict()

    def _keep_records(self, table: int, records: list[dict[str, Any]]) -> None:
        self._records.extend(records)
        if self._more is not None:
            self._more.set()

    async def watch(self, game: int, after: int) -> list[dict[str, Any]]:
        """The records of game ``game`` in play from the ``after``-th on; waits a moment for some when there
        are none yet (an actor's async methods run side by side, so this answers while ``play`` plays)."""
        if self._more is not None and (self._playing != game or len(self._records) <= after):
            self._more.clear()
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self._more.wait(), _WATCH_WAIT_S)
        return self._records[after:] if self._playing == game else []

    async def close(self, reason: str) -> None:
        if self.host is not None:
            await self.host.close(reason)
        if self.scratch is not None:
            shutil.rmtree(self.scratch, ignore_errors=True)


NODE_STORE = "arena-frozen"  # a node's store of the frozen versions its tables run, in its temporary folder


def _on_this_node(settings: GameSettings, frozen: dict[str, Any]) -> GameSettings:
    """The settings with each frozen version unpacked into this node's store and its bots run from there."""
    import ray

    store = FrozenStore(Path(tempfile.gettempdir()) / NODE_STORE, shared=True)
    moved: dict[str, str] = {}
    for folder, ref in frozen.items():
        data: bytes = ray.get(ref)
        made = store.put(lambda writer, data=data: unpack_tar(io.BytesIO(data), writer), SHIPPED)  # type: ignore[misc]
        if made.hash != Path(folder).parent.name:
            raise TablesError(f"the frozen version {folder} came with other files (hash {made.hash[:12]})")
        moved[folder] = str(made.folder)

    def here(text: str) -> str:
        for there, local in moved.items():
            if text == there or text.startswith(there + "/"):
                return local + text[len(there) :]
        return text

    bots = tuple(
        dataclasses.replace(b, argv=tuple(map(here, b.argv)), readable=tuple(map(here, b.readable)))
        for b in settings.bots
    )
    return dataclasses.replace(settings, bots=bots)


class _ClusterTable:
    def __init__(self, backend: RayBackend, actor: Any, number: int) -> None:
        self.backend = backend
        self.actor = actor
        self.number = number
        self.node = ""  # set once the actor has started

    async def ready(self) -> None:
        import ray

        if self.node:
            return
        try:
            self.node = await self.actor.start.remote()  # waits while no node has a CPU free
        except ray.exceptions.RayActorError as exc:
            raise TableLost(f"table {self.number} did not start: {type(exc).__name__}") from None
        except ray.exceptions.RayTaskError as exc:
            cause = exc.cause if exc.cause is not None else exc
            raise TablesError(f"table {self.number} could not start: {type(cause).__name__}: {cause}") from None
        log.info("table started", table=self.number, node=self.node)

    async def play(self, game: ScheduledGame) -> PlayedGame:
        import ray

        watching = self.backend.on_records
        watcher = None if watching is None else asyncio.create_task(self._watch(game.number, watching))
        try:
            played = await self.actor.play.remote(game.to_json())
        except (ray.exceptions.RayActorError, ray.exceptions.ObjectLostError) as exc:
            raise TableLost(f"table {self.number} on node {self.node[:12]}: {type(exc).__name__}") from None
        except ray.exceptions.RayTaskError as exc:
            cause = exc.cause if exc.cause is not None else exc
            raise TablesError(f"table {self.number}, game {game.game_id}: {type(cause).__name__}: {cause}") from None
        finally:
            if watcher is not None:
                watcher.cancel()
                await asyncio.gather(watcher, return_exceptions=True)
        return PlayedGame.from_dict(played)

    async def _watch(self, game: int, on_records: TableRecords) -> None:
        """Pass the records of the game in play on to the live view while it is played (polled: the actor
        answers as soon as it has more, or after a second). A lost actor ends the watch; ``play`` says why."""
        seen = 0
        while True:
            try:
                records = await self.actor.watch.remote(game, seen)
            except Exception:
                return
            if records:
                seen += len(records)
                on_records(self.number, records)


class RayBackend:
    """The tables as Ray actors, one CPU each; ``release()`` when the tournament is over."""

    def __init__(self, *, cwd: str | None) -> None:
        import ray

        self.cwd = cwd
        self._actor_class = ray.remote(num_cpus=1, max_restarts=0, max_task_retries=0)(RayTable)
        self._init: tuple[dict[str, Any], dict[str, Any], float, dict[str, Any]] | None = None
        self._shipped: dict[str, Any] = {}  # a frozen version's folder -> its tar in the object store (put once)
        self._tables: list[_ClusterTable] = []
        self._replacements_left = 0
        self.on_records: TableRecords | None = None  # the live view's feed (see ``Backend.on_records``)
        self.on_hand: OnHand | None = None  # not called: the hands are dealt on the nodes

    def default_tables(self) -> int:
        import ray

        return max(1, int(ray.cluster_resources().get("CPU", 0)))

    def describe(self, tables: int) -> str:
        import ray

        nodes = [n for n in ray.nodes() if n.get("Alive")]
        return f"on Ray, {len(nodes)} node(s), {self.default_tables()} CPUs"

    async def open(
        self,
        settings: GameSettings,
        folder: Path,
        numbers: Sequence[int],
        *,
        limits: Limits,
        connect_timeout_s: float,
    ) -> list[Table]:
        import ray

        for copy in {r for b in settings.bots for r in b.readable} - set(self._shipped):
            self._shipped[copy] = ray.put(packed(Path(copy)))
        wanted = {r: self._shipped[r] for b in settings.bots for r in b.readable}
        self._init = (settings.record(), dataclasses.asdict(limits), connect_timeout_s, wanted)
        self._replacements_left = 3 * len(numbers)  # a bound, for actors that die for another reason than nodes
        return [self._start(n) for n in numbers]

    def _start(self, number: int) -> _ClusterTable:
        """A new actor for the table; Ray places it when a node has a CPU free (``ready`` waits for that)."""
        assert self._init is not None
        settings, limits, connect_timeout_s, frozen = self._init
        live = self.on_records is not None
        actor = self._actor_class.remote(settings, number, limits, connect_timeout_s, self.cwd, live, frozen)
        table = _ClusterTable(self, actor, number)
        self._tables.append(table)
        return table

    async def replace(self, table: Table) -> Table | None:
        import ray

        assert isinstance(table, _ClusterTable)
        with contextlib.suppress(Exception):
            ray.kill(table.actor)
        self._tables.remove(table)
        if self._replacements_left <= 0:
            return None
        self._replacements_left -= 1
        return self._start(table.number)

    async def close(self, reason: str) -> None:
        import ray

        started = [t for t in self._tables if t.node]
        closing = [asyncio.wait_for(t.actor.close.remote(reason), _CLOSE_WAIT_S) for t in started]
        await asyncio.gather(*closing, return_exceptions=True)
        for table in self._tables:
            with contextlib.suppress(Exception):
                ray.kill(table.actor)
        self._tables = []

    def release(self) -> None:
        """Leave the cluster (and stop it, when ``connect`` started it here)."""
        import ray

        ray.shutdown()
