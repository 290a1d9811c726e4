"""Opening a ladder's run: its folder's database checked, its settings read, the sandbox and the backend picked.

``open_ladder(folder, chosen)`` returns the ``referee.ladder.playing.LadderRun`` and when it stops by itself,
ready to ``run(stop)``. A ladder's settings were fixed by ``arena ladder init`` (``referee.ladder.setup``);
what a run chooses is where its tables run (``referee.games.placement``), as a tournament's does, and when
it stops (``LadderRunChoices``).
"""

from __future__ import annotations

import time
from collections.abc import Callable

from referee.games.placement import HERE, Placement, Warn, bot_sandbox, choose_backend, unwarned
from referee.ladder.database import LadderDatabase
from referee.ladder.playing import LadderRun, Stop
from referee.ladder.settings import LadderRunChoices
from referee.runfolder import RunFolder


def open_ladder(
    folder: RunFolder,
    chosen: LadderRunChoices,
    *,
    place: Placement = HERE,
    warn: Warn = unwarned,
    say: Callable[[str], None] = lambda line: None,
) -> tuple[LadderRun, Stop]:
    """The ladder in ``folder``, ready to play, and when the run stops by itself (after ``--games`` or
    ``--hours``, counted from now). LadderError (one line) for a folder that is no usable ladder; SettingsError
    for a bad combination of options; SandboxUnavailable for ``--sandbox required`` where none can be made."""
    db = LadderDatabase.open(folder)
    try:
        settings, options = db.settings(), db.options()
    finally:
        db.close()
    box = bot_sandbox(settings.sandbox, warn)
    backend, tables = choose_backend(place, workers=chosen.workers, concurrency=chosen.concurrency, sandbox=box)
    hours = chosen.hours
    stop = Stop(chosen.games, None if hours is None else time.monotonic() + hours * 3600)
    return LadderRun(folder, settings, options, backend, tables, say=say), stop
