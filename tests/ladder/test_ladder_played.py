"""A ladder of several bots and versions, played: its standings and rating history against a recomputation of
the test's own (openskill called here, from the games table), ``check`` (of the ratings, and of a result's two
copies), the exports (``history --json``, ``games``' CSV), and versions superseded."""

from __future__ import annotations

import csv
import io
import json
import shutil
import sqlite3
from pathlib import Path
from typing import Any

from openskill.models import PlackettLuce

from referee.ladder.check import check
from referee.ladder.database import LadderDatabase
from referee.runfolder import RunFolder
from tests.support.ladder import ladder, rows, standings


def test_the_stored_ratings_are_those_the_games_give(played: Path) -> None:
    model = PlackettLuce()
    ratings: dict[int, tuple[float, float]] = {}
    order = rows(played, "SELECT set_id FROM ratings GROUP BY set_id ORDER BY MIN(id)")
    assert len(order) >= 6
    for (set_id,) in order:
        (group_text,) = rows(played, "SELECT versions FROM sets WHERE id = ?", set_id)[0]
        group = json.loads(group_text)
        points = dict.fromkeys(group, 0)
        forfeits = dict.fromkeys(group, 0)
        for teams, scores, forfeit in rows(played, "SELECT teams, scores, forfeit FROM games WHERE set_id = ?", set_id):
            for team, version in enumerate(json.loads(teams)):
                points[version] += json.loads(scores)[team]
                forfeits[version] += forfeit == team
        keys = [(forfeits[v], -points[v]) for v in group]
        ranks = [1 + sum(k < mine for k in keys) for mine in keys]
        before = [[model.rating(*ratings.get(v, (model.mu, model.sigma)))] for v in group]
        after = model.rate(before, ranks=[float(r) for r in ranks])
        for v, rated in zip(group, after, strict=True):
            ratings[v] = (rated[0].mu, rated[0].sigma)
        stored = rows(played, "SELECT version, mu, sigma FROM ratings WHERE set_id = ? ORDER BY version", set_id)
        assert stored == sorted((v, *ratings[v]) for v in group)  # the history, update by update
    table = standings(played)["standings"]
    labels = dict(rows(played, "SELECT bot || '.v' || version, id FROM versions"))
    for row in table:
        mu, sigma = ratings.get(labels[row["label"]], (model.mu, model.sigma))
        assert (row["mu"], row["sigma"]) == (mu, sigma)  # in full precision: JSON is not the terminal
        assert row["ordinal"] == mu - 3 * sigma
    ranked = [r for r in table if r["rank"] is not None]
    assert [r["ordinal"] for r in ranked] == sorted((r["ordinal"] for r in ranked), reverse=True)
    checked = ladder("check", played)
    assert checked.returncode == 0, checked.stdout + checked.stderr
    assert checked.stdout.startswith(f"ok: {len(order)} rated set(s)")


def test_games_counted_per_version_are_the_games_table_s(played: Path) -> None:
    table = {r["label"]: r for r in standings(played)["standings"]}
    ladder_games = rows(
        played, "SELECT g.teams, g.winner FROM games g JOIN sets s ON s.id = g.set_id WHERE s.kind = 'ladder'"
    )
    for label, vid in rows(played, "SELECT bot || '.v' || version, id FROM versions"):
        mine = [(json.loads(t), w) for t, w in ladder_games if vid in json.loads(t)]
        assert table[label]["games"] == len(mine)
        assert table[label]["wins"] == sum(w is not None and teams[w] == vid for teams, w in mine)
    assert standings(played)["meta"]["ladder_games"] == len(ladder_games)


def test_a_new_version_supersedes_the_old_once_it_passed_its_validation(played: Path) -> None:
    table = {r["label"]: r for r in standings(played)["standings"]}
    assert table["rules.v1"]["status"] == "superseded" and table["rules.v1"]["reason"] == "superseded by v2"
    assert table["rules.v2"]["status"] == "active" and table["rules.v2"]["games"] > 0
    assert table["rules.v1"]["games"] > 0  # its games and rating are kept
    assert table["rules.v1"]["rank"] is None and table["rules.v2"]["rank"] is not None
    # no set made after the new version's validation game ended has the old one (a set made while that game was
    # in play, on the other table, may: the old version still played then)
    (validated,) = rows(
        played,
        "SELECT g.finished_at FROM games g JOIN sets s ON s.id = g.set_id WHERE s.kind = 'validation' "
        "AND s.versions = (SELECT json_array(id) FROM versions WHERE bot = 'rules' AND version = 2)",
    )[0]
    (v1,) = rows(played, "SELECT id FROM versions WHERE bot = 'rules' AND version = 1")[0]
    later = rows(played, "SELECT versions FROM sets WHERE kind = 'ladder' AND made_at > ?", validated)
    assert later and all(v1 not in json.loads(group) for (group,) in later), later


