"""``arena replay LOG --ask COMMAND --at ADDRESS`` on logs ``arena match`` wrote.

The seats marked ``d`` were played by ``bots/digest_bot.py``, whose every
choice hangs on a checksum of everything it was told. Re-asking it must give
the logged answer: that holds only if the request it gets (events, snapshot,
legal choices) and the earlier requests that bring it up to date are the ones
the referee sent.
"""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

from referee.cli.app import Status
from referee.engine.game import DecisionKind
from referee.replay.ask import Address, AskError
from referee.replay.logfile import load_log
from referee.replay.steps import DecisionPoint, GameReplay
from tests.support.arena import invoke
from tests.support.logs import Record, records
from tests.support.replay import DIGEST_BOT, one_line_error

DIGEST = f"python {DIGEST_BOT}"


def digest_seats(log: Path, game: int = 1) -> set[int]:
    start = next(r for r in records(log) if r["event"] == "game_start" and r["game"] == game)
    return {s["seat"] for s in start["seats"] if s["bot"] == "d"}


def ask(log: Path, at: str, *more: str, command: str = DIGEST) -> tuple[int, str, str]:
    return invoke("replay", log, "--ask", command, "--at", at, *more)


def answer_line(out: str) -> str:
    return next(line for line in out.splitlines() if line.startswith("  asked:"))


def first(log: Path, predicate, game: int = 1) -> Record:
    return next(r for r in records(log) if r.get("game") == game and predicate(r))


def test_every_kind_of_decision_is_reproduced(real_logs: dict[str, Path]) -> None:
    hammerwalt = real_logs["hammerwalt"]
    d = digest_seats(hammerwalt)
    alone = first(hammerwalt, lambda r: r["event"] == "contract" and r["bid"] == "alone" and r["declarer"] in d)
    hand, declarer = alone["hand"], alone["declarer"]
    partner = (declarer + 2) % 4
    bid = first(hammerwalt, lambda r: r["event"] == "bid" and r["hand"] == hand and r["seat"] == declarer)
    play = first(
        hammerwalt, lambda r: r["event"] == "play" and r["hand"] == hand and r["trick"] == 7 and r["seat"] == declarer
    )
    cases = [
        (f"{hand}.bid.{declarer}", f"  logged: {bid['bid']}"),
        (f"{hand}.trump", f"  logged: {alone['trump']}"),
        (f"{hand}.give.{declarer}", "  logged: "),  # the declarer gives three to its partner
        (f"{hand}.{play['trick']}.{declarer}", f"  logged: {play['card']}"),
    ]
    if partner in d:
        cases.append((f"{hand}.give.{partner}", "  logged: "))
    bloomington = real_logs["bloomington"]
    best = first(
        bloomington,
        lambda r: (
            r["event"] == "contract" and r["bid"].startswith("best") and r["declarer"] in digest_seats(bloomington)
        ),
    )
    for log, at, logged in [(hammerwalt, at, logged) for at, logged in cases] + [
        (bloomington, f"{best['hand']}.discard", "  logged: ")
    ]:
        code, out, err = ask(log, at)
        assert code == 0, (at, err)
        assert logged in out
        assert answer_line(out).endswith("(same as the log)"), (at, out)


def points(log: Path, game: int = 1) -> list[DecisionPoint]:
    """Every decision of a game, from the engine's replay of the log."""
    match = load_log(log)
    return [p for p in GameReplay(match, match.game(game)) if isinstance(p, DecisionPoint)]


def test_a_decision_by_number_and_the_request_it_was(real_logs: dict[str, Path]) -> None:
    log = real_logs["neuralplay"]
    d = digest_seats(log, 2)
    point = next(p for p in points(log, 2) if p.number >= 30 and p.decision.seat in d)
    code, out, err = ask(log, f"#{point.number}", "--game", "2")
    assert code == 0, err
    lines = out.splitlines()
    seat = point.decision.seat
    assert lines[0].startswith(f"{log}: game 2, decision {point.number} (hand {point.hand}")
    verb = "name trump" if point.decision.kind is DecisionKind.TRUMP else point.decision.kind.value
    assert lines[0].endswith(f"seat {seat} (d) to {verb}, log line {point.line}")
    assert lines[1].startswith("  legal: ")
    earlier = sum(1 for p in points(log, 2) if p.decision.seat == seat and p.number < point.number)
    assert (
        lines[2].startswith("  request ") and f"time limit 1000 ms, after its {earlier} earlier request(s)" in lines[2]
    )
    assert answer_line(out).endswith("(same as the log)")


