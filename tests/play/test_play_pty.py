"""``arena play`` played whole by keystrokes on a real pseudo-terminal, every screen checked against the log.

The person's choices are typed as a person would (a number, or the text of a
bid); the bots are the first-choice example bot, so games are quick. After the
game, the log is replayed through the engine: the k-th screen must show what
the seat knew at its k-th decision (hand, bids, trick on the table, score) and
offer exactly the legal choices, and no screen may show a card the seat could
not know.
"""

from __future__ import annotations

from collections import Counter
from pathlib import Path

import pexpect
import pytest

from referee.cli.app import Status
from referee.engine.game import DecisionKind
from referee.gamelog import read_records
from referee.replay.logfile import revealed_records
from tests.support.arena import ARENA, FIRST, arena
from tests.support.play import CARD, Chooser, Screen, Session, asked_of, bid_text, check_one, plain, play


def bidder(first_hand: str) -> Chooser:
    """Bid ``first_hand`` (a bid's text, such as 'alone') in hand 1, the lowest trick bid after; else the first
    choice, or the first cards asked for."""

    def choose(screen: Screen, hand: int) -> str:
        if screen.question.startswith("Your bid"):
            wanted = first_hand if hand == 1 else None
            for label in screen.choices:
                if (wanted is None and label != "pass") or (wanted is not None and bid_text(label) == wanted):
                    return label  # typed as text: the screen's own words must work
            return "1"
        if screen.question.startswith(("Give", "Discard")):
            count = int(screen.question.split()[1])
            return " ".join(str(k) for k in range(1, count + 1))
        return "1"

    return choose


def the_log(session: Session, log_dir: Path) -> Path:
    logs = sorted(log_dir.glob("match-*/match.jsonl"))
    assert len(logs) == 1, session.transcript[-2000:]
    return logs[0]


def check_screens(session: Session, log: Path, seat: int) -> Counter[DecisionKind]:
    """Every screen against the seat's view from the log; returns how many decisions of each kind were shown."""
    asked = list(asked_of(log, seat))
    assert len(asked) == len(session.screens), "one screen per decision of the person's seat"
    kinds: Counter[DecisionKind] = Counter()
    for screen, a in zip(session.screens, asked, strict=True):
        kinds[a.decision.kind] += 1
        check_one(screen, a)
    return kinds


def check_results(session: Session, log: Path, seat: int) -> None:
    """What was shown after each hand and at the end is the log's result; the log replays and verifies."""
    records = revealed_records(log)  # the exchanged cards in place
    ends = [r for r in records if r["event"] == "hand_end"]
    shown = "\n".join(session.between)
    for end in ends:
        scores = " / ".join(map(str, end["scores"]))
        assert f"Hand {end['hand']} is over" in shown
        assert f"scores {scores}" in shown
    game_end = next(r for r in records if r["event"] == "game_end")
    assert game_end["reason"] == "hands" and len(ends) == 2  # played to the end: nobody timed out
    assert not [r for r in records if r["event"] == "violation"]
    assert f"Game over ({game_end['reason']}" in session.between[-1]
    assert session.exit_status == 0, session.transcript[-3000:]
    assert "error" not in session.transcript.lower(), session.transcript[-3000:]  # the client ended cleanly too
    # the hand summaries show only what the seat may know: its own cards, exchanges it saw, cards played
    seen = set(CARD.findall("\n".join(line for line in shown.splitlines() if line.startswith(("Trick", "Exchange")))))
    public = {r["card"] for r in records if r["event"] == "play"}
    own = {c for r in records if r["event"] == "exchange" and seat in (r["from"], r["to"]) for c in r["cards"]}
    assert seen <= public | own
    replay = arena("replay", str(log), "--verify", timeout=60)
    assert replay.returncode == 0, replay.stdout + replay.stderr
    text = arena("replay", str(log), "--seat", str(seat), timeout=60)
    assert text.returncode == 0 and "human" in text.stdout, text.stderr


@pytest.mark.parametrize(
    ("preset", "seat", "first_bid", "exchange_kind"),
    [
        ("hammerwalt", 1, "alone", DecisionKind.GIVE),  # going alone: give 3 to partner, get 3 back
        ("bloomington", 4, "bests", DecisionKind.DISCARD),  # six seats; best: partners give 1 each, discard 2
    ],
)
def test_a_whole_game_by_keystrokes(
    tmp_path: Path, preset: str, seat: int, first_bid: str, exchange_kind: DecisionKind
) -> None:
    args = [
        "--preset", preset, "--seat", str(seat), "--bot", FIRST, "--seed", "5",
        "-r", "game_over=hands", "-r", "game_hands=2", "--log-dir", str(tmp_path),
    ]  # fmt: skip
    # the person thinks far longer than the bots' time per decision, and mistypes once
    session = play([*args, "--move-time", "300"], bidder(first_bid), wrong_first="99", think_s=2.0)
    log = the_log(session, tmp_path)
    kinds = check_screens(session, log, seat)
    assert kinds[DecisionKind.BID] >= 2 and kinds[DecisionKind.PLAY] >= 8, kinds
    assert kinds[exchange_kind] >= 1, kinds
    if preset == "hammerwalt":
        assert kinds[DecisionKind.TRUMP] >= 1, kinds  # a level bid: trump is named after the auction
    check_results(session, log, seat)
    game_start = next(r for _, r in read_records(log) if r["event"] == "game_start")
    assert game_start["seats"][seat]["bot"] == "human"
    outputs = list(tmp_path.glob("match-*/*.stderr"))  # the bots' (the person's client is not in a sandbox)
    assert outputs and all(p.read_text().splitlines()[0].endswith("(in a bwrap sandbox)") for p in outputs)


def test_leaving_the_table_stops_the_match(tmp_path: Path) -> None:
    """Ctrl-D at the first question: the client leaves, the match stops with a one-line error, status 1."""
    child = pexpect.spawn(
        ARENA,
        ["play", "--preset", "pagat", "--bot", FIRST, "--log-dir", str(tmp_path)],
        encoding="utf-8",
        dimensions=(60, 200),
        timeout=60,
    )
    child.expect(r"Choose 1-\d+: ")
    child.sendeof()
    child.expect(pexpect.EOF)
    child.close()
    assert child.exitstatus == 1
    out = plain(child.before or "")
    assert "you left the table" in out
    assert "error: the game was stopped: the player's client left the table" in out and "Traceback" not in out


@pytest.mark.parametrize(
    ("args", "needle"),
    [
        (["--seat", "4"], "seat 4 is not a seat of a 4-player game (seats 0 to 3)"),
        (["--bot", "a=python", "--bot", "b=python"], "2 bots for the 3 other seats"),
        (["--bot", "nobody"], "bad bot 'nobody': expected NAME=COMMAND"),
    ],
)
def test_bad_options_are_one_line(args: list[str], needle: str) -> None:
    run = arena("play", "--preset", "pagat", *args, timeout=60)
    assert run.returncode == Status.BAD_INPUT  # nothing started: bad input, as in every command
    lines = run.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("error: ") and needle in lines[0], run.stderr