def test_check_finds_a_game_changed_behind_its_back(played: Path, tmp_path: Path) -> None:
    copy, target = copy_of(played, tmp_path)
    (number, scores) = target.execute(
        "SELECT g.number, g.scores FROM games g JOIN sets s ON s.id = g.set_id WHERE s.state = 'rated' LIMIT 1"
    ).fetchone()
    flipped = list(reversed(json.loads(scores)))
    target.execute("UPDATE games SET scores = ? WHERE number = ?", (json.dumps([flipped[0] + 50, flipped[1]]), number))
    target.commit()
    target.close()
    checked = ladder("check", copy)
    assert checked.returncode == 1
    assert "the stored ratings are not those of the games" in checked.stderr
    assert "recomputed" in checked.stdout


def copy_of(played: Path, tmp_path: Path) -> tuple[Path, sqlite3.Connection]:
    """A copy of the played ladder's database, and a connection to it."""
    copy = tmp_path / "copy"
    copy.mkdir()
    source = sqlite3.connect(played / "ladder.db")
    target = sqlite3.connect(copy / "ladder.db")
    source.backup(target)
    source.close()
    return copy, target


def test_check_finds_a_record_that_disagrees_with_its_row(played: Path, tmp_path: Path) -> None:
    copy, target = copy_of(played, tmp_path)
    (number, text) = target.execute("SELECT number, record FROM games ORDER BY number DESC LIMIT 1").fetchone()
    record = json.loads(text)
    record["scores"] = [s + 7 for s in record["scores"]]  # the record alone: the ratings come from the columns
    target.execute("UPDATE games SET record = ? WHERE number = ?", (json.dumps(record), number))
    target.commit()
    target.close()
    checked = ladder("check", copy)
    assert checked.returncode == 1, checked.stdout
    assert f"game {number}: its scores is " in checked.stdout and "in its row but" in checked.stdout
    assert "recomputed" not in checked.stdout  # the ratings themselves are those of the rows


def test_history_gives_every_sets_change_of_rating(played: Path) -> None:
    out = ladder("history", played, "--json")
    assert out.returncode == 0, out.stderr
    updates = json.loads(out.stdout)
    stored = rows(played, "SELECT r.id, r.set_id, v.bot || '.v' || v.version, r.mu, r.sigma FROM ratings r "
                  "JOIN versions v ON v.id = r.version ORDER BY r.id")  # fmt: skip
    assert [(u["update"], u["set"], u["version"], u["after"]["mu"], u["after"]["sigma"]) for u in updates] == stored
    model = PlackettLuce()
    last: dict[str, tuple[float, float]] = {}
    for u in updates:
        before = last.get(u["version"], (model.mu, model.sigma))
        assert (u["before"]["mu"], u["before"]["sigma"]) == before
        after = u["after"]
        assert after["ordinal"] == after["mu"] - 3 * after["sigma"]
        assert u["change"] == after["ordinal"] - (before[0] - 3 * before[1])
        last[u["version"]] = (after["mu"], after["sigma"])
    table = ladder("history", played)
    assert table.returncode == 0 and f"{updates[-1]['change']:+.2f}" in table.stdout


def test_games_csv_has_a_row_per_game(played: Path) -> None:
    out = ladder("games", played)
    assert out.returncode == 0, out.stderr
    got = list(csv.DictReader(io.StringIO(out.stdout)))
    labels = {vid: label for label, vid in rows(played, "SELECT bot || '.v' || version, id FROM versions")}
    games = rows(played, "SELECT g.number, s.kind, g.teams, g.scores, g.winner, g.log FROM games g "
                 "JOIN sets s ON s.id = g.set_id ORDER BY g.number")  # fmt: skip
    assert len(got) == len(games) >= 12
    for row, (number, kind, teams, scores, winner, log) in zip(got, games, strict=True):
        named = [labels[v] for v in json.loads(teams)]
        assert (int(row["number"]), row["kind"], row["teams"].split(" ")) == (number, kind, named)
        assert [int(s) for s in row["scores"].split(" ")] == json.loads(scores)
        assert row["winner"] == ("" if winner is None else named[winner]) and row["log"] == log
    assert {r["kind"] for r in got} == {"ladder", "validation"}