def test_priming_brings_the_bot_up_to_date(real_logs: dict[str, Path]) -> None:
    """Without the hand's earlier requests the digest bot lacks events and answers otherwise."""
    log = real_logs["bloomington"]
    d = digest_seats(log)
    chosen = [
        p
        for p in points(log)
        if p.decision.seat in d
        and p.decision.kind is DecisionKind.PLAY
        and p.trick >= 3
        and len(p.decision.options) >= 3
    ][:4]  # each unprimed answer matches the log by chance one time in three or less: four make that rare
    assert len(chosen) == 4
    unprimed = []
    for p in chosen:
        at = f"{p.hand}.{p.trick}.{p.decision.seat}"
        code, out, err = ask(log, at, "--prime", "hand")
        assert code == 0, err
        assert answer_line(out).endswith("(same as the log)")
        code, out, err = ask(log, at, "--prime", "none")
        assert code == 0, err
        assert "earlier request" not in out
        unprimed.append(answer_line(out))
    assert any(line.endswith("(differs from the log)") for line in unprimed)


def test_decisions_around_claims_are_reproduced(real_logs: dict[str, Path], monkeypatch: pytest.MonkeyPatch) -> None:
    """A log where the digest seats claimed over the wire: a play answered by a claim that held, the play asked
    again after a refused claim (the claim among its events, the time it took gone from the limit, no claim
    allowed), and decisions after both, whose requests count those answered by refused claims."""
    log = real_logs["neuralplay-claims"]
    monkeypatch.setenv("REPLAY_TEST_CLAIM", "3")  # as the digest bot played in the match
    d = digest_seats(log)
    recs = records(log)
    made = [r for r in recs if r["event"] == "claim" and r["seat"] in d]
    held = next(r for r in made if r["accepted"])
    refused = next(r for r in made if not r["accepted"])
    after = next(r for r in recs if r["event"] == "bid" and r["hand"] > held["hand"] and r["seat"] in d)
    last = [r for r in recs if r["event"] == "play" and r["seat"] in d][-1]
    code, out, err = ask(log, f"{held['hand']}.{held['trick']}.{held['seat']}")
    assert code == 0, err
    assert "  logged: claim\n" in out
    assert answer_line(out) == "  asked:  claim (accepted: the hand ends) (same as the log)"
    code, out, err = ask(log, f"{refused['hand']}.{refused['trick']}.{refused['seat']}")
    assert code == 0, err
    assert "(after its claim was refused)" in out and f"time limit {1000 - refused['ms']} ms" in out
    assert answer_line(out).endswith("(same as the log)")
    for rec in (after, last):
        at = (
            f"{rec['hand']}.bid.{rec['seat']}"
            if rec["event"] == "bid"
            else f"{rec['hand']}.{rec['trick']}.{rec['seat']}"
        )
        code, out, err = ask(log, at)
        assert code == 0, (at, err)
        assert answer_line(out).endswith("(same as the log)"), (at, out)


def test_a_decision_the_referee_took_for_a_bot(real_logs: dict[str, Path]) -> None:
    log = real_logs["pagat-default"]
    recs = records(log)
    k = next(i for i, r in enumerate(recs) if r["event"] == "violation" and r["kind"] == "timeout")
    fault, action = recs[k], recs[k + 1]
    assert action["event"] in ("bid", "play", "exchange", "contract")
    at = {
        "bid": lambda: f"{action['hand']}.bid.{action['seat']}",
        "play": lambda: f"{action['hand']}.{action['trick']}.{action['seat']}",
        "exchange": lambda: f"{action['hand']}.{'discard' if action['to'] is None else 'give.' + str(action['from'])}",
        "contract": lambda: f"{action['hand']}.trump",
    }[action["event"]]()
    code, out, err = ask(log, at, "--prime", "hand")
    assert code == 0, err
    assert f"(played by the referee after timeout: {fault['detail']})" in out


