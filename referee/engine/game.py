"""The game state machine: deal, auction, trump, exchanges, tricks, scoring, game end.

``Game`` is a pure function of (rules, first dealer, decks handed in, actions):
it owns no randomness, no clock and does no I/O. At every point it says whose
decision it is and what the legal actions are (``decision()``); ``apply``
takes one action and returns the events it caused; a bad action raises
``IllegalActionError`` naming the rule, and leaves the state unchanged.

Actions by decision kind: BID -> ``Bid``; TRUMP -> ``Trump``; GIVE and DISCARD
-> a sequence of exactly ``count`` cards from the hand; PLAY -> a card.
"""

from __future__ import annotations

from bisect import bisect_left, bisect_right
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass
from enum import StrEnum

from referee.engine import cards as C
from referee.engine.bids import (
    CALL_CARDS,
    PASS,
    SPECIALS,
    Bid,
    bid_level_rank,
    bid_rank,
    enabled_specials,
    tricks_needed,
    trump_named_with_bid,
)
from referee.engine.cards import Card, Trump, card_str, deck_cards
from referee.engine.errors import IllegalActionError, InvalidActionError
from referee.engine.events import (
    BidEvent,
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


class Phase(StrEnum):
    DEAL = "deal"  # waiting for a shuffled deck
    BID = "bid"
    TRUMP = "trump"
    EXCHANGE = "exchange"
    PLAY = "play"
    OVER = "over"


class DecisionKind(StrEnum):
    BID = "bid"
    TRUMP = "trump"
    GIVE = "give"
    DISCARD = "discard"
    PLAY = "play"


@dataclass(frozen=True, slots=True)
class Decision:
    """A decision one seat must take now.

    ``options`` holds the legal actions for BID, TRUMP and PLAY. For GIVE and
    DISCARD it holds the seat's hand (duplicates included); any ``count`` of
    those cards is a legal action.
    """

    kind: DecisionKind
    seat: int
    options: tuple
    count: int = 1
    to: int | None = None  # GIVE: the receiving seat


@dataclass(frozen=True, slots=True)
class Contract:
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
        self._deck = sorted(deck_cards(rules.deck))
        self._specials = enabled_specials(rules)
        self._bid_tables = (self._bid_table(False), self._bid_table(True))
        self._max_rank = self._bid_tables[False][0][-1]
        self._reset_hand()

    # ------------------------------------------------------------------ state

    def _reset_hand(self) -> None:
        self.hands: list[list[Card]] = [[] for _ in range(self.n)]
        self.to_act: int | None = None
        self.contract: Contract | None = None
        # auction
        self._turns = 0
        self._passes_since_bid = 0
        self.high_bid: Bid | None = None
        self.high_seat: int | None = None
        self._declarer_stuck = False
        self._legal_bids: tuple[Bid, ...] | None = None
        # exchanges
        self._steps: list[_Step] = []
        # tricks
        self.trump: int = Trump.HIGH
        self.active: tuple[int, ...] = tuple(range(self.n))
        self.trick_number = 0
        self.trick_seats: list[int] = []
        self.trick_cards: list[Card] = []
        self.tricks_won: list[int] = [0] * self.rules.teams
        self._legal_plays: tuple[Card, ...] | None = None

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
        if phase is Phase.PLAY:
            return Decision(DecisionKind.PLAY, seat, self.legal_plays())
        if phase is Phase.BID:
            return Decision(DecisionKind.BID, seat, self.legal_bids())
        if phase is Phase.TRUMP:
            return Decision(DecisionKind.TRUMP, seat, self._trump_options())
        if phase is Phase.EXCHANGE:
            step = self._steps[0]
            return Decision(step.kind, seat, tuple(sorted(self.hands[seat])), step.count, step.to)
        return None

    def legal_actions(self) -> tuple:
        """Legal actions for BID/TRUMP/PLAY; for GIVE/DISCARD see ``Decision``."""
        d = self.decision()
        return () if d is None else d.options

    # ------------------------------------------------------------------- deal

    def deal(self, deck: Sequence[Card]) -> list[Event]:
        """Start the next hand from a shuffled deck (top card first)."""
        if self.phase is not Phase.DEAL:
            raise IllegalActionError("deal-out-of-turn", f"cannot deal during the {self.phase} phase")
        deck = list(deck)
        if set(map(type, deck)) != {int} or sorted(deck) != self._deck:
            raise InvalidActionError(
                f"the deck handed in is not a {self.rules.deck} deck "
                f"({len(deck)} cards; expected {len(self._deck)} with the right copies)"
            )
        if self.hand_number > 0:
            self.dealer = (self.dealer + 1) % self.n
        self.hand_number += 1
        self._reset_hand()
        n, pos = self.n, 0
        for packet in self.rules.deal_packets:
            for k in range(1, n + 1):
                self.hands[(self.dealer + k) % n].extend(deck[pos : pos + packet])
                pos += packet
        self.hand_start = len(self.events)
        ev = DealEvent(self.hand_number, self.dealer, tuple(tuple(h) for h in self.hands))
        self.events.append(ev)
        self.phase = Phase.BID
        self.to_act = (self.dealer + 1) % n
        return [ev]

    # ---------------------------------------------------------------- apply

    def apply(self, action: object) -> list[Event]:
        """Apply the action of the seat to act; return the events it caused."""
        phase = self.phase
        if phase is Phase.PLAY:
            if not isinstance(action, int) or isinstance(action, bool):
                raise InvalidActionError(f"a play must be a card, got {action!r}")
            if not 0 <= action < C.NUM_CODES:
                raise InvalidActionError(f"a play must be a card, got code {action!r} (cards are 0..31)")
            return self._play(int(action))
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
            if isinstance(action, (str, bytes)) or not isinstance(action, Sequence):
                raise InvalidActionError(f"an exchange needs a list of cards, got {action!r}")
            return self._exchange(list(action))
        if phase is Phase.DEAL:
            raise IllegalActionError("deal-first", "the hand has not been dealt yet")
        raise IllegalActionError("game-over", "the game is over")

    # ---------------------------------------------------------------- auction

    def _stuck_now(self) -> bool:
        """The seat to act is the dealer, and a pass would throw the hand in."""
        rules = self.rules
        last_turn = 2 * self.n if rules.bidding_rounds == "two" else self.n
        return rules.stick_the_dealer and self.high_bid is None and self._turns + 1 == last_turn

    def legal_bids(self) -> tuple[Bid, ...]:
        """The bids the seat to act may make now (empty outside the auction)."""
        if self._legal_bids is None:
            if self.phase is not Phase.BID:
                return ()
            self._legal_bids = tuple(self._generate_bids())
        return self._legal_bids

    def _bid_table(self, stuck: bool) -> tuple[list[int], list[int], list[tuple[Bid, Card | None]]]:
        """Every bid an opener could make, in rank order: (ranks, level ranks, (bid, jack it needs))."""
        rules = self.rules
        floor = rules.stuck_min if stuck else rules.min_bid
        nt_floor = min(rules.stuck_min, rules.min_notrump_bid) if stuck else rules.min_notrump_bid
        trumps = rules.trump_choices
        bids: list[Bid] = []
        for level in range(floor, rules.max_level + 1):
            if trump_named_with_bid("level", rules):
                bids += [Bid("level", level, t) for t in trumps if t.is_suit or level >= nt_floor]
            else:
                bids.append(Bid("level", level))
        for special in self._specials:
            if trump_named_with_bid(special, rules):
                bids += [Bid(special, 0, t) for t in trumps]
            else:
                bids.append(Bid(special))
        bids.sort(key=lambda b: bid_rank(b, rules))
        entries = [(b, C.make_card(b.trump, C.JACK) if b.trump is not None and b.trump.is_suit else None) for b in bids]
        return [bid_rank(b, rules) for b in bids], [bid_level_rank(b, rules) for b in bids], entries

    def _generate_bids(self) -> list[Bid]:
        seat = self.to_act
        assert seat is not None
        stuck = self._stuck_now()
        ranks, level_ranks, entries = self._bid_tables[stuck]
        high = self.high_bid
        first = extra = 0
        if high is not None:
            rules = self.rules
            # ``extra`` < ``first`` only when the dealer may steal with an equal special bid.
            first = extra = bisect_right(ranks, bid_rank(high, rules))
            steal = rules.dealer_can_steal
            if seat == self.dealer and steal != "no":
                extra = bisect_left(level_ranks, bid_level_rank(high, rules))
                if steal == "any":
                    first, extra = extra, first
        candidates = entries[first:]
        if extra < first:  # the dealer may steal with an equal special bid
            candidates = [e for e in entries[extra:first] if e[0].is_special] + candidates
        bids = [] if stuck else [PASS]
        hand = self.hands[seat]
        bower_rule = self.rules.right_bower_to_open and (seat - self.dealer) % self.n in (1, 2)
        after_little = high is not None and high.kind == "little-pepper"
        for bid, jack in candidates:
            if bower_rule and jack is not None and jack not in hand:
                continue
            if bid.kind == "big-pepper" and not after_little:
                continue
            bids.append(bid)
        return bids

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
        if bid not in self.legal_bids():
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
            self._declarer_stuck = stuck
            self._passes_since_bid = 0
            steal_possible = rules.dealer_can_steal == "any" or (
                rules.dealer_can_steal == "special" and bid.is_special
            )
            if bid_rank(bid, rules) >= self._max_rank and (not steal_possible or seat == self.dealer):
                ended = True  # nothing can outrank it
        max_turns = {"single": n, "two": 2 * n, "multiple": None}[rules.bidding_rounds]
        if self.high_bid is not None and self._passes_since_bid >= n - 1:
            ended = True
        elif self.high_bid is None and self._turns == (2 * n if rules.bidding_rounds == "two" else n):
            ended = True
        elif max_turns is not None and self._turns >= max_turns:
            ended = True
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
        active = tuple(s for s in range(self.n) if not (alone and s in partners))
        self.contract = Contract(declarer, bid, trump, alone, active)
        self.trump = trump
        self.active = active
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
            k = CALL_CARDS[bid.kind]
            partner = partners[0]
            steps = [_Step(give, partner, k, declarer), _Step(discard, declarer, k, None)]
            return steps if rules.call_exchange_order == "give-first" else steps[::-1]
        if bid.kind == "best":
            return [_Step(give, p, 1, declarer) for p in partners] + [_Step(discard, declarer, len(partners), None)]
        if bid.kind == "alone" and rules.alone_exchange_cards > 0:
            k = rules.alone_exchange_cards
            return [_Step(give, declarer, k, partners[0]), _Step(give, partners[0], k, declarer)]
        return []

    # -------------------------------------------------------------- exchanges

    def _exchange(self, chosen: list[object]) -> list[Event]:
        step = self._steps[0]
        seat = step.seat
        for c in chosen:
            if not isinstance(c, int) or isinstance(c, bool) or not 0 <= c < C.NUM_CODES:
                raise InvalidActionError(f"{step.kind} needs cards, got {c!r}")
        cards: list[Card] = [int(c) for c in chosen]  # type: ignore[call-overload]
        if len(cards) != step.count:
            raise IllegalActionError(
                f"{step.kind}-count", f"must {step.kind} exactly {step.count} card(s), got {len(cards)}"
            )
        hand = self.hands[seat]
        missing = Counter(cards) - Counter(hand)
        if missing:
            raise IllegalActionError("card-not-in-hand", f"{card_str(next(iter(missing)))} is not in the hand")
        for c in cards:
            hand.remove(c)
        if step.to is not None:
            self.hands[step.to].extend(cards)
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
        """Distinct cards the seat to act may play: follow the suit led when able (empty outside the play)."""
        legal = self._legal_plays
        if legal is None:
            if self.phase is not Phase.PLAY:
                return ()
            hand = self.hands[self.to_act]  # type: ignore[index]
            if self.trick_cards:
                eff = C.EFFECTIVE_SUIT[self.trump]
                led = eff[self.trick_cards[0]]
                follow = [c for c in hand if eff[c] == led]
                legal = tuple(sorted(set(follow or hand)))
            else:
                legal = tuple(sorted(set(hand)))
            self._legal_plays = legal
        return legal

    def _play(self, card: Card) -> list[Event]:
        seat = self.to_act
        assert seat is not None
        if card not in self.legal_plays():
            if card not in self.hands[seat]:
                raise IllegalActionError("card-not-in-hand", f"{card_str(card)} is not in the hand of seat {seat}")
            led = card_str(self.trick_cards[0])
            raise IllegalActionError(
                "follow-suit", f"{card_str(card)} does not follow the suit led ({led}) and the hand can follow"
            )
        self._legal_plays = None
        self.hands[seat].remove(card)
        self.trick_seats.append(seat)
        self.trick_cards.append(card)
        events: list[Event] = [PlayEvent(self.hand_number, self.trick_number, seat, card)]
        if len(self.trick_cards) < len(self.active):
            self.to_act = self._next_active(seat)
            self.events.append(events[0])
            return events
        winner = self.trick_seats[C.winning_index(self.trick_cards, self.trump)]
        events.append(TrickEvent(self.hand_number, self.trick_number, winner))
        self.tricks_won[winner % self.rules.teams] += 1
        self.trick_seats = []
        self.trick_cards = []
        self.events.extend(events)
        if self.trick_number == self.rules.cards_each:
            events.extend(self._end_hand_played())
            return events
        self.trick_number += 1
        self.to_act = winner
        return events

    # ---------------------------------------------------------------- scoring

    def _end_hand_played(self) -> list[Event]:
        rules = self.rules
        contract = self.contract
        assert contract is not None
        bid = contract.bid
        team = rules.team_of(contract.declarer)
        taken = self.tricks_won
        made = taken[team] >= tricks_needed(bid, rules)
        points = [t if rules.defenders_score else 0 for t in taken]
        if bid.kind == "level":
            if made:
                points[team] = (taken[team] if rules.overtricks else bid.level) + rules.made_bonus
            else:
                points[team] = -(bid.level if rules.set_penalty is None else rules.set_penalty)
        else:
            value = rules.special_value(bid.kind)
            points[team] = value if made else -value
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
        teams = self.rules.teams
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
        if not 0 <= team < self.rules.teams:
            raise ValueError(f"team {team} is not a team of this game (0..{self.rules.teams - 1})")
        if self.is_over:
            raise IllegalActionError("game-over", "the game is over")
        others = [t for t in range(self.rules.teams) if t != team]
        return self._finish(self._top(others, tie=None), "forfeit", detail)

    # --------------------------------------------------------------- game end

    def _tie_winners(self, tie: str | None) -> set[int]:
        """The teams a tie rule credits, from the last contract played (see docs/rules.md)."""
        declaring = self._last_declaring_team
        if declaring is None:
            return set()
        if tie in ("last-contract", "must-bid-or-set"):
            # The team that made the last contract, or the team(s) that set it.
            return {declaring} if self._last_made else set(range(self.rules.teams)) - {declaring}
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
        teams = list(range(rules.teams))
        if rules.mercy_all_below is not None and all(s < rules.mercy_all_below for s in scores):
            return None, "mercy"
        if rules.mercy_loss is not None and any(s <= rules.mercy_loss for s in scores):
            return self._top([t for t in teams if scores[t] > rules.mercy_loss], tie=None), "mercy"
        if rules.game_over == "hands":
            if self.hand_number >= rules.game_hands:
                return self._top(teams, rules.tie_rule), "hands"
        elif not passed_out:
            reached = [t for t in teams if scores[t] >= rules.game_points]
            if reached:
                declaring = self._last_declaring_team
                tie = rules.tie_rule
                if tie == "bidders":
                    if declaring in reached:
                        return declaring, "target"
                    return self._top(reached, None), "target"
                if tie == "must-bid":
                    if self._last_made and declaring in reached:
                        return declaring, "target"
                elif tie == "must-bid-or-set":
                    if self._last_made and declaring in reached:
                        return declaring, "target"
                    setters = [t for t in reached if t != declaring]
                    if not self._last_made and setters:
                        return self._top(setters, None), "target"
                else:
                    return self._top(teams, tie), "target"
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
