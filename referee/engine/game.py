"""The game state machine: deal, auction, trump, exchanges, tricks, scoring, game end.

``Game`` is a pure function of (rules, first dealer, decks handed in, actions):
it owns no randomness, no clock and does no I/O. At every point it says whose
decision it is and what the legal actions are (``decision()``); ``apply``
takes one action and returns the events it caused. An action of the wrong
shape raises ``InvalidActionError``; a well-formed action the rules forbid
raises ``IllegalActionError`` naming the rule. Either way the state is left
unchanged.

Actions by decision kind: BID -> ``Bid``; TRUMP -> ``Trump``; GIVE and DISCARD
-> a sequence of exactly ``count`` cards from the hand; PLAY -> a card. At a
PLAY decision the seat may instead claim every remaining trick (``claim``):
the engine checks the claim exactly (``referee.engine.claim``) and either
ends the hand or changes nothing.

Monte Carlo bots replay thousands of hands per decision, so the trick loop
works on precomputed tables (``cards.TRICK_KEY``, the next active seat, the
deal order) and keeps the legal lists of the current turn cached.
"""

from __future__ import annotations

from bisect import bisect_left, bisect_right
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from enum import StrEnum
from functools import lru_cache
from operator import itemgetter
from typing import cast

from referee.engine import cards as C
from referee.engine.bids import (
    CALL_CARDS,
    PASS,
    SPECIALS,
    Bid,
    BidKind,
    bid_level_rank,
    bid_rank,
    enabled_specials,
    trump_named_with_bid,
)
from referee.engine.cards import Card, Trump, card_str, deck_cards
from referee.engine.claim import SEARCH_LIMIT, SOLVER_NODE_LIMIT, ClaimCheck, ClaimSearch, SolvedClaim
from referee.engine.deal import deal_seats
from referee.engine.doubledummy import Position
from referee.engine.errors import IllegalActionError, InvalidActionError
from referee.engine.events import (
    BidEvent,
    ClaimEvent,
    ContractEvent,
    DealEvent,
    Event,
    ExchangeEvent,
    GameEndEvent,
    HandEndEvent,
    PlayEvent,
    TrickEvent,
)
from referee.engine.rules import Rules
from referee.engine.scoring import hand_points
from referee.solver import available as solver_available


class Phase(StrEnum):
    DEAL = "deal"  # waiting for a shuffled deck
    BID = "bid"
    TRUMP = "trump"
    EXCHANGE = "exchange"
    PLAY = "play"
    OVER = "over"


# What a seat may answer a decision with: a bid, a trump, a card, or the cards it gives or discards.
Action = Bid | Trump | Card | Sequence[Card]


@dataclass(frozen=True, slots=True)
class ClaimAnswer:
    """The answer to a PLAY decision that claims every remaining trick for the seat's team instead of playing a
    card: the caller puts it to ``Game.claim`` (``Game.apply`` takes no claim). ``CLAIM`` is its one value."""

    def __repr__(self) -> str:
        return "CLAIM"


CLAIM = ClaimAnswer()
"""A claim of every remaining trick, the answer ``Bot.play`` may give instead of a card when ``view.may_claim``."""
# What a seat may answer a PLAY decision with besides a card, and any decision with: an action or a claim.
Answer = Action | ClaimAnswer


class DecisionKind(StrEnum):
    """What a seat is asked to decide: a bid, trump, cards to give or discard, or a card to play."""

    BID = "bid"
    TRUMP = "trump"
    GIVE = "give"
    DISCARD = "discard"
    PLAY = "play"


# Enum member lookups cost a descriptor call on Python 3.11: the per-card path uses these.
_PLAY = Phase.PLAY
_PLAY_KIND = DecisionKind.PLAY


@dataclass(frozen=True, slots=True)
class Decision:
    """A decision one seat must take now.

    ``options`` holds the legal actions for BID, TRUMP and PLAY. For GIVE and
    DISCARD it holds the seat's hand (duplicates included); any ``count`` of
    those cards is a legal action.
    """

    kind: DecisionKind
    seat: int
    options: tuple[Action, ...]
    count: int = 1
    to: int | None = None  # GIVE: the receiving seat

    # ``options`` as what they are for the kind: a ValueError for another kind.

    @property
    def bids(self) -> tuple[Bid, ...]:
        """The legal bids of a BID decision."""
        self._need(DecisionKind.BID)
        return cast("tuple[Bid, ...]", self.options)

    @property
    def trumps(self) -> tuple[Trump, ...]:
        """The trumps a TRUMP decision may name."""
        self._need(DecisionKind.TRUMP)
        return cast("tuple[Trump, ...]", self.options)

    @property
    def cards(self) -> tuple[Card, ...]:
        """The legal cards of a PLAY decision; the hand to choose from for GIVE and DISCARD."""
        if self.kind is DecisionKind.BID or self.kind is DecisionKind.TRUMP:
            raise ValueError(f"a {self.kind} decision has no cards to choose from")
        return cast("tuple[Card, ...]", self.options)

    def _need(self, kind: DecisionKind) -> None:
        if self.kind is not kind:
            raise ValueError(f"a {self.kind} decision has no {kind} options")


