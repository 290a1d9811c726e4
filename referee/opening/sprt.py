"""Opening an SPRT: its folder, its settings (new, or a resumed run's), its test, the bots, the backend.

An SPRT's settings are the games' settings and its test (``referee.sprt.config``); it decides the rest
itself (two bots, duplicate pairs, up to ``max_pairs`` deals) and keeps its test in sprt.json. On
resume, what neither the command line nor a file names comes from the folder's sprt.json and
settings.json; the test and the games must be the same, except that max_pairs may grow (deal n is the
same whatever the schedule's length), never shrink. The steps a tournament's opening shares are
``referee.opening.tournament``'s.
"""

from __future__ import annotations

from dataclasses import replace

from referee.games.placement import HERE, Placement, Warn, unwarned
from referee.opening.tournament import check_same, folder_of, prepare, releasing
from referee.runfolder import write_json
from referee.setting import SettingsError
from referee.sprt.config import SprtChoices, SprtPlan, SprtSettings, resolve_sprt
from referee.sprt.playing import SprtRun


def open_sprt(chosen: SprtChoices, *, resume: bool = False, place: Placement = HERE, warn: Warn = unwarned) -> SprtRun:
    """The SPRT ``chosen`` describes (its games and its test), in its folder, ready to play; with ``resume``,
    the one in the folder. Raises a one-line ``ArenaError`` as ``open_tournament`` does, and for what is no
    SPRT."""
    folder = folder_of(chosen, resume=resume, kind="sprt", what="the SPRT")
    saved_plan = SprtPlan.load(folder) if resume else None
    plan = chosen.plan(saved_plan)
    if saved_plan is not None:
        saved = SprtSettings.load(folder)
        settings = resolve_sprt(replace(chosen, name=saved.name), saved)
        if plan.max_pairs < saved_plan.max_pairs:
            raise SettingsError(f"--resume: --max-pairs may grow, not shrink (it was {saved_plan.max_pairs})")
        # more pairs extend the schedule: not a difference
        check_same(folder, settings.differences(saved) + plan.differences(saved_plan, but=("max_pairs",)))
    else:
        settings = resolve_sprt(replace(chosen, name=chosen.name or folder.path.name))
    backend, tables = prepare(settings, chosen, folder, new=saved_plan is None, place=place, warn=warn)
    with releasing(backend):
        if plan != saved_plan:  # a new test, or one given more pairs: its games are saved with it
            write_json(folder.sprt, plan.record())
            write_json(folder.settings, settings.record())
        return SprtRun(settings, plan, folder, concurrency=tables, backend=backend)
