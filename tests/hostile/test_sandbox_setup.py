"""Issue 10, item 9 and ``--sandbox auto|required|off``.

A bot that exits before it connects is a setup error in ``arena match`` (one
line naming it and the end of its output, exit status 1, no JSON lines); in a
tournament its games are forfeited, the run goes on, the standings show it.
Where no sandbox can be made (here: a PATH without bwrap and unshare), ``auto``
warns in one line and plays, ``required`` refuses in one line.
"""

from __future__ import annotations

import json
import shutil
import sys
from pathlib import Path

import pytest

from referee.sandbox import candidates, find
from tests.support.arena import RANDOM, arena
from tests.support.logs import only_log, results, seat_kind_penalty, standings
from tests.support.sandbox import (
    POLICIES,
    have_sandbox_tools,
    hostile,
    match,
    no_json_lines,
    no_sandbox_env,
    tournament,
    verified,
)

NOSTART = hostile("nostart", "sbx_nostart.py")


@pytest.mark.parametrize("policy", POLICIES)
def test_a_bot_that_cannot_start_is_a_setup_error_in_a_match(tmp_path: Path, policy: str) -> None:
    run = match(tmp_path, RANDOM, NOSTART, policy=policy, sandbox="auto")
    assert run.returncode == 1
    lines = run.stderr.strip().splitlines()
    assert len(lines) == 1, run.stderr
    assert lines[0].startswith("error: bot 'nostart' (seat 1) exited with code 3 before connecting")
    assert "it ended: 'FileNotFoundError: sbx_nostart: no such file: weights.bin'" in lines[0]
    assert no_json_lines(run.stdout + run.stderr)
    assert not list(tmp_path.rglob("*.jsonl"))  # no log of a match that never started


@pytest.mark.parametrize("sandbox", ["required", "off"])
def test_the_setup_error_says_when_the_bot_ran_in_the_sandbox(tmp_path: Path, sandbox: str) -> None:
    run = match(tmp_path, RANDOM, NOSTART, sandbox=sandbox)
    assert run.returncode == 1
    (line,) = run.stderr.strip().splitlines()
    hint = " (in the sandbox: read-only files but /tmp, see docs/security.md)"
    assert line.endswith(hint) == (sandbox == "required"), line
    assert no_json_lines(run.stdout + run.stderr)
    assert not list(tmp_path.rglob("*.jsonl"))  # no log of a match that never started


@pytest.mark.parametrize("policy", POLICIES)
def test_a_bot_that_cannot_start_forfeits_its_tournament_games(tmp_path: Path, policy: str) -> None:
    folder = tmp_path / "t"
    run = tournament(folder, RANDOM, NOSTART, hostile("other", "sbx_hog.py"), policy=policy, sandbox="auto",
                     extra=("-n", "2"))  # fmt: skip
    assert run.returncode == 0, run.stderr
    recs = results(folder)
    assert len(recs) == 6  # the run went on
    for record in recs:
        verified(folder / record["log"])
        if "nostart" in record["teams"]:
            assert record["forfeit"] == record["teams"].index("nostart")
            assert {v["bot"] for v in record["violations"]} == {"nostart"}
            assert all("exited with code 3 before connecting" in v["detail"] for v in record["violations"])
        else:
            assert record["violations"] == [] and record["forfeit"] is None
    rows = {row["bot"]: row for row in standings(folder)}
    assert rows["nostart"]["wins"] == 0 and rows["nostart"]["losses"] == 4 and rows["nostart"]["violations"] == 4
    assert "nostart" in run.stdout  # the standings table
    # the faults' lines after the standings: why it forfeited, alike games together
    lines = [line for line in run.stdout.splitlines() if line.startswith("  nostart: ")]
    reason = ": could not start: exited with code 3 before connecting"
    assert lines and all(" crash (forfeit) in g" in line and reason in line for line in lines), lines
    assert sum(int(line.split()[1]) for line in lines) == 4


@pytest.mark.skipif(not have_sandbox_tools(), reason="this machine has neither bwrap nor unshare")
def test_auto_uses_the_sandbox_where_it_can(tmp_path: Path) -> None:
    run = match(tmp_path, RANDOM, sandbox="auto")
    assert run.returncode == 0, run.stderr
    assert "warning" not in run.stderr
    first_lines = [p.read_text().splitlines()[0] for p in tmp_path.glob("match-*/*.stderr")]
    assert first_lines and all(line.endswith("(in a bwrap sandbox)") for line in first_lines)
    verified(only_log(tmp_path))


