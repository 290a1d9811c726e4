"""How a Monte Carlo search finishes a sampled hand after a candidate decision.

The Monte Carlo example bot finishes its hands this way, and ``arena analyze``
uses the same model as its reference policy. Given a rebuilt engine ``Game``
(``sdk.worlds``) with a candidate action applied, ``finish_hand`` plays the
rest of the hand: the auction (every seat, the deciding seat's later turns
too, bids like a lean rules bot: the
cheapest bid its count of tricks plus its partners' shown help clears by
``BID_MARGIN``, a first bid jumping to what the hand is worth; the stuck
dealer bids the cheapest in its best trump; no lone bids), the trump named
after the auction (the declarer's best count), the exchanges (the rules bot's
``keep_value``: the best cards to a lone declarer, the weakest away
otherwise), then the tricks with the engine's fast playout
(``referee.engine.playout``). Every action goes through the engine, so each
finished hand is legal under the preset; its points are scored by the
engine's own scoring.

Counts of each seat's tricks per trump (``quick_tricks``) are worked out once
per world and shared by every candidate tried in it.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from referee.engine.bids import PASS, Bid
from referee.engine.cards import Trump
from referee.engine.events import BidEvent
from referee.engine.game import Decision, DecisionKind, Game, Phase
from referee.engine.playout import finish_game_hand
from referee.engine.rules import Rules
from sdk.handvalue import (
    BID_MARGIN,
    SUPPORT_NO_TRUMP_NAMED,
    SUPPORT_OTHER_TRUMP,
    SUPPORT_PASSED,
    SUPPORT_SAME_TRUMP,
    SUPPORT_UNKNOWN,
    keep_value,
    weakest,
)
from sdk.inference import quick_tricks


class WorldModel:
    """The other seats' behaviour in one sampled world (their dealt hands are the world's)."""

    def __init__(self, rules: Rules) -> None:
        self.rules = rules
        self._counts: dict[tuple[int, Trump], float] = {}

    def count(self, game: Game, seat: int, trump: Trump) -> float:
        """Tricks ``seat``'s hand should take with ``trump`` (cached: hands do not change in the auction)."""
        key = (seat, trump)
        value = self._counts.get(key)
        if value is None:
            value = self._counts[key] = quick_tricks(game.hands[seat], trump, self.rules)
        return value

    # ------------------------------------------------------------- decisions

    def team_strength(self, game: Game, seat: int, trumps: Sequence[Trump]) -> dict[Trump, float]:
        """``seat``'s count plus its partners' shown help, for each of ``trumps``."""
        help_ = self.support(game, seat)
        return {t: self.count(game, seat, t) + help_(t) for t in trumps}

    def action(self, game: Game, decision: Decision) -> object:
        kind = decision.kind
        if kind is DecisionKind.BID:
            return self.bid(game, decision)
        if kind is DecisionKind.TRUMP:
            trumps = decision.trumps
            strength = self.team_strength(game, decision.seat, trumps)
            return max(trumps, key=strength.__getitem__)
        trump = game.contract.trump if game.contract is not None else Trump.HIGH
        hand = game.hands[decision.seat]
        if kind is DecisionKind.GIVE and game.contract is not None and decision.to == game.contract.declarer:
            return sorted(hand, key=lambda c: keep_value(c, hand, trump), reverse=True)[: decision.count]
        return weakest(hand, decision.count, trump)

    def bid(self, game: Game, decision: Decision) -> Bid:
        rules = self.rules
        seat = decision.seat
        legal = decision.bids
        stuck = PASS not in legal
        level_bids = [b for b in legal if b.kind == "level"]
        if not level_bids:
            return PASS if not stuck else legal[0]
        bids = _hand_bids(game)
        high_seat = next((s for s, b in reversed(bids) if not b.is_pass), None)
        if not stuck and high_seat is not None and rules.team_of(high_seat) == rules.team_of(seat):
            return PASS  # partner holds the contract
        team = self.team_strength(game, seat, rules.trump_choices)
        suits_only = max(team[t] for t in rules.trump_choices if t.is_suit)
        anything = max(team.values())

        def strength(b: Bid) -> float:
            if b.trump is not None:
                return team[b.trump]
            return anything if b.level >= rules.min_notrump_bid else suits_only

        if stuck:
            cheapest = [b for b in level_bids if b.level == level_bids[0].level]
            return max(cheapest, key=strength)
        ok = [b for b in level_bids if strength(b) >= b.level + BID_MARGIN]
        if not ok:
            return PASS
        if any(s == seat for s, _ in bids):
            # Raising: the cheapest level that wins, in the best trump at that level.
            return max((b for b in ok if b.level == ok[0].level), key=strength)
        # A first bid says what the hand is worth in its best trump: its own count before a partner
        # has bid (a partner still to speak adds to it), the team's after; too weak to open, it passes.
        trump = max(ok, key=strength).trump
        partner_bid = any(not b.is_pass and s in rules.partners(seat) for s, b in bids)
        if partner_bid:
            worth = strength(next(b for b in ok if b.trump == trump))
        elif trump is not None:
            worth = self.count(game, seat, trump)
        else:
            worth = max(self.count(game, seat, t) for t in rules.trump_choices)
        fitting = [b for b in ok if b.trump == trump and b.level <= worth - BID_MARGIN]
        return fitting[-1] if fitting else PASS

    def support(self, game: Game, seat: int) -> Callable[[Trump], float]:
        """Partners' help by trump, from their first bids so far (the rules bot's reading)."""
        rules = self.rules
        average = rules.cards_each / rules.players
        bids = _hand_bids(game)
        flat = 0.0
        named: list[tuple[Trump | None, float]] = []
        for partner in rules.partners(seat):
            spoke = [b for s, b in bids if s == partner]
            said = next((b for b in spoke if not b.is_pass), None)
            if not spoke:
                flat += SUPPORT_UNKNOWN * average
            elif said is None:
                flat += SUPPORT_PASSED * average
            else:
                named.append((said.trump, said.level if said.kind == "level" else rules.cards_each))

        def help_(trump: Trump) -> float:
            total = flat
            for said_trump, level in named:
                if said_trump is None:
                    total += SUPPORT_NO_TRUMP_NAMED * level
                else:
                    total += (SUPPORT_SAME_TRUMP if said_trump == trump else SUPPORT_OTHER_TRUMP) * level
            return total

        return help_


