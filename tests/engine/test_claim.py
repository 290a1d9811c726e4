"""Claims: the seat on turn claims every remaining trick; the engine accepts only what no line of the others beats.

Every preset: the highest trumps claim every trick (accepted, scored as if
played), and the highest trumps with one low card under a high card an
opponent keeps do not (refused, nothing changes). Then endings that look
right and are not, one for each way a claim goes wrong: a void opponent
ruffing, a lead stuck in the wrong hand, a high card held over the claimer,
six seats where the partners' cards do not connect, a partner who sits out,
the first played of two equal cards, no-trump low. Last, the search itself:
on random endings of every preset its answer is the answer of trying every
card through ``Game``, and where it says yes, every line of the others
played against its cards gives the team every trick.
"""

from __future__ import annotations

import copy
import random
from dataclasses import replace
from functools import partial
from typing import Any

import pytest

from referee.engine.cards import Card, Trump, card_power, card_str, deck_cards, effective_suit, winning_index
from referee.engine.claim import SEARCH_LIMIT, SOLVER_NODE_LIMIT, claim_card
from referee.engine.errors import IllegalActionError, InvalidActionError
from referee.engine.events import ClaimEvent, Event, GameEndEvent, HandEndEvent
from referee.engine.game import Game, Phase
from referee.engine.presets import PRESETS, preset
from referee.engine.rules import NoTrump
from referee.engine.view import seat_view
from tests.support.claims import (
    deal_and_contract,
    draw_first,
    every_line,
    follow_plan,
    held_over,
    plain_holds,
    random_ending,
    take_contract,
    top_trumps,
)
from tests.support.engine import SMALL, act, arranged_deck, bids, cards, new_game


def state(game: Game) -> dict[str, Any]:
    """Everything the game holds, deep-copied: a refused claim must leave all of it as it was.

    Only the dealing table is left out: it is derived from the rules once, shared and never changed, and its
    pickers (``operator.itemgetter``) compare by identity, so a copy of it never equals it.
    """
    return {name: copy.deepcopy(value) for name, value in vars(game).items() if name != "_deal"}


def played_out(game: Game, team: int) -> Game:
    """The hand in ``game`` played to its end: ``team`` by ``claim_card``, the others by their lowest legal card."""
    return next(every_line(game.copy(), team))


def ending_events(game: Game) -> list[Event]:
    """The events from the hand's end on (its HandEndEvent, and the GameEndEvent if the game ended)."""
    start = max(i for i, e in enumerate(game.events) if isinstance(e, HandEndEvent))
    return game.events[start:]


def assert_refused(game: Game, seat: int) -> None:
    before = state(game)
    events = game.claim(seat)
    assert events == [
        ClaimEvent(
            game.hand_number,
            game.trick_number,
            seat,
            game.rules.team_of(seat),
            game.rules.cards_each - game.trick_number + 1,
            accepted=False,
        )
    ]
    assert state(game) == before, "a refused claim changed the game"
    assert game.claim_search(game.rules.team_of(seat)).holds() is False


def assert_accepted_as_if_played(game: Game, seat: int) -> list[Event]:
    """Claim for ``seat``: accepted, and the hand ends exactly as when it is played out with the team taking
    every trick (tricks, points, scores, made or set, the game's end)."""
    team = game.rules.team_of(seat)
    left = game.rules.cards_each - game.trick_number + 1
    won_before = list(game.tricks_won)
    reference = played_out(game, team)
    trick = game.trick_number
    events = game.claim(seat)
    assert events[0] == ClaimEvent(game.hand_number, trick, seat, team, left, accepted=True)
    end = events[1]
    assert isinstance(end, HandEndEvent)
    assert end.tricks[team] == won_before[team] + left
    assert events[1:] == ending_events(reference)
    assert game.events[-len(events) :] == events
    assert game.scores == reference.scores and game.phase is reference.phase and game.winner == reference.winner
    assert game.to_act is None and game.decision() is None
    return events


# ------------------------------------------------------------------ every preset


@pytest.mark.parametrize("name", list(PRESETS))
def test_the_highest_trumps_claim_every_trick_on_every_preset(name: str) -> None:
    rules = preset(name)
    declarer = 1
    game = deal_and_contract(rules, declarer, dict(enumerate(top_trumps(rules, declarer, Trump.S))), Trump.S)
    events = assert_accepted_as_if_played(game, declarer)
    assert events[0] == ClaimEvent(1, 1, declarer, rules.team_of(declarer), rules.cards_each, accepted=True)
    end = events[1]
    assert isinstance(end, HandEndEvent) and end.made


