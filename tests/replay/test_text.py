"""``arena replay LOG``: the game in the terminal, checked against the log's own records."""

from __future__ import annotations

import os
import subprocess
import sys
from collections import Counter
from pathlib import Path

from tests.support.arena import invoke
from tests.support.logs import Record, revealed, write_records
from tests.support.replay import one_line_error

SUIT_SYMBOLS = set("♠♥♦♣")


def hand_block(out: str, hand: int) -> list[str]:
    """The lines printed for one hand: from its heading to the next hand or the game's end."""
    lines = out.splitlines()
    start = next(k for k, line in enumerate(lines) if line.startswith(f"Hand {hand}:"))
    end = next((k for k in range(start + 1, len(lines)) if lines[k].startswith(("Hand ", "Game over"))), len(lines))
    return lines[start:end]


def trick_rows(block: list[str]) -> list[list[str]]:
    """The rows of the tricks table, split on blanks (seat names hold no blanks)."""
    k = next(i for i, line in enumerate(block) if line.startswith("Tricks"))
    rows = []
    for line in block[k + 2 :]:
        if not line.strip() or not line.split()[0].isdigit():
            break
        rows.append(line.split())
    return rows


def game_records(log: Path, hand: int) -> list[Record]:
    return [r for r in revealed(log) if r.get("hand") == hand and r["event"] != "violation"]


def held_before(log: Path, hand: int, trick: int) -> list[Counter[str]]:
    """What each seat held before ``trick``, worked out from the log's records."""
    recs = game_records(log, hand)
    held = [Counter(h) for h in recs[0]["hands"]]
    for r in recs:
        if r["event"] == "exchange":
            held[r["from"]] -= Counter(r["cards"])
            if r["to"] is not None:
                held[r["to"]] += Counter(r["cards"])
        elif r["event"] == "play" and r["trick"] < trick:
            held[r["seat"]] -= Counter([r["card"]])
    return held


def test_plain_text_shows_deal_auction_tricks_and_totals(make_log) -> None:
    log = make_log("neuralplay", seed=21)
    code, out, err = invoke("replay", log)
    assert (code, err) == (0, "")
    assert "\x1b[" not in out and not SUIT_SYMBOLS & set(out)
    hands = sorted({r["hand"] for r in revealed(log) if r["event"] == "deal"})
    assert hands[-1] >= 2
    for hand in hands:
        recs = game_records(log, hand)
        deal, end = recs[0], recs[-1]
        block = hand_block(out, hand)
        assert block[0] == f"Hand {hand}: dealer {deal['dealer']} bot{deal['dealer']}, scores " + " / ".join(
            map(str, [s - p for s, p in zip(end["scores"], end["points"], strict=True)])
        )
        for seat, cards in enumerate(deal["hands"]):
            line = next(line for line in block if line.startswith(f"  {seat} bot{seat}  "))
            assert Counter(line.split()[2:]) == Counter(cards)
        bids = [r for r in recs if r["event"] == "bid"]
        auction = next(line for line in block if line.startswith("Auction: "))
        assert auction.count(" bids ") + auction.count(" passes") == len(bids)
        result = next(line for line in block if line.startswith(("Result:", "Everyone passed")))
        scores = " / ".join(map(str, end["scores"]))
        if end["passed_out"]:
            assert result == f"Everyone passed: the hand is thrown in. Scores {scores}"
            continue
        points = " / ".join(f"{p:+d}" for p in end["points"])
        tricks = " / ".join(map(str, end["tricks"]))
        made = "made" if end["made"] else "set"
        assert result == f"Result: tricks {tricks}, contract {made}, points {points}, scores {scores}"
        rows = trick_rows(block)
        winners = {r["trick"]: r["winner"] for r in recs if r["event"] == "trick"}
        plays = {(r["trick"], r["seat"]): r["card"] for r in recs if r["event"] == "play"}
        assert [int(row[0]) for row in rows] == sorted(winners)
        for row in rows:
            trick = int(row[0])
            assert row[-2:] == [str(winners[trick]), f"bot{winners[trick]}"]
            starred = [cell for cell in row[3:-2] if cell.endswith("*")]
            assert starred == [plays[trick, winners[trick]] + "*"]
    end = revealed(log)[-2]
    who = "no team wins" if end["winner"] is None else f"team {end['winner']} wins"
    assert f"Game over ({end['reason']}): {who}, scores {' / '.join(map(str, end['scores']))}" in out