def _hand_bids(game: Game) -> list[tuple[int, Bid]]:
    return [(ev.seat, ev.bid) for ev in game.hand_events if type(ev) is BidEvent]


def _trumps_for(rules: Rules, level: int) -> tuple[Trump, ...]:
    return tuple(t for t in rules.trump_choices if t.is_suit or level >= rules.min_notrump_bid)


def finish_hand(game: Game, model: WorldModel, team: int) -> float:
    """Play ``game``'s hand to its end (see the module docstring): ``team``'s points minus the others' average.

    ``game`` is consumed. A hand thrown in scores 0.
    """
    points = finish_points(game, model)
    return 0.0 if points is None else margin(points, team)


def finish_points(game: Game, model: WorldModel) -> tuple[int, ...] | None:
    """Play ``game``'s hand to its end as ``finish_hand`` does: the points per team, None when it is thrown in.

    ``game`` is consumed.
    """
    return finish_game_hand(game) if reach_play(game, model) else None


def reach_play(game: Game, model: WorldModel) -> bool:
    """Finish ``game``'s auction, trump and exchanges by ``model``, up to the first card: whether the hand is played
    (False: it was thrown in, or the game ended)."""
    while game.phase is not Phase.PLAY:
        decision = game.decision()
        if decision is None:
            return False
        game.apply(model.action(game, decision))
    return True


def margin(points: Sequence[int], team: int) -> float:
    """``team``'s points minus the average of the other teams'."""
    return points[team] - (sum(points) - points[team]) / (len(points) - 1)
