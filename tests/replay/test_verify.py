"""``arena replay LOG --verify``: logs of every preset pass; any tampering is named by line."""

from __future__ import annotations

from pathlib import Path

import pytest

from referee.cli.app import Status
from referee.engine.cards import card_str, parse_card
from referee.engine.game import DecisionKind
from referee.engine.presets import PRESETS
from referee.replay.logfile import load_log
from referee.replay.steps import DecisionPoint, GameReplay
from tests.support.arena import invoke
from tests.support.logs import find, records, revealed, write_records
from tests.support.replay import one_line_error


@pytest.mark.parametrize("preset", sorted(PRESETS))
def test_every_preset_verifies(make_log, preset: str) -> None:
    log = make_log(preset, seed=7)
    code, out, err = invoke("replay", log, "--verify")
    assert (code, err) == (0, "")
    lines = out.strip().splitlines()
    assert len(lines) == 1
    hands = sum(1 for r in records(log) if r["event"] == "deal")
    checked = sum(1 for r in revealed(log) if r["event"] not in ("match_start", "game_start", "match_end"))
    assert lines[0] == (
        f"{log}: ok, 1 game of {preset}: {hands} hands, "
        f"{sum(1 for r in records(log) if r['event'] in ('bid', 'exchange', 'play')) + _trump_decisions(log)} "
        "decisions; "
        f"all {checked} game records agree with the engine"
    )


def _trump_decisions(log: Path) -> int:
    """Contracts whose trump was named after the auction (the bid names no trump)."""
    return sum(1 for r in records(log) if r["event"] == "contract" and len(r["bid"].split()) == 1)


@pytest.mark.parametrize(
    ("preset", "kind"),
    [
        ("neuralplay", "call2"),
        ("neuralplay", "moon"),
        ("hammerwalt", "alone"),
        ("bloomington", "best"),
        ("pagat", "call1"),
    ],
)
def test_lone_hands_verify(make_log, preset: str, kind: str) -> None:
    log = make_log(preset, seed=1, lone=0.5, overrides=("hand_limit=12",))
    lone = [r for r in records(log) if r["event"] == "contract" and r["alone"]]
    assert any(r["bid"].split()[0] == kind for r in lone), "the log should hold the lone bid under test"
    assert all(len(r["active"]) < PRESETS[preset].players for r in lone)
    code, out, err = invoke("replay", log, "--verify")
    assert code == 0, err
    assert " ok, " in out


def test_several_games_and_one_of_them(make_log) -> None:
    log = make_log("bloomington", seed=2, games=3)
    code, out, _ = invoke("replay", log, "--verify")
    assert code == 0 and "3 games of bloomington" in out
    code, out, _ = invoke("replay", log, "--verify", "--game", "2")
    assert code == 0 and "1 game of bloomington" in out
    line = one_line_error(*invoke("replay", log, "--verify", "--game", "4"))
    assert "holds 3 games; there is no game 4" in line


def _tamper(log: Path, predicate, change, nth: int = 0) -> int:
    """Change one record in place; return its line number."""
    recs = records(log)
    k = find(recs, predicate, nth)
    change(recs[k])
    write_records(log, recs)
    return k + 1


def _mismatch(log: Path) -> str:
    """The one line of ``--verify`` on a log the engine disagrees with: a failed check, exit status 1."""
    return one_line_error(*invoke("replay", log, "--verify"), Status.FAILED)


def test_wrong_trick_winner_is_named(make_log) -> None:
    log = make_log("neuralplay", seed=4)
    recs = records(log)
    k = find(recs, lambda r: r["event"] == "trick", 5)
    right = recs[k]["winner"]
    wrong = (right + 1) % 4
    line = _tamper(log, lambda r: r["event"] == "trick", lambda r: r.update(winner=wrong), 5)
    message = _mismatch(log)
    trick = recs[k]
    assert message == (
        f"error: {log}:{line}: trick {trick['trick']} of hand {trick['hand']}: "
        f"expected winner {right}, recorded {wrong}"
    )


