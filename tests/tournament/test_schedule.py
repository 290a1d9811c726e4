"""The round-robin schedule: every pair (or group of three) meets in every seating, duplicate deals, roles."""

from __future__ import annotations

import random
from collections import Counter
from itertools import combinations, permutations

import pytest

from referee.engine.events import DealEvent
from referee.engine.game import Game
from referee.engine.presets import rules_for
from referee.engine.simulate import shuffled_deck
from referee.games.driver import Queue
from referee.tournament.schedule import ScheduleError, round_robin

BOTS = ("alpha", "bravo", "charlie", "delta")


def first_deal(rules_name: str, seed: int) -> tuple[int, list[list[int]]]:
    """The first dealer and the first deck of a game seed, the way play_game draws them."""
    rules = rules_for(rules_name)
    rng = random.Random(seed)
    dealer = rng.randrange(rules.players)
    game = Game(rules, dealer)
    deck = shuffled_deck(rules, rng)
    game.deal(deck)
    deal = game.events[0]
    assert isinstance(deal, DealEvent)
    return dealer, [list(h) for h in deal.hands if h is not None]  # the game's own events: no hand hidden


def test_every_pair_meets_in_both_seatings_on_the_same_deals() -> None:
    rules = rules_for("neuralplay")
    games = round_robin(BOTS, rules, games=4, seed=7)
    assert [g.number for g in games] == list(range(1, 6 * 4 + 1))
    by_pair: dict[frozenset[str], list] = {}
    for g in games:
        by_pair.setdefault(frozenset(g.teams), []).append(g)
    assert set(by_pair) == {frozenset(p) for p in combinations(BOTS, 2)}
    for pair_games in by_pair.values():
        assert len(pair_games) == 4
        # each deal is played twice, once with each bot on team 0
        for deal in (0, 1):
            a, b = (g for g in pair_games if g.deal == deal)
            assert a.teams == tuple(reversed(b.teams))
            assert a.seed == b.seed
        assert pair_games[0].seed != pair_games[2].seed
    # every pairing plays the same deals
    assert len({g.seed for g in games}) == 2


def test_duplicate_games_deal_the_same_cards_to_the_same_seats() -> None:
    rules = rules_for("neuralplay")
    a, b = round_robin(BOTS[:2], rules, games=2, seed=3)
    assert a.seat_names(rules) == ("alpha", "bravo", "alpha", "bravo")
    assert b.seat_names(rules) == ("bravo", "alpha", "bravo", "alpha")
    assert first_deal("neuralplay", a.seed) == first_deal("neuralplay", b.seed)


def test_without_duplicate_every_game_has_its_own_deal_and_seatings_alternate() -> None:
    rules = rules_for("neuralplay")
    games = round_robin(BOTS[:2], rules, games=3, seed=3, duplicate=False)
    assert [g.teams for g in games] == [("alpha", "bravo"), ("bravo", "alpha"), ("alpha", "bravo")]
    assert len({g.seed for g in games}) == 3


def test_three_teams_every_group_of_three_in_every_rotation() -> None:
    rules = rules_for("double-deck-3p")
    assert rules.teams == 3
    games = round_robin(BOTS, rules, games=6, seed=1)
    groups = Counter(frozenset(g.teams) for g in games)
    assert groups == {frozenset(c): 6 for c in combinations(BOTS, 3)}
    for group in combinations(BOTS, 3):
        mine = [g for g in games if frozenset(g.teams) == frozenset(group)]
        for deal in (0, 1):
            same_deal = [g for g in mine if g.deal == deal]
            assert len({g.seed for g in same_deal}) == 1
            # each bot plays each seat once on this deal, the seating order turned round
            seatings = [g.teams for g in same_deal]
            for team in range(3):
                assert {s[team] for s in seatings} == set(group)
            first = seatings[0]
            assert set(seatings) == {first[r:] + first[:r] for r in range(3)}


def test_roles_count_a_teams_seats_whichever_team_the_bot_plays() -> None:
    rules = rules_for("bloomington")  # six seats, two teams of three
    a, b = round_robin(BOTS[:2], rules, games=2, seed=1)
    assert a.roles(rules) == (("alpha", 0), ("bravo", 0), ("alpha", 1), ("bravo", 1), ("alpha", 2), ("bravo", 2))
    assert b.roles(rules) == (("bravo", 0), ("alpha", 0), ("bravo", 1), ("alpha", 1), ("bravo", 2), ("alpha", 2))


