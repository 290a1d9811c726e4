"""Opening an SPRT: a tournament's opening (``referee.run.tournament``) with the SPRT's own rules on top.

An SPRT fixes some of the games' settings itself (two bots, two teams,
duplicate pairs, ``2 * max_pairs`` games) and keeps its test in sprt.json.
On resume, what neither the command line nor a file names comes from the
folder's sprt.json and settings.json; the test and the games must be the same,
except that max_pairs may grow (deal n is the same whatever the schedule's
length), never shrink.
"""

from __future__ import annotations

from dataclasses import replace

from referee.engine.presets import rules_for
from referee.games.placement import HERE, Placement, Warn, unwarned
from referee.run.tournament import check_same, folder_of, prepare, releasing
from referee.runfolder import write_json
from referee.setting import SettingsError
from referee.sprt.config import SprtGiven
from referee.sprt.runner import SprtPlan, SprtRun, check_bot_count, check_teams, check_two_bots
from referee.tournament.settings import Given, TournamentSettings, resolve


def open_sprt(
    given: Given,
    test: SprtGiven,
    *,
    resume: bool = False,
    place: Placement = HERE,
    warn: Warn = unwarned,
) -> SprtRun:
    """The SPRT ``given`` and ``test`` describe, in its folder, ready to play; with ``resume``, the one in the
    folder. Raises a one-line ``ArenaError`` as ``open_tournament`` does, and for what is no SPRT."""
    folder = folder_of(given, resume=resume, kind="sprt", what="the SPRT")
    saved_plan = SprtPlan.load(folder) if resume else None
    plan = test.plan(saved_plan)
    given = replace(given, games=2 * plan.max_pairs, duplicate=True, name=given.name or folder.path.name)
    if given.bots is not None:
        check_bot_count(len(given.bots))
    if given.preset is not None:
        check_teams(given.preset, rules_for(given.preset, dict(given.rules)).teams)
    if saved_plan is not None:
        saved = TournamentSettings.load(folder)
        settings = resolve(replace(given, name=saved.name), saved)
        if plan.max_pairs < saved_plan.max_pairs:
            raise SettingsError(f"--resume: --max-pairs may grow, not shrink (it was {saved_plan.max_pairs})")
        # more pairs extend the schedule: not a difference
        check_same(
            folder, settings.differences(saved, but=("games",)) + plan.differences(saved_plan, but=("max_pairs",))
        )
    else:
        settings = resolve(given)
    check_two_bots(settings)
    backend, tables = prepare(settings, given, folder, new=saved_plan is None, place=place, warn=warn)
    with releasing(backend):
        if plan != saved_plan:  # a new test, or one given more pairs: its games are saved with it
            write_json(folder.sprt, plan.record())
            write_json(folder.settings, settings.record())
        return SprtRun(settings, plan, folder, concurrency=tables, backend=backend)
