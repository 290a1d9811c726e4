"""Fast playouts take the same tricks as the same policy played through ``Game``, on every preset."""

from __future__ import annotations

import random
import zlib

import pytest

from referee.engine.events import HandEndEvent
from referee.engine.game import Decision, Game, Phase
from referee.engine.playout import finish_game_hand, finish_tricks, quick_policy
from referee.engine.presets import PRESETS
from referee.engine.simulate import random_action, shuffled_deck


def _deciding(game: Game) -> Decision:
    decision = game.decision()
    assert decision is not None  # the game is neither over nor waiting for a deal
    return decision


def positions_in_play(preset: str, count: int, seed: int):
    """Games standing somewhere in the play phase: random auctions and exchanges, then random cards."""
    rules = PRESETS[preset]
    rng = random.Random(seed)
    found = 0
    while found < count:
        game = Game(rules, rng.randrange(rules.players))
        game.deal(shuffled_deck(rules, rng))
        while game.phase not in (Phase.PLAY, Phase.DEAL, Phase.OVER):
            game.apply(random_action(_deciding(game), rng))
        if game.phase is not Phase.PLAY:
            continue  # thrown in
        for _ in range(rng.randrange(rules.cards_each * len(game.active))):
            game.apply(random_action(_deciding(game), rng))
        found += 1
        yield game


def played_through_game(game: Game) -> tuple[int, ...]:
    game = game.copy()
    while True:
        for ev in game.apply(quick_policy(game)):
            if isinstance(ev, HandEndEvent):
                return ev.points


@pytest.mark.parametrize("preset", list(PRESETS))
def test_fast_playout_matches_the_game(preset: str) -> None:
    for game in positions_in_play(preset, 40, seed=zlib.crc32(preset.encode())):
        before = (game.copy().hands, list(game.trick_cards), list(game.tricks_won))
        assert finish_game_hand(game) == played_through_game(game)
        assert (game.hands, game.trick_cards, game.tricks_won) == before, "the playout changed the game"


@pytest.mark.parametrize("preset", ["neuralplay", "bloomington", "hammerwalt", "double-deck-3p"])
def test_a_chosen_first_card_then_the_policy(preset: str) -> None:
    rules = PRESETS[preset]
    for game in positions_in_play(preset, 30, seed=7):
        contract = game.contract
        for card in game.legal_plays():
            after = game.copy()
            after.apply(card)
            if after.phase is not Phase.PLAY:
                continue  # the card ended the hand
            taken = finish_tricks(
                contract.trump,
                rules.teams,
                rules.team_of(contract.declarer),
                contract.active,
                game.hands,
                game.to_act,
                game.trick_seats,
                game.trick_cards,
                game.tricks_won,
                first=card,
            )
            rest = finish_tricks(
                contract.trump,
                rules.teams,
                rules.team_of(contract.declarer),
                contract.active,
                after.hands,
                after.to_act,
                after.trick_seats,
                after.trick_cards,
                after.tricks_won,
            )
            assert taken == rest


def test_trick_rules_in_the_fast_loop() -> None:
    # Spades trump, seat 0 leads the 9 of hearts; seat 1 has no heart and trumps with the
    # left bower (jack of clubs); seat 2 overtrumps with the right bower; seat 3 follows low.
    S, H, C = 0, 1, 3
    nine_h, jack_c, jack_s, ten_h = H * 8 + 2, C * 8 + 4, S * 8 + 4, H * 8 + 3
    won = finish_tricks(S, 2, 1, (0, 1, 2, 3), [[nine_h], [jack_c], [jack_s], [ten_h]], 0, [], [], [0, 0])
    assert won == [1, 0]  # seat 2 (team 0) wins with the right bower
    # Identical cards (double deck): the first played wins.
    ace_h = H * 8 + 7
    won = finish_tricks(4, 2, 0, (0, 1, 2, 3), [[ace_h], [ace_h], [nine_h], [ten_h]], 1, [], [], [3, 4])
    assert won == [3, 5]  # seat 1 led its ace; seat 0's identical ace does not beat it


def test_needs_a_hand_in_play() -> None:
    game = Game(PRESETS["neuralplay"])
    with pytest.raises(ValueError, match="hand in play"):
        finish_game_hand(game)
