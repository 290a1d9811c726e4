"""Matchmaking and the rating unit, as pure functions: the same state and seed give the same pairing, new
versions come first, every version gets its share, close ratings meet more; a set's ranks and updates."""

from __future__ import annotations

from collections import Counter

import pytest

from referee.ladder.matchmaking import Entry, pair
from referee.ladder.ratings import NEW, Rating, SetGame, ranks, rate, set_result

PLACED = [Entry(k, Rating(25 + 2 * k, 2.0), sets=10, playing=0) for k in range(1, 7)]


def test_the_same_state_and_seed_give_the_same_pairing() -> None:
    for seed in range(50):
        first = pair(PLACED, 2, seed)
        assert first == pair(list(reversed(PLACED)), 2, seed)  # the order the pool is listed in does not matter
        assert first == pair(PLACED, 2, seed)
    assert len({pair(PLACED, 2, seed) for seed in range(50)}) > 3  # the seed does choose


def test_too_few_versions_give_no_pairing() -> None:
    assert pair(PLACED[:1], 2, 1) is None
    assert pair(PLACED[:2], 3, 1) is None
    assert pair(PLACED[:3], 3, 1) is not None


def test_a_new_version_plays_first_until_it_is_placed() -> None:
    new = Entry(99, NEW, sets=0, playing=0)
    assert all(pair([*PLACED, new], 2, seed)[0] == 99 for seed in range(30))  # type: ignore[index]
    # even with more sets than the others, an unplaced version is the focus
    busy = Entry(99, Rating(30, 5.0), sets=40, playing=1)
    assert all(pair([*PLACED, busy], 3, seed)[0] == 99 for seed in range(30))  # type: ignore[index]
    placed = Entry(99, Rating(30, 2.5), sets=40, playing=0)
    assert all(pair([*PLACED, placed], 2, seed)[0] != 99 for seed in range(30))  # type: ignore[index]


def test_the_version_with_fewest_sets_is_the_focus() -> None:
    pool = [*PLACED[:5], Entry(6, Rating(37, 2.0), sets=3, playing=0)]
    assert all(pair(pool, 2, seed)[0] == 6 for seed in range(30))  # type: ignore[index]
    pool = [*PLACED[:5], Entry(6, Rating(37, 2.0), sets=3, playing=8)]  # its sets in play count
    assert all(pair(pool, 2, seed)[0] != 6 for seed in range(30))  # type: ignore[index]


def test_close_ratings_meet_more_often() -> None:
    focus = Entry(1, Rating(25, 2.0), sets=0, playing=0)
    close, far = Entry(2, Rating(26, 2.0), sets=10, playing=0), Entry(3, Rating(45, 2.0), sets=10, playing=0)
    met = Counter(pair([focus, close, far], 2, seed)[1] for seed in range(400))  # type: ignore[index]
    assert met[2] > 5 * met[3] > 0


def test_a_set_s_result_is_points_over_the_set_forfeits_first() -> None:
    games = [SetGame((1, 2), (30, -10), None), SetGame((2, 1), (20, 5), None)]
    points, forfeits = set_result([1, 2], games)
    assert points == {1: 35, 2: 10} and forfeits == {1: 0, 2: 0}
    assert ranks([1, 2], points, forfeits) == [1, 2]
    assert ranks([1, 2], {1: 10, 2: 10}, forfeits) == [1, 1]  # a tie
    assert ranks([1, 2], points, {1: 1, 2: 0}) == [2, 1]  # a forfeit ranks below whatever the points


@pytest.mark.parametrize("teams", [2, 3])
def test_an_update_moves_the_winner_up_and_everyone_s_sigma_down(teams: int) -> None:
    after = rate([NEW] * teams, list(range(1, teams + 1)))
    assert after[0].mu > NEW.mu > after[-1].mu
    assert [a.mu for a in after] == sorted((a.mu for a in after), reverse=True)
    assert all(a.sigma < NEW.sigma for a in after)
