"""The database's rules on a real SQLite file, without bot processes: a version that faults too often is
suspended with the reason and never paired again; retiring; a validation game's outcome; the set rated only
when its last game is in, in the same transaction."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from referee.faults import Penalty, ViolationKind
from referee.games.backends.local import LocalBackend
from referee.games.results import GameRecord, ViolationRecord
from referee.games.settings import parse_bots
from referee.ladder import setup
from referee.ladder.database import LADDER, VALIDATION, LadderDatabase, LadderError
from referee.ladder.playing import LadderRun
from referee.ladder.policy import record_game
from referee.ladder.settings import LadderChoices
from referee.runfolder import RunFolder


def _record(number: int, teams: tuple[str, ...], scores: tuple[int, ...], faulty: str | None = None) -> GameRecord:
    violations: tuple[ViolationRecord, ...] = ()
    if faulty is not None:
        team = teams.index(faulty)
        violations = (ViolationRecord(team, team, faulty, ViolationKind.TIMEOUT, Penalty.FORFEIT, "too slow"),)
    return GameRecord(
        game=number, game_id=f"g{number:04d}", group=teams, deal=0, rotation=0, seed=1, teams=teams, scores=scores,
        winner=None, reason="hand-limit", forfeit=None if faulty is None else teams.index(faulty), hands=3,
        decisions=10, violations=violations, think=(), log=f"games/g{number:04d}.jsonl",
    )  # fmt: skip


@pytest.fixture
def store(tmp_path: Path) -> LadderDatabase:
    bots = parse_bots(["a=python -m example_bots.random_bot", "b=python -m example_bots.first_bot",
                       "c=python -m example_bots.rules_bot"])  # fmt: skip
    made, _ = setup.init(RunFolder(tmp_path / "l"), LadderChoices(preset="double-deck", bots=bots))
    for v in made.versions():  # their validation games, passed
        (s,) = [made.make_set(VALIDATION, [v.id], 1, 1)]
        labels = (v.label, v.copy_label(1))
        assert record_game(made, s, _record(s.first_game, labels, (0, 0)), 0.0, 0.0) == [
            f"{v.label} passed its validation game g{s.first_game:04d} and plays"
        ]
    return made


def test_a_version_faulting_too_often_is_suspended_and_never_paired(store: LadderDatabase) -> None:
    changes: list[str] = []
    for k in range(4):  # 8 games of a against b; a faults in 3 of them (more than 25%)
        s = store.make_set(LADDER, [1, 2], 7, 2)
        for r in range(2):
            teams = ("a.v1", "b.v1") if r == 0 else ("b.v1", "a.v1")
            faulty = "a.v1" if (k, r) in ((0, 0), (1, 1), (3, 0)) else None
            changes += record_game(store, s, _record(s.first_game + r, teams, (5, 3), faulty), 0.0, 0.0)
    assert changes == [
        "a.v1 is suspended: faults in 3 of its 8 ladder games (more than 25%); the last: timeout: too slow"
    ]
    a = store.version(1)
    assert a.status == "suspended" and a.reason.startswith("suspended: faults in 3 of its 8")
    assert store.sets(state="rated")[-1].versions == (1, 2)  # the set that suspended it is rated all the same
    run = LadderRun(store.folder, store.settings(), {}, LocalBackend(sandbox=None), 1)
    for _ in range(10):
        made = run.next_set(store, frozenset({1, 2, 3}))
        assert isinstance(made, list) and made
        assert 1 not in made[0][0].versions
    assert '"status": "suspended"' in store.folder.ladder_json.read_text()


def test_a_set_is_rated_with_its_last_game_only(store: LadderDatabase) -> None:
    s = store.make_set(LADDER, [2, 3], 9, 2)
    record_game(store, s, _record(s.first_game, ("b.v1", "c.v1"), (10, 0)), 0.0, 0.0)
    assert store.history() == [] and store.version(2).rating == store.version(3).rating
    record_game(store, s, _record(s.first_game + 1, ("c.v1", "b.v1"), (0, 10)), 0.0, 0.0)
    assert [(h[1], h[2]) for h in store.history()] == [(s.id, 2), (s.id, 3)]
    assert store.version(2).rating.mu > store.version(3).rating.mu


def test_retiring(store: LadderDatabase) -> None:
    (retired,) = setup.retire(store, "b")
    assert retired.label == "b.v1" and store.version(2).status == "retired"
    with pytest.raises(LadderError, match="b: no version of it plays"):
        setup.retire(store, "b")
    with pytest.raises(LadderError, match=r"the ladder has no bot 'z' \(its bots: a, b, c\)"):
        setup.retire(store, "z")
    # a retired bot may come back: its next version
    added = setup.add(store, parse_bots(["b=python -m example_bots.first_bot"])[0])
    assert added.version.version == 2 and added.previous is not None and added.previous.status == "retired"


def test_the_settings_of_a_ladder_made_by_an_older_arena_still_load(store: LadderDatabase) -> None:
    """Older arenas kept a ladder's settings in the tournament's form (games per pairing, duplicate deals, a
    gauntlet, a format): the ladder reads the same settings from them."""
    settings = store.settings()
    older = {
        **settings.record(),
        "games": settings.set_size,
        "duplicate": True,
        "gauntlet": None,
        "format_name": "round-robin",
        "rounds": None,
        "tie_sets": 2,
        "seeding": None,
    }
    with store.write():
        store.sql.execute("UPDATE meta SET value = ? WHERE key = 'settings'", (json.dumps(older),))
    assert store.settings() == settings and settings.set_size == 2 and settings.name == "l"
