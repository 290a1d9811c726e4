"""Fast playouts: finish the tricks of a hand with a fixed quick policy, on bare card codes.

Monte Carlo bots play thousands of hands out per decision. Driving ``Game``
for that costs an event object per card, legality checks and a legal list per
turn; here a hand in play is only its card codes (one list per seat), the
trick in progress and the tricks won, and the trick loop reads the trump
tables of ``cards`` directly. The rules of trick play are the same as
``Game``'s (follow the effective suit led when able; highest trump, else the
highest card of the suit led wins; of identical cards the first played wins),
and ``tests/engine/test_playout.py`` checks, position by position, that a
playout here and the same policy driven through ``Game`` take the same tricks.

The policy (``quick_policy`` in the ``Game``-driven form the tests use):
leading, the declaring side plays its highest trump (drawing trumps) and the
defenders their highest side card (cashing aces); following, the cheapest card
that takes the trick from the opponents, else the cheapest card. Ties go to
the lowest card code, as when choosing from ``Game.legal_plays()``.

Pure, like the rest of the engine: no randomness, no clock, no I/O.
"""

from __future__ import annotations

from collections.abc import Sequence

from referee.engine.cards import CARD_POWER, EFFECTIVE_SUIT, TRICK_KEY, Card
from referee.engine.game import Contract, Game, Phase
from referee.engine.rules import Rules
from referee.engine.scoring import hand_points


def finish_tricks(
    trump: int,
    teams: int,
    declaring_team: int,
    active: Sequence[int],
    hands: Sequence[Sequence[Card]],
    to_act: int,
    trick_seats: Sequence[int],
    trick_cards: Sequence[Card],
    tricks_won: Sequence[int],
    first: Card = -1,
) -> list[int]:
    """Tricks won per team once every trick of the hand is played by the quick policy.

    ``hands`` are the cards each seat holds now (inactive seats' are ignored),
    ``trick_seats``/``trick_cards`` the trick in progress (empty between tricks),
    ``to_act`` the seat to play next and ``tricks_won`` the tricks each team has
    taken so far. ``first``, when given, is the card ``to_act`` plays now (a
    legal one: a search trying each of its candidates); the policy plays every
    other card. Nothing passed in is changed.
    """
    eff = EFFECTIVE_SUIT[trump]
    power = CARD_POWER[trump]
    keys_by_led = TRICK_KEY[trump]
    trump_suit = trump if trump <= 3 else -1
    n = len(hands)
    is_active = [False] * n
    for s in active:
        is_active[s] = True
    after = [0] * n  # next active seat clockwise
    for s in range(n):
        t = (s + 1) % n
        while not is_active[t]:
            t = (t + 1) % n
        after[s] = t
    size = len(active)
    held = [sorted(h) for h in hands]
    won = list(tricks_won)
    played = len(trick_cards)
    if played:
        led = eff[trick_cards[0]]
        keys = keys_by_led[led]
        best_key, best_seat = -2, 0
        for s, c in zip(trick_seats, trick_cards, strict=True):
            if keys[c] > best_key:
                best_key, best_seat = keys[c], s
    else:
        led, keys, best_key, best_seat = -1, keys_by_led[0], -2, 0
    seat = to_act
    while True:
        hand = held[seat]
        team = seat % teams
        card = first
        if not played:
            if not hand:
                return won
            if card >= 0:
                first = -1
            elif team == declaring_team and trump_suit >= 0:
                # Declaring side: its highest trump.
                top = -1
                for c in hand:
                    if eff[c] == trump_suit and power[c] > top:
                        card, top = c, power[c]
            if card < 0:
                # Else the highest side card; with nothing but trumps, the lowest trump.
                top = -1
                for c in hand:
                    if eff[c] != trump_suit and power[c] > top:
                        card, top = c, power[c]
                if card < 0:
                    low = 1 << 30
                    for c in hand:
                        if power[c] < low:
                            card, low = c, power[c]
            led = eff[card]
            keys = keys_by_led[led]
            best_key, best_seat = keys[card], seat
        else:
            follow = [c for c in hand if eff[c] == led] or hand
            if card >= 0:
                first = -1
            elif best_seat % teams != team:
                # The cheapest card that takes the trick from the opponents.
                low = 1 << 30
                for c in follow:
                    if keys[c] > best_key and power[c] < low:
                        card, low = c, power[c]
            if card < 0:
                low = 1 << 30
                for c in follow:
                    if power[c] < low:
                        card, low = c, power[c]
            if keys[card] > best_key:
                best_key, best_seat = keys[card], seat
        hand.remove(card)
        played += 1
        if played < size:
            seat = after[seat]
            continue
        won[best_seat % teams] += 1
        played = 0
        seat = best_seat


def finish_game_hand(game: Game) -> tuple[int, ...]:
    """The points per team the hand in play in ``game`` scores when the quick policy finishes it.

    ``game`` must be in the play phase; it is left as it was.
    """
    contract = game.contract
    if game.phase is not Phase.PLAY or contract is None or game.to_act is None:
        raise ValueError(f"a playout needs a hand in play, not the {game.phase} phase")
    return playout_points(
        game.rules, contract, game.hands, game.to_act, game.trick_seats, game.trick_cards, game.tricks_won
    )


def playout_points(
    rules: Rules,
    contract: Contract,
    hands: Sequence[Sequence[Card]],
    to_act: int,
    trick_seats: Sequence[int],
    trick_cards: Sequence[Card],
    tricks_won: Sequence[int],
    first: Card = -1,
) -> tuple[int, ...]:
    """``finish_tricks`` under ``contract``, scored by the rules: the hand's points per team."""
    taken = playout_tricks(rules, contract, hands, to_act, trick_seats, trick_cards, tricks_won, first)
    return hand_points(rules, contract.bid, contract.declarer, taken)[1]


def playout_tricks(
    rules: Rules,
    contract: Contract,
    hands: Sequence[Sequence[Card]],
    to_act: int,
    trick_seats: Sequence[int],
    trick_cards: Sequence[Card],
    tricks_won: Sequence[int],
    first: Card = -1,
) -> list[int]:
    """``finish_tricks`` under ``contract``: the tricks per team at the hand's end."""
    return finish_tricks(
        contract.trump,
        rules.teams,
        rules.team_of(contract.declarer),
        contract.active,
        hands,
        to_act,
        trick_seats,
        trick_cards,
        tricks_won,
        first,
    )


def quick_policy(game: Game) -> Card:
    """The quick policy's card for the seat to act in ``game`` (the ``Game``-driven form, for tests)."""
    legal = game.legal_plays()
    contract = game.contract
    assert contract is not None and game.to_act is not None
    rules = game.rules
    trump = contract.trump
    power = CARD_POWER[trump]
    eff = EFFECTIVE_SUIT[trump]
    team = rules.team_of(game.to_act)
    cards = game.trick_cards
    if not cards:
        if team == rules.team_of(contract.declarer) and trump <= 3:
            trumps = [c for c in legal if eff[c] == trump]
            if trumps:
                return max(trumps, key=lambda c: power[c])
        side = [c for c in legal if trump > 3 or eff[c] != trump]
        return max(side, key=lambda c: power[c]) if side else min(legal, key=lambda c: power[c])
    keys = TRICK_KEY[trump][eff[cards[0]]]
    best = max(range(len(cards)), key=lambda i: (keys[cards[i]], -i))
    if rules.team_of(game.trick_seats[best]) != team:
        winners = [c for c in legal if keys[c] > keys[cards[best]]]
        if winners:
            return min(winners, key=lambda c: power[c])
    return min(legal, key=lambda c: power[c])