@pytest.mark.parametrize("name", list(PRESETS))
def test_the_trumps_must_be_drawn_before_the_plain_winner_on_every_preset(name: str) -> None:
    rules = preset(name)
    declarer = 1
    game = deal_and_contract(rules, declarer, dict(enumerate(draw_first(rules, declarer, Trump.S))), Trump.S)
    team = rules.team_of(declarer)
    if any(effective_suit(c, Trump.S) == Trump.S for c in game.hands[(declarer + 1) % rules.players]):
        card = claim_card(game)
        assert card is not None and effective_suit(card, Trump.S) == Trump.S, "a trump first"
        cashed = game.copy()
        plain = next(c for c in game.hands[declarer] if effective_suit(c, Trump.S) != Trump.S)
        cashed.apply(plain)  # the plain winner first: the next seat ruffs it
        assert not cashed.claim_search(team).holds()
    else:
        assert name == "double-deck-3p"  # 16 cards each: the declarer holds every trump, and no one can ruff
    assert_accepted_as_if_played(game, declarer)


@pytest.mark.parametrize("name", list(PRESETS))
def test_a_low_card_under_a_high_card_an_opponent_keeps_beats_the_claim_on_every_preset(name: str) -> None:
    rules = preset(name)
    declarer = 1
    game = deal_and_contract(rules, declarer, dict(enumerate(held_over(rules, declarer, Trump.S))), Trump.S)
    assert_refused(game, declarer)
    # one line that beats it: the declarer plays its strongest card; the others take a trick when they can
    # (with their strongest card), else play their weakest
    team = rules.team_of(declarer)
    while game.phase is Phase.PLAY:
        seat = game.to_act
        assert seat is not None
        legal = game.legal_plays()
        strength = partial(card_power, trump=game.trump)
        if rules.team_of(seat) == team:
            game.apply(max(legal, key=strength))
            continue
        table = list(game.trick_cards)
        taking = [c for c in legal if winning_index([*table, c], game.trump) == len(table)]
        game.apply(max(taking, key=strength) if taking else min(legal, key=strength))
    end = next(e for e in reversed(game.events) if isinstance(e, HandEndEvent))
    assert end.tricks[team] < rules.cards_each


# ------------------------------------------------------------------ endings that look right


def test_a_void_opponent_ruffs_an_ace_when_the_claimer_cannot_draw_its_trumps() -> None:
    # hearts: seat 1 has the three highest trumps and three aces; seat 2 has four trumps and no club or diamond
    hands = {
        1: "JH JD AH AS AC AD",
        2: "KH QH TH 9H KS QS",
        3: "9S TS JS 9C TC JC",
        0: "QC KC 9D TD QD KD",
    }
    game = new_game(SMALL, hands)
    bids(game, "1 H, pass, pass, pass")
    assert_refused(game, 1)


def test_a_void_opponent_is_harmless_once_trumps_are_drawn_first() -> None:
    # as above, but seat 2 has three trumps: drawing them first, then cashing the aces, takes every trick
    hands = {
        1: "JH JD AH AS AC AD",
        2: "KH QH TH KS QS 9C",
        3: "9S TS JS QC TC JC",
        0: "9H KC 9D TD QD KD",
    }
    game = new_game(SMALL, hands)
    bids(game, "1 H, pass, pass, pass")
    card = claim_card(game)
    assert card is not None and effective_suit(card, Trump.H) == Trump.H, "trumps must be drawn before the aces"
    assert plain_holds(game, 1)
    assert_accepted_as_if_played(game, 1)


def test_a_lead_stuck_in_the_claimers_hand_cannot_reach_the_partners_winners() -> None:
    # no trump: after four diamonds seat 1 holds AS 9H, its partner the two top clubs, and 9H must be led
    hands = {
        1: "AD KD QD JD AS 9H",
        2: "TD 9D KH QH TH 9S",
        3: "AC KC QC JC TC 9C",
        0: "JH TS AH KS QS JS",
    }
    game = new_game(SMALL, hands)
    bids(game, "1 high, pass, pass, pass")
    follow_plan(game, {1: "AD KD QD JD", 2: "TD 9D KH QH", 3: "9C TC JC QC", 0: "JS QS KS AH"}, tricks=4)
    assert [card_str(c) for c in game.hands[1]] == ["AS", "9H"] and game.to_act == 1
    assert not plain_holds(game, 1)
    assert_refused(game, 1)


