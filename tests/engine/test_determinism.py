"""The engine is a pure function of (rules, first dealer, decks, actions)."""

from __future__ import annotations

import ast
import builtins
import random
import time
from dataclasses import replace
from pathlib import Path

import pytest

import referee.engine
from referee.engine.game import Game
from referee.engine.presets import PRESETS
from referee.engine.simulate import play_game, random_action, random_chooser
from tests.support.engine import FOUR_TWO_HANDS, FOUR_TWO_TRICKS, SMALL, bids, new_game, play_tricks, snapshot
from tests.support.engine_checks import play_checked, replay


@pytest.mark.parametrize("name", list(PRESETS))
def test_same_decks_and_actions_give_the_same_events(name: str) -> None:
    rules = replace(PRESETS[name], hand_limit=4)
    rng = random.Random(name)
    game, record = play_checked(rules, rng, random_chooser(rng))
    again = replay(rules, record)
    assert again.events == game.events
    assert (again.scores, again.winner, again.end_reason) == (game.scores, game.winner, game.end_reason)


def test_same_seed_gives_the_same_game() -> None:
    rules = replace(PRESETS["hammerwalt"], hand_limit=6)
    games = []
    for _ in range(2):
        rng = random.Random(7)
        games.append(play_game(Game(rules, 2), random_chooser(rng), rng))
    assert games[0].events == games[1].events


def test_a_scripted_hand_gives_the_same_events_twice() -> None:
    runs = []
    for _ in range(2):
        game = new_game(SMALL, FOUR_TWO_HANDS)
        bids(game, "3 high, pass, pass, pass")
        play_tricks(game, FOUR_TWO_TRICKS)
        runs.append(game.events)
    assert runs[0] == runs[1] and len(runs[0]) == 1 + 4 + 1 + 24 + 6 + 1


def test_the_engine_uses_no_global_random_no_clock_and_no_files(monkeypatch: pytest.MonkeyPatch) -> None:
    def forbidden(*_args: object, **_kwargs: object) -> None:
        raise AssertionError("the engine must not use global random, the clock or files")

    for fn in ("random", "randrange", "randint", "choice", "shuffle", "sample", "seed"):
        monkeypatch.setattr(random, fn, forbidden)
    for fn in ("time", "monotonic", "perf_counter", "process_time"):
        monkeypatch.setattr(time, fn, forbidden)
    monkeypatch.setattr(builtins, "open", forbidden)
    for name, rules in PRESETS.items():
        rng = random.Random(name)  # the caller's own generator is fine
        game = play_game(Game(replace(rules, hand_limit=2)), random_chooser(rng), rng)
        assert game.is_over


# Modules whose functions the engine must not call: the global random generator and the clock.
UNWANTED = ("random", "time")


def by_name_imports(source: str) -> list[str]:
    """The imports in ``source`` that get past the guard above: ``from random import shuffle`` (or from time)
    binds the function before the guard can replace it, and ``import random as r`` hides the module under
    another name. ``import random`` (for ``random.Random``, the caller's own generator) is not one."""
    found = []
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.ImportFrom) and node.level == 0 and node.module in UNWANTED:
            names = ", ".join(a.name if a.asname is None else f"{a.name} as {a.asname}" for a in node.names)
            found.append(f"line {node.lineno}: from {node.module} import {names}")
        elif isinstance(node, ast.Import):
            found += [
                f"line {node.lineno}: import {a.name} as {a.asname}"
                for a in node.names
                if a.name in UNWANTED and a.asname not in (None, a.name)
            ]
    return found


def test_the_engine_imports_neither_random_nor_the_clock_by_name() -> None:
    folder = Path(referee.engine.__file__).parent
    modules = sorted(folder.glob("*.py"))
    assert len(modules) > 5
    found = {p.name: by_name_imports(p.read_text(encoding="utf-8")) for p in modules}
    assert {name: lines for name, lines in found.items() if lines} == {}


@pytest.mark.parametrize(
    ("source", "line"),
    [
        ("from random import shuffle", "line 1: from random import shuffle"),
        ("from time import monotonic as now", "line 1: from time import monotonic as now"),
        ("from random import *", "line 1: from random import *"),
        ("import random as r", "line 1: import random as r"),
        ("import os, time as clock", "line 1: import time as clock"),
        ("def deal():\n    from random import sample\n    return sample", "line 2: from random import sample"),
    ],
)
def test_the_import_check_catches_a_name_taken_from_random_or_time(source: str, line: str) -> None:
    assert by_name_imports(source) == [line]


@pytest.mark.parametrize(
    "source",
    [
        "import random\nrng = random.Random(1)",  # the caller's generator: random.Random, through the module
        "import time",  # its functions are replaced by the guard above
        "from referee.engine.cards import Card",
        "from .random import x",  # a module of the package that happens to be named so
    ],
)
def test_the_import_check_lets_the_module_itself_through(source: str) -> None:
    assert by_name_imports(source) == []


@pytest.mark.parametrize("name", list(PRESETS))
def test_a_copy_plays_like_the_original_and_leaves_it_untouched(name: str) -> None:
    """Copy the game at many points; play the copy on; the original must not notice, and playing
    the original on with the same actions must give the copy's events."""
    rules = replace(PRESETS[name], hand_limit=3)
    rng = random.Random(f"copy-{name}")
    game, record = play_checked(rules, rng, random_chooser(rng))
    actions = iter(record.actions)
    original = Game(rules, record.first_dealer)
    checked = 0
    for deck in record.decks:
        original.deal(deck)
        while original.decision() is not None:
            action = next(actions)
            if rng.random() < 0.2:
                fork = original.copy()
                before = snapshot(original)
                fork_rng = random.Random(checked)
                fork_events = fork.apply(action)
                while (d := fork.decision()) is not None:  # the fork plays to its hand's end
                    fork.apply(random_action(d, fork_rng))
                assert snapshot(original) == before
                assert original.apply(action) == fork_events
                checked += 1
            else:
                original.apply(action)
    assert original.events == game.events and checked > 0
