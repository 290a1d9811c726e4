"""docs/rules.md names everything the engine has: options and their values, presets, decks,
special bids, tie rules, end reasons and the rule names of illegal actions."""

from __future__ import annotations

import dataclasses
import re
from pathlib import Path

import pytest

import referee.engine.game as game_module
from referee.engine.bids import SPECIALS
from referee.engine.cards import DECKS
from referee.engine.presets import PRESETS
from referee.engine.rules import OPTION_NAMES, TIE_RULES, Rules

DOC = (Path(__file__).resolve().parents[2] / "docs" / "rules.md").read_text()
OPTION_ROWS = {
    name: row
    for row in DOC.splitlines()
    if row.startswith("| `")
    for name in re.findall(r"`([a-z_0-9]+)`", row.split("|")[1])
    if name in OPTION_NAMES
}


@pytest.mark.parametrize("name", OPTION_NAMES)
def test_every_option_has_a_row_listing_its_values(name: str) -> None:
    assert name in OPTION_ROWS, f"docs/rules.md has no option table row for {name}"
    meta = dataclasses.fields(Rules)[OPTION_NAMES.index(name)].metadata
    for choice in meta.get("choices", ()):
        assert str(choice) in OPTION_ROWS[name], f"{name}: value {choice} is not in its row"


@pytest.mark.parametrize(
    "word",
    [*PRESETS, *DECKS, *SPECIALS, *TIE_RULES, "target", "hands", "mercy", "hand-limit", "forfeit"],
)
def test_the_doc_names_it(word: str) -> None:
    assert f"`{word}`" in DOC


def test_every_illegal_action_rule_is_explained() -> None:
    source = Path(game_module.__file__).read_text()
    raised = re.findall(r'IllegalActionError\(\s*"([a-z-]+)"', source)
    bid_problems = re.findall(r'return "([a-z-]+)", f?"', source)  # Game._bid_problem
    rules = {*raised, *bid_problems, "give-count", "discard-count"}
    assert len(rules) == 21
    for rule in rules:
        assert f"`{rule}`" in DOC, rule