def test_the_schedule_is_a_function_of_the_settings() -> None:
    rules = rules_for("pagat")
    assert round_robin(BOTS, rules, games=2, seed=5) == round_robin(BOTS, rules, games=2, seed=5)
    assert round_robin(BOTS, rules, games=2, seed=5) != round_robin(BOTS, rules, games=2, seed=6)
    assert round_robin(BOTS, rules, games=2, seed=5) != round_robin(BOTS[::-1], rules, games=2, seed=5)


@pytest.mark.parametrize(
    ("bots", "preset", "games", "duplicate", "message"),
    [
        (BOTS, "neuralplay", 3, True, "3 is not a multiple of 2; ask for 4 or turn duplicate off"),
        (BOTS, "double-deck-3p", 4, True, "4 is not a multiple of 3; ask for 6"),
        (BOTS[:1], "neuralplay", 2, True, "needs at least 2 bots for 2 teams, got 1"),
        (BOTS[:2], "double-deck-3p", 3, True, "needs at least 3 bots for 3 teams, got 2"),
        (BOTS, "neuralplay", 0, False, "at least 1, got 0"),
        (("a", "a"), "neuralplay", 2, True, "bot names must differ"),
    ],
)
def test_impossible_schedules_say_why(
    bots: tuple[str, ...], preset: str, games: int, duplicate: bool, message: str
) -> None:
    with pytest.raises(ScheduleError, match=message.replace("(", r"\(")):
        round_robin(bots, rules_for(preset), games=games, seed=1, duplicate=duplicate)


def test_tables_keep_their_bots_and_spread_over_the_pairings() -> None:
    rules = rules_for("neuralplay")
    queue = Queue(round_robin(BOTS, rules, games=2, seed=1))
    seated: dict[int, frozenset[str]] = {1: frozenset(), 2: frozenset()}

    def take(table: int) -> tuple[str, ...]:
        game = queue.take(table, seated[table])
        assert game is not None
        seated[table] = frozenset(game.group)
        return game.group

    # the second table starts on another pairing than the first
    assert (take(1), take(2)) == (("alpha", "bravo"), ("alpha", "charlie"))
    # each finishes its pairing before changing bots
    assert (take(1), take(2)) == (("alpha", "bravo"), ("alpha", "charlie"))
    # then each keeps one of its bots, on a pairing the other table is not playing
    assert (take(1), take(2)) == (("alpha", "delta"), ("bravo", "charlie"))
    played = [take(t) for t in (1, 2, 1, 2, 1, 2)]
    assert queue.take(1, seated[1]) is None
    assert Counter(played) == {
        ("alpha", "delta"): 1,
        ("bravo", "charlie"): 1,
        ("bravo", "delta"): 2,
        ("charlie", "delta"): 2,
    }


def test_three_teams_with_every_seating_play_all_six_orders() -> None:
    rules = rules_for("double-deck-3p")
    rotations = round_robin(BOTS[:3], rules, games=3, seed=1)
    games = round_robin(BOTS[:3], rules, games=12, seed=1, every_seating=True)
    # the rotations keep their numbers: the default schedule is the first seatings of the full one
    assert [g.teams for g in games[:3]] == [g.teams for g in rotations]
    for deal in (0, 1):
        same_deal = [g for g in games if g.deal == deal]
        assert len(same_deal) == 6 and len({g.seed for g in same_deal}) == 1
        assert {g.teams for g in same_deal} == set(permutations(BOTS[:3]))  # all 6 orders on each deal

    def left_of(teams: tuple[str, ...]) -> set[tuple[str, str]]:  # (bot, the bot on its left)
        return {(teams[t], teams[(t + 1) % 3]) for t in range(3)}

    # the rotations never change who sits on whose left; all six seatings put every bot on both sides
    assert len(set().union(*(left_of(g.teams) for g in rotations))) == 3
    assert len(set().union(*(left_of(g.teams) for g in games[:6]))) == 6
    with pytest.raises(ScheduleError, match="sets of 6"):
        round_robin(BOTS[:3], rules, games=3, seed=1, every_seating=True)
    # two teams have no other seatings
    assert len(round_robin(BOTS[:2], rules_for("pagat"), games=2, seed=1, every_seating=True)) == 2
