"""A run's folder: the names of its files, the choice of where it is, and the one way to write a file into it.

Every run of the arena that keeps a folder (a tournament, an SPRT, a
ladder) keeps this layout, and whatever reads or writes one (the series of games, the
SPRT, the report, the live view, the analysis) takes the names from here::

    settings.json        the settings, written when the run starts (its presence says "a run is here")
    results.jsonl        one line per finished game, appended and fsync'd (referee.games.results)
    sprt.json            an SPRT's test; sprt-result.json, where it stands when it stops
    games/g0001.jsonl    each game's log (g0001.jsonl.part while it is played)
    bots/                what each table's bot processes printed
    standings.csv, standings.json
    analysis.json        what `arena analyze` found, for the report
    report.html, replays/g0001.html
    ladder.db            a ladder's database (SQLite, with ladder.db-wal beside it while in use)
    ladder.lock          held by the one `arena ladder run` playing the ladder
    ladder.json          a ladder's settings and versions, rewritten whole at each change (to rebuild its database)

A match (``arena match``, ``play``, ``serve``) keeps a folder of its own too,
``logs/match-DATE-TIME/`` (``MatchFolder``)::

    match.jsonl          the match's log, every game of it
    seat0-NAME.stderr    what the bot at each seat printed (one file per seat)

A file is written whole or not at all (``write_atomically``): into a
temporary file beside it, then renamed over it (``put_in_place``), so a
reader, or a run killed half-way, never meets half a file.

A low room: it imports nothing of the arena but ``referee.errors``, so the
tournament, the SPRT, the report and the analysis can all use it.
"""

from __future__ import annotations

import contextlib
import json
import os
import re
import time
from pathlib import Path
from typing import Any

from referee.errors import InputError

LOGS = Path("logs")  # where runs and match logs go unless told otherwise
MATCH_LOG = "match.jsonl"  # a match folder's log
MATCH_KIND = "match"  # a match folder is named match-DATE-TIME
SETTINGS = "settings.json"
RESULTS = "results.jsonl"
SPRT = "sprt.json"
SPRT_RESULT = "sprt-result.json"
ANALYSIS = "analysis.json"
STANDINGS_CSV = "standings.csv"
STANDINGS_JSON = "standings.json"
REPORT = "report.html"
GAMES = "games"
BOTS = "bots"
REPLAYS = "replays"
LADDER_DB = "ladder.db"
LADDER_LOCK = "ladder.lock"
LADDER_JSON = "ladder.json"
PART = ".part"  # a game log being written
_TMP = ".tmp"  # any other file being written


class FolderError(InputError):
    """A run folder that cannot be used as asked: the message is one line naming it."""


def put_in_place(written: Path, path: Path) -> None:
    """Rename the complete file ``written`` over ``path`` (atomic on one file system)."""
    os.replace(written, path)


def write_atomically(
    path: Path, data: str | bytes, *, sync: bool = False, suffix: str = _TMP, private: bool = False
) -> None:
    """Write ``path`` whole: into PATH+``suffix``, flushed to disk first with ``sync`` (for what must survive a
    power cut, as a game's log), then renamed over it. ``private``: mode 0600 from its first byte (a secret)."""
    written = path.with_name(path.name + suffix)
    if private:
        written.unlink(missing_ok=True)  # a file left by a killed write keeps its mode: made afresh
    fd = os.open(written, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600 if private else 0o666)
    with os.fdopen(fd, "wb") as out:
        out.write(data.encode("utf-8") if isinstance(data, str) else data)
        if sync:
            out.flush()
            os.fsync(out.fileno())
    put_in_place(written, path)


def write_json(path: Path, data: Any, *, indent: int = 2, ensure_ascii: bool = True) -> None:
    """``data`` as JSON text with a final newline, written whole."""
    write_atomically(path, json.dumps(data, indent=indent, ensure_ascii=ensure_ascii) + "\n")


def log_name(game_id: str) -> str:
    """Where a game's log goes, relative to the run folder (results.jsonl records it so)."""
    return f"{GAMES}/{game_id}.jsonl"


def replay_name(game_id: str) -> str:
    """A game's replay page, in the replays folder."""
    return f"{game_id}.html"