def test_a_high_card_held_over_the_claimer_takes_its_queen() -> None:
    # no trump: seat 1 has AS QS and four aces and kings; seat 2, after it, keeps KS behind 9S
    hands = {
        1: "AS QS AH KH AD AC",
        2: "KS 9S QH JH TH 9H",
        3: "TD 9D KC QC JC TC",
        0: "JS TS KD QD JD 9C",
    }
    game = new_game(SMALL, hands)
    bids(game, "1 high, pass, pass, pass")
    assert_refused(game, 1)
    # without the 9S to keep the king guarded, the king must fall under the ace
    unguarded = {1: "AS QS AH KH AD AC", 2: "KS TD QH JH TH 9H", 3: "9S 9D KC QC JC TC", 0: "JS TS KD QD JD 9C"}
    game = new_game(SMALL, unguarded)
    bids(game, "1 high, pass, pass, pass")
    assert_accepted_as_if_played(game, 1)


def test_the_team_overtakes_its_partner_to_unblock_a_suit() -> None:
    # single-deck, seat 0 alone in clubs. Seat 3 leads TD; seat 1 holds AD JD and two low hearts, seat 3 KD
    # beside its top trump and a spade. Only AD works: seat 1 keeps JD to put seat 3 in with KD, which then
    # draws the last trump and cashes its spade. With JD, seat 1's AD swallows KD, and its hearts are ruffed.
    rules = preset("single-deck")
    hands = {
        0: "TH KS AC 9S QD 9D",
        1: "9H TS QH JH AD JD",
        2: "JS KH 9C TC QC KC",
        3: "AH AS JC QS KD TD",
    }
    game = deal_and_contract(rules, 0, hands, Trump.C, kind="moon")
    assert game.active == (0, 1, 3)
    act(game, "TH", "9H", "AH", "AS", "KS", "TS", "TD", "9D")
    assert game.to_act == 1 and [card_str(c) for c in game.legal_plays()] == ["JD", "AD"]
    assert claim_card(game) == cards("AD")[0]
    assert plain_holds(game, 1)
    after_jd = game.copy()
    act(after_jd, "JD")
    assert not plain_holds(after_jd, 1)
    assert_accepted_as_if_played(game, 1)


def with_fillers(rules_name: str, claimer: int, leads: str, ending: dict[int, str]) -> tuple[Game, dict[int, str]]:
    """A deal of ``rules_name`` where ``claimer`` leads ``leads`` (cards nobody can beat) while the others
    throw every card that is not theirs in ``ending``: the deal, and each seat's plan of play."""
    rules = preset(rules_name)
    rest = list(deck_cards(rules.deck))
    for c in cards(leads) + [c for text in ending.values() for c in cards(text)]:
        rest.remove(c)
    plan = {claimer: leads}
    for seat in range(rules.players):
        if seat != claimer:
            take = len(cards(leads)) if seat in ending else rules.cards_each
            plan[seat] = " ".join(card_str(rest.pop(0)) for _ in range(take))
    assert not rest
    hands = {seat: f"{plan[seat]} {ending.get(seat, '')}".strip() for seat in range(rules.players)}
    game = Game(rules, (claimer - 1) % rules.players)
    game.deal(arranged_deck(rules, game.dealer, hands))
    return game, plan


SIX_SEAT_ENDING = {
    0: "9D 9C",  # the claimer
    1: "KD KC",
    2: "AD TS",  # a partner: wins the diamond, must then lead its spade
    3: "QD KS",
    4: "AC 9S",  # the other partner: wins the club, must then lead its spade
    5: "JD JC",
}


@pytest.mark.parametrize(("spade", "holds"), [("9S", False), ("AS", True)])
def test_six_seats_the_partners_winners_must_connect(spade: str, holds: bool) -> None:
    # bloomington, no trump: after six heart leads seat 0 holds 9D 9C and its two partners the aces of those
    # suits; whichever partner takes the trick must lead a spade, and seat 3 keeps the king of spades
    ending = {**SIX_SEAT_ENDING, 4: f"AC {spade}"}
    game, plan = with_fillers("bloomington", 0, "AH AH KH KH QH QH", ending)
    take_contract(game, Trump.HIGH)
    follow_plan(game, plan, tricks=6)
    assert game.to_act == 0 and len(game.hands[0]) == 2
    assert plain_holds(game, 0) is holds
    if holds:
        assert_accepted_as_if_played(game, 0)
    else:
        assert_refused(game, 0)


