"""Swiss pairing on many random fields: no repeat while a round without one exists, byes spread, groups of near
scores; three-team groups. The pairings are checked against an exhaustive search over every way to pair a small
field, and against the rounds played out by ``Swiss.plan`` from outcomes drawn by strength."""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Iterator, Sequence
from itertools import combinations

import networkx as nx
import pytest

from referee.engine.presets import rules_for
from referee.tournament.formats import Swiss, swiss_default_rounds, swiss_rounds_limit
from referee.tournament.pairing import Entrant, History, pairs, triples
from referee.tournament.schedule import FormatError, Meeting
from tests.support.formats import play_out

FIELDS = range(40)  # random fields per test, each from its own seed


def matchings(nodes: list[int]) -> Iterator[list[tuple[int, int]]]:
    """Every way to split ``nodes`` (an even number) into pairs."""
    if not nodes:
        yield []
        return
    first, rest = nodes[0], nodes[1:]
    for k, other in enumerate(rest):
        for more in matchings(rest[:k] + rest[k + 1 :]):
            yield [(first, other), *more]


def random_field(rng: random.Random, n: int) -> tuple[list[Entrant], History]:
    """A field part-way through a Swiss: scores in half points, some byes, some earlier meetings."""
    field = [Entrant(f"b{k}", rng.randint(0, 12) / 2, byes=int(rng.random() < 0.3)) for k in range(n)]
    field.sort(key=lambda e: -e.score)
    met = {frozenset(p): rng.choice((1, 1, 2)) for p in combinations([e.name for e in field], 2) if rng.random() < 0.3}
    return field, History(met)


def cost(field: Sequence[Entrant], history: History, pairing: list[tuple[int, int]], phantom: int) -> tuple[int, int]:
    """(meetings repeated, total squared score gap in half points) of a pairing; the phantom is the bye, at the
    field's lowest score."""
    low = min(e.score for e in field)
    repeats = gaps = 0
    for i, j in pairing:
        if j == phantom:
            gaps += round(2 * (field[i].score - low)) ** 2
            continue
        repeats += history.times(field[i].name, field[j].name)
        gaps += round(2 * (field[i].score - field[j].score)) ** 2
    return repeats, gaps


@pytest.mark.parametrize("seed", FIELDS)
def test_two_team_pairing_repeats_least_then_keeps_scores_nearest(seed: int) -> None:
    rng = random.Random(seed)
    n = rng.choice((4, 5, 6, 7, 8))
    field, history = random_field(rng, n)
    chosen = pairs(field, history)
    index = {e.name: k for k, e in enumerate(field)}
    phantom = n
    fresh = [i for i, e in enumerate(field) if e.byes == 0] or list(range(n))
    allowed = []
    for pairing in matchings(list(range(n + n % 2))):
        if all(j != phantom or i in fresh for i, j in pairing):
            allowed.append(cost(field, history, pairing, phantom))
    mine = [(index[a], index[b]) for a, b in chosen.groups] + [(index[b], phantom) for b in chosen.byes]
    assert sorted(i for pair in mine for i in pair if i != phantom) == list(range(n))  # every bot, once
    assert len(chosen.byes) == n % 2
    assert all(field[index[b]].byes == 0 for b in chosen.byes) or not any(e.byes == 0 for e in field)
    assert cost(field, history, mine, phantom) == min(allowed)  # no pairing repeats less, or as little but nearer


@pytest.mark.parametrize("seed", FIELDS)
def test_the_bye_of_equals_goes_to_the_lowest_seed(seed: int) -> None:
    n = random.Random(seed).choice((3, 5, 7, 9))
    field = [Entrant(f"b{k}", 0.0) for k in range(n)]
    assert pairs(field, History()).byes == (f"b{n - 1}",)


def swiss_rounds(preset: str, n: int, rounds: int, seed: int) -> tuple[list[Meeting], dict[str, float]]:
    rng = random.Random(seed)
    bots = [f"b{k:02d}" for k in range(n)]
    strength = {b: rng.gauss(0, 1) for b in bots}
    rules = rules_for(preset)
    swiss = Swiss.of(bots, rules, rounds=rounds, games=rules.teams, seed=seed)
    plan, _ = play_out(swiss, strength, seed=seed)
    assert plan.final and len({g.number for g in plan.games}) == plan.expected
    return list(plan.meetings), dict(plan.columns["swiss_score"])


