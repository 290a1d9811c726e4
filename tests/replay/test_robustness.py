"""Broken, cut-off and hostile logs: a clear one-line error naming the line, or a replay up to the cut."""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest

from referee.cli.app import Status
from referee.gamelog import LOG_VERSION, LogError
from referee.replay.logfile import load_log
from referee.replay.verify import verify_log
from tests.support.arena import invoke
from tests.support.logs import find, records, revealed, write_records
from tests.support.replay import one_line_error


def _cut(log: Path, keep_lines: int, partial: str = "") -> Path:
    lines = log.read_text(encoding="utf-8").splitlines(keepends=True)
    log.write_text("".join(lines[:keep_lines]) + partial, encoding="utf-8")
    return log


def test_a_log_cut_mid_line_replays_up_to_the_cut(make_log) -> None:
    """A version-1 log (every card written as dealt) replays up to the very record cut."""
    log = make_log("neuralplay", seed=31)
    recs = revealed(log)
    write_records(log, recs)
    k = find(recs, lambda r: r["event"] == "play" and r["hand"] == 2 and r["trick"] == 3)
    _cut(log, k, partial=json.dumps(recs[k])[:17])
    code, out, _ = invoke("replay", log)
    assert code == 0
    assert "Hand 1:" in out and "Hand 2:" in out and "Hand 3:" not in out
    assert out.rstrip().endswith("The log is cut off here: game 1 stops in hand 2, trick 3.")
    code, out, _ = invoke("replay", log, "--verify")
    assert code == 0
    assert out.strip().endswith("; the log is cut off in game 1, in hand 2, trick 3 (a partial last line was ignored)")


def test_a_hand_cut_before_its_reveal_is_left_out(make_log) -> None:
    """Cut inside a hand, a log holds none of that hand's hidden cards: it replays up to the hand before."""
    log = make_log("neuralplay", seed=31)
    recs = records(log)
    k = find(recs, lambda r: r["event"] == "play" and r["hand"] == 2 and r["trick"] == 3)
    assert all(h is None for h in recs[find(recs, lambda r: r["event"] == "deal", 1)]["hands"])
    _cut(log, k, partial=json.dumps(recs[k])[:17])
    code, out, _ = invoke("replay", log)
    assert code == 0
    assert "Hand 1:" in out and "Hand 2:" not in out
    assert out.rstrip().endswith("The log is cut off here: game 1 stops after hand 1.")
    code, out, _ = invoke("replay", log, "--verify")
    assert code == 0
    assert "; the log is cut off in game 1" in out


def test_a_log_cut_between_games(make_log) -> None:
    log = make_log("bloomington", seed=32, games=3)
    recs = records(log)
    _cut(log, find(recs, lambda r: r["event"] == "game_start", 2))  # games 1 and 2 whole, no match_end
    code, out, _ = invoke("replay", log, "--verify")
    assert code == 0
    assert "2 games of bloomington" in out and out.strip().endswith("; the log is cut off after game 2 (no match_end)")
    code, out, _ = invoke("replay", log)
    assert code == 0 and out.rstrip().endswith("The log is cut off after game 2: no match_end.")


def test_a_log_cut_before_any_game(make_log) -> None:
    log = _cut(make_log("pagat", seed=33), 1)
    code, out, _ = invoke("replay", log)
    assert code == 0 and "the log holds no game yet" in out
    code, out, _ = invoke("replay", log, "--verify")
    assert code == 0 and "cut off before the first game" in out


def _broken(log: Path, k: int, line: str) -> Path:
    lines = log.read_text(encoding="utf-8").splitlines(keepends=True)
    lines[k] = line
    log.write_text("".join(lines), encoding="utf-8")
    return log


@pytest.mark.parametrize(
    ("mode", "status"),
    [((), Status.BAD_INPUT), (("--verify",), Status.FAILED), (("--html", "out.html"), Status.BAD_INPUT)],
)
def test_a_corrupt_line_is_named(make_log, mode, status, tmp_path) -> None:
    """A damaged line is bad input, except to --verify, whose check it fails (docs/cli.md)."""
    log = _broken(make_log("neuralplay", seed=34), 40, '{"event": "play", "hand": 1, \n')
    args = [a if a != "out.html" else str(tmp_path / a) for a in mode]
    line = one_line_error(*invoke("replay", log, *args), status)
    assert line.startswith(f"error: {log}:41: not valid JSON (")
    assert not (tmp_path / "out.html").exists()


def test_an_unknown_event_is_named(make_log) -> None:
    log = _broken(make_log("neuralplay", seed=35), 12, '{"event": "teleport", "hand": 1}\n')
    assert one_line_error(*invoke("replay", log, "--verify"), Status.FAILED) == (
        f"error: {log}:13: unknown event 'teleport'"
    )