def test_auto_warns_once_and_plays_where_no_sandbox_can_be_made(tmp_path: Path) -> None:
    run = match(tmp_path, RANDOM, sandbox="auto", env=no_sandbox_env())
    assert run.returncode == 0, run.stderr
    (line,) = run.stderr.strip().splitlines()
    assert line.startswith("warning: bots run without a sandbox (neither bwrap")
    first_lines = [p.read_text().splitlines()[0] for p in tmp_path.glob("match-*/*.stderr")]
    assert first_lines and not any(line.endswith("sandbox)") for line in first_lines)
    verified(only_log(tmp_path))


def test_required_refuses_where_no_sandbox_can_be_made(tmp_path: Path) -> None:
    run = match(tmp_path / "m", RANDOM, sandbox="required", env=no_sandbox_env())
    assert run.returncode == 1
    expected = (
        "error: --sandbox required: no sandbox can be made here: neither bwrap (Debian package bubblewrap) "
        "nor unshare (util-linux) is on PATH"
    )
    assert run.stderr.strip().splitlines() == [expected]
    assert not (tmp_path / "m").exists() or not list((tmp_path / "m").iterdir())
    run = tournament(
        tmp_path / "t", RANDOM, RANDOM.replace("random=", "other="), sandbox="required", env=no_sandbox_env()
    )
    assert run.returncode == 1 and run.stderr.startswith("error: --sandbox required")
    assert not (tmp_path / "t").exists()  # refused before the folder was made


def test_the_tournament_keeps_its_sandbox_setting_on_resume(tmp_path: Path) -> None:
    folder = tmp_path / "t"
    toml = tmp_path / "t.toml"
    command = RANDOM.split("=", 1)[1]
    toml.write_text(f'sandbox = "required"\n[bots]\nrandom = "{command}"\nb = "{command}"\n')
    argv = ["tournament", "--config", str(toml), "--preset", "double-deck", "-r", "hand_limit=1", "-n", "2"]
    run = arena(*argv, "--out", str(folder))
    assert run.returncode == 0, run.stderr
    assert json.loads((folder / "settings.json").read_text())["sandbox"] == "required"
    # resumed where no sandbox can be made: the saved `required` refuses
    run = arena("tournament", "--resume", "--out", str(folder), env=no_sandbox_env())
    assert run.returncode == 1 and run.stderr.startswith("error: --sandbox required"), run.stderr
    run = arena("tournament", "--resume", "--out", str(folder), "--sandbox", "off", env=no_sandbox_env())
    assert run.returncode == 0, run.stderr
    verified(folder / results(folder)[0]["log"])


def test_a_bot_script_under_tmp_runs_in_the_sandbox(tmp_path: Path) -> None:
    """Issue 19, item 4: a bot's program lying in /tmp (private in the sandbox) is given back, read-only,
    with its folder (what it imports beside itself); the command runs from the checkout, not from /tmp."""
    assert str(tmp_path).startswith("/tmp/")
    folder = tmp_path / "mybot"
    folder.mkdir()
    (folder / "helper.py").write_text("from example_bots.random_bot import RandomBot\n")
    (folder / "bot.py").write_text("from helper import RandomBot\nfrom sdk import run\nrun(RandomBot())\n")
    logs = tmp_path / "logs"
    run = match(logs, f"mine={sys.executable} {folder / 'bot.py'}", RANDOM)
    assert run.returncode == 0, run.stderr
    assert seat_kind_penalty(verified(only_log(logs))) == []
    first_lines = [p.read_text().splitlines()[0] for p in logs.glob("match-*/*mine.stderr")]
    assert len(first_lines) == 2 and all(line.endswith("sandbox)") for line in first_lines)


def test_bubblewrap_is_used_where_it_is_installed() -> None:
    """Issue 19: the suite once ran on the weaker fallback though it meant to test bubblewrap. Where bwrap
    is on the PATH it must work, and be the one chosen; a machine without it fails here (make test
    installs it)."""
    if shutil.which("bwrap") is None:
        pytest.fail("bubblewrap is not installed: `make test` installs it (Debian package bubblewrap)")
    (bwrap, problem), _ = candidates()
    assert bwrap is not None and bwrap.kind == "bwrap", problem
    chosen, why = find()
    assert chosen is not None and chosen.kind == "bwrap", why