def test_recover_rebuilds_a_played_ladder_from_its_logs(played: Path, tmp_path: Path) -> None:
    copy = tmp_path / "club"
    shutil.copytree(played, copy)
    rated = "SELECT version, mu, sigma FROM ratings ORDER BY id"
    before = rows(copy, rated)
    games = "SELECT g.number, g.rotation, g.teams, g.scores, g.seed, s.state FROM games g "
    games += "JOIN sets s ON s.id = g.set_id "
    complete = rows(copy, games + "ORDER BY g.number")  # a set a run stopped in stays open
    played_sets = "SELECT kind, versions, seed, first_game, size, state FROM sets "
    played_sets += "WHERE id IN (SELECT set_id FROM games)"
    sets = rows(copy, played_sets + " ORDER BY first_game")
    versions = rows(copy, "SELECT id, bot, version, status FROM versions ORDER BY id")
    path = copy / "ladder.db"
    data = path.read_bytes()
    path.write_bytes(data[: len(data) // 3])
    recovered = ladder("recover", copy)
    assert recovered.returncode == 0, recovered.stderr
    assert len(before) >= 12 and rows(copy, rated) == before  # every update, in the order it was made
    assert rows(copy, games + "ORDER BY g.number") == complete
    assert rows(copy, played_sets + " ORDER BY first_game") == sets
    assert rows(copy, "SELECT id, bot, version, status FROM versions ORDER BY id") == versions
    assert [p.name for p in copy.glob("ladder.db.damaged-*")] != []  # the damaged file is kept beside
    checked = ladder("check", copy)
    assert checked.returncode == 0, checked.stdout + checked.stderr


def test_recover_leaves_a_set_with_games_to_play_open_and_run_finishes_it(played: Path, tmp_path: Path) -> None:
    """A rated set's last game's log lost: the set comes back open, with its group and seatings, and the next
    ``run`` plays that game on its seating and rates the set."""
    copy = tmp_path / "club"
    shutil.copytree(played, copy)
    (set_id, first, size, group) = rows(
        copy, "SELECT id, first_game, size, versions FROM sets WHERE kind = 'ladder' AND state = 'rated' ORDER BY id"
    )[0]
    lost = first + size - 1
    (log, teams) = rows(copy, "SELECT log, teams FROM games WHERE number = ?", lost)[0]
    (copy / log).unlink()
    (copy / "ladder.db").write_bytes(b"")
    recovered = ladder("recover", copy)
    assert recovered.returncode == 0, recovered.stderr
    assert f"set {set_id}: {size - 1} of its {size} game(s) logged; left open" in recovered.stdout
    found = "SELECT id FROM sets WHERE first_game = ? AND versions = ? AND state = 'open'"
    (again,) = rows(copy, found, first, group)[0]
    assert rows(copy, "SELECT number FROM games WHERE set_id = ?", again) == [(n,) for n in range(first, lost)]
    assert ladder("check", copy).returncode == 0
    run = ladder("run", copy, "--games", "1")
    assert run.returncode == 0, run.stderr
    assert rows(copy, "SELECT teams, rotation FROM games WHERE number = ?", lost) == [(teams, size - 1)]
    assert rows(copy, "SELECT state FROM sets WHERE id = ?", again) == [("rated",)]
    checked = ladder("check", copy)
    assert checked.returncode == 0, checked.stdout + checked.stderr


def test_check_reads_the_database_at_one_moment_while_a_ladder_writes(played: Path, tmp_path: Path) -> None:
    """A ladder that plays on while it is checked: what another connection commits in the middle of the check
    (here a version's rating, changed after the check read the sets) is not seen; after it, it is."""
    copy = tmp_path / "club"
    shutil.copytree(played, copy)
    db = LadderDatabase.open(RunFolder(copy))
    writer = sqlite3.connect(copy / "ladder.db", isolation_level=None)
    read_sets = db.rated_in_order

    def then_a_commit() -> Any:
        sets = read_sets()
        writer.execute("UPDATE versions SET mu = mu + 1 WHERE id = 1")  # committed at once (autocommit)
        return sets

    try:
        db.rated_in_order = then_a_commit  # type: ignore[method-assign]
        problems, summary = check(db)
        assert problems == [] and summary.startswith("ok: "), problems
        problems, _ = check(db)
        assert any(p.startswith(f"{db.versions()[0].label}: rating ") for p in problems), problems
    finally:
        writer.close()
        db.close()
