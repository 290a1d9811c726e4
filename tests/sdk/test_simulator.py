"""The in-process simulator: every preset, every example bot, results that add up, duplicate deals."""

from __future__ import annotations

import importlib.util
import sys
from collections.abc import Sequence
from functools import partial
from pathlib import Path

import pytest

from example_bots.montecarlo_bot import MonteCarloBot
from example_bots.random_bot import RandomBot
from example_bots.rules_bot import RulesBot
from referee.engine.bids import BidKind
from referee.engine.presets import PRESETS, rules_for
from sdk import Bid, Bot, Card, SeatView
from sdk.simulator import BotActionError, BotFactory, SimulationResult, simulate

# A few hands per game keeps the whole file fast; the games still end by the
# engine's own rule (the hand limit), so results are complete games.
SHORT = ["hand_limit=3"]


def check_totals(result: SimulationResult) -> None:
    """Per-entrant totals are the sums over the game records."""
    for entrant, totals in enumerate(result.totals):
        games = [g for g in result.games if entrant in g.lineup]
        assert totals.games == len(games)
        assert totals.wins + totals.draws + totals.losses == totals.games
        assert totals.wins == sum(g.outcome(entrant) == "win" for g in games)
        assert totals.draws == sum(g.outcome(entrant) == "draw" for g in games)
        assert totals.points == sum(g.scores[g.team_of(entrant)] for g in games)
        assert totals.hands == sum(g.hands for g in games)
        assert totals.decisions > 0


@pytest.mark.parametrize("preset", sorted(PRESETS))
def test_every_bot_kind_completes_every_preset(preset: str) -> None:
    rules = rules_for(preset, SHORT)
    quick_mc = partial(MonteCarloBot, max_worlds=2)
    kinds: list[BotFactory] = [RulesBot, quick_mc, RandomBot]
    entrants = [kinds[i % len(kinds)] for i in range(rules.teams)]
    result = simulate(entrants, rules, deals=1, seed=3, duplicate=True)
    assert len(result.games) == rules.teams  # one game per seating
    for game in result.games:
        assert game.hands >= 1
        assert len(game.scores) == rules.teams
        assert sorted(game.lineup) == list(range(rules.teams))
    check_totals(result)


def test_two_team_outcomes_mirror_each_other() -> None:
    result = simulate([RulesBot, RandomBot], rules_for("neuralplay", SHORT), deals=3, seed=5, duplicate=True)
    check_totals(result)
    rules, rnd = result.totals
    assert rules.wins == rnd.losses and rules.losses == rnd.wins and rules.draws == rnd.draws
    assert len(result.games) == 6
    for game in result.games:
        expected = (0, 1) if game.seating == 0 else (1, 0)
        assert game.lineup == expected


class DealRecorder(RulesBot):
    """A rules bot that writes down the cards it is dealt in every game it plays."""

    def __init__(self, seed: int | None = None) -> None:
        super().__init__(seed)
        self.games: list[dict[int, tuple[int, tuple[Card, ...]]]] = []  # hand -> (seat, dealt)

    def game_start(self, view: SeatView) -> None:
        self.games.append({})

    def decide(self, view: SeatView) -> object:
        self.games[-1][view.hand_number] = (view.seat, view.dealt)
        return super().decide(view)


def test_duplicate_deals_repeat_every_hand_with_the_teams_swapped() -> None:
    bots: dict[str, list[DealRecorder]] = {"a": [], "b": []}

    def recorder(key: str) -> DealRecorder:
        bot = DealRecorder()
        bots[key].append(bot)
        return bot

    result = simulate(
        [partial(recorder, "a"), partial(recorder, "b")],
        rules_for("neuralplay", SHORT),
        deals=2,
        seed=9,
        duplicate=True,
    )
    assert [(g.deal, g.seating) for g in result.games] == [(0, 0), (0, 1), (1, 0), (1, 1)]

    def dealt(key: str, game_index: int) -> dict[tuple[int, int], tuple[Card, ...]]:
        """(hand, seat) -> cards dealt, over the bots of one entrant in one game."""
        return {(hand, seat): cards for bot in bots[key] for hand, (seat, cards) in bot.games[game_index].items()}

    for deal in range(2):
        first, second = 2 * deal, 2 * deal + 1
        # Entrant a sat on team 0 (seats 0, 2) in the first seating and on team 1 (seats 1, 3) in the
        # second: whatever a hand gave a seat the first time, it gave the same seat the second time.
        before = dealt("a", first) | dealt("b", first)
        after = dealt("a", second) | dealt("b", second)
        common = before.keys() & after.keys()
        assert {hand for hand, _ in common} >= {1}
        for key in common:
            assert before[key] == after[key]
        assert {seat for _, seat in dealt("a", first)} == {0, 2}
        assert {seat for _, seat in dealt("a", second)} == {1, 3}
    # Different deal sequences are different deals.
    assert dealt("a", 0)[(1, 0)] != dealt("a", 2)[(1, 0)]


def test_three_teams_rotate_through_three_seatings() -> None:
    rules = rules_for("double-deck-3p", SHORT)
    result = simulate([RulesBot, RandomBot, RandomBot], rules, deals=1, seed=2, duplicate=True)
    assert [g.lineup for g in result.games] == [(0, 1, 2), (1, 2, 0), (2, 0, 1)]
    check_totals(result)


