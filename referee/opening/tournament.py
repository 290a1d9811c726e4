"""Opening a tournament: the folder, the settings (new, or a resumed run's), the bots, the sandbox, the backend.

``open_tournament(chosen, resume=...)`` does it all and returns the
``Tournament``, ready to ``run()``: its settings, its folder and the
backend its tables run on are its attributes. The parts an SPRT shares
(``referee.opening.sprt``) are here too.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import replace

from referee.games.backends import Backend
from referee.games.placement import HERE, Placement, Warn, bot_sandbox, choose_backend, crowding, unwarned
from referee.games.settings import FolderChoices, GameSettings, TableChoices
from referee.runfolder import RunFolder, choose
from referee.setting import SettingsError
from referee.tournament.playing import Tournament
from referee.tournament.settings import TournamentChoices, TournamentSettings, resolve


def open_tournament(
    chosen: TournamentChoices, *, resume: bool = False, place: Placement = HERE, warn: Warn = unwarned
) -> Tournament:
    """The tournament ``chosen`` describes, in its folder, ready to play; with ``resume``, the one in the folder
    (``chosen`` may leave out what it was started with, and must not change what decides its games).

    Raises a one-line ``ArenaError`` for what cannot be used (SettingsError, FolderError, RulesError,
    BotSpecError, SandboxUnavailable); ``warn`` says what is worth a warning. Nothing is written unless the
    tournament can start.
    """
    folder = folder_of(chosen, resume=resume, kind="tournament", what="the tournament")
    if resume:
        saved = TournamentSettings.load(folder)
        settings = resolve(chosen, saved)
        check_same(folder, settings.differences(saved))
    else:
        settings = resolve(replace(chosen, name=chosen.name or folder.path.name))
    backend, tables = prepare(settings, chosen, folder, new=not resume, place=place, warn=warn)
    with releasing(backend):  # a results file that does not fit the schedule: a one-line error
        tournament = Tournament(settings, folder, concurrency=tables, backend=backend)
    pending = len(tournament.schedule) - len(tournament.done)
    if (crowded := crowding(place, tables, pending)) is not None:
        warn(crowded)
    return tournament


def folder_of(chosen: FolderChoices, *, resume: bool, kind: str, what: str) -> RunFolder:
    """The run's folder: ``out``, else logs/NAME, else a new logs/KIND-DATE-TIME (not for a resumed run)."""
    return choose(chosen.out, chosen.name, resume=resume, kind=kind, what=what)


def check_same(folder: RunFolder, changed: list[str]) -> None:
    """SettingsError when a resumed run's settings differ from the saved ones in what decides its games."""
    if changed:
        raise SettingsError(
            f"--resume: these settings differ from those {folder.path} was started with (here / there): "
            f"{'; '.join(changed)}. Give the same settings, or leave them out to use the saved ones"
        )


def prepare(
    settings: GameSettings, chosen: TableChoices, folder: RunFolder, *, new: bool, place: Placement, warn: Warn
) -> tuple[Backend, int]:
    """Check the bots can run, pick the sandbox and the backend; for a ``new`` run, make its folder and save its
    settings (after every check, so that a run that cannot start leaves nothing behind). The backend and the
    number of tables."""
    for command in settings.bots:
        command.check_runnable(runs_here=place.ray is None)  # on Ray, a script may be in --ray-working-dir only
    box = bot_sandbox(settings.sandbox, warn)  # before the folder is made: `required` may refuse
    if new:
        folder.check_new()
    backend, tables = choose_backend(place, workers=chosen.workers, concurrency=chosen.concurrency, sandbox=box)
    if new:
        with releasing(backend):
            folder.create(settings.record())
    return backend, tables


@contextmanager
def releasing(backend: Backend) -> Iterator[None]:
    """Release the backend when what follows fails: a run that cannot start keeps no Ray cluster joined."""
    try:
        yield
    except BaseException:
        backend.release()
        raise
