"""arena check-bot: the example bots pass every check; hostile bots fail the check of the rule they break.

Real parts throughout: the referee's gRPC server on port 0, bot processes
started by the referee's launcher, the example bots as users run them.
"""

from __future__ import annotations

import asyncio
import json
import os
import sys
from pathlib import Path

import pytest

from referee.bots import BotCommand
from referee.checkbot.positions import GAME_HANDS, WHOLE_GAME, check_rules, find_position, positions, situations
from referee.checkbot.session import CLAIM_EXPECTED, OTHER_CHECKS, Report, check_bot
from referee.deadline import TimeControl
from referee.engine.game import DecisionKind
from referee.engine.presets import PRESETS
from tests.support.arena import invoke

HERE = Path(__file__).parent
HOSTILE = HERE / "bots" / "protocol_breaker_bot.py"


def run_check(
    tmp_path: Path, bot: BotCommand, presets: list[str], move_time_ms: int = 1000, connect_timeout_s: float = 30
) -> Report:
    return asyncio.run(
        check_bot(
            bot,
            presets=presets,
            clock=TimeControl(move_time_ms=move_time_ms),
            output_dir=tmp_path,
            connect_timeout_s=connect_timeout_s,
            shutdown_wait_s=3,
        )
    )


def python_bot(name: str, *args: str) -> BotCommand:
    return BotCommand(name, (sys.executable, *args))


def hostile(mode: str, *extra: str) -> BotCommand:
    return python_bot("hostile", str(HOSTILE), mode, *extra)


def failed(report: Report) -> dict[str, str]:
    """check name -> the rule it failed on."""
    return {f"{c.group}/{c.name}": c.rule for c in report.failures}


# ------------------------------------------------------------- positions


def test_every_preset_gives_every_situation_and_every_kind():
    found, missing = positions(list(PRESETS))
    assert missing == []
    for name in PRESETS:
        ours = [p for p in found if p.preset == name]
        assert [p.name for p in ours] == [s.name for s in situations(check_rules(name))]
        for p in ours:
            assert p.decision.seat == p.seat
            assert p.game.hand_number == 1 and not p.game.is_over
    kinds = {p.decision.kind for p in found}
    assert kinds == set(DecisionKind)
    # the rare ones: a Best partner gives, a Call 2 declarer discards, six seats and three teams are there
    by = {(p.preset, p.name): p for p in found}
    assert by[("bloomington", "best: partner exchanges")].decision.kind is DecisionKind.GIVE
    assert by[("neuralplay", "call2: declarer")].decision.kind is DecisionKind.DISCARD
    assert by[("hammerwalt", "alone: partner exchanges")].decision.kind is DecisionKind.GIVE
    moon = by[("neuralplay", "moon: declarer")].game.contract
    assert moon is not None and moon.alone
    assert by[("bloomington", "best: declarer")].game.rules.players == 6
    assert by[("double-deck-3p", "bid: opening the auction")].game.rules.teams == 3


def test_positions_are_deterministic():
    rules = check_rules("pagat")
    situation = situations(rules)[-1]
    a, b = find_position("pagat", rules, situation), find_position("pagat", rules, situation)
    assert a is not None and b is not None
    assert a.game.events == b.game.events and a.seat == b.seat and a.seed == b.seed


# ---------------------------------------------------------- example bots


@pytest.mark.parametrize("name", ["random", "first", "rules"])
def test_example_bot_passes_every_check_on_every_preset(tmp_path, name):
    report = run_check(tmp_path, python_bot(name, "-m", f"example_bots.{name}_bot"), list(PRESETS))
    assert failed(report) == {}
    assert report.passed
    assert report.kinds() == [k.value for k in DecisionKind]
    names = [c.name for c in report.checks]
    for protocol in ("hello", "error message", "restart", "shutdown"):
        assert any(n.startswith(protocol) for n in names)
    assert len(report.think_ms) > 300
    assert report.think_summary()["median"] <= report.think_summary()["max"]


