"""Game positions that put a bot in front of every kind of decision, found with the pure engine.

A position is a game stopped at the first decision of one seat (the bot's)
in a chosen situation: opening the auction, the dealer's last call, naming
trump, each special contract the rules allow from the declarer's and the
partner's chair (the exchanges of Call k, Best and going alone, the lone
play of Moon), defending and declaring a trick bid. Everything before that
point is scripted: the auction is arranged (the declarer bids the contract,
everyone else passes) and the rest is played at random from a seed. The bot
is stateless as far as the protocol goes (each request carries the seat's
whole view), so it can be dropped into the middle of a hand.

Two positions are for claims: the declarer to play with at most three tricks
left, where a claim of them all holds (its team takes each whatever the others
play), and one where it does not; the engine's own claim search tells which.

Each position is a game of one hand (the preset with ``game_over=hands``,
``game_hands=1``), so it ends as a real game does, with a GameOver the
engine scores, once the bot has played the hand out. Beside them, one whole
game of ``GAME_HANDS`` hands (``whole_game``), dealt from the start, where
the other seats bid and play at random: the bot must live through a hand's
end and a new deal, as in a match.

Deals are searched for: a contract may need a card in hand (the right bower
to open), so shuffles are tried, from a seed derived from the preset and the
situation, until one fits. Everything here is pure and deterministic: the
same rules give the same positions.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Mapping
from dataclasses import dataclass

from referee.engine.bids import CALL_CARDS, PASS, Bid, enabled_specials, trump_named_with_bid
from referee.engine.errors import RulesError
from referee.engine.game import Decision, DecisionKind, Game
from referee.engine.presets import rules_for
from referee.engine.rules import Rules
from referee.engine.simulate import random_action, shuffled_deck
from referee.seeding import derive_seed

TRIES = 400  # shuffles tried per situation before it is declared impossible under the rules


@dataclass(frozen=True)
class Situation:
    """What to arrange: who bids what before the bot's seat has to decide.

    ``contract`` picks the declarer's bid among the legal ones (None: an
    open auction, the bot bids); ``role`` is the bot's chair relative to the
    opener (the first seat to bid, who is also the declarer): ``opener``,
    ``dealer``, ``partner`` or ``left`` (the next seat, a defender);
    ``opening`` is a bid the opener makes first when the bot is not the
    opener (big pepper only follows little pepper). ``claim``: the position
    is a play later in the hand, with at most three tricks left, where a
    claim by the bot's seat holds (True) or fails (False).
    """

    name: str
    role: str
    contract: Callable[[Bid], bool] | None = None
    opening: Callable[[Bid], bool] | None = None
    claim: bool | None = None


@dataclass(frozen=True)
class Position:
    """A game stopped where the bot's seat must decide; ``seed`` drives the other seats from here."""

    preset: str
    name: str
    game: Game
    seat: int
    seed: int

    @property
    def decision(self) -> Decision:
        decision = self.game.decision()
        assert decision is not None and decision.seat == self.seat
        return decision


def _kind(kind: str) -> Callable[[Bid], bool]:
    return lambda bid: bid.kind == kind


def _trick_bid(bid: Bid) -> bool:
    return bid.kind == "level"


def _trick_bid_trump_later(bid: Bid) -> bool:
    return bid.kind == "level" and bid.trump is None


def situations(rules: Rules) -> list[Situation]:
    """The situations worth checking under ``rules`` (those the rules make possible)."""
    stuck = ", stuck" if rules.stick_the_dealer else ""
    out = [
        Situation("bid: opening the auction", "opener"),
        Situation(f"bid: the dealer after all passed{stuck}", "dealer"),
    ]
    if not trump_named_with_bid("level", rules):
        out.append(Situation("trump: named after winning a trick bid", "opener", _trick_bid_trump_later))
    out += [
        Situation("play: declaring a trick bid", "opener", _trick_bid),
        Situation("play: defending a trick bid", "left", _trick_bid),
    ]
    if rules.team_size > 1:
        out.append(Situation("play: partner of the declarer", "partner", _trick_bid))
    out += [
        Situation("claim: a claim of the tricks left holds", "opener", _trick_bid, claim=True),
        Situation("claim: a claim of the tricks left fails", "opener", _trick_bid, claim=False),
    ]
    for special in enabled_specials(rules):
        if special == "big-pepper":
            out.append(Situation("bid: over a little pepper", "left", opening=_kind("little-pepper")))
            continue
        out.append(Situation(f"{special}: declarer", "opener", _kind(special)))
        exchanges = special in CALL_CARDS or special == "best" or (special == "alone" and rules.alone_exchange_cards)
        if exchanges:
            out.append(Situation(f"{special}: partner exchanges", "partner", _kind(special)))
        else:
            out.append(Situation(f"{special}: defending", "left", _kind(special)))
    return out


class _NoFit(Exception):
    """This deal cannot give the situation."""


def _seat_of(rules: Rules, role: str, opener: int, dealer: int) -> int:
    if role == "opener":
        return opener
    if role == "dealer":
        return dealer
    if role == "left":
        return (opener + 1) % rules.players
    if role == "partner":
        return rules.partners(opener)[0]
    raise ValueError(f"unknown role {role!r}")


def _scripted_bid(decision: Decision, situation: Situation, opener: int, first_turn: bool) -> Bid:
    """The bid the script makes for a seat that is not (yet) the bot's."""
    legal = decision.bids
    if decision.seat == opener and first_turn:
        wanted = situation.contract or situation.opening
        if wanted is not None:
            fits = [b for b in legal if wanted(b)]
            if not fits:
                raise _NoFit
            return fits[0]
    if PASS in legal:
        return PASS
    return legal[0]  # a stuck dealer takes the lowest bid