def test_symbols_and_colour_on_a_terminal(make_log) -> None:
    log = make_log("pagat", seed=22)
    env = {**os.environ, "FORCE_COLOR": "1", "COLUMNS": "120"}
    env.pop("NO_COLOR", None)
    arena = Path(sys.executable).with_name("arena")
    done = subprocess.run(
        [arena, "replay", log, "--hand", "1"], check=False, capture_output=True, text=True, env=env, timeout=60
    )
    assert done.returncode == 0, done.stderr
    assert "\x1b[" in done.stdout
    assert SUIT_SYMBOLS & set(done.stdout)
    deal = game_records(log, 1)[0]
    heart = next((c for h in deal["hands"] for c in h if c[1] == "H"), None)
    assert heart is not None
    # a red suit: the rank and the symbol in red (ANSI 31)
    assert f"\x1b[31m{heart[0]}" in done.stdout and "♥" in done.stdout
    plain = subprocess.run(
        [arena, "replay", log, "--hand", "1"], check=False, capture_output=True, text=True, timeout=60
    )
    assert "\x1b[" not in plain.stdout and not SUIT_SYMBOLS & set(plain.stdout)


def test_one_hand_only(make_log) -> None:
    log = make_log("indiana", seed=23)
    code, out, _ = invoke("replay", log, "--hand", "2")
    assert code == 0
    assert "Hand 2:" in out and "Hand 1:" not in out and "Hand 3:" not in out
    line = one_line_error(*invoke("replay", log, "--hand", "99"))
    assert line.startswith("error: game 1 has ") and line.endswith("hands; there is no hand 99")


def _lone_hand(log: Path) -> Record:
    return next(r for r in revealed(log) if r["event"] == "contract" and r["alone"])


def test_jump_to_a_trick_shows_who_held_what(make_log) -> None:
    log = make_log("hammerwalt", seed=24, lone=0.4)
    contract = _lone_hand(log)  # going alone: three cards each way before play
    hand = contract["hand"]
    code, out, _ = invoke("replay", log, "--hand", hand, "--trick", "4")
    assert code == 0
    block = hand_block(out, hand)
    assert not any(line.startswith("Deal:") for line in block)
    k = block.index(next(line for line in block if line.startswith("Before trick 4 ")))
    held = held_before(log, hand, 4)
    shown = {int(line.split()[0]): Counter(line.split()[2:]) for line in block[k + 1 : k + 1 + len(contract["active"])]}
    assert sorted(shown) == sorted(contract["active"])
    for seat, cards in shown.items():
        assert cards == held[seat]
    assert [int(row[0]) for row in trick_rows(block)] == list(range(4, 13))


def test_a_seat_sees_only_its_own_cards(make_log) -> None:
    log = make_log("bloomington", seed=25, lone=0.5, overrides=("hand_limit=8",))
    contract = _lone_hand(log)  # best: both partners give the declarer a card
    hand, declarer = contract["hand"], contract["declarer"]
    opponent = (declarer + 1) % 6
    partner = (declarer + 2) % 6
    deal = game_records(log, hand)[0]
    for seat in (opponent, partner):
        code, out, _ = invoke("replay", log, "--hand", hand, "--seat", seat)
        assert code == 0
        block = hand_block(out, hand)
        assert f"Seen from seat {seat} bot{seat}" in out
        for other in range(6):
            line = next(line for line in block if line.startswith(f"  {other} bot{other}  "))
            if other == seat:
                assert Counter(line.split()[2:]) == Counter(deal["hands"][seat])
            else:
                assert "(8 cards, hidden)" in line
        gives = [line for line in block if line.startswith("Exchange: ")]
        assert len(gives) == 3  # two partners give one card each, the declarer discards two
        for line in gives:
            giver = int(line.split()[1])
            involved = seat in (giver, declarer)
            assert line.endswith("(cards hidden)") != involved, line
        for row in trick_rows(block):
            held = held_before(log, hand, int(row[0]))[seat]
            n = sum(held.values())
            assert row[-n - 1].startswith("bot") and Counter(row[-n:]) == held


def test_lone_hand_leaves_the_partners_out_of_the_tricks(make_log) -> None:
    log = make_log("bloomington", seed=26, lone=0.5, overrides=("hand_limit=8",))
    contract = _lone_hand(log)
    code, out, _ = invoke("replay", log, "--hand", contract["hand"])
    assert code == 0
    block = hand_block(out, contract["hand"])
    out_seats = sorted(set(range(6)) - set(contract["active"]))
    named = ", ".join(f"{s} bot{s}" for s in out_seats)
    assert any(line.endswith(f"plays alone ({named} sit out)") for line in block)
    header = block[block.index("Tricks (* marks the winning card):") + 1].split()
    assert header[:2] == ["trick", "lead"] and header[-1] == "winner"
    assert [int(x) for x in header[2:-1:2]] == contract["active"]