@pytest.mark.slow
def test_montecarlo_bot_passes_at_a_fast_level(tmp_path):
    # the example Monte Carlo bot searching for a fifth of a 500 ms limit: room for a loaded machine
    mc_bot = HERE.parent / "tournament" / "bots" / "mc_bot.py"
    bot = python_bot("montecarlo", str(mc_bot), "0.2")
    report = run_check(tmp_path, bot, ["neuralplay", "bloomington", "triple-deck"], move_time_ms=500)
    assert failed(report) == {}
    assert report.passed


# ------------------------------------------------------------ hostile bots


@pytest.mark.parametrize(
    ("mode", "rule"),
    [
        ("illegal", "legal"),
        ("wrong-field", "answer field"),
        ("wrong-id", "request id"),
        ("stale-id", "request id"),
        ("slow", "in time"),
    ],
)
def test_a_bot_breaking_a_rule_fails_that_check_everywhere(tmp_path, mode, rule):
    report = run_check(tmp_path, hostile(mode), ["indiana"], move_time_ms=100)
    assert not report.passed
    rules = failed(report)
    positions_failed = {k: v for k, v in rules.items() if k.startswith("indiana/")}
    assert len(positions_failed) == len(situations(check_rules("indiana"))) + 1  # and the whole game
    assert set(positions_failed.values()) == {rule}
    bad = report.failures[0]
    assert bad.expected and bad.got


def test_claims_that_hold_pass_and_a_claim_that_fails_is_told_plainly(tmp_path):
    """A bot that claims at every play with three tricks left or fewer: where the claim holds it is accepted
    (the hand ends, the check passes); where it fails, the check fails on the claim rule, saying why."""
    claimer = python_bot("claim", str(HERE.parent / "referee" / "bots" / "claim_bot.py"), "last", "3")
    report = run_check(tmp_path, claimer, ["neuralplay"])
    by_name = {c.name: c for c in report.checks}
    holds = by_name["claim: a claim of the tricks left holds"]
    assert holds.passed and holds.claims == 1 and holds.got.endswith(": accepted"), holds
    fails = by_name["claim: a claim of the tricks left fails"]
    assert not fails.passed and fails.rule == "claim" and fails.claims == 0
    assert fails.expected == CLAIM_EXPECTED
    assert CLAIM_EXPECTED.startswith("a claim only where the team takes every trick left, whatever the others play")
    assert fails.got.startswith("a claim of the last ") and fails.got.endswith(
        "refused: the other side can take a trick against every line of play of your team"
    )
    assert {c.rule for c in report.failures} == {"claim"}  # nothing else is wrong with it
    saved = json.loads(Path(report.saved).read_text())
    assert {c["check"]: c["claims"] for c in saved["checks"]}["claim: a claim of the tricks left holds"] == 1


def test_a_wrong_exchange_fails_only_where_cards_are_exchanged(tmp_path):
    report = run_check(tmp_path, hostile("bad-exchange"), ["neuralplay"])
    assert failed(report) == {
        "neuralplay/call2: declarer": "legal",
        "neuralplay/call2: partner exchanges": "legal",
        "neuralplay/call1: declarer": "legal",
        "neuralplay/call1: partner exchanges": "legal",
    }
    give = next(c for c in report.failures if c.name == "call2: partner exchanges")
    assert "2 card(s)" in give.expected and "exactly 2" in give.got


@pytest.mark.parametrize(
    ("mode", "check", "rule"),
    [
        ("nameless", "hello: connects and names itself", "hello"),
        ("error-crash", "error message: carries on after an Error", "connection"),
    ],
)
def test_protocol_breaches_fail_their_check(tmp_path, mode, check, rule):
    report = run_check(tmp_path, hostile(mode), ["single-deck"])
    assert failed(report) == {f"protocol/{check}": rule}