def could_avoid_repeats(bots: Sequence[str], met: Counter[frozenset[str]], had_bye: set[str]) -> bool:
    """Whether a round of two-team pairings exists with no two bots that met before (with an odd field, a bye
    to a bot that has had none): a perfect matching of the graph of pairs not met (a question of existence,
    answered by networkx's maximum cardinality matching)."""
    graph: nx.Graph[str] = nx.Graph()
    graph.add_nodes_from(bots)
    graph.add_edges_from(p for p in combinations(bots, 2) if not met[frozenset(p)])
    if len(bots) % 2:
        graph.add_edges_from((b, "") for b in bots if b not in had_bye)
    return len(nx.max_weight_matching(graph, maxcardinality=True)) * 2 == len(bots) + len(bots) % 2


@pytest.mark.parametrize("seed", FIELDS)
def test_swiss_rounds_of_two_teams_repeat_a_pairing_only_when_they_must_and_give_no_second_bye(seed: int) -> None:
    n = random.Random(seed).randint(4, 17)
    rounds = swiss_default_rounds(n, 2)
    matches, score = swiss_rounds("neuralplay", n, rounds, seed)
    met: Counter[frozenset[str]] = Counter()
    had_bye: set[str] = set()
    repeated = 0
    for r in range(1, rounds + 1):
        this = [m for m in matches if m.round == r]
        assert sorted(b for m in this for b in m.bots) == sorted(score)  # every bot plays or sits out, once
        again = [m for m in this if not m.bye and met[frozenset(m.bots)]]
        if again:
            repeated += 1
            assert not could_avoid_repeats(sorted(score), met, had_bye), f"round {r} repeats {again}"
        for m in this:
            if m.bye:
                assert m.bots[0] not in had_bye  # no second bye
                had_bye.add(m.bots[0])
            else:
                met[frozenset(m.bots)] += 1
    assert len(had_bye) == rounds * (n % 2)
    assert repeated <= 1  # the default rounds leave room: a repeat is rare (one field of these five bots)


@pytest.mark.parametrize("seed", FIELDS)
def test_three_team_groups_never_repeat_and_byes_are_spread(seed: int) -> None:
    n = random.Random(seed).randint(5, 16)
    rounds = swiss_rounds_limit(n, 3)
    matches, score = swiss_rounds("double-deck-3p", n, rounds, seed)
    groups = [frozenset(m.bots) for m in matches if not m.bye]
    assert all(len(g) == 3 for g in groups) and len(set(groups)) == len(groups)
    byes = Counter(m.bots[0] for m in matches if m.bye)
    assert sum(byes.values()) == rounds * (n % 3) and set(byes.values()) <= {1}
    for r in range(1, rounds + 1):
        seated = [b for m in matches if m.round == r for b in m.bots]
        assert sorted(seated) == sorted(score)


@pytest.mark.parametrize("seed", FIELDS)
def test_three_team_groups_are_of_near_scores(seed: int) -> None:
    """With no history to avoid, the composed matchings group the field no worse than cutting the standings into
    consecutive threes (the plainest grouping by score)."""
    rng = random.Random(seed)
    n = 3 * rng.randint(2, 6)
    field = sorted((Entrant(f"b{k}", rng.randint(0, 16) / 2) for k in range(n)), key=lambda e: -e.score)
    score = {e.name: e.score for e in field}

    def spread(groups: Sequence[Sequence[str]]) -> float:
        return sum((score[a] - score[b]) ** 2 for g in groups for a, b in combinations(g, 2))

    chosen = triples(field, History())
    assert chosen.byes == ()
    chunks = [[e.name for e in field[k : k + 3]] for k in range(0, n, 3)]
    assert spread(chosen.groups) <= spread(chunks)


def test_the_rounds_a_field_allows() -> None:
    assert [swiss_rounds_limit(n, 2) for n in (2, 3, 4, 5, 16)] == [1, 3, 3, 5, 15]
    assert [swiss_rounds_limit(n, 3) for n in (3, 4, 5, 6, 9)] == [1, 1, 2, 2, 4]
    assert [swiss_default_rounds(n, 2) for n in (2, 4, 5, 16, 30)] == [1, 3, 4, 5, 6]
    assert [swiss_default_rounds(n, 3) for n in (3, 9, 10, 27)] == [1, 3, 4, 4]
    with pytest.raises(FormatError, match=r"--rounds 5 is more than 4 bots allow .*\(3 at most\)"):
        Swiss.of(["a", "b", "c", "d"], rules_for("neuralplay"), rounds=5, games=2, seed=1)
