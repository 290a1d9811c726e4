"""A name that is not known comes with the closest known one (issue 31, item 11): presets, rule options and bot
names, their case and ``-``/``_`` ignored. Only a hint: the name given is never used in its place.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from referee.cli.app import Status
from referee.errors import did_you_mean
from tests.support.arena import FIRST, RANDOM, invoke
from tests.support.logs import only_log


def test_the_hint_takes_the_closest_name_case_ignored() -> None:
    assert did_you_mean("Pagat", ["neuralplay", "pagat"]) == " (did you mean 'pagat'?)"
    assert did_you_mean("minbid", ["min_bid", "min_notrump_bid"]) == " (did you mean 'min_bid'?)"
    assert did_you_mean("min-bid", ["min_bid"]) == " (did you mean 'min_bid'?)"
    assert did_you_mean("Random", ["random", "rules"]) == " (did you mean 'random'?)"
    assert did_you_mean("xyzzy", ["neuralplay", "pagat"]) == ""


@pytest.mark.parametrize(
    ("args", "expected"),
    [
        (["presets", "Pagat"], "unknown preset 'Pagat' (did you mean 'pagat'?); presets: "),
        (["match", "--preset", "Indianna"], "unknown preset 'Indianna' (did you mean 'indiana'?)"),
        (["check-bot", "x=python -m example_bots.first_bot", "-p", "PAGAT"], "(did you mean 'pagat'?)"),
        (
            ["match", "--rule", "minbid=3"],
            "unknown rule option 'minbid' (did you mean 'min_bid'?); `arena presets PRESET` lists every option",
        ),
        (["presets", "pagat", "-r", "Hand_Limit=3"], "unknown rule option 'Hand_Limit' (did you mean 'hand_limit'?)"),
        (
            ["tournament", "--bot", RANDOM, "--bot", FIRST, "--gauntlet", "Random", "--out", "{tmp}/t"],
            "the gauntlet's bot 'Random' is not one of the bots (did you mean 'random'?) (random, first)",
        ),
        (
            ["match", "--bot", RANDOM, "--bot", FIRST, "--tcp", "frist"],
            "--tcp 'frist': no bot has that name (did you mean 'first'?) (the bots: random, first)",
        ),
    ],
)
def test_an_unknown_name_gets_a_hint(args: list[str], expected: str, tmp_path: Path) -> None:
    where = ["--log-dir", str(tmp_path)] if args[0] in ("match", "check-bot") else []  # nothing in the checkout
    code, out, err = invoke(*(a.format(tmp=tmp_path) for a in args), *where)
    assert code == Status.BAD_INPUT, (out, err)
    (line,) = err.strip().splitlines()
    assert expected in line, line
    assert "players, teams, deck" not in line  # not the 39 options when one is close


def test_a_far_name_still_lists_every_choice() -> None:
    code, _, err = invoke("presets", "pagat", "-r", "xyzzy=1")
    assert code == Status.BAD_INPUT
    assert "unknown rule option 'xyzzy'; known options: players, teams, deck, " in err


def test_a_bot_name_in_the_logs(tmp_path: Path) -> None:
    code, _, err = invoke("match", "--bot", RANDOM, "-r", "hand_limit=1", "--log-dir", tmp_path)
    assert code == 0, err
    code, _, err = invoke("analyze", only_log(tmp_path), "--bot", "Random", "--samples", "8", "--workers", "1")
    assert code == Status.BAD_INPUT
    assert err.strip() == "error: no bot 'Random' in the logs (did you mean 'random'?) (they hold random)"