@dataclass(frozen=True, slots=True)
class Contract:
    """The hand's contract: who declared, the winning bid, trump, whether the declarer plays alone, and the seats
    that play the tricks (a lone declarer's partners sit out)."""

    declarer: int
    bid: Bid
    trump: Trump
    alone: bool
    active: tuple[int, ...]


@dataclass(frozen=True, slots=True)
class _Step:
    """One pending exchange: ``seat`` gives ``count`` cards to ``to``, or discards them."""

    kind: DecisionKind
    seat: int
    count: int
    to: int | None


@dataclass(frozen=True, slots=True)
class _BidTable:
    """Every bid an opener could make, in rank order, with what the auction checks of each."""

    bids: tuple[Bid, ...]
    ranks: tuple[int, ...]  # bid_rank of each bid (ascending)
    level_ranks: tuple[int, ...]  # bid_level_rank of each bid (ascending)
    jacks: tuple[Card | None, ...]  # the jack a right-bower-to-open bid needs, or None
    index: dict[Bid, int]  # bid -> its position


# Picks one seat's cards from a shuffled deck, in the order dealt (an itemgetter of deck positions).
_Picker = Callable[[Sequence[Card]], tuple[Card, ...]]


@dataclass(frozen=True, slots=True)
class _RulesTables:
    """What a game derives from its rules once; shared by every game under the same rules."""

    deck: tuple[Card, ...]  # every card of the deck, sorted
    deal: tuple[tuple[_Picker, ...], ...]  # per dealer, per seat: picks that seat's cards from a deck
    specials: tuple[BidKind, ...]
    bid_tables: tuple[_BidTable, _BidTable]  # openers' bids, and a stuck dealer's
    max_rank: int  # rank of the highest bid


@lru_cache(maxsize=64)
def _rules_tables(rules: Rules) -> _RulesTables:
    specials = enabled_specials(rules)
    tables = (_bid_table(rules, specials, stuck=False), _bid_table(rules, specials, stuck=True))
    return _RulesTables(
        deck=tuple(sorted(deck_cards(rules.deck))),
        deal=tuple(_deal_pickers(rules, dealer) for dealer in range(rules.players)),
        specials=specials,
        bid_tables=tables,
        max_rank=tables[False].ranks[-1],
    )


def _deal_pickers(rules: Rules, dealer: int) -> tuple[_Picker, ...]:
    """For each seat, an itemgetter of the deck positions it is dealt, in the order received.

    Every hand has at least 4 cards, so each getter returns a tuple.
    """
    seats = deal_seats(rules, dealer)
    return tuple(itemgetter(*[i for i, s in enumerate(seats) if s == seat]) for seat in range(rules.players))


def _bid_table(rules: Rules, specials: tuple[BidKind, ...], stuck: bool) -> _BidTable:
    """The bids of an opening seat (or of a stuck dealer), lowest rank first."""
    # A stuck dealer may bid from the stuck level, in no-trump too; with stuck_dealer_exact, that level only.
    floor = rules.stuck_min if stuck else rules.min_bid
    nt_floor = min(rules.stuck_min, rules.min_notrump_bid) if stuck else rules.min_notrump_bid
    exact = stuck and rules.stuck_dealer_exact
    top = floor if exact else rules.max_level
    trumps = rules.trump_choices
    bids: list[Bid] = []
    for level in range(floor, top + 1):
        if trump_named_with_bid("level", rules):
            bids += [Bid(BidKind.LEVEL, level, t) for t in trumps if t.is_suit or level >= nt_floor]
        else:
            bids.append(Bid(BidKind.LEVEL, level))
    for special in () if exact else specials:
        if trump_named_with_bid(special, rules):
            bids += [Bid(special, 0, t) for t in trumps]
        else:
            bids.append(Bid(special))
    bids.sort(key=lambda b: bid_rank(b, rules))
    return _BidTable(
        bids=tuple(bids),
        ranks=tuple(bid_rank(b, rules) for b in bids),
        level_ranks=tuple(bid_level_rank(b, rules) for b in bids),
        jacks=tuple(C.make_card(b.trump, C.JACK) if b.trump is not None and b.trump.is_suit else None for b in bids),
        index={b: i for i, b in enumerate(bids)},
    )