ALONE_DEAL = {
    1: "AS AS KS KS AD AD KD JH",  # the declarer: a low heart beside its winners
    3: "AH AH KC KC QC QC JC JC",  # its partner holds the two aces of hearts
    2: "QS QS JS JS KD QD QD JD",
    0: "KH KH QH QH JH AC AC JD",
}


def test_a_partner_who_sits_out_does_not_take_tricks_for_a_lone_claimer() -> None:
    # neuralplay, no trump: with the partner in, the declarer's low heart goes to its partner's ace
    game = deal_and_contract(preset("neuralplay"), 1, ALONE_DEAL, Trump.HIGH)
    assert_accepted_as_if_played(game, 1)
    # the same cards on a moon: the partner sits out, and an opponent's king takes the low heart
    game = deal_and_contract(preset("neuralplay"), 1, ALONE_DEAL, Trump.HIGH, kind="moon")
    assert game.contract is not None and game.contract.alone and 3 not in game.active
    assert_refused(game, 1)


def test_of_two_equal_cards_the_first_played_takes_the_trick() -> None:
    # neuralplay, no trump: seat 1 holds an ace of spades and every other ace; seat 0 the other ace of spades
    rules = preset("neuralplay")
    hands = {
        1: "AS AH AH AD AD AC AC KH",
        0: "AS KS KS QS QS JS JS KH",
        2: "QH QH JH JH KD KD QD QD",
        3: "JD JD KC KC QC QC JC JC",
    }
    # seat 1 leads: its ace of spades comes first and wins
    game = deal_and_contract(rules, 1, hands, Trump.HIGH)
    assert_accepted_as_if_played(game, 1)
    # seat 0 declares and leads its ace of spades: seat 1's equal ace, played second, loses
    game = deal_and_contract(rules, 0, hands, Trump.HIGH)
    act(game, "AS")
    assert game.to_act == 1
    assert_refused(game, 1)


def test_no_trump_low_the_nines_are_the_winners() -> None:
    rules = replace(SMALL, notrump=NoTrump.HIGH_LOW)
    # seat 1 holds every nine and two tens; in low they are the highest cards, in high the lowest
    hands = {1: "9S TS 9H TH 9D 9C", 0: "AS KS QS JS AH KH", 2: "QH JH AD KD QD JD", 3: "TD AC KC QC JC TC"}
    game = new_game(rules, hands)
    bids(game, "1 low, pass, pass, pass")
    assert_accepted_as_if_played(game, 1)
    game = new_game(rules, hands)
    bids(game, "1 high, pass, pass, pass")
    assert_refused(game, 1)


def test_defenders_may_claim_and_the_declarers_are_set() -> None:
    # seat 1 declares 6 H holding no trump; seat 2, a defender, holds the six highest trumps
    hands = {1: "9S TS JS QS KS AS", 2: "JH JD AH KH QH TH"}
    game = new_game(SMALL, hands)
    bids(game, "6 H")  # the highest bid ends the auction
    act(game, "9S")
    events = assert_accepted_as_if_played(game, 2)
    end = events[1]
    assert isinstance(end, HandEndEvent) and end.made is False and end.tricks == (6, 0)
    assert end.points == (6, -6)


def test_an_accepted_claim_can_end_the_game() -> None:
    rules = replace(SMALL, game_points=5)
    game = new_game(rules, {1: "JH JD AH KH QH TH"})
    bids(game, "1 H, pass, pass, pass")
    events = assert_accepted_as_if_played(game, 1)
    assert isinstance(events[-1], GameEndEvent) and game.is_over and game.winner == 1


def test_the_claim_is_public_and_the_hand_result_counts_the_tricks_given() -> None:
    game = new_game(SMALL, {1: "JH JD AH KH QH TH"})
    bids(game, "1 H, pass, pass, pass")
    act(game, "JH")
    game.apply(game.legal_plays()[0])  # seat 2; then seat 3 claims for team 1, in the middle of the trick
    claim = game.claim(3)[0]
    assert isinstance(claim, ClaimEvent) and claim.accepted and claim.trick == 1 and claim.tricks == 6
    for seat in range(4):
        view = seat_view(game, seat)
        assert claim in view.events
        assert view.tricks_won == (0, 6)


# ------------------------------------------------------------------ who may claim, and when