def test_a_bot_ignoring_shutdown_fails_it_and_is_killed(tmp_path):
    pid_file = tmp_path / "pid"
    report = run_check(tmp_path, hostile("deaf", str(pid_file)), ["single-deck"])
    assert failed(report) == {"protocol/shutdown: exits by itself with status 0": "shutdown"}
    assert "still running after 3 s (killed)" in report.failures[0].got
    pid = int(pid_file.read_text())
    with pytest.raises(ProcessLookupError):  # no orphan left behind
        os.kill(pid, 0)


def test_a_bot_that_cannot_restart_fails_the_restart_check(tmp_path):
    report = run_check(tmp_path, hostile("no-restart", str(tmp_path / "marker")), ["single-deck"])
    rules = failed(report)
    assert rules.pop("protocol/restart: a new process after the bot is killed") == "restart"
    assert rules == {"protocol/shutdown: exits by itself with status 0": "shutdown"}  # nothing left to shut down


def test_a_bot_that_cannot_be_started_again_is_waited_for_once(tmp_path):
    bot = hostile("crash-then-hang", str(tmp_path / "marker"))
    report = run_check(tmp_path, bot, ["indiana"], connect_timeout_s=2)
    positions_failed = [c for c in report.failures if c.group == "indiana"]
    assert [c.rule for c in positions_failed] == ["connection"] * (len(situations(check_rules("indiana"))) + 1)
    assert "exited with status 6" in positions_failed[0].got
    assert "did not connect within 2 s" in positions_failed[1].got
    assert all("could not be started again earlier" in c.got for c in positions_failed[2:])
    assert len(report.think_ms) == 0


def test_a_bot_that_never_connects_fails_hello_and_stops_there(tmp_path):
    report = run_check(tmp_path, python_bot("mute", "-c", "import sys; sys.exit(3)"), ["pagat"])
    assert [(c.name, c.rule) for c in report.checks] == [("hello: connects and names itself", "hello")]
    assert "exited with code 3" in report.checks[0].got


# ------------------------------------------------------------------ CLI

WIDE = 200  # columns, so that rich does not fold the table


def test_cli_table_json_and_exit_status(tmp_path):
    log_dir = ["--log-dir", str(tmp_path)]
    code, out, err = invoke(
        "check-bot", "rules=python -m example_bots.rules_bot", "-p", "indiana", *log_dir, columns=WIDE
    )
    assert code == 0, err
    assert "every check passed" in out and "median" in out
    assert "play: partner of the declarer" not in out  # the table of checks: only with --verbose or a failure
    (output,) = tmp_path.glob("check-rules-*.checked.stderr")  # the bot ran in the sandbox, as in a match
    assert output.read_text().splitlines()[0].endswith("(in a bwrap sandbox)")
    code, out, err = invoke(
        "check-bot", f"hostile={sys.executable} {HOSTILE} illegal", "-p", "indiana", "--json", *log_dir, columns=WIDE
    )
    assert code == 1, err
    report = json.loads(out)
    assert report["passed"] is False
    assert {c["rule"] for c in report["checks"] if not c["passed"]} == {"legal"}
    assert set(report["think_ms"]) == {"median", "p99", "max"}
    assert json.loads(Path(report["report"]).read_text()) == report  # also saved beside the bot's output
    code, _, err = invoke("check-bot", "nobot", columns=WIDE)
    assert code == 2 and "expected NAME=COMMAND" in err  # a usage mistake: 1 would say a check failed


