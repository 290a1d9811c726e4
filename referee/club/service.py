"""The club's work, apart from HTTP: take a member's upload, freeze it, build it, and say how it goes.

``Club`` owns the club's database (one connection, in a thread of its own: every query runs there), the
store of frozen versions, the builds and the members' page sessions. The HTTP server
(``referee.club.server``) only parses requests and calls it.

A submission goes: the archive is read (at most the upload limit), unpacked through the frozen store's
checks, its language found, and its tree compared with the hash the member's command computed; then it is
recorded (``referee.club.submissions``) and queued for a build. At most ``builds_at_once`` builds run, each
in a thread of a pool that lives as long as the server (a build dies with the thread that started it). What
a build made is frozen in ``club/builds/`` (a store of frozen trees, as the versions are: whole or not at all),
and its output kept in ``club/logs/``. Every change of state wakes whoever watches
(``watch``): the member's ``submit`` prints each as it happens.

When the server starts, versions it was building when it stopped (``kill -9`` included) are built again;
what a killed build left half-made is removed.
"""

from __future__ import annotations

import asyncio
import json
import os
import secrets
import sqlite3
import tempfile
import time
from collections.abc import AsyncIterator, Callable
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from pathlib import Path
from typing import BinaryIO, TypeVar

import structlog

from referee.club import entries
from referee.club import submissions as subs
from referee.club.build import Builder, Outcome, recipe
from referee.club.db import CLUB_DB, ClubError, connect
from referee.club.members import Member, Tokens
from referee.club.settings import ClubSettings
from referee.club.toolchains import TOOLCHAINS, ready
from referee.frozen.archive import unpack
from referee.frozen.store import FrozenStore
from referee.frozen.tree import Tree, TreeError, TreeWriter
from referee.kits import KITS, Language
from referee.ladder.database import Code, LadderDatabase
from referee.runfolder import RunFolder
from referee.sandbox import Sandbox

log = structlog.get_logger("referee.club")
T = TypeVar("T")

VERSIONS = "versions"  # the frozen versions (referee.frozen.store), in the club's (the ladder's) folder
CLUB = "club"  # the club's own files: tls/, builds/, logs/, toolchains/
BUILDS, LOGS = "builds", "logs"
SESSION_S = 12 * 3600.0
QUIET_S = 10.0  # a watcher is given a sign of life this often while nothing changes
BOARD_S = 1.0  # the public board is made again at most this often
CODE_S = 120.0

# the file each kit's starter runs (``referee.kits``): a folder holding one is a bot of that kit
ENTRY = {language: kit.entry for language, kit in KITS.items()}


def detect(tree: Tree, hint: str | None) -> Language:
    """The kit of a bot's tree: its Makefile at the top and the file its kit's starter runs. TreeError for a
    folder of no kit, of several, or not the one ``hint`` names."""
    paths = tree.paths()
    if "Makefile" not in paths:
        raise TreeError(
            "no Makefile at the top of the bot's folder: the server builds a bot with its kit's Makefile "
            "(arena new NAME --lang LANG writes one)"
        )
    found = [language for language, entry in ENTRY.items() if entry in paths]
    if hint is not None:
        try:
            wanted = Language(hint)
        except ValueError:
            raise TreeError(f"unknown language {hint!r}: the kits are {', '.join(ENTRY)}") from None
        if wanted not in found:
            raise TreeError(f"a {wanted.value} bot has {ENTRY[wanted]} at the top of its folder: not found")
        return wanted
    if len(found) == 1:
        return found[0]
    if not found:
        kinds = ", ".join(f"{entry} ({language.value})" for language, entry in ENTRY.items())
        raise TreeError(f"unknown language: the folder holds none of {kinds}; start a bot with arena new NAME --lang L")
    both = ", ".join(ENTRY[language] for language in found)
    raise TreeError(f"the folder holds the files of several kits ({both}): say which with --lang")


@dataclass(frozen=True)
class ClubPaths:
    folder: Path

    @property
    def db(self) -> Path:
        return self.folder / CLUB_DB

    @property
    def own(self) -> Path:
        return self.folder / CLUB

    @property
    def versions(self) -> Path:
        return self.folder / VERSIONS

    @property
    def builds(self) -> Path:
        return self.own / BUILDS

    @property
    def logs(self) -> Path:
        return self.own / LOGS

    @property
    def toolchains(self) -> Path:
        return self.own / TOOLCHAINS

    def build_log(self, submission: subs.Submission) -> Path:
        return self.logs / f"{submission.bot}@{submission.version}.build.txt"