def test_only_the_seat_on_turn_to_play_may_claim() -> None:
    game = new_game(SMALL, {1: "JH JD AH KH QH TH"})
    with pytest.raises(IllegalActionError) as err:
        game.claim(1)  # the auction
    assert err.value.rule == "claim-not-in-play"
    bids(game, "1 H, pass, pass, pass")
    before = state(game)
    with pytest.raises(IllegalActionError) as err:
        game.claim(3)  # seat 1 is to lead
    assert err.value.rule == "claim-out-of-turn"
    for bad in (4, -1, True, "1", 1.0):
        with pytest.raises(InvalidActionError):
            game.claim(bad)  # type: ignore[arg-type]
    assert state(game) == before
    game.claim(1)
    with pytest.raises(IllegalActionError) as err:
        game.claim(1)  # the hand is over: waiting for the next deal
    assert err.value.rule == "claim-not-in-play"


# ------------------------------------------------------------------ the search against plain play


@pytest.mark.parametrize("name", list(PRESETS))
def test_the_search_agrees_with_plain_play_and_its_cards_take_every_trick(name: str) -> None:
    """Random endings of 1 to 4 tricks (lone contracts often): the search's answer is that of trying every card
    through ``Game``; where it holds, every line of the others against ``claim_card`` gives the team every trick."""
    rules = preset(name)
    rng = random.Random(f"claim:{name}")
    answers = {True: 0, False: 0}
    lines = 0
    while sum(answers.values()) < 60:
        game = random_ending(rules, rng, tricks_left=rng.randint(1, 4), lone=0.4)
        if game is None:
            continue
        seat = game.to_act
        assert seat is not None
        team = rules.team_of(seat)
        holds = game.claim_search(team).holds()
        assert holds is plain_holds(game, team), f"the search says {holds} where plain play says otherwise"
        assert game.python_claim_search(team).holds() is holds, "the engine's own search disagrees"
        answers[holds] += 1
        if holds:
            endings = list(every_line(game, team))
            assert endings and all(e.phase is not Phase.PLAY for e in endings)
            lines += len(endings)
    assert answers[True] >= 5 and answers[False] >= 5, answers
    assert lines >= answers[True]


def test_longer_endings_agree_with_plain_play() -> None:
    """Four and five tricks, on the presets whose hands are long or whose seats are many."""
    for name, left, count in (("bloomington", 4, 15), ("double-deck-3p", 5, 15), ("indiana", 4, 20)):
        rules = preset(name)
        rng = random.Random(f"claim-long:{name}")
        done = 0
        while done < count:
            game = random_ending(rules, rng, tricks_left=left, lone=0.3)
            if game is None:
                continue
            team = rules.team_of(game.to_act or 0)
            holds = plain_holds(game, team)
            assert game.claim_search(team).holds() is holds
            assert game.python_claim_search(team).holds() is holds
            done += 1


def test_claim_card_is_a_legal_card_or_none() -> None:
    rng = random.Random(7)
    seen: set[bool] = set()
    for _ in range(200):
        game = random_ending(preset("pagat"), rng, tricks_left=3)
        if game is None:
            continue
        card: Card | None = claim_card(game)
        seen.add(card is None)
        assert card is None or card in game.legal_plays()
    assert seen == {True, False}


@pytest.mark.parametrize("kind", ["solver", "python"])
def test_a_search_that_runs_out_of_turns_refuses_and_says_it_did_not_decide(kind: str) -> None:
    """Whole hands of bloomington at the first lead, each new to the search: given 10 nodes it gives up on some,
    refusing the claim and saying it did not decide; given its full limit it decides them."""
    rules = preset("bloomington")
    rng = random.Random(f"limit:{kind}")
    undecided = 0
    while undecided < 3:
        game = random_ending(rules, rng, tricks_left=rules.cards_each)
        if game is None:
            continue
        team = rules.team_of(game.to_act or 0)
        search = game.claim_search if kind == "solver" else game.python_claim_search
        short = search(team, limit=10)
        if short.holds() or short.decided:
            continue  # settled at once
        undecided += 1
        assert short.nodes == 11
        full = search(team)
        full.holds()
        assert full.decided and full.nodes > 10
    assert SEARCH_LIMIT >= 100_000 and SOLVER_NODE_LIMIT >= 10_000_000


def test_the_one_question_of_the_engines_own_search() -> None:
    rules = preset("bloomington")
    game = deal_and_contract(rules, 1, dict(enumerate(top_trumps(rules, 1, Trump.S))), Trump.S)
    short = game.python_claim_search(rules.team_of(1), limit=10)
    short.holds()
    with pytest.raises(RuntimeError):
        short.holds()  # one question per search