def test_passed_out_hand(make_log) -> None:
    log = make_log("pagat", seed=27, pass_hands=frozenset({2}))
    code, out, _ = invoke("replay", log, "--hand", "2")
    assert code == 0
    auction = next(line for line in hand_block(out, 2) if line.startswith("Auction: "))
    assert auction.count(" passes") == 4 and " bids " not in auction
    assert "Everyone passed: the hand is thrown in." in out
    line = one_line_error(*invoke("replay", log, "--hand", "2", "--trick", "1"))
    assert line == "error: hand 2 of game 1 has no trick 1 (it was thrown in)"


def test_violations_are_shown_where_they_happened(make_log) -> None:
    log = make_log("neuralplay", seed=28, fault_at=9, on_fault="default")
    fault = next(r for r in revealed(log) if r["event"] == "violation")
    code, out, _ = invoke("replay", log, "--hand", fault["hand"])
    assert code == 0
    seat = fault["seat"]
    assert (
        f"! {seat} bot{seat} timeout: no answer within 1000 ms (+100 ms grace) (the referee played for it)"
        in hand_block(out, fault["hand"])
    )


def test_a_forfeit_ends_the_game(make_log) -> None:
    log = make_log("double-deck", seed=29, fault_at=15, on_fault="forfeit")
    fault = next(r for r in revealed(log) if r["event"] == "violation")
    end = next(r for r in revealed(log) if r["event"] == "game_end")
    code, out, _ = invoke("replay", log)
    assert code == 0
    seat = fault["seat"]
    assert f"! {seat} bot{seat} timeout: no answer within 1000 ms (+100 ms grace) (the team forfeits)" in out
    assert f"Game over (forfeit ({end['detail']})): team {end['winner']} wins" in out


def test_bad_positions_are_one_line_errors(make_log) -> None:
    log = make_log("bloomington", seed=30)
    assert (
        one_line_error(*invoke("replay", log, "--trick", "2"))
        == "error: --trick needs --hand (the hand the trick belongs to)"
    )
    assert one_line_error(*invoke("replay", log, "--hand", "1", "--trick", "9")) == "error: --trick must be 1..8, got 9"
    assert one_line_error(*invoke("replay", log, "--seat", "6")) == "error: --seat must be 0..5, got 6"
    assert one_line_error(*invoke("replay", log, "--seat", "x")) == "error: --seat needs a whole number, got 'x'"
    assert one_line_error(*invoke("replay", log, "--hand", "0")) == "error: --hand must be at least 1, got 0"
    assert one_line_error(*invoke("replay", log, "--game", "2")) == f"error: {log} holds 1 game; there is no game 2"
    assert one_line_error(*invoke("replay", log, "--verify", "--seat", "1")) == (
        "error: --verify checks whole games: drop --hand, --trick and --seat"
    )


def test_one_game_of_several_and_faults_outside_games(make_log) -> None:
    log = make_log("double-deck-3p", seed=31, games=3)
    recs = revealed(log)
    loose = {"event": "violation", "game": None, "hand": None, "seat": 1, "kind": "crash", "detail": "never connected"}
    recs.insert(1, {**loose, "penalty": "none"})
    write_records(log, recs)
    code, out, _ = invoke("replay", log, "--game", "2")
    assert code == 0
    assert "Game 2 of 3: double-deck-3p, id g0002" in out and "Game 1 of 3" not in out and "Game 3 of 3" not in out
    assert out.count("Game over (") == 1
    assert "! line 2: seat 1 crash: never connected" in out
    code, out, _ = invoke("replay", log, "--verify")
    assert code == 0 and "3 games of double-deck-3p" in out


def test_a_ten_reads_10_as_on_the_card_faces_and_T_in_plain_text() -> None:
    from referee.engine.cards import parse_card
    from referee.replay.text import Cards

    ten = parse_card("TD")
    assert Cards(fancy=True).card(ten).plain == "10♦"  # the HTML panel and the terminal, as the faces say
    assert Cards(fancy=False).card(ten).plain == "TD"  # the log's notation, for grep and diff
    assert Cards(fancy=True).card(parse_card("JH")).plain == "J♥"
