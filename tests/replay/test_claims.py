"""Logs with claims: the claim record, its round trip, --verify (a forged claim fails it), the text replay, the
page's steps, --at, and the analysis.

The logs are written by ``tests.support.claims.write_claim_log``: in the last
tricks of each hand every seat claims before it plays, and the referee's own
match driver (``referee.match.play_games``) puts each claim to the engine and
logs the game, as ``arena match`` does. Most claims are refused (their card
follows), some accepted (the hand ends there).
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from referee.cli.app import Status
from referee.engine.events import ClaimEvent
from referee.engine.presets import PRESETS
from referee.gamelog import LOG_VERSION, event_from_record, event_record
from referee.replay.html import game_data
from referee.replay.logfile import load_log
from referee.replay.steps import Claim, DecisionPoint, GameReplay, Step
from tests.support.arena import invoke as run
from tests.support.claims import write_claim_log
from tests.support.logs import find, records, write_records
from tests.support.replay import one_line_error

Record = dict[str, Any]
CLAIM_PRESETS = ["neuralplay", "bloomington", "double-deck-3p", "hammerwalt", "single-deck-hilo", "triple-deck"]


def claims(log: Path) -> list[Record]:
    return [r for r in records(log) if r["event"] == "claim"]


@pytest.fixture
def claim_log(tmp_path: Path) -> Path:
    log = write_claim_log(tmp_path / "claims.jsonl", "neuralplay", seed=5, overrides=("hand_limit=8",))
    kinds = {r["accepted"] for r in claims(log)}
    assert kinds == {True, False}, "the log should hold accepted and refused claims"
    return log


def test_the_claim_record_and_its_place_in_the_hand(claim_log: Path) -> None:
    recs = records(claim_log)
    assert recs[0]["log_version"] == LOG_VERSION == 3
    for k, rec in enumerate(recs):
        if rec["event"] != "claim":
            continue
        # the think time of the answer that claimed, as on the record of any answer
        assert list(rec) == ["event", "game", "hand", "trick", "seat", "team", "tricks", "accepted", "ms"]
        assert rec["team"] == rec["seat"] % 2 and rec["tricks"] == 8 - rec["trick"] + 1 <= 3
        following = [r["event"] for r in recs[k + 1 : k + 3]]
        if rec["accepted"]:
            assert following == ["reveal", "hand_end"]  # the hand ends at once
            assert recs[k + 2]["tricks"][rec["team"]] >= rec["tricks"]
        else:
            # nothing changed: the claimer's own card comes next
            assert recs[k + 1]["event"] == "play" and recs[k + 1]["seat"] == rec["seat"]
            assert recs[k + 1]["trick"] == rec["trick"]


def test_a_claim_record_round_trips() -> None:
    for event in (ClaimEvent(3, 5, 2, 0, 4, accepted=True), ClaimEvent(1, 8, 1, 1, 1, accepted=False)):
        record = event_record(event, game=2)
        assert record["event"] == "claim" and record["game"] == 2
        assert event_from_record(json.loads(json.dumps(record))) == event


@pytest.mark.parametrize("preset", CLAIM_PRESETS)
def test_logs_with_claims_verify(tmp_path: Path, preset: str) -> None:
    log = write_claim_log(tmp_path / "claims.jsonl", preset, seed=11, lone=0.2, overrides=("hand_limit=6",))
    assert claims(log), "the log should hold claims"
    code, out, err = run("replay", log, "--verify")
    assert (code, err) == (0, ""), err
    assert f"1 game of {preset}" in out and " ok, " in out


def _flip(log: Path, accepted: bool) -> tuple[int, Record]:
    """Write the first claim recorded as ``accepted`` with the other answer; its line and record."""
    recs = records(log)
    k = find(recs, lambda r: r["event"] == "claim" and r["accepted"] is accepted)
    recs[k]["accepted"] = not accepted
    write_records(log, recs)
    return k + 1, recs[k]


def test_a_forged_claim_fails_verify_with_one_line(claim_log: Path) -> None:
    line, rec = _flip(claim_log, accepted=False)
    error = one_line_error(*run("replay", claim_log, "--verify"), Status.FAILED)
    assert error == (
        f"error: {claim_log}:{line}: seat {rec['seat']}'s claim of the last {rec['tricks']} tricks of hand "
        f"{rec['hand']} (from trick {rec['trick']}) is recorded as accepted, but the engine refuses it: the other "
        "side can take a trick against every line of the claiming team (a forged claim)"
    )


def test_an_accepted_claim_recorded_as_refused_fails_verify(claim_log: Path) -> None:
    line, rec = _flip(claim_log, accepted=True)
    error = one_line_error(*run("replay", claim_log, "--verify"), Status.FAILED)
    assert error.startswith(f"error: {claim_log}:{line}: seat {rec['seat']}'s claim of the last ")
    assert error.endswith("is recorded as refused, but the engine accepts it: its team takes every trick")


def test_a_claim_out_of_turn_or_with_a_wrong_count_fails_verify(claim_log: Path) -> None:
    recs = records(claim_log)
    k = find(recs, lambda r: r["event"] == "claim")
    recs[k]["seat"] = (recs[k]["seat"] + 1) % 4
    write_records(claim_log, recs)
    error = one_line_error(*run("replay", claim_log, "--verify"), Status.FAILED)
    assert f":{k + 1}: expected a play by seat" in error and "recorded a claim by seat" in error
    recs[k]["seat"] = (recs[k]["seat"] - 1) % 4
    recs[k]["tricks"] += 1
    write_records(claim_log, recs)
    error = one_line_error(*run("replay", claim_log, "--verify"), Status.FAILED)
    assert f":{k + 1}: claim of seat {recs[k]['seat']} in hand {recs[k]['hand']}, trick {recs[k]['trick']}: " in error
    assert f"expected tricks {recs[k]['tricks'] - 1}, recorded {recs[k]['tricks']}" in error


def test_the_replay_walk_makes_an_accepted_claim_a_decision(claim_log: Path) -> None:
    match = load_log(claim_log)
    (logged,) = match.games
    points = [p for p in GameReplay(match, logged) if isinstance(p, DecisionPoint)]
    claimed = [p for p in points if isinstance(p.action, Claim)]
    accepted = [r for r in claims(claim_log) if r["accepted"]]
    refused = [r for r in claims(claim_log) if not r["accepted"]]
    where = [(r["hand"], r["trick"], r["seat"]) for r in accepted]
    assert [(p.hand, p.trick, p.decision.seat) for p in claimed] == where
    assert all(p.action == Claim(r["tricks"]) for p, r in zip(claimed, accepted, strict=True))
    # each refused claim is counted on the decision it came before: the seat's card
    assert sum(p.refused_claims for p in points) == len(refused)
    assert all(p.decision.kind == "play" for p in points if p.refused_claims)


def test_the_text_replay_shows_claims(claim_log: Path) -> None:
    code, out, err = run("replay", claim_log)
    assert code == 0, err
    accepted = [r for r in claims(claim_log) if r["accepted"]]
    refused = [r for r in claims(claim_log) if not r["accepted"]]
    for rec in accepted:
        tricks = "the last trick" if rec["tricks"] == 1 else f"the remaining {rec['tricks']} tricks"
        assert f"{rec['seat']} bot{rec['seat']} claims {tricks} for team {rec['team']}: accepted, the hand ends" in out
    assert out.count("accepted, the hand ends") == len(accepted)
    assert out.count("refused, play goes on") == len(refused)
    # the unfinished trick of a hand ended by a claim says so
    assert "(claimed)" in out
    code, seat_out, _ = run("replay", claim_log, "--seat", "2")
    assert code == 0 and seat_out.count("refused, play goes on") == len(refused)


def test_the_pages_steps_count_the_claimed_tricks(claim_log: Path) -> None:
    match = load_log(claim_log)
    data = game_data(match, match.games[0])
    assert data["error"] is None
    steps = data["steps"]
    texts = [s["text"] for s in steps]
    accepted = [r for r in claims(claim_log) if r["accepted"]]
    for rec in accepted:
        k = next(
            i for i, s in enumerate(steps) if s["hand"] == rec["hand"] and s["text"].endswith("accepted, the hand ends")
        )
        end = next(r for r in records(claim_log) if r["event"] == "hand_end" and r["hand"] == rec["hand"])
        assert steps[k]["tricks"] == end["tricks"]  # the claimed tricks are on the score board at the claim
        assert not steps[k]["seatText"], "every seat sees the claim as it is"
    refused = [t for t in texts if t.endswith("refused, play goes on")]
    assert len(refused) == sum(1 for r in claims(claim_log) if not r["accepted"])


def test_at_names_a_claim(claim_log: Path) -> None:
    rec = next(r for r in claims(claim_log) if r["accepted"])
    code, out, err = run("replay", claim_log, "--at", f"{rec['hand']}.{rec['trick']}.{rec['seat']}")
    assert code == 0, err
    assert out.splitlines()[0].endswith(": claim")


def test_the_analysis_shows_claims_and_does_not_grade_them(claim_log: Path) -> None:
    code, out, err = run("analyze", claim_log, "--json", "--samples", "8", "--workers", "1")
    assert code == 0, err
    analysis = json.loads(out)
    decisions = analysis["games"][0]["decisions"]
    claimed = [d for d in decisions if d["status"] == "claim"]
    accepted = [r for r in claims(claim_log) if r["accepted"]]
    assert len(claimed) == len(accepted) > 0
    assert all(d["taken"] == "claim" and d["loss"] is None and d["grade"] == "none" for d in claimed)
    assert sum(d["refused_claims"] for d in decisions) == sum(1 for r in claims(claim_log) if not r["accepted"])
    assert sum(stats["claims"] for stats in analysis["bots"].values()) == len(accepted)


def test_every_preset_can_log_a_claim(tmp_path: Path) -> None:
    """Claims in the last trick of every preset's hands: each is accepted or refused as the engine says."""
    for preset in sorted(PRESETS):
        log = write_claim_log(tmp_path / f"{preset}.jsonl", preset, seed=3, claim_tricks=1, overrides=("hand_limit=3",))
        assert claims(log), preset
        code, _, err = run("replay", log, "--verify")
        assert code == 0, f"{preset}: {err}"


def test_steps_of_a_refused_claim_show_it_to_every_seat(claim_log: Path) -> None:
    match = load_log(claim_log)
    replay = GameReplay(match, match.games[0])
    for item in replay:
        if isinstance(item, Step) and isinstance(item.event, ClaimEvent) and not item.event.accepted:
            for seat in range(4):
                _, seen = replay.seat_view_at(item, seat)
                assert seen[-1] == item.event
            return
    raise AssertionError("no refused claim in the log")
