"""Opening a ladder's run: its folder's database checked, its settings read, the sandbox and the backend picked.

``open_ladder(folder, ...)`` returns the ``referee.ladder.run.LadderRun``, ready to ``run()``. A ladder's
settings were fixed by ``arena ladder init`` (``referee.ladder.setup``); what a run chooses is where its
tables run (``placement``), as a tournament's does.
"""

from __future__ import annotations

from collections.abc import Callable

from referee.games.placement import HERE, Placement, Warn, bot_sandbox, choose_backend, unwarned
from referee.ladder.run import LadderRun
from referee.ladder.store import Store
from referee.runfolder import RunFolder


def open_ladder(
    folder: RunFolder,
    *,
    concurrency: int | None = None,
    workers: int | None = None,
    place: Placement = HERE,
    warn: Warn = unwarned,
    say: Callable[[str], None] = lambda line: None,
) -> LadderRun:
    """The ladder in ``folder``, ready to play. LadderError (one line) for a folder that is no usable ladder;
    SettingsError for a bad combination of options; SandboxUnavailable for ``--sandbox required`` where none
    can be made."""
    store = Store.open(folder)
    try:
        settings, options = store.settings(), store.options()
    finally:
        store.close()
    box = bot_sandbox(settings.sandbox, warn)
    backend, tables = choose_backend(place, workers=workers, concurrency=concurrency, sandbox=box)
    return LadderRun(folder, settings, options, backend, tables, say=say)