def test_a_bot_that_crashes_in_its_second_hand_fails_the_whole_game(tmp_path):
    """Every position is a game of one hand; the whole game has two, so a bot that dies at its first decision of
    hand 2 fails there, with a verdict that says where and how, and passes the rest."""
    bot = f"secondhand={sys.executable} {HERE / 'bots' / 'second_hand_bot.py'}"
    code, out, err = invoke("check-bot", bot, "-p", "pagat", "--log-dir", str(tmp_path), columns=WIDE)
    assert code == 1, err
    verdict = out.strip().splitlines()[-1]
    total = len(situations(check_rules("pagat"))) + OTHER_CHECKS
    assert verdict.startswith(f"check-bot secondhand: 1 of {total} checks failed (the table above"), verdict
    [row] = [line for line in out.splitlines() if "FAIL" in line]
    assert WHOLE_GAME in row and "connection" in row, row
    report = json.loads(Path(verdict.split("the report: ")[1].split(";")[0]).read_text())
    [failed] = [c for c in report["checks"] if not c["passed"]]
    assert (failed["check"], failed["rule"]) == (WHOLE_GAME, "connection")
    assert " decision in hand 2 (request " in failed["expected"], failed
    assert failed["got"] == "the connection closed: the process exited with status 1", failed
    assert "KeyError" in Path(report["bot_output"]).read_text()  # its traceback, in the file the verdict names


def test_tcp_names_the_bot_as_in_every_other_command(tmp_path):
    """``--tcp NAME``, as in match, tournament, sprt and play; a name that is not the bot's is one line, exit 2."""
    bot = f"rules={sys.executable} -m example_bots.rules_bot"
    code, out, err = invoke("check-bot", "--tcp", "rulez", bot, "--log-dir", str(tmp_path), columns=WIDE)
    assert code == 2, out
    assert err.strip() == "error: --tcp 'rulez': no bot has that name (did you mean 'rules'?) (the bots: rules)"
    code, out, err = invoke("check-bot", "--tcp", "rules", bot, "-p", "pagat", "--log-dir", str(tmp_path), columns=WIDE)
    assert code == 0, out + err
    assert "every check passed" in out


ECHO = HERE / "bots" / "rules_echo_bot.py"


def test_rule_overrides_reach_the_bot_on_every_preset_checked(tmp_path):
    bot = f"echo={sys.executable} {ECHO}"
    code, out, err = invoke(
        "check-bot", bot, "-p", "pagat", "-p", "indiana", "--rule", "min_bid=4", "--rule", "value_alone=10",
        "--json", "--log-dir", str(tmp_path), columns=WIDE,
    )  # fmt: skip
    assert code == 0, err
    report = json.loads(out)
    assert report["passed"] and report["rule_overrides"] == {"min_bid": "4", "value_alone": "10"}
    lines = Path(report["bot_output"]).read_text().splitlines()
    told = [line for line in lines if line.startswith("rules ")]
    # every position's game (and the protocol checks' games) on both presets, each a game of one hand, and the
    # whole game of two hands
    assert len(told) >= len(situations(check_rules("pagat"))) + len(situations(check_rules("indiana"))) + 1
    assert set(told) == {f"rules min_bid=4 value_alone=10 game_hands={n}" for n in (1, GAME_HANDS)}
    lowest = {int(line.split()[-1]) for line in lines if line.startswith("lowest bid ")}
    assert lowest and min(lowest) == 4  # the bids offered follow the override too


@pytest.mark.parametrize(
    ("rule", "message"),
    [
        ("min_bid", "bad rule override 'min_bid': expected name=value"),
        ("nonsense=1", "unknown rule option 'nonsense'"),
        ("min_bid=lots", "bad value 'lots' for rule option min_bid"),
        ("game_hands=3", "rule option game_hands cannot be overridden here"),
        ("players=6", "--rule on pagat: deck"),
    ],
)
def test_a_bad_rule_override_is_a_one_line_usage_error(tmp_path, rule, message):
    logs = tmp_path / "logs"
    code, out, err = invoke(
        "check-bot",
        f"echo={sys.executable} {ECHO}",
        "-p",
        "pagat",
        "--rule",
        rule,
        "--log-dir",
        str(logs),
        columns=WIDE,
    )
    assert code == 2, out
    lines = err.strip().splitlines()
    assert len(lines) == 1 and message in lines[0], err
    assert not logs.exists()  # the bot was not started
