"""Opening a run below the command line (referee.opening): the folder it chooses, the resume rules of a tournament and
of an SPRT, what it writes and when, the backend it picks. Real folders in tmp_path; no bot is started."""

from __future__ import annotations

import json
import sys
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest

from referee.bots import BotSpecError
from referee.games.backends.local import LocalBackend, cpu_count
from referee.games.backends.workers import WorkerBackend
from referee.games.placement import Placement, choose_backend
from referee.match import FaultPolicy
from referee.opening.sprt import open_sprt
from referee.opening.tournament import open_tournament
from referee.runfolder import FolderError, RunFolder, choose
from referee.sandbox import SandboxMode
from referee.setting import SettingsError
from referee.sprt.config import SprtChoices, SprtSettings
from referee.sprt.playing import SprtRun
from referee.stats.sprt import Model
from referee.tournament.settings import TournamentChoices, parse_bots, resolve

BOTS = parse_bots([f"{n}={sys.executable} -m example_bots.random_bot" for n in ("a", "b", "c")])
TWO = BOTS[:2]
HERE = Placement()


def given(folder: Path, **named: Any) -> TournamentChoices:
    return replace(TournamentChoices(bots=BOTS, out=folder, workers=1, sandbox=SandboxMode.OFF), **named)


def test_the_folder_is_out_else_logs_name_else_a_new_one_by_kind_and_time(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    assert choose(tmp_path / "x", "weekly", resume=True, kind="tournament", what="it").path == tmp_path / "x"
    assert choose(None, "weekly", resume=True, kind="tournament", what="it").path == Path("logs/weekly")
    monkeypatch.setattr("referee.runfolder.time.strftime", lambda form: form.replace("%Y%m%d-%H%M%S", "20250101-1200"))
    first = choose(None, None, resume=False, kind="sprt", what="the SPRT").path
    assert first == Path("logs/sprt-20250101-1200")
    first.mkdir(parents=True)
    assert choose(None, None, resume=False, kind="sprt", what="the SPRT").path == Path("logs/sprt-20250101-1200-2")
    with pytest.raises(FolderError, match=r"^--resume needs --name or --out \(or a --config naming them\): the SPRT"):
        choose(None, None, resume=True, kind="sprt", what="the SPRT to continue")


def test_a_new_tournament_saves_its_settings_and_is_named_after_its_folder(tmp_path: Path) -> None:
    folder = tmp_path / "weekly"
    tournament = open_tournament(given(folder, seed=7), place=HERE)
    saved = json.loads((folder / "settings.json").read_text())
    assert saved == tournament.settings.record()
    assert tournament.settings.name == "weekly" and tournament.settings.seed == 7
    assert tournament.folder.path == folder and tournament.concurrency == cpu_count()
    assert isinstance(tournament.backend, LocalBackend) and tournament.backend.describe(2) == ""
    assert sorted(p.name for p in folder.iterdir()) == ["settings.json"]  # the games come when it plays


@pytest.mark.parametrize(
    ("before", "message"),
    [
        ({"settings.json": "{}"}, "already holds a tournament: continue it with --resume"),
        ({"notes.txt": "mine"}, "is not empty: choose another --name or --out"),
    ],
)
def test_a_new_run_does_not_go_where_something_is(tmp_path: Path, before: dict[str, str], message: str) -> None:
    folder = tmp_path / "t"
    folder.mkdir()
    for name, text in before.items():
        (folder / name).write_text(text)
    with pytest.raises(FolderError, match=message):
        open_tournament(given(folder), place=HERE)
    assert {p.name: p.read_text() for p in folder.iterdir()} == before


def test_a_tournament_that_cannot_start_writes_nothing(tmp_path: Path) -> None:
    folder = tmp_path / "t"
    missing = parse_bots(["a=no-such-program-here", f"b={sys.executable}"])
    with pytest.raises(BotSpecError, match="program 'no-such-program-here' not found"):
        open_tournament(given(folder, bots=missing), place=HERE)
    with pytest.raises(SettingsError, match="--ray-working-dir goes with --ray"):
        open_tournament(given(folder, workers=None), place=Placement(ray_working_dir=tmp_path))
    assert not folder.exists()


def test_a_resumed_tournament_takes_what_is_not_named_from_its_folder(tmp_path: Path) -> None:
    folder = tmp_path / "t"
    first = open_tournament(given(folder, seed=7, move_time=300, on_fault=FaultPolicy.DEFAULT), place=HERE)
    again = open_tournament(TournamentChoices(out=folder, workers=1), resume=True, place=HERE)
    assert again.settings == first.settings
    # how the games are played, and the name, may change; what decides them may not
    changed = open_tournament(
        given(folder, name="other", seed=7, move_time=300, on_fault=FaultPolicy.DEFAULT), resume=True
    )
    assert changed.settings.name == "other" and changed.settings.seed == 7


def test_a_resumed_tournament_must_describe_the_same_games(tmp_path: Path) -> None:
    folder = tmp_path / "t"
    open_tournament(given(folder, seed=7), place=HERE)
    before = (folder / "settings.json").read_text()
    with pytest.raises(SettingsError) as caught:
        open_tournament(
            TournamentChoices(out=folder, seed=8, move_time=500, bots=TWO, workers=1), resume=True, place=HERE
        )
    assert str(caught.value) == (
        f"--resume: these settings differ from those {folder} was started with (here / there): seed 8 / 7; "
        "move_time_ms 500 / 1000; bots a, b / a, b, c. Give the same settings, or leave them out to use the saved ones"
    )
    assert (folder / "settings.json").read_text() == before


def test_only_a_folder_with_saved_settings_resumes(tmp_path: Path) -> None:
    with pytest.raises(FolderError, match=r"holds no tournament to resume \(no settings.json\)"):
        open_tournament(TournamentChoices(out=tmp_path / "none"), resume=True, place=HERE)
    broken = tmp_path / "broken"
    broken.mkdir()
    (broken / "settings.json").write_text("{not json")
    with pytest.raises(FolderError, match=r"settings.json: cannot read it \(Expecting property name"):
        open_tournament(TournamentChoices(out=broken), resume=True, place=HERE)


def test_a_folder_written_by_an_older_arena_resumes_with_the_settings_it_lacks_defaulted(tmp_path: Path) -> None:
    """settings.json of format 1 from before time banks, seatings, gauntlets, sandboxes and --tcp."""
    folder = tmp_path / "old"
    settings = open_tournament(given(folder), place=HERE).settings
    old = settings.record()
    for key in ("time_bank_ms", "all_seatings", "gauntlet", "sandbox", "tcp"):
        del old[key]
    (folder / "settings.json").write_text(json.dumps(old))
    resumed = open_tournament(TournamentChoices(out=folder, workers=1), resume=True, place=HERE).settings
    assert resumed == replace(settings, sandbox=SandboxMode.AUTO)  # it was saved as off; absent, it is auto
    assert (resumed.time_bank_ms, resumed.all_seatings, resumed.gauntlet) == (0, False, None)


def test_the_backend_follows_the_workers_and_the_tables(tmp_path: Path) -> None:
    two = open_tournament(given(tmp_path / "w", workers=2, concurrency=3), place=HERE)
    assert isinstance(two.backend, WorkerBackend) and two.concurrency == 3
    assert two.backend.describe(3) == "in 2 worker processes" and two.backend.describe(1) == "in 1 worker processes"
    one, tables = choose_backend(HERE, workers=None, concurrency=1, sandbox=None)
    assert isinstance(one, LocalBackend) and tables == 1  # one table: no worker process for it
    with pytest.raises(SettingsError, match=r"^--ray and --workers: choose one"):
        choose_backend(Placement(ray="local"), workers=2, concurrency=None, sandbox=None)


def test_more_tables_than_cpus_is_a_warning(tmp_path: Path) -> None:
    said: list[str] = []
    open_tournament(given(tmp_path / "t", concurrency=cpu_count() + 1), place=HERE, warn=said.append)
    assert said == [
        f"warning: {cpu_count() + 1} tables on {cpu_count()} CPUs: the games run slower; a bot kept waiting for a "
        "CPU gets that time back at its deadline, up to one more move time"
    ]


def sprt_given(folder: Path, **named: Any) -> SprtChoices:
    return replace(SprtChoices(bots=TWO, out=folder, workers=1, sandbox=SandboxMode.OFF), **named)


def duplicate_pairs(run: SprtRun) -> list[tuple[int, int]]:
    """The deal and seating of each game the SPRT plans."""
    return [(g.deal, g.rotation) for g in run.series.schedule]


def test_a_new_sprt_saves_its_test_and_its_games(tmp_path: Path) -> None:
    folder = tmp_path / "s"
    run = open_sprt(sprt_given(folder, elo1=20.0, max_pairs=30), place=HERE)
    assert json.loads((folder / "sprt.json").read_text()) == run.plan.record()
    assert run.plan.test.elo1 == 20 and run.plan.max_pairs == 30 and run.plan.test.model is Model.LOGISTIC
    saved = SprtSettings.load(RunFolder(folder))
    assert saved == run.settings and saved.name == "s"
    assert duplicate_pairs(run) == [(deal, seating) for deal in range(30) for seating in (0, 1)]  # 60 games


def test_a_resumed_sprt_may_play_more_pairs_not_fewer_and_keeps_its_test(tmp_path: Path) -> None:
    folder = tmp_path / "s"
    open_sprt(sprt_given(folder, elo1=20.0, max_pairs=30), place=HERE)
    more = open_sprt(SprtChoices(out=folder, workers=1, max_pairs=40), resume=True, place=HERE)
    assert more.plan.test.elo1 == 20 and more.plan.max_pairs == 40
    assert json.loads((folder / "sprt.json").read_text())["max_pairs"] == 40  # saved with its games
    assert len(duplicate_pairs(more)) == 80
    with pytest.raises(SettingsError, match=r"^--resume: --max-pairs may grow, not shrink \(it was 40\)$"):
        open_sprt(SprtChoices(out=folder, max_pairs=39), resume=True, place=HERE)
    with pytest.raises(SettingsError) as caught:
        open_sprt(SprtChoices(out=folder, seed=3, elo1=25.0), resume=True, place=HERE)
    assert "(here / there): seed 3 / 1; elo1 25.0 / 20.0. Give the same settings" in str(caught.value)


def test_an_sprt_folder_of_an_older_arena_resumes(tmp_path: Path) -> None:
    """Older arenas saved an SPRT's settings.json as a tournament's (its games, duplicate deals, a format): it
    still resumes, as the same SPRT."""
    folder = tmp_path / "s"
    run = open_sprt(sprt_given(folder, elo1=20.0, max_pairs=30), place=HERE)
    older = resolve(TournamentChoices(bots=TWO, games=60, name="s", sandbox=SandboxMode.OFF)).record()
    assert older["games"] == 60 and older["duplicate"] and older["format_name"] == "round-robin"
    (folder / "settings.json").write_text(json.dumps(older))
    again = open_sprt(SprtChoices(out=folder, workers=1), resume=True, place=HERE)
    assert again.settings == run.settings and duplicate_pairs(again) == duplicate_pairs(run)


@pytest.mark.parametrize(
    ("named", "message"),
    [
        ({"bots": BOTS}, r"an SPRT compares two bots \(--bot NEW=... --bot BASE=...\), got 3"),
        ({"preset": "double-deck-3p"}, "an SPRT plays pairs of games between two teams; double-deck-3p"),
        ({"elo0": 10.0, "elo1": 5.0}, r"elo0 \(10\) must be below elo1 \(5\)"),
    ],
)
def test_what_is_no_sprt_is_refused_before_anything_is_written(
    tmp_path: Path, named: dict[str, Any], message: str
) -> None:
    with pytest.raises(Exception, match=message):
        open_sprt(sprt_given(tmp_path / "s", **named), place=HERE)
    assert not (tmp_path / "s").exists()


def test_only_a_folder_with_an_sprt_resumes_as_one(tmp_path: Path) -> None:
    open_tournament(given(tmp_path / "t"), place=HERE)
    with pytest.raises(SettingsError, match=r"holds no SPRT to resume \(no sprt.json\)"):
        open_sprt(SprtChoices(out=tmp_path / "t"), resume=True, place=HERE)
