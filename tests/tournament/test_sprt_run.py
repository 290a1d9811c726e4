"""arena sprt: real bots over the real referee until the test decides; resumable; bad settings refused."""

from __future__ import annotations

import json
import re
import signal
import subprocess
import time
from pathlib import Path

import pytest

from referee.cli.app import Status
from referee.games.results import GameRecord
from referee.sprt.playing import PairTally
from tests.support.arena import ARENA, QUICK, RANDOM, RULES, arena, bot
from tests.support.logs import results
from tests.support.tournament import tournament_bot


def sprt(folder: Path, *args: str, bots: tuple[str, ...] = ()):
    argv = ["sprt", *QUICK, *(a for b in bots for a in ("--bot", b)), "--out", str(folder), "-j", "2", *args]
    return arena(*argv)


def summary(folder: Path) -> dict:
    return json.loads((folder / "sprt-result.json").read_text())


def test_a_much_stronger_bot_is_accepted(tmp_path):
    folder = tmp_path / "s"
    run = sprt(folder, "--elo0", "0", "--elo1", "100", bots=(RULES, RANDOM))
    assert run.returncode == 0, run.stderr
    assert "H1 accepted" in run.stdout and "rules is stronger than random" in run.stdout
    done = summary(folder)
    decided = done["decided_at"]
    assert decided["verdict"] == "H1" and decided["llr"] >= decided["upper_bound"]
    final = done["final"]
    played = results(folder)
    assert final["games"] == len(played)
    assert (
        sum(final["pentanomial"]) == final["pairs"] == PairTally("rules", map(GameRecord.from_json, played)).penta.pairs
    )
    # the live line's content, printed (not a terminal) at the end
    assert "LLR" in run.stdout and "(-2.94, +2.94)" in run.stdout


def test_an_undecided_test_resumes_with_more_pairs_and_rejects_a_weaker_bot(tmp_path):
    folder = tmp_path / "s"
    first = sprt(folder, "--elo0", "0", "--elo1", "100", "--max-pairs", "2", bots=(RANDOM, RULES))
    assert first.returncode == 0, first.stderr
    assert "no decision: 2 of at most 2 pairs" in first.stdout
    before = results(folder)
    assert len(before) == 4
    again = arena("sprt", "--resume", "--out", str(folder), "--max-pairs", "40", "-j", "2")
    assert again.returncode == 0, again.stderr
    assert "H0 accepted" in again.stdout and "random is not stronger than rules" in again.stdout
    after = results(folder)
    assert after[:4] == before  # kept, not played again
    assert [r["game"] for r in after] == list(range(1, len(after) + 1))
    assert summary(folder)["final"]["max_pairs"] == 40


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--bot", RULES], "an SPRT compares two bots"),
        (["--bot", RULES, "--bot", RANDOM, "--bot", bot("x")], "an SPRT compares two bots"),
        (["--bot", RULES, "--bot", RANDOM, "--elo0", "5", "--elo1", "5"], "elo0 (5) must be below elo1 (5)"),
        (["--bot", RULES, "--bot", RANDOM, "--alpha", "1.5"], "alpha must be between 0 and 1"),
        (["--bot", RULES, "--bot", RANDOM, "--preset", "double-deck-3p"], "double-deck-3p has 3 teams"),
        (["--resume"], "--resume needs --name or --out"),
    ],
)
def test_bad_settings_are_one_line_errors(tmp_path, args, message):
    run = arena("sprt", *args, cwd=tmp_path)
    assert run.returncode == Status.BAD_INPUT, run.stdout
    lines = run.stderr.strip().splitlines()
    assert len(lines) == 1 and message in lines[0], run.stderr
    assert not (tmp_path / "logs").exists()


def test_resume_refuses_other_hypotheses(tmp_path):
    folder = tmp_path / "s"
    assert sprt(folder, "--max-pairs", "1", bots=(RANDOM, RULES)).returncode == 0
    run = arena("sprt", "--resume", "--out", str(folder), "--elo1", "20")
    assert run.returncode == Status.BAD_INPUT
    assert "elo1 20.0 / 10.0" in run.stderr


def rec(game: int, deal: int, teams: list[str], winner: int | None) -> GameRecord:
    """A results.jsonl record of a one-hand game with no points (only the winner counts)."""
    return GameRecord.from_json(
        {
            "game": game,
            "seed": game,
            "reason": "hands",
            "deal": deal,
            "teams": teams,
            "scores": [0, 0],
            "winner": winner,
            "forfeit": None,
            "hands": 1,
            "violations": [],
        }
    )


