"""A replay page per game, for the report's links: ``replays/g0007.html``, the page ``arena replay --html``
writes (``referee.replay.html``), which opens at ``#line=N`` (the step of log line N: a violation's) or
``#hand=H``.

Pages already written for a log that has not changed since are kept, so the report written at the end of a
resumed run makes only the new games' pages. Many pages are made in parallel, one process per CPU: a page
takes 50 to 100 ms of CPU and 150 to 250 KB of disk for a game of a dozen hands (docs/report.md).
"""

from __future__ import annotations

import os
from collections.abc import Callable, Sequence
from concurrent.futures import ProcessPoolExecutor
from multiprocessing import get_context
from pathlib import Path

from referee.gamelog import LogError
from referee.replay.html import viewer_page
from referee.replay.logfile import load_log
from referee.runfolder import replay_name, write_atomically

_PARALLEL_FROM = 24  # pages: below this, one process does it sooner than starting others


def write_replay(log: Path, out: Path) -> str | None:
    """Write the replay page of ``log`` to ``out``; None, or one line saying why it could not be made."""
    try:
        page = viewer_page(load_log(log))
    except FileNotFoundError:
        return f"{log}: missing"
    except (OSError, LogError) as exc:
        return str(exc)
    write_atomically(out, page)
    return None


def _current(log: Path, out: Path) -> bool:
    try:
        return out.stat().st_mtime_ns >= log.stat().st_mtime_ns
    except OSError:
        return False


def write_replays(
    games: Sequence[tuple[Path, str]],
    out_dir: Path,
    *,
    jobs: int | None = None,
    progress: Callable[[int, int], None] | None = None,
) -> list[str]:
    """Replay pages for (log, game id) pairs not yet made (or older than their log); the problems, one line each.

    ``progress(done, total)`` is called as pages are written.
    """
    out_dir.mkdir(parents=True, exist_ok=True)
    todo = [(log, out_dir / replay_name(game_id)) for log, game_id in games]
    todo = [(log, out) for log, out in todo if not _current(log, out)]
    problems: list[str] = []
    if not todo:
        return problems
    workers = min(jobs or len(os.sched_getaffinity(0)), len(todo))
    if len(todo) < _PARALLEL_FROM or workers < 2:
        for done, (log, out) in enumerate(todo, start=1):
            if (problem := write_replay(log, out)) is not None:
                problems.append(problem)
            if progress is not None:
                progress(done, len(todo))
        return problems
    # spawned, not forked: the caller may have threads (a gRPC server, Ray's client) that a fork would copy half-way
    with ProcessPoolExecutor(max_workers=workers, mp_context=get_context("spawn")) as pool:
        results = pool.map(write_replay, [log for log, _ in todo], [out for _, out in todo], chunksize=16)
        for done, problem in enumerate(results, start=1):
            if problem is not None:
                problems.append(problem)
            if progress is not None:
                progress(done, len(todo))
    return problems
