"""Output piped into another program is printed whole: no table cut to 80 columns (``W-D…``, ``faul…``), no
column dropped. The real ``arena`` executable, its stdout a pipe and no COLUMNS set, as in
``arena ... | less`` or a script reading it."""

from __future__ import annotations

import os
import subprocess
from pathlib import Path

from tests.support.arena import ARENA, QUICK, bot

LONG = "a-bot-with-a-name-long-as-this"  # 30 characters: a table of it is wider than 80 columns
NAMED = "a-bot-with-a-long-name"  # 22 characters, as long as a ladder takes


def piped(*args: str | Path, cwd: Path) -> str:
    env = {k: v for k, v in os.environ.items() if k not in ("COLUMNS", "LINES")}
    run = subprocess.run(
        [ARENA, *map(str, args)], cwd=cwd, env=env, stdin=subprocess.DEVNULL, capture_output=True, text=True,
        timeout=300, check=False,
    )  # fmt: skip
    assert run.returncode == 0, run.stdout + run.stderr
    return run.stdout


def cells(line: str) -> list[str]:
    return [c.strip() for c in line.strip(" │┃").replace("┃", "│").split("│") if c.strip()]


def test_ladder_standings_keep_every_column_when_piped(tmp_path: Path) -> None:
    folder = tmp_path / "club"
    piped("ladder", "init", folder, *QUICK, "--sandbox", "off", cwd=tmp_path)
    piped("ladder", "add", folder, bot(NAMED, "random_bot"), cwd=tmp_path)
    piped("ladder", "add", folder, bot(NAMED, "rules_bot"), cwd=tmp_path)  # version 2 of the same bot
    out = piped("ladder", "standings", folder, cwd=tmp_path)
    assert "…" not in out, out
    lines = out.splitlines()
    header = next(line for line in lines if " bot " in line)
    assert header.split() == ["#", "bot", "v", "mu-3s", "mu", "±", "s", "games", "W-D-L", "pts/hand", "faults",
                              "last", "status"], out  # fmt: skip
    versions = sorted(line.split()[1] for line in lines if line.split()[:1] == [NAMED])  # no rank: none plays yet
    assert versions == ["1", "2"], out  # two versions, told apart


def test_tournament_standings_are_whole_when_piped(tmp_path: Path) -> None:
    bots = ["--bot", bot(LONG, "rules_bot"), "--bot", bot(LONG + "-2", "random_bot")]
    out = piped("tournament", *QUICK, "--rule", "hand_limit=1", "--games", "2", "--sandbox", "off", *bots,
                "--out", tmp_path / "t", cwd=tmp_path)  # fmt: skip
    assert "…" not in out, out
    header = next(cells(line) for line in out.splitlines() if "bot" in cells(line))
    assert header == ["#", "bot", "games", "W", "D", "L", "pts/hand", "Elo", "±95%", "faults", "ms mean/max"], out
    assert any(LONG + "-2" in line for line in out.splitlines())