def test_same_seed_same_games_and_another_seed_other_games() -> None:
    rules = rules_for("indiana", SHORT)
    one = simulate([RulesBot, RandomBot], rules, deals=2, seed=4, duplicate=True).games
    again = simulate([RulesBot, RandomBot], rules, deals=2, seed=4, duplicate=True).games
    other = simulate([RulesBot, RandomBot], rules, deals=2, seed=5, duplicate=True).games
    assert one == again
    assert [g.scores for g in one] != [g.scores for g in other]


def test_worker_processes_give_the_same_games() -> None:
    rules = rules_for("pagat", SHORT)
    alone = simulate([RulesBot, RandomBot], rules, deals=4, seed=8, duplicate=True)
    split = simulate([RulesBot, RandomBot], rules, deals=4, seed=8, duplicate=True, workers=2)
    assert split.games == alone.games
    assert [(t.wins, t.points, t.hands) for t in split.totals] == [(t.wins, t.points, t.hands) for t in alone.totals]


def test_margin_is_the_mean_per_deal_difference_in_points_per_hand() -> None:
    result = simulate([RulesBot, RandomBot], rules_for("neuralplay", SHORT), deals=4, seed=6, duplicate=True)
    per_deal = []
    for deal in range(4):
        games = [g for g in result.games if g.deal == deal]
        per_deal.append(sum(g.points_per_hand(0) - g.points_per_hand(1) for g in games) / len(games))
    margin = result.margin(0, 1)
    assert margin.deals == 4
    assert margin.mean == pytest.approx(sum(per_deal) / 4)
    assert margin.half_width > 0
    assert result.margin(1, 0).mean == pytest.approx(-margin.mean)


class TimeLimitRecorder(RulesBot):
    seen: list[int]

    def decide(self, view: SeatView) -> object:
        self.seen.append(self.time_limit_ms)
        return super().decide(view)


def test_each_decision_carries_the_time_limit() -> None:
    seen: list[int] = []

    def make() -> TimeLimitRecorder:
        bot = TimeLimitRecorder()
        bot.seen = seen
        return bot

    simulate([make, RandomBot], rules_for("neuralplay", SHORT), deals=1, seed=1, time_limit_ms=123)
    assert seen and set(seen) == {123}


class FollowsNoSuit(RulesBot):
    """Plays the last card of its hand whatever was led: sooner or later that breaks follow-suit."""

    name = "careless"

    def play(self, view: SeatView, legal: Sequence[Card]) -> Card:
        return view.hand[-1]


class BidsOffTheTable(Bot):
    name = "wild-bidder"

    def bid(self, view: SeatView, legal: Sequence[Bid]) -> Bid:
        return Bid(BidKind.LEVEL, 99)


def test_an_illegal_card_names_the_bot_and_the_decision() -> None:
    with pytest.raises(BotActionError) as caught:
        simulate([FollowsNoSuit, RulesBot], "neuralplay", deals=3, seed=1)
    message = str(caught.value)
    assert "'careless'" in message and "deciding play" in message and "follow" in message


def test_an_illegal_bid_names_the_bot_and_the_decision() -> None:
    with pytest.raises(BotActionError, match=r"'wild-bidder' at seat \d .*deciding bid.*99"):
        simulate([BidsOffTheTable, RulesBot], "neuralplay", deals=1, seed=1)


def test_entrants_must_match_the_teams() -> None:
    with pytest.raises(ValueError, match="3 teams"):
        simulate([RulesBot, RulesBot], "double-deck-3p")


TRUMPCOUNT = """
from sdk import Bot


class TrumpCount(Bot):
    name = "trumpcount"
    version = "{version}"
"""


def load_bot(path: Path, version: str) -> type[Bot]:
    """The bot class of a file written as a person keeps two versions of a bot (bot.py, old.py), imported from it."""
    path.write_text(TRUMPCOUNT.format(version=version), encoding="utf-8")
    spec = importlib.util.spec_from_file_location(f"trumpcount_{path.stem}", path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module
    spec.loader.exec_module(module)
    bot: type[Bot] = module.TrumpCount
    return bot


@pytest.mark.parametrize(
    ("versions", "labels"),
    [
        (("1", "1"), ("trumpcount (bot.py)", "trumpcount (old.py)")),  # a copy of the file, the version unchanged
        (("2", "1"), ("trumpcount@2", "trumpcount@1")),
    ],
)
def test_two_versions_of_one_bot_are_told_apart(tmp_path: Path, versions: tuple[str, str], labels: tuple[str, str]):
    new, old = load_bot(tmp_path / "bot.py", versions[0]), load_bot(tmp_path / "old.py", versions[1])
    result = simulate([new, old], "pagat", deals=2, seed=1, duplicate=True)
    assert result.names == labels and [t.name for t in result.totals] == list(labels)
    assert f"margin {labels[0]} - {labels[1]}: " in result.summary()


def test_one_bot_against_itself_is_numbered() -> None:
    assert simulate([RandomBot, RandomBot], "pagat", deals=1, seed=1).names == ("random#0", "random#1")
