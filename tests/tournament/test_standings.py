"""Standings arithmetic: wins/draws/losses, points per hand, violations, and the Elo fit with its interval.

Expected Elo values are computed here by other means: the closed form for two
bots, Zermelo's fixed-point iteration for the Bradley-Terry model with more,
and the closed form of the information matrix for a field of equals.
"""

from __future__ import annotations

import math
import random

import pytest

from referee.games.standings import Outcome, standings

LN10 = math.log(10)


def game(
    number: int,
    teams: tuple[str, ...],
    scores: tuple[int, ...],
    winner: int | None,
    *,
    forfeit: int | None = None,
    hands: int = 10,
    violations: tuple[int, ...] | None = None,
) -> Outcome:
    return Outcome(number, teams, scores, winner, forfeit, hands, violations or (0,) * len(teams))


def two_bot_games(wins: int, draws: int, losses: int) -> list[Outcome]:
    out = []
    for k in range(wins + draws + losses):
        winner = 0 if k < wins else None if k < wins + draws else 1
        teams = ("A", "B") if k % 2 == 0 else ("B", "A")
        if teams[0] == "B" and winner is not None:
            winner = 1 - winner
        out.append(game(k + 1, teams, (10, 5), winner))
    return out


def test_two_bots_textbook_elo_and_interval() -> None:
    # A scores 60 wins, 30 draws, 10 losses = 75 of 100; plus the prior's virtual draw: 75.5 of 101
    rows = {r.bot: r for r in standings(["A", "B"], two_bot_games(60, 30, 10))}
    s, n = 75.5 / 101, 101
    difference = 400 * math.log10(s / (1 - s))  # the Elo curve
    assert rows["A"].elo == pytest.approx(difference / 2, abs=1e-6)
    assert rows["B"].elo == pytest.approx(-difference / 2, abs=1e-6)
    # standard error of the difference from the binomial information n p (1 - p), in Elo units; each bot half
    se_difference = (400 / LN10) / math.sqrt(n * s * (1 - s))
    assert rows["A"].elo_error == pytest.approx(1.959964 * se_difference / 2, rel=1e-5)
    assert rows["A"].elo_error == rows["B"].elo_error
    assert (rows["A"].wins, rows["A"].draws, rows["A"].losses) == (60, 30, 10)
    assert (rows["B"].wins, rows["B"].draws, rows["B"].losses) == (10, 30, 60)
    assert rows["A"].score == 75.0 and rows["B"].score == 25.0


def zermelo(
    names: list[str], pair_games: dict[tuple[str, str], tuple[float, float]], prior: float = 1.0
) -> dict[str, float]:
    """Bradley-Terry strengths by Zermelo's iteration (draws as half points, a virtual draw per pair), as Elo,
    mean 0."""
    wins = {n: 0.0 for n in names}
    games: dict[tuple[str, str], float] = {}
    for a in names:
        for b in names:
            if a < b:
                played, a_points = pair_games.get((a, b), (0.0, 0.0))
                games[(a, b)] = games[(b, a)] = played + prior
                wins[a] += a_points + prior / 2
                wins[b] += played - a_points + prior / 2
    gamma = {n: 1.0 for n in names}
    for _ in range(20000):
        gamma = {i: wins[i] / sum(games[(i, j)] / (gamma[i] + gamma[j]) for j in names if j != i) for i in names}
        norm = math.exp(sum(math.log(g) for g in gamma.values()) / len(names))
        gamma = {i: g / norm for i, g in gamma.items()}
    return {i: 400 * math.log10(g) for i, g in gamma.items()}


def test_several_bots_match_zermelos_iteration() -> None:
    rng = random.Random(5)
    names = ["A", "B", "C", "D"]
    strength = {"A": 1.0, "B": 0.5, "C": 0.0, "D": -0.7}
    outcomes, pair_games = [], {}
    number = 0
    for i, a in enumerate(names):
        for b in names[i + 1 :]:
            played = a_points = 0.0
            for _ in range(12):
                number += 1
                p = 1 / (1 + math.exp(strength[b] - strength[a]))
                r = rng.random()
                winner = 0 if r < p * 0.9 else 1 if r > p * 0.9 + 0.1 else None
                outcomes.append(game(number, (a, b), (0, 0), winner))
                played += 1
                a_points += {0: 1.0, None: 0.5, 1: 0.0}[winner]
            pair_games[(a, b)] = (played, a_points)
    expected = zermelo(names, pair_games)
    rows = {r.bot: r for r in standings(names, outcomes)}
    for n in names:
        assert rows[n].elo == pytest.approx(expected[n], abs=1e-6)
    assert sum(r.elo for r in rows.values()) == pytest.approx(0, abs=1e-9)
    assert [r.bot for r in standings(names, outcomes)] == sorted(names, key=lambda n: -expected[n])