class Club:
    """The club in ``folder``: ``async with Club(...) as club``."""

    def __init__(self, folder: Path, settings: ClubSettings, sandbox: Sandbox) -> None:
        self.paths = ClubPaths(folder)
        self.settings = settings
        self.builder = Builder(sandbox.with_hidden(folder), settings.build, settings.build_user)
        self.store = FrozenStore(self.paths.versions)
        self.builds = FrozenStore(self.paths.builds)  # what builds made, frozen by its own hash
        self._db_thread = ThreadPoolExecutor(1, "club-db")
        self._io = ThreadPoolExecutor(4, "club-io")
        self._build_threads = ThreadPoolExecutor(settings.builds_at_once, "club-build")
        self._builds = asyncio.Semaphore(settings.builds_at_once)
        self._db: sqlite3.Connection | None = None
        self._ladder: LadderDatabase | None = None
        self._tokens: Tokens | None = None
        self._recording = asyncio.Lock()  # a new version's number and its record, one submission at a time
        self._changed = asyncio.Event()
        self.generation = 0  # how many changes so far (the public board is made again after one)
        self._board = (-1, "", 0.0)  # the public board as JSON: the generation it shows, the text, made when
        self._board_lock = asyncio.Lock()
        self._tasks: set[asyncio.Task[None]] = set()
        self._sessions: dict[str, tuple[Member, float]] = {}
        self._codes: dict[str, tuple[Member, float]] = {}

    # ------------------------------------------------------------ lifetime

    async def __aenter__(self) -> Club:
        for folder in (self.paths.own, self.paths.logs):
            folder.mkdir(parents=True, exist_ok=True)
        os.chmod(self.paths.folder, 0o700)  # the club's files are the server's alone (builds run as another user)
        recorded = await self.db(lambda db: {(s.bot, s.version) for s in subs.everyone(db)})
        for label in await self.on_ladder(lambda ladder: entries.lost_builds(ladder, recorded)):
            log.warning("club.lost", version=label)
        for waiting in await self.db(subs.waiting):
            self._start_build(waiting)
        return self

    async def __aexit__(self, *exc: object) -> None:
        for task in list(self._tasks):
            task.cancel()
        await asyncio.gather(*self._tasks, return_exceptions=True)
        self._build_threads.shutdown(wait=False, cancel_futures=True)
        self._io.shutdown(wait=False, cancel_futures=True)
        await asyncio.get_running_loop().run_in_executor(self._db_thread, self._close)
        self._db_thread.shutdown(wait=True)

    def _close(self) -> None:
        for connection in (self._db, self._ladder):
            if connection is not None:
                connection.close()

    async def db(self, work: Callable[[sqlite3.Connection], T]) -> T:
        """Run ``work`` with the club's connection, in the database's thread."""

        def run() -> T:
            return work(self._club_db())

        return await asyncio.get_running_loop().run_in_executor(self._db_thread, run)

    async def on_ladder(self, work: Callable[[LadderDatabase], T]) -> T:
        """Run ``work`` with the ladder's connection, in the database's thread."""

        def run() -> T:
            return work(self._ladder_db())

        return await asyncio.get_running_loop().run_in_executor(self._db_thread, run)

    def _club_db(self) -> sqlite3.Connection:
        if self._db is None:
            self._db = connect(self.paths.db)
            self._tokens = Tokens(self._db)
        return self._db

    def _ladder_db(self) -> LadderDatabase:
        if self._ladder is None:
            self._ladder = LadderDatabase.open(RunFolder(self.paths.folder))
        return self._ladder

    def changed(self) -> None:
        """Something members watch has changed (a game recorded: a validation, a rating)."""
        self._notify()

    def _notify(self) -> None:
        self.generation += 1
        self._changed.set()
        self._changed = asyncio.Event()

    async def next_change(self, within_s: float) -> bool:
        """Wait for the next change (True), or ``within_s`` seconds (False)."""
        return await self.next_change_of(self._changed, within_s)

    @staticmethod
    async def next_change_of(changed: asyncio.Event, within_s: float = QUIET_S) -> bool:
        try:
            await asyncio.wait_for(changed.wait(), within_s)
        except TimeoutError:
            return False
        return True

    # ------------------------------------------------------------ members

    async def member(self, token: str) -> Member | None:
        """The member whose token this is, or None (malformed, unknown, revoked or wrong)."""

        def check(db: sqlite3.Connection) -> Member | None:
            assert self._tokens is not None
            return self._tokens.check(token)

        return await self.db(check)

    def page_code(self, member: Member) -> str:
        """A one-time code that opens a page session for ``member`` (``/login?code=``), good for two minutes."""
        code = secrets.token_urlsafe(24)
        self._codes[code] = (member, time.monotonic() + CODE_S)
        return code

    def open_session(self, code: str) -> str | None:
        """A session for the member of a page code (used once), or None when it is unknown or old."""
        member, until = self._codes.pop(code, (None, 0.0))
        if member is None or time.monotonic() > until:
            return None
        session = secrets.token_urlsafe(32)
        self._sessions[session] = (member, time.monotonic() + SESSION_S)
        return session

    def session(self, session: str) -> Member | None:
        member, until = self._sessions.get(session, (None, 0.0))
        return member if member is not None and time.monotonic() < until else None

    # ------------------------------------------------------------ submissions

    def languages(self) -> dict[str, str]:
        """For each kit, '' when the server can build it, else why not."""
        return ready(self.paths.own)

    async def receive(self, body: BinaryIO, hint: str | None, claimed: str | None) -> tuple[Tree, Language]:
        """Freeze the archive ``body`` (read already, at most the upload limit): its tree and language, or
        TreeError (nothing is kept)."""
        limits = self.settings.upload_limits
        why_not = self.languages()
        found: list[Language] = []

        def write(writer: TreeWriter) -> Tree:
            tree = unpack(body, writer)
            language = detect(tree, hint)
            if why_not.get(language.value):
                raise TreeError(f"this server cannot build {language.value} bots: {why_not[language.value]}")
            if claimed is not None and claimed != tree.hash:
                raise TreeError(
                    f"the archive does not hold the tree its request names (named {claimed[:12]}, holds "
                    f"{tree.hash[:12]}): it was changed on the way; send it again"
                )
            found.append(language)
            return tree

        frozen = await asyncio.get_running_loop().run_in_executor(self._io, self.store.put, write, limits)
        return self.store.tree(frozen.hash), found[0]

    async def submit(
        self, body: BinaryIO, member: Member, bot: str, hint: str | None, claimed: str | None
    ) -> tuple[subs.Submission, bool]:
        """A version of ``bot`` from the archive ``body``: recorded and queued for its build (or the version of
        the same content sent before). TreeError, NotYours, QuotaError."""
        await self.db(lambda db: subs.check_may_send(db, member, bot))
        tree, language = await self.receive(body, hint, claimed)
        per_day = self.settings.submissions_per_day
        code = Code(tree.hash, "", tree.size, language.value, KITS[language].tcp)

        def record(db: sqlite3.Connection) -> tuple[subs.Submission, bool]:
            number = lambda: entries.reserve(self._ladder_db(), bot, code)  # noqa: E731  (taken once the checks pass)
            return subs.submit(db, member, bot, tree.hash, language.value, tree.size, tree.files, per_day, number)

        async with self._recording:
            submission, new = await self.db(record)
        if new:
            self._start_build(submission)
        self._notify()
        return submission, new

    async def retry(self, member: Member, bot: str, version: int) -> subs.Submission:
        """Try a version again whose build or validation failed, its content unchanged: build it again, or
        validate it again."""
        submission = await self.db(lambda db: subs.get(db, member, bot, version))
        if submission.state == subs.FAILED:
            await self.on_ladder(lambda ladder: entries.rebuild(ladder, submission))
            await self.db(lambda db: subs.set_state(db, submission.id, subs.RECEIVED))
            self._start_build(submission)
        elif submission.state == subs.BUILT:
            await self.on_ladder(lambda ladder: entries.revalidate(ladder, submission))
        else:
            raise ClubError(f"{submission.label} is still being built: wait for its build")
        self._notify()
        return await self.db(lambda db: subs.by_id(db, submission.id))

    async def versions(self, member: Member) -> list[subs.Submission]:
        return await self.db(lambda db: subs.of_member(db, member))

    async def version(self, member: Member, bot: str, version: int | None) -> subs.Submission:
        return await self.db(lambda db: subs.get(db, member, bot, version))

    async def where(self, submissions: list[subs.Submission]) -> list[entries.Entry]:
        """How the versions stand: their builds, then the ladder."""
        return await self.on_ladder(lambda ladder: entries.entries(ladder, submissions))

    async def outputs(self, submission: subs.Submission) -> list[dict[str, str]]:
        """What the version's bot printed in its recent games."""
        label = f"{submission.bot}.v{submission.version}"
        return await self.on_ladder(lambda ladder: entries.outputs(ladder, label))

    async def bots_of(self, names: set[str]) -> dict[str, dict[str, object]]:
        """These bots' ratings over time and head-to-head results, by version."""
        return await self.on_ladder(lambda ladder: entries.bots_of(ladder, names))

    async def board_json(self) -> str:
        """The public board as JSON: made again after a change, at most once every ``BOARD_S``, whoever asks
        (page clients share one)."""
        async with self._board_lock:
            shown, text, made = self._board
            if shown != self.generation and (not text or time.monotonic() - made >= BOARD_S):
                generation = self.generation
                data = await self.on_ladder(entries.public_board)
                text = json.dumps(data, separators=(",", ":"))
                self._board = (generation, text, time.monotonic())
            return self._board[1]

    def build_log(self, submission: subs.Submission) -> str:
        try:
            return self.paths.build_log(submission).read_text(encoding="utf-8", errors="replace")
        except FileNotFoundError:
            return ""

    async def watch(self, member: Member, bot: str, version: int) -> AsyncIterator[entries.Entry | None]:
        """The version each time its state changes, until it plays or will not (the first at once): its build,
        its validation; None after each ``QUIET_S`` without a change (the caller keeps its connection alive)."""
        last: tuple[str, str] | None = None
        said = time.monotonic()
        while True:
            changed = self._changed
            submission = await self.version(member, bot, version)
            (entry,) = await self.where([submission])
            if (entry.state, entry.reason) != last:
                last = (entry.state, entry.reason)
                said = time.monotonic()
                yield entry
            if entry.done:
                return
            if time.monotonic() - said >= QUIET_S:  # other versions change, this one waits: a sign of life
                said = time.monotonic()
                yield None
            await self.next_change_of(changed)

    # ------------------------------------------------------------ builds

    def _start_build(self, submission: subs.Submission) -> None:
        task = asyncio.create_task(self._build(submission))
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    async def _build(self, submission: subs.Submission) -> None:
        async with self._builds:
            await self.db(lambda db: subs.set_state(db, submission.id, subs.BUILDING))
            self._notify()
            before = await self.db(lambda db: subs.built_before(db, submission))
            if before is not None:
                outcome = Outcome(True, "built (the same files were built before)", "", 0.0, self.builds.get(before))
            else:
                outcome = await asyncio.get_running_loop().run_in_executor(
                    self._build_threads, self._build_now, submission
                )
            log_file = self.paths.build_log(submission)
            log_file.write_text(outcome.log, encoding="utf-8")
            state = subs.BUILT if outcome.ok else subs.FAILED
            build = outcome.made.hash if outcome.made is not None else None
            await self.db(lambda db: subs.set_state(db, submission.id, state, outcome.reason, outcome.seconds, build))
            made = outcome.made
            if made is not None:
                await self.on_ladder(lambda ladder: entries.built(ladder, submission, made.folder))
            else:
                await self.on_ladder(lambda ladder: entries.build_failed(ladder, submission, outcome.reason))
            log.info("club.build", version=submission.label, ok=outcome.ok, reason=outcome.reason)
            self._notify()

    def _build_now(self, submission: subs.Submission) -> Outcome:
        made = recipe(Language(submission.language), self.paths.toolchains, self.builder.python)
        source = self.store.get(submission.hash).folder
        return self.builder.build(source, self.store.tree(submission.hash), made, self.builds)


def spooled() -> BinaryIO:
    """A file for an upload as it arrives: in memory while small, then on disk."""
    return tempfile.SpooledTemporaryFile(max_size=1 << 20)  # type: ignore[return-value]