class RunFolder:
    """The folder of one run, and the paths of its files."""

    def __init__(self, path: Path) -> None:
        self.path = path
        self.settings = path / SETTINGS
        self.results = path / RESULTS
        self.sprt = path / SPRT
        self.sprt_result = path / SPRT_RESULT
        self.analysis = path / ANALYSIS
        self.standings_csv = path / STANDINGS_CSV
        self.standings_json = path / STANDINGS_JSON
        self.report = path / REPORT
        self.games = path / GAMES
        self.bots = path / BOTS
        self.replays = path / REPLAYS
        self.ladder_db = path / LADDER_DB
        self.ladder_lock = path / LADDER_LOCK
        self.ladder_json = path / LADDER_JSON

    def log(self, game_id: str) -> Path:
        return self.path / log_name(game_id)

    def replay(self, game_id: str) -> Path:
        return self.replays / replay_name(game_id)

    def outputs(self, player: str, *, copies: bool = False) -> list[Path]:
        """What the processes that played ``player`` printed (``bots/tableT.PLAYER.N.stderr``, at any table and
        seat; with ``copies``, also its copies' ``PLAYER.cK``), oldest first. Matched whole: never another
        player whose name holds this one (``x.PLAYER``, ``PLAYER.x``)."""
        copy = r"(\.c[0-9]+)?" if copies else ""
        name = re.compile(rf"table[0-9]+\.{re.escape(player)}{copy}\.[0-9]+\.stderr")
        found = [p for p in self.bots.glob("table*.stderr") if name.fullmatch(p.name)]
        return sorted(found, key=lambda p: p.stat().st_mtime_ns)

    def last_output(self, player: str) -> Path | None:
        """What the last process to play ``player`` printed, or None when none did."""
        files = self.outputs(player)
        return files[-1] if files else None

    def holds_run(self) -> bool:
        """Whether a run was started here (its settings are saved)."""
        return self.settings.exists()

    def saved_settings(self) -> Any:
        """The settings saved when the run started, as JSON; FolderError when there are none (nothing to resume)."""
        if not self.holds_run():
            raise FolderError(f"{self.path} holds no tournament to resume (no {SETTINGS})")
        return self.read_json(self.settings)

    def read_json(self, path: Path) -> Any:
        """A JSON file of the folder; FolderError, naming it, when it cannot be read or is not JSON."""
        try:
            return json.loads(path.read_text(encoding="utf-8"))
        except (OSError, UnicodeDecodeError, json.JSONDecodeError) as exc:
            raise FolderError(f"{path}: cannot read it ({exc})") from None

    def check_new(self) -> None:
        """FolderError unless a new run can start here: no run in it already, nothing else in it either."""
        if self.holds_run():
            raise FolderError(
                f"{self.path} already holds a tournament: continue it with --resume, or choose another --name or --out"
            )
        if self.path.exists() and any(self.path.iterdir()):
            raise FolderError(f"{self.path} is not empty: choose another --name or --out for a new tournament")

    def create(self, settings: dict[str, Any]) -> None:
        """Make the folder of a new run (``check_new`` first) and save its settings."""
        self.check_new()
        self.path.mkdir(parents=True, exist_ok=True)
        write_json(self.settings, settings)


def fresh_path(parent: Path, kind: str) -> Path:
    """``PARENT/KIND-DATE-TIME``, with ``-2``, ``-3`` ... added while that exists."""
    base = parent / time.strftime(f"{kind}-%Y%m%d-%H%M%S")
    path, k = base, 1
    while path.exists():
        k += 1
        path = base.with_name(f"{base.name}-{k}")
    return path


def choose(out: Path | None, name: str | None, *, resume: bool, kind: str, what: str) -> RunFolder:
    """The folder of a run: ``out``, else ``logs/NAME``, else a new ``logs/KIND-DATE-TIME`` (which a resumed
    run cannot be: FolderError, saying which options name it; ``what`` is the run, as "the tournament")."""
    if out is not None:
        return RunFolder(out)
    if name is not None:
        return RunFolder(LOGS / name)
    if resume:
        raise FolderError(f"--resume needs --name or --out (or a --config naming them): {what} to continue")
    return RunFolder(fresh_path(LOGS, kind))


class MatchFolder:
    """The folder of one match: its log and what its bots printed, together.

    ``MatchFolder.create(parent)`` makes a new ``PARENT/match-DATE-TIME``. A
    match that never started (no log opened) leaves only what says why it
    did not: ``discard`` removes everything else, and the folder too when
    nothing is kept.
    """

    def __init__(self, path: Path) -> None:
        self.path = path
        self.log = path / MATCH_LOG

    @classmethod
    def create(cls, parent: Path) -> MatchFolder:
        """A new, empty match folder in ``parent`` (made, with ``parent``, if missing)."""
        parent.mkdir(parents=True, exist_ok=True)
        while True:
            path = fresh_path(parent, MATCH_KIND)
            try:
                path.mkdir()
            except FileExistsError:  # another match took that second's name meanwhile
                continue
            return cls(path)

    def discard(self, keep: frozenset[Path] = frozenset()) -> None:
        """Remove the folder's files but those in ``keep``; the folder too when none is kept."""
        for entry in self.path.iterdir():
            if entry not in keep and entry.is_file():
                entry.unlink()
        with contextlib.suppress(OSError):  # not empty: what says why stays
            self.path.rmdir()