def test_a_field_of_equals_rates_zero_with_the_closed_form_interval() -> None:
    names = ["A", "B", "C"]
    outcomes = []
    number = 0
    for a, b in (("A", "B"), ("A", "C"), ("B", "C")):
        for k in range(10):  # 5 wins each way
            number += 1
            outcomes.append(game(number, (a, b), (0, 0), k % 2))
    rows = standings(names, outcomes)
    # information: a complete graph Laplacian with weight w = (10 + 1) * 1/4 per pair (log-odds units);
    # its pseudo-inverse has 2 / (9 w) on the diagonal
    w = 11 / 4
    expected = 1.959964 * (400 / LN10) * math.sqrt(2 / (9 * w))
    for r in rows:
        assert r.elo == pytest.approx(0, abs=1e-9)
        assert r.elo_error == pytest.approx(expected, rel=1e-5)


def test_a_bot_that_won_everything_has_a_finite_rating() -> None:
    rows = {r.bot: r for r in standings(["A", "B"], two_bot_games(20, 0, 0))}
    s = 20.5 / 21
    assert rows["A"].elo == pytest.approx(200 * math.log10(s / (1 - s)), abs=1e-6)
    assert math.isfinite(rows["A"].elo_error)


def test_standings_do_not_depend_on_the_order_games_finished_in() -> None:
    rng = random.Random(1)
    names = ["A", "B", "C"]
    outcomes = [
        game(
            k,
            tuple(rng.sample(names, 2)),
            (rng.randint(-20, 60), rng.randint(-20, 60)),
            rng.choice([0, 1, None]),
            hands=rng.randint(3, 12),
        )
        for k in range(1, 60)
    ]
    first = standings(names, outcomes)
    for _ in range(5):
        rng.shuffle(outcomes)
        assert standings(names, outcomes) == first


def test_wins_points_per_hand_and_violations() -> None:
    names = ["A", "B", "C"]
    outcomes = [
        game(1, ("A", "B"), (52, 10), 0, hands=8),
        game(2, ("B", "A"), (40, 40), None, hands=6, violations=(1, 0)),  # a draw
        game(3, ("A", "C"), (-5, 30), 0, forfeit=1, hands=2, violations=(0, 1)),  # C forfeited
        # three teams: B wins; A forfeited, so A loses to C as well; no winner between... C and A? C beats A
        game(4, ("A", "B", "C"), (1, 20, 5), 1, forfeit=0, hands=4, violations=(2, 0, 0)),
        # three teams with no winner: everyone draws
        game(5, ("C", "B", "A"), (3, 3, 3), None, hands=5),
    ]
    rows = {r.bot: r for r in standings(names, outcomes)}
    a, b, c = rows["A"], rows["B"], rows["C"]
    assert (a.games, a.wins, a.draws, a.losses) == (5, 2, 2, 1)
    assert (b.games, b.wins, b.draws, b.losses) == (4, 1, 2, 1)
    assert (c.games, c.wins, c.draws, c.losses) == (3, 0, 1, 2)
    assert a.points == 52 + 40 - 5 + 1 + 3 and a.hands == 8 + 6 + 2 + 4 + 5
    assert a.points_per_hand == pytest.approx(91 / 25)
    assert c.points_per_hand == pytest.approx((30 + 5 + 3) / (2 + 4 + 5))
    assert (a.violations, b.violations, c.violations) == (2, 1, 1)
    # pairwise: game 4 gives B 1 against A and C, C 1 against A (A forfeited); game 5 three draws
    assert a.score == 1 + 0.5 + 1 + 0 + 0 + 0.5 + 0.5
    assert b.score == 0 + 0.5 + 1 + 1 + 0.5 + 0.5
    assert c.score == 0 + 0 + 1 + 0.5 + 0.5
    assert a.encounters == 1 + 1 + 1 + 2 + 2


def test_equal_results_are_ranked_by_points_per_hand_not_by_name() -> None:
    # A and Z each win one game and lose one against the other: the same Elo. Z scores
    # far more per hand (its win is a rout, its loss narrow), so it ranks first despite its name.
    games = [
        game(1, ("A", "Z"), (52, 40), 0, hands=10),
        game(2, ("Z", "A"), (60, -20), 0, hands=10),
    ]
    rows = standings(["A", "Z"], games)
    assert rows[0].elo == pytest.approx(rows[1].elo)
    assert [r.bot for r in rows] == ["Z", "A"]
    assert rows[0].points_per_hand > rows[1].points_per_hand
    # with the points per hand equal too, the name decides (a stable order)
    even = [game(1, ("B", "A"), (50, 50), None), game(2, ("A", "B"), (50, 50), None)]
    assert [r.bot for r in standings(["B", "A"], even)] == ["A", "B"]