class Game:
    """One game of Bid Euchre under ``rules``; ``first_dealer`` deals hand 1."""

    def __init__(self, rules: Rules, first_dealer: int = 0) -> None:
        if not 0 <= first_dealer < rules.players:
            raise ValueError(f"first_dealer {first_dealer} is not a seat of a {rules.players}-player game")
        self.rules = rules
        self.n = rules.players
        self.first_dealer = first_dealer
        self.scores: list[int] = [0] * rules.teams
        self.hand_number = 0
        self.dealer = first_dealer
        self.phase = Phase.DEAL
        self.events: list[Event] = []
        self.hand_start = 0  # index in ``events`` of this hand's deal
        self.winner: int | None = None
        self.end_reason: str | None = None
        self._last_declaring_team: int | None = None
        self._last_made: bool | None = None
        self._last_made_team: int | None = None
        # Values read on every card: looked up once (they are properties of Rules).
        self._teams = rules.teams
        self._cards_each = rules.cards_each
        tables = _rules_tables(rules)
        self._deck = tables.deck
        self._deal = tables.deal
        self._specials = tables.specials
        self._bid_tables = tables.bid_tables
        self._max_rank = tables.max_rank
        # Turns in the auction: single round, one each; two rounds, up to two each;
        # multiple rounds, no limit once someone bids. If all pass, the hand is
        # thrown in after one round (two, with two rounds).
        rounds = rules.bidding_rounds
        self._round_turns = 2 * self.n if rounds == "two" else self.n
        self._max_turns = {"single": self.n, "two": 2 * self.n, "multiple": None}[rounds]
        self._reset_hand()

    # ------------------------------------------------------------------ state

    def _reset_hand(self) -> None:
        self.hands: list[list[Card]] = [[] for _ in range(self.n)]  # each kept sorted
        self.to_act: int | None = None
        self.contract: Contract | None = None
        # auction
        self._turns = 0
        self._passes_since_bid = 0
        self.high_bid: Bid | None = None
        self.high_seat: int | None = None
        self._declarer_stuck = False
        self._high_rank = -1  # bid_rank of the standing bid
        self._legal_bids: tuple[Bid, ...] | None = None
        self._legal_tail: tuple[_BidTable, int] | None = None  # see _is_legal_bid
        # exchanges
        self._steps: list[_Step] = []
        # tricks
        self.trump: int = Trump.HIGH
        self.active: tuple[int, ...] = tuple(range(self.n))
        self._next_seat = [(s + 1) % self.n for s in range(self.n)]  # next active seat clockwise
        self._active_count = self.n
        self.trick_number = 0
        self.trick_seats: list[int] = []
        self.trick_cards: list[Card] = []
        self.tricks_won: list[int] = [0] * self._teams
        self._legal_plays: tuple[Card, ...] | None = None
        # the trick in progress: keys of the suit led (cards.TRICK_KEY) and who is winning
        self._effective_suit: list[int] = C.EFFECTIVE_SUIT[Trump.HIGH]  # of each card under trump
        self._led_suit = 0
        self._trick_keys: list[int] = []
        self._best_key = -1
        self._best_seat = 0

    def copy(self) -> Game:
        """An independent copy of the game as it stands, to play on without touching this one.

        For searches that try many continuations (Monte Carlo bots). The rules,
        the derived tables and the events themselves are immutable and shared;
        every container the game changes in place is copied.
        """
        clone = object.__new__(Game)
        clone.__dict__.update(self.__dict__)
        clone.events = list(self.events)
        clone.scores = list(self.scores)
        clone.hands = [list(hand) for hand in self.hands]
        clone._steps = list(self._steps)
        clone.trick_seats = list(self.trick_seats)
        clone.trick_cards = list(self.trick_cards)
        clone.tricks_won = list(self.tricks_won)
        return clone

    @property
    def is_over(self) -> bool:
        return self.phase is Phase.OVER

    @property
    def hand_events(self) -> list[Event]:
        return self.events[self.hand_start :]

    def decision(self) -> Decision | None:
        """The decision to take now, or None while waiting for a deal or when the game is over."""
        phase = self.phase
        seat = self.to_act
        if seat is None:
            return None
        if phase is _PLAY:
            return Decision(_PLAY_KIND, seat, self.legal_plays())
        if phase is Phase.BID:
            return Decision(DecisionKind.BID, seat, self.legal_bids())
        if phase is Phase.TRUMP:
            return Decision(DecisionKind.TRUMP, seat, self._trump_options())
        if phase is Phase.EXCHANGE:
            step = self._steps[0]
            return Decision(step.kind, seat, tuple(self.hands[seat]), step.count, step.to)
        return None

    def legal_actions(self) -> tuple[Action, ...]:
        """Legal actions for BID/TRUMP/PLAY; for GIVE/DISCARD see ``Decision``."""
        d = self.decision()
        return () if d is None else d.options

    # ------------------------------------------------------------------- deal

    def deal(self, deck: Sequence[Card]) -> list[Event]:
        """Start the next hand from a shuffled deck (top card first)."""
        if self.phase is not Phase.DEAL:
            raise IllegalActionError("deal-out-of-turn", f"cannot deal during the {self.phase} phase")
        deck = list(deck)
        if set(map(type, deck)) != {int} or tuple(sorted(deck)) != self._deck:
            raise InvalidActionError(
                f"the deck handed in is not a {self.rules.deck} deck "
                f"({len(deck)} cards; expected {len(self._deck)} with the right copies)"
            )
        if self.hand_number > 0:
            self.dealer = (self.dealer + 1) % self.n
        self.hand_number += 1
        self._reset_hand()
        dealt = tuple(pick(deck) for pick in self._deal[self.dealer])
        self.hands = [sorted(cards) for cards in dealt]
        self.hand_start = len(self.events)
        ev = DealEvent(self.hand_number, self.dealer, dealt)
        self.events.append(ev)
        self.phase = Phase.BID
        self.to_act = (self.dealer + 1) % self.n
        return [ev]

    # ---------------------------------------------------------------- apply

    def apply(self, action: object) -> list[Event]:
        """Apply the action of the seat to act (an ``Action``; anything else raises InvalidActionError, as a
        malformed one does); return the events it caused."""
        phase = self.phase
        if phase is _PLAY:
            if type(action) is not int:
                if not isinstance(action, int) or isinstance(action, bool):
                    raise InvalidActionError(f"a play must be a card, got {action!r}")
                action = int(action)
            if not 0 <= action < C.NUM_CODES:
                raise InvalidActionError(f"a play must be a card, got code {action!r} (cards are 0..31)")
            return self._play(action)
        if phase is Phase.BID:
            if not isinstance(action, Bid):
                raise InvalidActionError(f"a bid decision needs a Bid, got {action!r}")
            _check_bid_shape(action)
            return self._bid(action)
        if phase is Phase.TRUMP:
            if not isinstance(action, int) or isinstance(action, bool) or not 0 <= action <= 5:
                raise InvalidActionError(f"naming trump needs a Trump, got {action!r}")
            return self._name_trump(Trump(action))
        if phase is Phase.EXCHANGE:
            if not isinstance(action, Sequence) or isinstance(action, (str, bytes)):
                raise InvalidActionError(f"an exchange needs a list of cards, got {action!r}")
            return self._exchange(list(action))
        if phase is Phase.DEAL:
            raise IllegalActionError("deal-first", "the hand has not been dealt yet")
        raise IllegalActionError("game-over", "the game is over")

    # ---------------------------------------------------------------- auction

    def _stuck_now(self) -> bool:
        """The seat to act is the dealer, and a pass would throw the hand in."""
        return self.rules.stick_the_dealer and self.high_bid is None and self._turns + 1 == self._round_turns

    def legal_bids(self) -> tuple[Bid, ...]:
        """The bids the seat to act may make now (empty outside the auction)."""
        if self._legal_bids is None:
            if self.phase is not Phase.BID:
                return ()
            self._legal_bids = self._generate_bids()
        return self._legal_bids

    def _generate_bids(self) -> tuple[Bid, ...]:
        seat = self.to_act
        assert seat is not None
        rules = self.rules
        stuck = self._stuck_now()
        table = self._bid_tables[stuck]
        high = self.high_bid
        first = 0  # index of the lowest bid that outranks the standing one
        stolen: list[int] = []  # indexes of equal bids the dealer may steal with
        if high is not None:
            first = bisect_right(table.ranks, self._high_rank)
            steal = rules.dealer_can_steal
            if seat == self.dealer and steal != "no":
                # Dealer can steal: take the contract at the standing bid's level.
                same_level = bisect_left(table.level_ranks, bid_level_rank(high, rules))
                if steal == "any":
                    first = same_level
                else:  # "special": only with an equal special bid
                    stolen = [i for i in range(same_level, first) if table.bids[i].is_special]
        head = () if stuck else (PASS,)
        # Right bower to open: the 1st and 2nd seats need the jack of a suit they name.
        bower_rule = rules.right_bower_to_open and (seat - self.dealer) % self.n in (1, 2)
        # Big pepper only over a standing little pepper.
        big_pepper_barred = "big-pepper" in self._specials and (high is None or high.kind != "little-pepper")
        if not (stolen or bower_rule or big_pepper_barred):
            self._legal_tail = (table, first)
            return head + table.bids[first:]
        self._legal_tail = None
        hand = self.hands[seat]
        bids = table.bids
        jacks = table.jacks
        return head + tuple(
            bids[i]
            for i in [*stolen, *range(first, len(bids))]
            if not (bower_rule and jacks[i] is not None and jacks[i] not in hand)
            and not (big_pepper_barred and bids[i].kind == "big-pepper")
        )

    def _is_legal_bid(self, bid: Bid) -> bool:
        legal = self.legal_bids()
        tail = self._legal_tail
        if tail is None or bid.kind == "pass":
            return bid in legal
        # The legal bids are (pass and) every bid of the table from position ``first``:
        # a dict lookup instead of comparing the bid with each of them.
        table, first = tail
        return table.index.get(bid, -1) >= first

    def _bid_problem(self, bid: Bid, seat: int) -> tuple[str, str]:
        """Why a bid that is not in the legal list is illegal: (rule, message)."""
        rules = self.rules
        text = bid.text()
        if bid.is_pass:
            return "stick-the-dealer", "the dealer is stuck and may not pass"
        if bid.kind == "level":
            if bid.level > rules.max_level:
                return "bid-too-high", f"bid {text!r} is above the highest trick bid ({rules.max_level})"
            named = trump_named_with_bid("level", rules)
        else:
            if bid.kind not in self._specials:
                return "special-not-allowed", f"special bid {bid.kind!r} is not allowed by these rules"
            if bid.kind == "big-pepper" and (self.high_bid is None or self.high_bid.kind != "little-pepper"):
                return "big-pepper-needs-little", "big-pepper may only follow a little-pepper"
            named = trump_named_with_bid(bid.kind, rules)
        if named and bid.trump is None:
            return "trump-with-bid", f"bid {text!r} must name trump (like '{text} S')"
        if not named and bid.trump is not None:
            return "trump-after-bid", f"bid {text!r} must not name trump: the winner names it after the auction"
        if bid.trump is not None and bid.trump not in rules.trump_choices:
            return "trump-not-allowed", f"trump {bid.trump.text()} is not allowed by these rules"
        stuck = self._stuck_now()
        if stuck and rules.stuck_dealer_exact and (bid.kind != "level" or bid.level != rules.stuck_min):
            return "stuck-bid-exact", f"the dealer is stuck with a bid of exactly {rules.stuck_min}, not {text!r}"
        if bid.kind == "level":
            floor = rules.stuck_min if stuck else rules.min_bid
            if bid.level < floor:
                return "bid-too-low", f"bid {text!r} is below the minimum bid ({floor})"
            if bid.trump is not None and not bid.trump.is_suit:
                nt_floor = min(rules.stuck_min, rules.min_notrump_bid) if stuck else rules.min_notrump_bid
                if bid.level < nt_floor:
                    return "notrump-bid-too-low", f"bid {text!r} is below the minimum no-trump bid ({nt_floor})"
        if (
            rules.right_bower_to_open
            and (seat - self.dealer) % self.n in (1, 2)
            and bid.trump is not None
            and bid.trump.is_suit
            and C.make_card(bid.trump, C.JACK) not in self.hands[seat]
        ):
            return "right-bower-to-open", f"bid {text!r} in 1st or 2nd seat needs the jack of that suit in hand"
        high = self.high_bid
        return "bid-not-higher", f"bid {text!r} does not outrank the standing bid {high.text() if high else ''!r}"

    def _bid(self, bid: Bid) -> list[Event]:
        seat = self.to_act
        assert seat is not None
        if not self._is_legal_bid(bid):
            raise IllegalActionError(*self._bid_problem(bid, seat))
        n = self.n
        rules = self.rules
        stuck = self._stuck_now()
        self._turns += 1
        self._legal_bids = None
        events: list[Event] = [BidEvent(self.hand_number, seat, bid)]
        ended = False
        if bid.is_pass:
            self._passes_since_bid += 1
        else:
            self.high_bid, self.high_seat = bid, seat
            self._high_rank = bid_rank(bid, rules)
            self._declarer_stuck = stuck
            self._passes_since_bid = 0
            steal_possible = rules.dealer_can_steal == "any" or (rules.dealer_can_steal == "special" and bid.is_special)
            # Engine decision: a bid nothing can outrank (or steal) ends the auction at once.
            if self._high_rank >= self._max_rank and (not steal_possible or seat == self.dealer):
                ended = True
        if self.high_bid is not None:
            # Every other player passed after the last bid, or the turns ran out.
            if self._passes_since_bid >= n - 1 or self._turns == self._max_turns:
                ended = True
        elif self._turns == self._round_turns:
            ended = True  # everyone passed: the hand is thrown in
        self.events.extend(events)
        if not ended:
            self.to_act = (seat + 1) % n
            return events
        if self.high_bid is None:
            events.extend(self._end_hand_passed_out())
            return events
        events.extend(self._auction_won())
        return events

    def _auction_won(self) -> list[Event]:
        bid = self.high_bid
        assert bid is not None and self.high_seat is not None
        if bid.trump is None:
            self.phase = Phase.TRUMP
            self.to_act = self.high_seat
            return []
        return self._set_contract(bid.trump)

    def _trump_options(self) -> tuple[Trump, ...]:
        rules = self.rules
        bid = self.high_bid
        assert bid is not None
        # Minimum no-trump bid, for trump named after the auction (a stuck dealer is exempt).
        if bid.kind == "level" and bid.level < rules.min_notrump_bid and not self._declarer_stuck:
            return C.SUIT_TRUMPS
        return rules.trump_choices

    def _name_trump(self, trump: Trump) -> list[Event]:
        if trump not in self._trump_options():
            if trump not in self.rules.trump_choices:
                raise IllegalActionError("trump-not-allowed", f"trump {trump.text()} is not allowed by these rules")
            raise IllegalActionError(
                "notrump-bid-too-low",
                f"a bid of {self.high_bid} is below the minimum no-trump bid ({self.rules.min_notrump_bid})",
            )
        return self._set_contract(trump)

    def _set_contract(self, trump: Trump) -> list[Event]:
        rules = self.rules
        bid, declarer = self.high_bid, self.high_seat
        assert bid is not None and declarer is not None
        partners = rules.partners(declarer)
        alone = bid.is_lone
        # Playing alone: the partners sit out, and tricks have fewer cards.
        active = tuple(s for s in range(self.n) if not (alone and s in partners))
        self.contract = Contract(declarer, bid, trump, alone, active)
        self.trump = trump
        self.active = active
        self._next_seat = [self._next_active(s) for s in range(self.n)]
        self._active_count = len(active)
        self._effective_suit = C.EFFECTIVE_SUIT[trump]
        ev = ContractEvent(self.hand_number, declarer, bid, trump, alone, active)
        self.events.append(ev)
        self._steps = self._exchange_steps(bid, declarer, partners)
        if self._steps:
            self.phase = Phase.EXCHANGE
            self.to_act = self._steps[0].seat
            return [ev]
        return [ev, *self._start_play()]

    def _exchange_steps(self, bid: Bid, declarer: int, partners: tuple[int, ...]) -> list[_Step]:
        rules = self.rules
        give, discard = DecisionKind.GIVE, DecisionKind.DISCARD
        if bid.kind in CALL_CARDS:
            # Call k: partner gives k cards, the declarer discards k (or the other way round).
            k = CALL_CARDS[bid.kind]
            partner = partners[0]
            steps = [_Step(give, partner, k, declarer), _Step(discard, declarer, k, None)]
            return steps if rules.call_exchange_order == "give-first" else steps[::-1]
        if bid.kind == "best":
            # Best: each partner gives one card, then the declarer discards as many.
            return [_Step(give, p, 1, declarer) for p in partners] + [_Step(discard, declarer, len(partners), None)]
        if bid.kind == "alone" and rules.alone_exchange_cards > 0:
            # Going alone: the declarer gives k cards to partner, who gives k back.
            k = rules.alone_exchange_cards
            return [_Step(give, declarer, k, partners[0]), _Step(give, partners[0], k, declarer)]
        return []

    # -------------------------------------------------------------- exchanges

    def _exchange(self, chosen: list[object]) -> list[Event]:
        step = self._steps[0]
        seat = step.seat
        cards: list[Card] = []
        for c in chosen:
            if not isinstance(c, int) or isinstance(c, bool) or not 0 <= c < C.NUM_CODES:
                raise InvalidActionError(f"{step.kind} needs cards, got {c!r}")
            cards.append(int(c))
        if len(cards) != step.count:
            raise IllegalActionError(
                f"{step.kind}-count", f"must {step.kind} exactly {step.count} card(s), got {len(cards)}"
            )
        hand = list(self.hands[seat])  # a copy: a bad choice leaves the hand as it was
        for c in cards:
            if c not in hand:
                raise IllegalActionError("card-not-in-hand", f"{card_str(c)} is not in the hand")
            hand.remove(c)
        self.hands[seat] = hand
        if step.to is not None:
            receiver = self.hands[step.to]
            receiver.extend(cards)
            receiver.sort()
        ev = ExchangeEvent(self.hand_number, seat, step.to, tuple(cards), len(cards))
        self.events.append(ev)
        self._steps.pop(0)
        if self._steps:
            self.to_act = self._steps[0].seat
            return [ev]
        return [ev, *self._start_play()]

    # ----------------------------------------------------------------- tricks

    def _start_play(self) -> list[Event]:
        assert self.contract is not None
        self.phase = Phase.PLAY
        self.trick_number = 1
        if self.rules.initial_leader == "declarer":
            self.to_act = self.contract.declarer
        else:
            self.to_act = self._next_active(self.dealer)
        return []

    def _next_active(self, seat: int) -> int:
        n, active = self.n, self.active
        s = (seat + 1) % n
        while s not in active:
            s = (s + 1) % n
        return s

    def legal_plays(self) -> tuple[Card, ...]:
        """Distinct cards the seat to act may play, ascending (empty outside the play)."""
        legal = self._legal_plays
        if legal is None:
            if self.phase is not _PLAY:
                return ()
            seat = self.to_act
            assert seat is not None  # someone is to play in the play phase
            led = self._led_suit if self.trick_cards else None
            legal = self._legal_plays = C.playable(self.hands[seat], self.trump, led)
        return legal

    def _play(self, card: Card) -> list[Event]:
        seat = self.to_act
        assert seat is not None
        legal = self._legal_plays or self.legal_plays()
        if card not in legal:
            if card not in self.hands[seat]:
                raise IllegalActionError("card-not-in-hand", f"{card_str(card)} is not in the hand of seat {seat}")
            led = card_str(self.trick_cards[0])
            raise IllegalActionError(
                "follow-suit", f"{card_str(card)} does not follow the suit led ({led}) and the hand can follow"
            )
        self._legal_plays = None
        self.hands[seat].remove(card)
        trick_cards = self.trick_cards
        # Highest trump wins, else the highest card of the suit led; of identical
        # cards the first played wins (a later card must be strictly higher).
        if trick_cards:
            key = self._trick_keys[card]
            if key > self._best_key:
                self._best_key, self._best_seat = key, seat
        else:
            self._led_suit = led_suit = self._effective_suit[card]
            self._trick_keys = keys = C.TRICK_KEY[self.trump][led_suit]
            self._best_key, self._best_seat = keys[card], seat
        self.trick_seats.append(seat)
        trick_cards.append(card)
        play = PlayEvent(self.hand_number, self.trick_number, seat, card)
        if len(trick_cards) < self._active_count:
            self.to_act = self._next_seat[seat]
            self.events.append(play)
            return [play]
        winner = self._best_seat
        trick = TrickEvent(self.hand_number, self.trick_number, winner)
        self.tricks_won[winner % self._teams] += 1
        self.trick_seats = []
        self.trick_cards = []
        events: list[Event] = [play, trick]
        self.events.extend(events)
        if self.trick_number == self._cards_each:
            events.extend(self._end_hand_played())
            return events
        self.trick_number += 1
        self.to_act = winner
        return events

    # ----------------------------------------------------------------- claims

    def claim_search(self, team: int, limit: int | None = None) -> ClaimCheck:
        """The search that decides whether ``team`` can take every remaining trick of the hand in play, in at most
        ``limit`` nodes or turns (see ``referee.engine.claim``): the compiled solver's where it is built, else the
        engine's own ``ClaimSearch``. The game is left as it is."""
        self._check_claim(team)
        if solver_available():
            return SolvedClaim(Position.of_game(self), team, SOLVER_NODE_LIMIT if limit is None else limit)
        return self.python_claim_search(team, SEARCH_LIMIT if limit is None else limit)

    def python_claim_search(self, team: int, limit: int = SEARCH_LIMIT) -> ClaimSearch:
        """The engine's own claim search (pure Python), which decides claims where the compiled solver is not
        built; ``claim_search`` without the solver."""
        self._check_claim(team)
        assert self.to_act is not None  # checked: a seat is to play
        return ClaimSearch(
            trump=self.trump,
            teams=self._teams,
            team=team,
            active=self.active,
            next_seat=self._next_seat,
            hands=self.hands,
            to_act=self.to_act,
            trick_seats=self.trick_seats,
            trick_cards=self.trick_cards,
            limit=limit,
        )

    def _check_claim(self, team: int) -> None:
        if not 0 <= team < self._teams:
            raise ValueError(f"team {team} is not a team of this game (0..{self._teams - 1})")
        if self.phase is not _PLAY or self.to_act is None:
            raise IllegalActionError("claim-not-in-play", f"a claim is made in the play, not during the {self.phase}")

    def claim(self, seat: int) -> list[Event]:
        """``seat``, on turn to play a card, claims every remaining trick for its team; return the events.

        The claim is accepted only if the team can take every trick left (the
        one in progress included) against every legal play of the other seats
        (``claim_search``: the compiled solver, where it is built). Accepted: the team is credited with those tricks
        and the hand ends, scored as if they had been played: the events are
        the ``ClaimEvent``, the ``HandEndEvent`` and, when the game ends, the
        ``GameEndEvent``. Refused: nothing changes, the game's own events
        included, and the seat still has its card to play; the one event
        returned (``accepted`` false) is for the caller to record.

        A claim out of turn or outside the play raises ``IllegalActionError``
        (the state is left unchanged); a seat that is not one, ``InvalidActionError``.
        """
        if type(seat) is not int or not 0 <= seat < self.n:
            raise InvalidActionError(f"a claim needs a seat 0..{self.n - 1}, got {seat!r}")
        if self.phase is not _PLAY:
            raise IllegalActionError("claim-not-in-play", f"a claim is made in the play, not during the {self.phase}")
        if seat != self.to_act:
            raise IllegalActionError(
                "claim-out-of-turn", f"seat {seat} may claim only on its turn to play; seat {self.to_act} is to play"
            )
        team = self.rules.team_of(seat)
        tricks = self._cards_each - self.trick_number + 1  # the trick in progress and every one after it
        accepted = self.claim_search(team).holds()
        claim = ClaimEvent(self.hand_number, self.trick_number, seat, team, tricks, accepted)
        if not accepted:
            return [claim]
        self.events.append(claim)
        self.tricks_won[team] += tricks
        self.trick_seats = []
        self.trick_cards = []
        self._legal_plays = None
        return [claim, *self._end_hand_played()]

    def answer(self, answer: object) -> list[Event]:
        """Apply the answer of the seat to act: ``CLAIM`` goes to ``claim`` (refused, nothing changes and the
        seat still has its card to play), anything else to ``apply``; the events, as theirs."""
        if isinstance(answer, ClaimAnswer):
            seat = self.to_act
            return self.claim(0 if seat is None else seat)  # no seat to act: not the play, which claim() says
        return self.apply(answer)

    # ---------------------------------------------------------------- scoring

    def _end_hand_played(self) -> list[Event]:
        rules = self.rules
        contract = self.contract
        assert contract is not None
        team = rules.team_of(contract.declarer)
        taken = self.tricks_won
        made, points = hand_points(rules, contract.bid, contract.declarer, taken)
        for t, p in enumerate(points):
            self.scores[t] += p
        self._last_declaring_team = team
        self._last_made = made
        if made:
            self._last_made_team = team
        ev = HandEndEvent(
            self.hand_number, tuple(taken), tuple(points), tuple(self.scores), False, contract.declarer, made
        )
        return self._after_hand(ev)

    def _end_hand_passed_out(self) -> list[Event]:
        teams = self._teams
        ev = HandEndEvent(self.hand_number, (0,) * teams, (0,) * teams, tuple(self.scores), True, None, None)
        return self._after_hand(ev)

    def _after_hand(self, ev: HandEndEvent) -> list[Event]:
        self.events.append(ev)
        self.to_act = None
        end = self._game_end(passed_out=ev.passed_out)
        if end is None:
            self.phase = Phase.DEAL
            return [ev]
        winner, reason = end
        return [ev, self._finish(winner, reason)]

    def _finish(self, winner: int | None, reason: str, detail: str = "") -> GameEndEvent:
        self.phase = Phase.OVER
        self.to_act = None
        self.winner = winner
        self.end_reason = reason
        end = GameEndEvent(tuple(self.scores), winner, reason, detail)
        self.events.append(end)
        return end

    def forfeit(self, team: int, detail: str) -> GameEndEvent:
        """End the game now: ``team`` loses (the referee's fault policy)."""
        if not 0 <= team < self._teams:
            raise ValueError(f"team {team} is not a team of this game (0..{self._teams - 1})")
        if self.is_over:
            raise IllegalActionError("game-over", "the game is over")
        others = [t for t in range(self._teams) if t != team]
        return self._finish(self._top(others, tie=None), "forfeit", detail)

    # --------------------------------------------------------------- game end

    def _tie_winners(self, tie: str | None) -> set[int]:
        """The teams a tie rule credits, from the last contract played (see docs/rules.md)."""
        declaring = self._last_declaring_team
        if declaring is None:
            return set()
        if tie in ("last-contract", "must-bid-or-set"):
            # The team that made the last contract, or the team(s) that set it.
            return {declaring} if self._last_made else set(range(self._teams)) - {declaring}
        if tie == "must-bid":
            return {declaring} if self._last_made else set()
        if tie == "last-made":
            return set() if self._last_made_team is None else {self._last_made_team}
        if tie in ("declarers", "bidders"):
            return {declaring}
        return set()  # draw

    def _top(self, teams: list[int], tie: str | None) -> int | None:
        """The highest-scoring of ``teams``; a tie at the top is broken by rule ``tie``, else no winner."""
        if not teams:
            return None
        best = max(self.scores[t] for t in teams)
        tied = [t for t in teams if self.scores[t] == best]
        if len(tied) == 1:
            return tied[0]
        credited = self._tie_winners(tie)
        winners = [t for t in tied if t in credited]
        return winners[0] if len(winners) == 1 else None

    def _game_end(self, passed_out: bool) -> tuple[int | None, str] | None:
        """(winner, reason) when the hand just scored ends the game, else None."""
        rules = self.rules
        scores = self.scores
        teams = list(range(self._teams))
        # Mercy: every team below the line loses; else a team at or below the loss line loses.
        if rules.mercy_all_below is not None and all(s < rules.mercy_all_below for s in scores):
            return None, "mercy"
        if rules.mercy_loss is not None and any(s <= rules.mercy_loss for s in scores):
            return self._top([t for t in teams if scores[t] > rules.mercy_loss], tie=None), "mercy"
        if rules.game_over == "hands":
            # Thrown-in hands count as hands dealt.
            if self.hand_number >= rules.game_hands:
                return self._top(teams, rules.tie_rule), "hands"
        elif not passed_out:
            reached = [t for t in teams if scores[t] >= rules.game_points]
            if reached:
                declaring = self._last_declaring_team
                tie = rules.tie_rule
                if tie == "bidders":
                    # The declaring team wins if it reached the target, whatever the others scored.
                    if declaring in reached:
                        return declaring, "target"
                    return self._top(reached, None), "target"
                if tie == "must-bid":
                    # Only a team that made the last contract can win; others reaching the target play on.
                    if self._last_made and declaring in reached:
                        return declaring, "target"
                elif tie == "must-bid-or-set":
                    # A team wins by making the last contract or by setting it.
                    if self._last_made and declaring in reached:
                        return declaring, "target"
                    setters = [t for t in reached if t != declaring]
                    if not self._last_made and setters:
                        return self._top(setters, None), "target"
                else:
                    return self._top(teams, tie), "target"
        # Safety stop.
        if self.hand_number >= rules.hand_limit:
            return self._top(teams, None), "hand-limit"
        return None


def _check_bid_shape(bid: Bid) -> None:
    """A Bid built by hand must still be a bid: a known kind, a sensible level, a Trump or None."""
    if bid.kind == "pass":
        ok = bid.level == 0 and bid.trump is None
    elif bid.kind == "level":
        ok = type(bid.level) is int and bid.level >= 1
    else:
        ok = bid.kind in SPECIALS and bid.level == 0
    if not ok or not (bid.trump is None or isinstance(bid.trump, Trump)):
        raise InvalidActionError(f"malformed bid {bid!r}")