def test_a_bot_that_does_not_answer(real_logs: dict[str, Path], monkeypatch: pytest.MonkeyPatch) -> None:
    log = real_logs["pagat-default"]  # 200 ms per decision
    monkeypatch.setenv("REPLAY_TEST_STALL", "1")  # the digest bot sleeps through its first decision
    code, out, err = ask(log, "#1", "--prime", "none")
    assert answer_line(out) == "  asked:  no answer"
    assert (
        one_line_error(code, out, err, Status.FAILED) == "error: bot 'asked': no answer within 200 ms (+100 ms grace)"
    )
    monkeypatch.delenv("REPLAY_TEST_STALL")
    gone = f"{sys.executable} -c 'raise SystemExit(3)'"
    line = one_line_error(*ask(log, "#1", command=gone), Status.FAILED)
    assert line.startswith("error: bot 'asked' exited with code 3 before connecting (its output: ")
    line = one_line_error(*ask(log, "#1", command="no-such-program-here --x"))
    assert line.startswith("error: bot 'asked': program 'no-such-program-here' not found")


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (("--ask", DIGEST), "--ask COMMAND and --at ADDRESS go together"),
        (("--at", "1.1.0"), "holds 2 games: choose one with --game"),
        (("--ask", DIGEST, "--at", "1.1"), "bad address '1.1': expected HAND.TRICK.SEAT, HAND.bid.SEAT[.TURN]"),
        (
            ("--ask", DIGEST, "--at", "0.bid.1"),
            "bad address '0.bid.1': hands, tricks, turns and decisions count from 1",
        ),
        (("--ask", DIGEST, "--at", "1.1.0", "--verify"), "choose one of --verify and --ask"),
        (
            ("--ask", DIGEST, "--at", "1.1.0", "--game", "1", "--seat", "1"),
            "the decision at 1.1.0 is seat 0's, not seat 1's",
        ),
        (("--ask", DIGEST, "--at", "1.1.0", "--hand", "1"), "--at names the decision: drop --hand and --trick"),
        (("--ask", DIGEST, "--at", "1.1.0"), "holds 2 games: choose one with --game"),
        (("--ask", DIGEST, "--at", "99.1.0", "--game", "1"), "game 1 has no decision 99.1.0"),
        (("--ask", DIGEST, "--at", "1.1.0", "--prime", "all"), "--prime must be one of game, hand, none, got 'all'"),
        (("--ask", "b@d=python x.py", "--at", "1.1.0", "--game", "1"), "bad bot name 'b@d'"),
    ],
)
def test_bad_ask_arguments(real_logs: dict[str, Path], args: tuple[str, ...], message: str) -> None:
    line = one_line_error(*invoke("replay", real_logs["neuralplay"], *args))
    assert message in line, line


@pytest.mark.parametrize(
    ("text", "form", "fields"),
    [
        ("3.5.2", "play", {"hand": 3, "trick": 5, "seat": 2}),
        ("4.bid.1", "bid", {"hand": 4, "seat": 1, "turn": 1}),
        ("4.bid.1.2", "bid", {"hand": 4, "seat": 1, "turn": 2}),
        ("2.trump", "trump", {"hand": 2, "seat": None}),
        ("2.give.3", "give", {"hand": 2, "seat": 3}),
        ("2.discard", "discard", {"hand": 2, "seat": None}),
        ("#17", "index", {"number": 17}),
    ],
)
def test_address_forms(text: str, form: str, fields: dict) -> None:
    address = Address.parse(text)
    assert address.form == form
    assert {k: getattr(address, k) for k in fields} == fields


@pytest.mark.parametrize("text", ["", "3", "3.5", "3.bid", "x.1.2", "3.give", "#", "#0", "1.0.2", "3.5.2.1"])
def test_bad_addresses(text: str) -> None:
    with pytest.raises(AskError):
        Address.parse(text)