def test_the_tally_counts_only_complete_pairs():
    tally = PairTally(
        "new",
        [
            rec(1, 0, ["new", "base"], 0),
            rec(3, 1, ["new", "base"], 1),
            rec(2, 0, ["base", "new"], None),  # pairs complete in any order
            rec(4, 1, ["base", "new"], 0),
            rec(5, 2, ["new", "base"], 0),  # its pair is not complete yet
        ],
    )
    assert tally.games == 5
    assert tally.penta.counts == (1, 0, 0, 1, 0)  # deal 0: 1 + 1/2, deal 1: 0 + 0


def test_a_stopped_test_resumes_without_playing_a_game_twice(tmp_path):
    folder = tmp_path / "s"
    # the base bot waits 20 ms a decision (no CPU): ten games take well over ten seconds, so there is time to stop it
    slow = tournament_bot("slow", "busy_bot.py", "0.01", "sleep")
    argv = [str(ARENA), "sprt", *QUICK, "--bot", RANDOM, "--bot", slow, "--max-pairs", "5", "--out", str(folder)]
    proc = subprocess.Popen([*argv, "-j", "1"], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    results_file = folder / "results.jsonl"
    deadline = time.monotonic() + 120
    while time.monotonic() < deadline and proc.poll() is None:
        if results_file.exists() and results_file.read_text().count("\n") >= 2:
            break
        time.sleep(0.05)
    proc.send_signal(signal.SIGTERM)
    _, err = proc.communicate(timeout=60)
    assert proc.returncode == 130, err
    assert "arena sprt --resume --out" in err
    before = results(folder)
    assert 2 <= len(before) < 10
    again = arena("sprt", "--resume", "--out", str(folder), "-j", "2")
    assert again.returncode == 0, again.stderr
    after = results(folder)
    assert after[: len(before)] == before
    assert sorted(r["game"] for r in after) == list(range(1, len(after) + 1))
    assert summary(folder)["final"]["games"] == len(after)


def test_pairs_count_in_deal_order_whichever_game_ends_first():
    """On several tables a later pair may be complete first: it waits, so that the test decides on the pairs
    of one table, in the same order."""
    tally = PairTally("new")
    tally.add(rec(1, 0, ["new", "base"], 0))
    tally.add(rec(3, 1, ["new", "base"], 1))
    tally.add(rec(4, 1, ["base", "new"], 0))  # deal 1 is complete, deal 0 is not: nothing counts yet
    assert (tally.games, tally.penta.pairs) == (3, 0)
    tally.add(rec(2, 0, ["base", "new"], None))  # now both, in deal order
    assert tally.penta.counts == (1, 0, 0, 1, 0)


def test_the_last_status_line_and_the_verdict_count_the_same_pairs(tmp_path):
    """Games at a table when the test decides finish after it and are kept, but the decision is the LLR of the
    pairs before them: the status line printed above the verdict is that one, and a line says what came after.
    The bots hold the second deal's games back until the first pair is in; bounds this loose decide on it."""
    folder = tmp_path / "s"
    results = folder / "results.jsonl"
    bots = [tournament_bot(name, "late_pair_bot.py", str(results), name) for name in ("rules", "random")]
    run = sprt(folder, "--elo0", "0", "--elo1", "200", "--alpha", "0.45", "--beta", "0.45", "-j", "4",
               "--move-time", "90000", "--sandbox", "off", bots=tuple(bots))  # fmt: skip
    assert run.returncode == 0, run.stderr
    lines = run.stdout.splitlines()
    v = next(k for k, line in enumerate(lines) if re.match(r"H[01] accepted", line))
    verdict, status = lines[v], lines[v - 1]
    said = re.search(r"\(LLR ([-+]\d+\.\d+) [<>]= .*\) after (\d+) pairs", verdict)
    assert said is not None, verdict
    verdict_llr, verdict_pairs = said.groups()
    assert re.search(rf"\({verdict_pairs} pairs, .*LLR {re.escape(verdict_llr)} \(", status), (status, verdict)
    done = summary(folder)
    decided, final = done["decided_at"], done["final"]
    assert decided["pairs"] == int(verdict_pairs) == 1 and decided["games"] == 2
    assert final["pairs"] == 2 and final["games"] in (4, 5)  # the second deal (and a game of the third) after it
    assert lines[v + 1] == (
        f"{final['games'] - 2} games at a table when the test decided finished after it: kept, but not in the "
        f"decision (with them: 2 pairs, LLR {final['llr']:+.2f}; {folder / 'sprt-result.json'})"
    )