def find_position(preset: str, rules: Rules, situation: Situation, tries: int = TRIES) -> Position | None:
    """The first deal (of ``tries`` seeded shuffles) that gives ``situation``; None if none does."""
    for attempt in range(tries):
        seed = derive_seed(0, "check-bot", preset, situation.name, attempt)
        rng = random.Random(seed)
        game = Game(rules, rng.randrange(rules.players))
        game.deal(shuffled_deck(rules, rng))
        dealer = game.dealer
        opener = (dealer + 1) % rules.players
        seat = _seat_of(rules, situation.role, opener, dealer)
        try:
            if not _arrange(game, situation, seat, opener, rng):
                continue
        except _NoFit:
            continue
        if situation.claim is None or _claim_ending(game, seat, rng, situation.claim):
            return Position(preset, situation.name, game, seat, derive_seed(seed, "play"))
    return None


CLAIM_TRICKS = 3  # a claim position has at most this many tricks left


def _claim_ending(game: Game, seat: int, rng: random.Random, holds: bool) -> bool:
    """Play on at random to a play of ``seat`` with at most ``CLAIM_TRICKS`` tricks left where a claim by its team
    holds (``holds``) or fails; False when the hand ends first."""
    hand, team = game.hand_number, game.rules.team_of(seat)
    while (decision := game.decision()) is not None and game.hand_number == hand:
        late = game.rules.cards_each - game.trick_number < CLAIM_TRICKS
        ours = decision.seat == seat and decision.kind is DecisionKind.PLAY
        if ours and late and game.claim_search(team).holds() is holds:
            return True
        game.apply(random_action(decision, rng))
    return False


def _arrange(game: Game, situation: Situation, seat: int, opener: int, rng: random.Random) -> bool:
    """Play the script until ``seat`` decides in the situation; False when the hand went elsewhere."""
    hand = game.hand_number
    bid_turns: set[int] = set()
    open_auction = situation.contract is None
    while (decision := game.decision()) is not None and game.hand_number == hand:
        if decision.seat == seat:
            in_auction = decision.kind is DecisionKind.BID
            if open_auction and in_auction and _opened(game, situation, seat, bid_turns):
                return True
            if not open_auction and not in_auction:
                return True
        if decision.kind is DecisionKind.BID:
            first = decision.seat not in bid_turns
            bid_turns.add(decision.seat)
            game.apply(_scripted_bid(decision, situation, opener, first))
        else:
            game.apply(random_action(decision, rng))
    return False


def _opened(game: Game, situation: Situation, seat: int, bid_turns: set[int]) -> bool:
    """The bot's seat is to bid over the opening the situation asks for (if it asks for one)."""
    if situation.opening is None:
        return True
    return seat not in bid_turns and game.high_bid is not None and situation.opening(game.high_bid)


ONE_HAND = {"game_over": "hands", "game_hands": "1"}
GAME_HANDS = 2  # the hands of check-bot's whole game
WHOLE_GAME = f"game: a whole game of {GAME_HANDS} hands, dealt from the start"


def check_rules(preset: str, overrides: Mapping[str, str] | None = None) -> Rules:
    """The preset's rules, with the ``overrides`` (option -> value text, as ``--rule`` gives them), for a game
    of one hand. RulesError, one line, when an override does not fit the preset or would change the length
    of the game (each position is one hand)."""
    overrides = dict(overrides or {})
    check_overrides(overrides)
    return rules_for(preset, {**overrides, **ONE_HAND})


def check_overrides(overrides: Mapping[str, str]) -> None:
    """RulesError unless every override leaves a position a game of one hand."""
    fixed = sorted(set(overrides) & set(ONE_HAND))
    if fixed:
        raise RulesError(
            f"rule option {', '.join(fixed)} cannot be overridden here: check-bot plays each position as a game "
            f"of one hand (game_over=hands, game_hands=1), and one whole game of {GAME_HANDS} hands"
        )


def whole_game(preset: str, overrides: Mapping[str, str] | None = None) -> Position:
    """A game of ``GAME_HANDS`` hands on ``preset`` (with the rule ``overrides``), not dealt yet, and the bot's
    seat in it; the same every time."""
    overrides = dict(overrides or {})
    check_overrides(overrides)
    rules = rules_for(preset, {**overrides, **ONE_HAND, "game_hands": str(GAME_HANDS)})
    seed = derive_seed(0, "check-bot", preset, WHOLE_GAME)
    rng = random.Random(seed)
    game = Game(rules, rng.randrange(rules.players))
    return Position(preset, WHOLE_GAME, game, rng.randrange(rules.players), derive_seed(seed, "play"))


def positions(
    presets: list[str], overrides: Mapping[str, str] | None = None
) -> tuple[list[Position], list[tuple[str, str]]]:
    """Every position of every preset (under the rule ``overrides``), and the (preset, situation) pairs no deal
    could give."""
    found: list[Position] = []
    missing: list[tuple[str, str]] = []
    for name in presets:
        rules = check_rules(name, overrides)
        for situation in situations(rules):
            position = find_position(name, rules, situation)
            if position is None:
                missing.append((name, situation.name))
            else:
                found.append(position)
    return found, missing


def continue_action(decision: Decision, rng: random.Random) -> object:
    """What a seat other than the bot's plays once the bot is in: pass in the auction, else at random."""
    if decision.kind is DecisionKind.BID:
        return PASS if PASS in decision.options else decision.options[0]
    return random_action(decision, rng)