@pytest.mark.parametrize("field", ["points", "scores", "tricks"])
def test_wrong_hand_result_is_named(make_log, field: str) -> None:
    log = make_log("hammerwalt", seed=5)
    recs = records(log)
    k = find(recs, lambda r: r["event"] == "hand_end" and not r["passed_out"], 1)
    right = recs[k][field]
    wrong = [right[0] + 1, *right[1:]]
    recs[k][field] = wrong
    write_records(log, recs)
    assert (
        _mismatch(log)
        == f"error: {log}:{k + 1}: end of hand {recs[k]['hand']}: expected {field} {right}, recorded {wrong}"
    )


def test_wrong_game_result_is_named(make_log) -> None:
    log = make_log("double-deck", seed=6)
    recs = records(log)
    k = find(recs, lambda r: r["event"] == "game_end")
    right = recs[k]["winner"]
    recs[k]["winner"] = None if right is not None else 0
    write_records(log, recs)
    message = _mismatch(log)
    assert f"{log}:{k + 1}: end of the game: expected winner" in message


def test_match_end_must_repeat_the_results(make_log) -> None:
    log = make_log("pagat", seed=7, games=2)
    recs = records(log)
    recs[-1]["results"][1]["scores"] = [999, 0]
    write_records(log, recs)
    message = _mismatch(log)
    assert f"{log}:{len(recs)}: match_end: game 2: expected scores" in message
    assert "recorded [999, 0]" in message


def test_a_card_not_in_the_hand_is_illegal(make_log) -> None:
    log = make_log("neuralplay", seed=8)
    recs = revealed(log)  # written back as a version-1 log
    k = find(recs, lambda r: r["event"] == "play", 3)
    deal = recs[find(recs, lambda r: r["event"] == "deal" and r["hand"] == recs[k]["hand"])]
    held = set(deal["hands"][recs[k]["seat"]])
    stranger = next(c for s in range(4) for c in deal["hands"][s] if c not in held)
    recs[k]["card"] = stranger
    write_records(log, recs)
    message = _mismatch(log)
    assert message.startswith(f"error: {log}:{k + 1}: a play by seat {recs[k]['seat']}")
    assert "is illegal" in message and "[rule: card-not-in-hand]" in message


def test_not_following_suit_is_illegal(make_log) -> None:
    """Find, with the engine, a play where the seat had to follow suit; log a card that does not."""
    log = make_log("indiana", seed=9)
    match = load_log(log)
    replay = GameReplay(match, match.games[0])
    target = None
    for item in replay:
        if isinstance(item, DecisionPoint) and item.decision.kind is DecisionKind.PLAY:
            off_suit = [c for c in replay.game.hands[item.decision.seat] if c not in item.decision.options]
            if off_suit:
                target = (item.line, off_suit[0])
                break
    assert target is not None, "random play should meet a seat that must follow suit"
    line, card = target
    recs = records(log)
    recs[line - 1]["card"] = card_str(card)
    write_records(log, recs)
    message = _mismatch(log)
    assert message.startswith(f"error: {log}:{line}: a play by seat")
    assert "does not follow the suit led" in message and "[rule: follow-suit]" in message


def test_a_broken_deal_is_named(make_log) -> None:
    log = make_log("bloomington", seed=10)
    recs = revealed(log)  # written back as a version-1 log
    k = find(recs, lambda r: r["event"] == "deal", 1)
    hands = recs[k]["hands"]
    # every card of the double deck is dealt twice: a third copy breaks the deck
    third = next(c for c in hands[1] if c != hands[0][0])
    hands[0][0] = third
    write_records(log, recs)
    message = _mismatch(log)
    assert message.startswith(f"error: {log}:{k + 1}: the hands of the deal of hand 2 are not a deal: ")


def test_a_wrong_dealer_is_named(make_log) -> None:
    log = make_log("pepper", seed=11)
    recs = records(log)
    k = find(recs, lambda r: r["event"] == "deal", 2)
    right = recs[k]["dealer"]
    recs[k]["dealer"] = (right + 2) % 4
    write_records(log, recs)
    assert (
        _mismatch(log) == f"error: {log}:{k + 1}: deal of hand 3: expected dealer {right}, recorded {(right + 2) % 4}"
    )