def test_a_newer_log_version_is_named(make_log) -> None:
    log = make_log("neuralplay", seed=36)
    recs = records(log)
    recs[0]["log_version"] = LOG_VERSION + 1
    write_records(log, recs)
    assert one_line_error(*invoke("replay", log)) == (
        f"error: {log}:1: log version {LOG_VERSION + 1} is newer than this arena reads ({LOG_VERSION}); "
        "upgrade the arena"
    )


@pytest.mark.parametrize(
    ("line", "message"),
    [
        (b"\xff\xfe garbage\n", "not UTF-8 text"),
        (b"[1, 2, 3]\n", "a log line must be a JSON object with an 'event' field"),
        (b'{"hand": 3}\n', "a log line must be a JSON object with an 'event' field"),
        (b'{"event": "play", "hand": 1, "trick": 1, "seat": 0}\n', "bad play record: missing field 'card'"),
        (b'{"event": "play", "hand": 1, "trick": 1, "seat": 0, "card": "ZZ"}\n', "bad play record: bad card 'ZZ'"),
        (b'{"event": "play", "hand": 1, "trick": 1, "seat": 0, "card": 7}\n', "bad play record: "),
    ],
)
def test_bad_lines_are_named(make_log, line: bytes, message: str) -> None:
    log = make_log("pagat", seed=37)
    recs = records(log)
    k = find(recs, lambda r: r["event"] == "play")
    raw = log.read_bytes().splitlines(keepends=True)
    raw[k] = line
    log.write_bytes(b"".join(raw))
    assert one_line_error(*invoke("replay", log, "--verify"), Status.FAILED).startswith(
        f"error: {log}:{k + 1}: {message}"
    )


@pytest.mark.parametrize(
    ("edit", "message"),
    [
        (lambda recs: recs.pop(0), " is not a game log (line 1 is a game_start record, not match_start)"),
        (lambda recs: recs[0].update(rules={"players": 5}), ":1: bad rules in match_start: "),
        (
            lambda recs: recs[0].update(rules={"colour": "blue"}),
            ":1: bad rules in match_start: unknown rule option 'colour'",
        ),
        (lambda recs: recs[1].update(game=2), ":2: game_start of game 2; expected game 1"),
        (lambda recs: recs[1].update(first_dealer=9), ":2: game_start needs 'first_dealer', a seat 0..3"),
        (lambda recs: recs[2].update(game=3), ":3: deal record of game 3 inside game 1"),
        (lambda recs: recs.insert(1, recs[2]), ":2: deal record before any game_start"),
        (lambda recs: recs.append(recs[2]), ": deal record after match_end"),
        (lambda recs: recs.insert(1, recs[0]), ":2: a second match_start (one log holds one match)"),
    ],
)
def test_a_broken_frame_is_named(make_log, edit, message: str) -> None:
    log = make_log("neuralplay", seed=38)
    recs = records(log)
    edit(recs)
    write_records(log, recs)
    line = one_line_error(*invoke("replay", log))
    assert line.startswith(f"error: {log}") and message in line


def test_missing_empty_and_folder(tmp_path: Path) -> None:
    assert (
        one_line_error(*invoke("replay", tmp_path / "nope.jsonl")) == f"error: {tmp_path / 'nope.jsonl'}: no such file"
    )
    assert one_line_error(*invoke("replay", tmp_path)) == f"error: {tmp_path}: not a file"
    empty = tmp_path / "empty.jsonl"
    empty.write_text("")
    assert one_line_error(*invoke("replay", empty)).startswith(f"error: {empty} is not a game log (it is empty): ")


def _scramble(value: object, rng: random.Random) -> object:
    choices = [None, True, 0, -1, 7, 10**12, "", "JH", "zz", [], [1, "x"], {"a": 1}, 3.5]
    if isinstance(value, list) and value and rng.random() < 0.5:
        value = list(value)
        value[rng.randrange(len(value))] = rng.choice(choices)
        return value
    return rng.choice(choices)


def test_random_damage_never_crashes(make_log) -> None:
    """Any one field of any record set to a wrong value: a pass or a LogError, never another exception."""
    source = make_log("hammerwalt", seed=39, lone=0.3, overrides=("hand_limit=3",))
    clean = records(source)
    rng = random.Random(40)
    failures = 0
    for attempt in range(150):
        recs = json.loads(json.dumps(clean))
        rec = rng.choice(recs)
        key = rng.choice(sorted(rec))
        if rng.random() < 0.15:
            del rec[key]
        else:
            rec[key] = _scramble(rec[key], rng)
        log = source.with_name(f"damaged-{attempt}.jsonl")
        write_records(log, recs)
        try:
            verify_log(load_log(log))
        except LogError as exc:
            failures += 1
            assert "\n" not in str(exc) and str(exc).startswith(str(log))
    assert failures > 100  # nearly every change must be caught
    code, out, err = invoke("replay", source.with_name("damaged-0.jsonl"), "--verify")
    assert code in (0, 1) and "Traceback" not in out + err
