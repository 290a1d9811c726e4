"""The engine is a pure function of (rules, first dealer, decks, actions)."""

from __future__ import annotations

import builtins
import random
import time
from dataclasses import replace

import pytest

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