def test_a_bid_out_of_turn_is_named(make_log) -> None:
    log = make_log("neuralplay", seed=12)
    recs = records(log)
    k = find(recs, lambda r: r["event"] == "bid", 1)
    seat = recs[k]["seat"]
    recs[k]["seat"] = (seat + 1) % 4
    write_records(log, recs)
    message = _mismatch(log)
    assert message == (
        f"error: {log}:{k + 1}: expected a bid by seat {seat} (hand {recs[k]['hand']}), "
        f"recorded one by seat {(seat + 1) % 4}"
    )


def test_a_missing_record_is_named(make_log) -> None:
    log = make_log("single-deck", seed=13)
    recs = records(log)
    k = find(recs, lambda r: r["event"] == "trick", 2)
    gone = recs.pop(k)
    write_records(log, recs)
    message = _mismatch(log)
    assert message == (
        f"error: {log}:{k + 1}: expected the trick {gone['trick']} of hand {gone['hand']}, recorded {recs[k]['event']}"
    )


def test_a_bool_is_not_a_number(make_log) -> None:
    log = make_log("neuralplay", seed=14)
    recs = records(log)
    k = find(recs, lambda r: r["event"] == "contract")
    recs[k]["alone"] = 1 if not recs[k]["alone"] else 0
    write_records(log, recs)
    assert "expected alone false, recorded " in _mismatch(log) or "expected alone true, recorded " in _mismatch(log)


def test_default_action_violations_pass_and_are_counted(make_log) -> None:
    log = make_log("neuralplay", seed=15, fault_at=6, on_fault="default")
    assert any(r["event"] == "violation" for r in records(log))
    code, out, _ = invoke("replay", log, "--verify")
    assert code == 0
    assert "(1 violation record)" in out


def test_a_forfeit_replays_through_the_engine(make_log) -> None:
    log = make_log("hammerwalt", seed=16, fault_at=20, on_fault="forfeit", games=2)
    recs = records(log)
    v = recs[find(recs, lambda r: r["event"] == "violation")]
    end = recs[find(recs, lambda r: r["event"] == "game_end")]
    assert end["reason"] == "forfeit" and end["winner"] == 1 - v["seat"] % 2
    code, out, _ = invoke("replay", log, "--verify")
    assert code == 0, out
    # the forfeit must land on the violating seat's team
    k = find(recs, lambda r: r["event"] == "game_end")
    recs[k]["winner"] = v["seat"] % 2
    recs[-1]["results"][0]["winner"] = v["seat"] % 2
    write_records(log, recs)
    assert f"{log}:{k + 1}: end of the game: expected winner {1 - v['seat'] % 2}" in _mismatch(log)


def test_a_forfeit_needs_its_violation(make_log) -> None:
    log = make_log("hammerwalt", seed=16, fault_at=20, on_fault="forfeit")
    recs = revealed(log)  # written back as a version-1 log
    k = find(recs, lambda r: r["event"] == "violation")
    del recs[k]
    write_records(log, recs)
    assert _mismatch(log) == (
        f"error: {log}:{k + 1}: game_end says forfeit, but no violation with penalty forfeit comes before it"
    )


def test_records_after_the_game_end_are_named(make_log) -> None:
    log = make_log("double-deck-3p", seed=17)
    recs = records(log)
    k = find(recs, lambda r: r["event"] == "game_end")
    recs.insert(k + 1, dict(recs[k - 1]))
    write_records(log, recs)
    assert _mismatch(log) == f"error: {log}:{k + 2}: {recs[k + 1]['event']} record after the end of the game"


def test_card_text_must_be_the_logs_own(make_log) -> None:
    """Lower-case card text parses to the same card, but a log writes cards one way: ``JH``."""
    log = make_log("neuralplay", seed=18)
    recs = records(log)
    k = find(recs, lambda r: r["event"] == "play")
    assert parse_card(recs[k]["card"].lower()) == parse_card(recs[k]["card"])
    recs[k]["card"] = recs[k]["card"].lower()
    write_records(log, recs)
    message = _mismatch(log)
    assert f'expected card "{recs[k]["card"].upper()}", recorded "{recs[k]["card"]}"' in message
