"""Checking a claim: can one team take every remaining trick of the hand, whatever the others play?

A claim holds when the claiming team has a way to win every trick left (the
one in progress included) against every legal play of the other seats. The
engine sees every hand, so this is exact: an AND-OR search over the rest of
the hand, where at each turn of the claiming team one card must work (OR)
and at each turn of another seat every card must fail (AND). The search
stops at the first trick the other side takes.

The rules of the trick are the engine's own: which cards a seat may play is
``cards.playable`` (what ``Game.legal_plays`` gives), who takes a trick is
``cards.winning_index``, and the order of cards comes from the trump tables
of ``cards``. Nothing here decides a rule of its own.

What keeps it fast, each safe for the reason given:

- Memo: at the start of a trick the outcome depends only on who leads and
  on who holds which of the cards left, and of those only their order
  within each effective suit (which cards are equal, which higher): a card
  gone changes nothing but that order. Each such layout is solved once.
- Equal cards: two cards of one effective suit in one hand, with no card
  held by anybody else or on the table between them (nor a copy of either),
  win and lose against exactly the same cards, now and later; only one of
  them is tried.
- Cards that leave the trick to the same seat: of the cards of one suit a
  seat may play that cannot become the best card of the trick, and (for the
  team) of those that would become the best with no seat after able to beat
  them, only the lowest is tried. The trick goes the same way with any of
  them, and holding the higher card afterwards is never worse for the side
  that holds it: whatever the lower card could do, the higher can. For the
  team this holds only when no partner has a card between the two: then a
  higher card kept could overtake the partner and take the lead from it (a
  blocked suit), so both are tried.
- Settled at a trick's start: the claim holds when every card the team holds
  is a sure winner (nothing the others hold can beat it, and they hold no
  trump to ruff it). It fails when an opponent's trumps cannot all be beaten
  (each falls in a trick of its own that needs a higher trump of the team),
  or when the team is a lone seat holding a suit in which an opponent has a
  higher card than all of its own (the lone seat leads every trick, so it
  leads that suit in the end, and the opponent kept that card for it).
- In a trick: the search stops at once when the others hold the trick and
  no seat of the team still to play can beat their card.

``ClaimSearch`` works on copies of the cards; the game it came from is never
touched. It takes at most ``SEARCH_LIMIT`` turns: a claim not proved by then
is refused (never accepted unproved).

Where the compiled double-dummy solver is built (``referee.solver``, as in
the arena's own install), claims are decided by it instead (``SolvedClaim``,
through ``referee.engine.doubledummy``): the same question, answered from the
same tables, in a fraction of the time, with ``SOLVER_NODE_LIMIT`` nodes as
its guard. ``ClaimSearch`` stays for installs without it (the slim SDK where
no compiler worked). ``tests/engine/test_claim.py`` checks whichever decides
against a plain search through ``Game`` itself, and plays out every line of
the other side against ``claim_card``; ``tests/engine/test_doubledummy.py``
checks the solver against that search on every preset; ``bench/claim.py``
measures it.
"""

from __future__ import annotations

from bisect import insort
from collections.abc import Sequence
from typing import Protocol

from referee.engine import doubledummy
from referee.engine.cards import CARD_POWER, EFFECTIVE_SUIT, NUM_CODES, TRICK_KEY, Card, playable, winning_index
from referee.engine.rules import Rules
from referee.solver import SearchLimitError


def _suit_orders() -> list[list[list[Card]]]:
    """Per trump and effective suit: every card code of that suit, weakest first."""
    return [
        [
            sorted((c for c in range(NUM_CODES) if EFFECTIVE_SUIT[trump][c] == suit), key=CARD_POWER[trump].__getitem__)
            for suit in range(4)
        ]
        for trump in range(6)
    ]


_SUIT_ORDER = _suit_orders()
# The turns one search may take (one to two seconds on the machine of bench/claim.py). A claim it has not proved by
# then is refused: the engine never accepts a claim it has not proved. Claims that hold are proved in far fewer
# turns (bench/claim.py); only refusals with most of a long hand left come near it.
SEARCH_LIMIT = 250_000
_NEVER = 1 << 30  # above every trick key
# Per trump: every card code by effective suit, weakest first, each suit followed by the end mark (NUM_CODES).
_LAYOUT_ORDER = [[c for suit in suits for c in (*suit, NUM_CODES)] for suits in _SUIT_ORDER]


# The nodes one claim may take in the compiled solver (about two seconds at the ten million nodes a second of
# bench/solver.py's machine, the time the Python search's limit allows): a guard, far above what any claim of
# bench/claim.py needs (its slowest, triple-deck refusals at the first lead with a trick in progress, take a few
# million).
SOLVER_NODE_LIMIT = 20_000_000


class ClaimCheck(Protocol):
    """What decides a claim: ``ClaimSearch`` (pure Python) or ``SolvedClaim`` (the compiled solver), each answering
    one question, and saying how far it searched (``nodes``) and whether it had to give up (``decided``)."""

    nodes: int
    decided: bool

    def holds(self) -> bool: ...

    def winning_card(self) -> Card | None: ...


class SolvedClaim:
    """A claim decided by the compiled double-dummy solver: whether ``team`` takes every trick left of
    ``position``, and with which card; the answers of ``ClaimSearch``, from the same tables. A search that
    reaches ``limit`` nodes answers no and says so in ``decided``, as ``ClaimSearch`` does."""

    def __init__(self, position: doubledummy.Position, team: int, limit: int = SOLVER_NODE_LIMIT) -> None:
        self.position = position
        self.team = team
        self.limit = limit
        self.nodes = 0
        self.decided = True

    def holds(self) -> bool:
        """The team takes every remaining trick against every play of the others (false if not proved)."""
        try:
            return doubledummy.claim_holds(self.position, self.team, node_limit=self.limit)
        except SearchLimitError:
            self.decided = False
            return False
        finally:
            self.nodes = doubledummy.solver_for(self.position.trump, self.position.copies).nodes

    def winning_card(self) -> Card | None:
        """A card for the seat to act (one of the team) that keeps every remaining trick, or None."""
        if self.position.team_to_act != self.team:
            raise ValueError(f"seat {self.position.to_act} does not play for team {self.team}")
        try:
            return doubledummy.claim_card(self.position, node_limit=self.limit)
        except SearchLimitError:
            self.decided = False
            return None
        finally:
            self.nodes = doubledummy.solver_for(self.position.trump, self.position.copies).nodes


class _OutOfTurns(Exception):
    """The search has taken its ``limit`` of turns."""


class ClaimSearch:
    """Whether ``team`` can take every remaining trick of a hand in play, and with which card.

    ``hands`` are the cards each seat holds now (seats not in ``active`` sit
    out and are ignored), ``to_act`` the seat to play, ``trick_seats`` and
    ``trick_cards`` the trick in progress. ``next_seat[s]`` is the active
    seat after ``s``. Seat ``s`` plays for team ``s % teams``.

    One search answers one question (``holds`` or ``winning_card``). It takes
    at most ``limit`` turns; a search that runs out answers no (``holds``
    false, ``winning_card`` None) and says so in ``decided``.
    """

    def __init__(
        self,
        *,
        trump: int,
        teams: int,
        team: int,
        active: Sequence[int],
        next_seat: Sequence[int],
        hands: Sequence[Sequence[Card]],
        to_act: int,
        trick_seats: Sequence[int],
        trick_cards: Sequence[Card],
        limit: int = SEARCH_LIMIT,
    ) -> None:
        n = len(hands)
        self.trump = trump
        self.team = team
        self.limit = limit
        self.nodes = 0  # turns searched
        self.decided = True  # false once the search has run out of turns
        self._asked = False
        self._eff = EFFECTIVE_SUIT[trump]
        self._power = CARD_POWER[trump]
        self._keys = TRICK_KEY[trump]
        self._orders = _SUIT_ORDER[trump]
        self._trump_suit = trump if trump <= 3 else -1
        self._ours = [s % teams == team for s in range(n)]
        self._active = tuple(active)
        self._size = len(self._active)
        self._next = list(next_seat)
        self._hands: list[list[Card]] = [sorted(hands[s]) if s in self._active else [] for s in range(n)]
        self._counts = [[0] * NUM_CODES for _ in range(n)]
        self._total = [0] * NUM_CODES  # copies held by the active seats or on the table
        # Who holds each card code: two bits per active seat (up to three copies), and a last entry that marks
        # the end of a suit in ``_layout_order``; the memo's key is the list of these in that order.
        self._unit = [0] * n
        for i, s in enumerate(self._active):
            self._unit[s] = 1 << (2 * i)
        self._holders = [0] * NUM_CODES + [-1]
        self._layout_order = _LAYOUT_ORDER[trump]
        for s in self._active:
            for c in self._hands[s]:
                self._counts[s][c] += 1
                self._total[c] += 1
                self._holders[c] += self._unit[s]
        self._alone = sum(self._ours[s] for s in self._active) == 1  # one seat plays for the team
        # the other active seats of each seat's team
        self._mates = [[m for m in self._active if m != s and self._ours[m] == self._ours[s]] for s in range(n)]
        self._trick_seats = list(trick_seats)
        self._trick_cards = list(trick_cards)
        for c in self._trick_cards:
            self._total[c] += 1
        self._to_act = to_act
        self._memo: dict[tuple[int, ...], bool] = {}

    # ------------------------------------------------------------------ the answers

    def holds(self) -> bool:
        """The team takes every remaining trick against every play of the others (false if not proved)."""
        self._ask()
        try:
            if not self._trick_cards:
                return self._trick_start(self._to_act)
            return self._turn(self._to_act, *self._trick_state())
        except _OutOfTurns:
            self.decided = False
            return False

    def winning_card(self) -> Card | None:
        """A card for the seat to act (one of the team) that keeps every remaining trick, or None."""
        seat = self._to_act
        if not self._ours[seat]:
            raise ValueError(f"seat {seat} does not play for team {self.team}")
        self._ask()
        keys, best_key, best_seat = self._trick_state()
        try:
            for card in self._choices(seat, keys, best_key, best_seat):
                if self._after(seat, card, keys, best_key, best_seat):
                    return card
        except _OutOfTurns:
            self.decided = False
        return None

    def _ask(self) -> None:
        # a search that ran out of turns stopped in the middle of a line: its cards are not put back
        if self._asked:
            raise RuntimeError("a ClaimSearch answers one question; make a new one")
        self._asked = True

    # ------------------------------------------------------------------ the search

    def _trick_state(self) -> tuple[list[int] | None, int, int]:
        """(trick keys of the suit led or None before the lead, best key so far, its seat) of the trick in progress."""
        cards = self._trick_cards
        if not cards:
            return None, -1, self._to_act
        keys = self._keys[self._eff[cards[0]]]
        best = winning_index(cards, self.trump)
        return keys, keys[cards[best]], self._trick_seats[best]

    def _trick_start(self, leader: int) -> bool:
        """The team takes every trick from here, ``leader`` (one of the team) leading."""
        if not self._hands[leader]:
            return True  # every trick is played
        holders = self._holders
        key = (leader, *[holders[c] for c in self._layout_order if holders[c]])
        known = self._memo.get(key)
        if known is not None:
            return known
        settled = self._settled()
        result = self._turn(leader, None, -1, leader) if settled is None else settled
        self._memo[key] = result
        return result

    def _settled(self) -> bool | None:
        """True or False when the cards alone decide the rest of the hand, else None.

        False: an opponent's trumps cannot all be beaten. Each of them falls in a
        trick of its own that the team must take with a higher trump (or an equal
        one played first), so the team needs, for that opponent's k-th highest
        trump, a k-th highest trump at least as high. False too when the team is
        one seat (going alone) holding a suit in which an opponent has a card
        above all of its own: that seat leads every trick, so in time it leads
        the suit, and the opponent, who kept that card, takes the trick with it.
        True: every card of the team
        is a sure winner, higher than (or equal to, for the first played of equal
        cards wins) every card of its suit the others hold, and a plain card only
        while they hold no trump: whoever of the team takes a trick leads another.
        """
        eff, power, ours = self._eff, self._power, self._ours
        trump = self._trump_suit
        theirs_top = [-1] * 4  # the others' highest card of each effective suit
        their_trumps: list[list[int]] = []  # each opponent's trumps
        our_cards: list[Card] = []
        for s in self._active:
            if ours[s]:
                our_cards += self._hands[s]
                continue
            trumps = []
            for c in self._hands[s]:
                suit, p = eff[c], power[c]
                if p > theirs_top[suit]:
                    theirs_top[suit] = p
                if suit == trump:
                    trumps.append(p)
            if trumps:
                their_trumps.append(trumps)
        if their_trumps:
            our_trumps = sorted((power[c] for c in our_cards if eff[c] == trump), reverse=True)
            for trumps in their_trumps:
                trumps.sort(reverse=True)
                if len(trumps) > len(our_trumps) or any(t > o for t, o in zip(trumps, our_trumps, strict=False)):
                    return False
        if self._alone:
            our_top = [-1] * 4
            for c in our_cards:
                if power[c] > our_top[eff[c]]:
                    our_top[eff[c]] = power[c]
            if any(0 <= our_top[suit] < theirs_top[suit] for suit in range(4)):
                return False
        ruff = bool(their_trumps)  # they can ruff: a plain card is sure only while they cannot
        if all(power[c] >= theirs_top[eff[c]] and (not ruff or eff[c] == trump) for c in our_cards):
            return True
        return None

    def _turn(self, seat: int, keys: list[int] | None, best_key: int, best_seat: int) -> bool:
        """Seat ``seat`` plays to the trick in progress: can the team still take every trick?"""
        self.nodes += 1
        if self.nodes > self.limit:
            raise _OutOfTurns
        ours = self._ours[seat]
        for card in self._choices(seat, keys, best_key, best_seat):
            if self._after(seat, card, keys, best_key, best_seat) is ours:
                return ours  # the team found its card, or the others found theirs
        return not ours

    def _after(self, seat: int, card: Card, keys: list[int] | None, best_key: int, best_seat: int) -> bool:
        """``seat`` plays ``card``: does the team take every trick from there?"""
        hand, cards, seats = self._hands[seat], self._trick_cards, self._trick_seats
        hand.remove(card)
        self._counts[seat][card] -= 1
        self._holders[card] -= self._unit[seat]
        cards.append(card)
        seats.append(seat)
        if keys is None:
            keys = self._keys[self._eff[card]]
            best_key, best_seat = keys[card], seat
        elif keys[card] > best_key:
            best_key, best_seat = keys[card], seat
        if len(cards) == self._size:
            result = self._trick_done()
        elif (
            not self._ours[best_seat]
            and self._top_after(seat, keys, self._eff[cards[0]], self._size - len(cards), True) <= best_key
        ):
            result = False  # the others hold the trick: no seat of the team left in it can beat their card
        else:
            result = self._turn(self._next[seat], keys, best_key, best_seat)
        cards.pop()
        seats.pop()
        insort(hand, card)
        self._counts[seat][card] += 1
        self._holders[card] += self._unit[seat]
        return result

    def _trick_done(self) -> bool:
        """The trick on the table is complete: the team must have taken it, and every trick after it."""
        cards, seats = self._trick_cards, self._trick_seats
        winner = seats[winning_index(cards, self.trump)]
        if not self._ours[winner]:
            return False
        self._trick_cards, self._trick_seats = [], []
        total = self._total
        for c in cards:
            total[c] -= 1
        result = self._trick_start(winner)
        for c in cards:
            total[c] += 1
        self._trick_cards, self._trick_seats = cards, seats
        return result

    def _team_counts(self, seat: int) -> list[int] | None:
        """Copies of each card code held by the partners of ``seat`` in play, or None when it has none."""
        mates = self._mates[seat]
        if not mates:
            return None
        if len(mates) == 1:
            return self._counts[mates[0]]
        return [sum(column) for column in zip(*(self._counts[m] for m in mates), strict=True)]

    def _choices(self, seat: int, keys: list[int] | None, best_key: int, best_seat: int) -> list[Card]:
        """The cards of ``seat`` worth trying, those likeliest to settle the question first.

        Of a run of equal cards, one. Of cards that leave the trick to the same
        seat whichever is played (low cards that cannot become the best, or,
        for the team, sure winners that no seat after can beat), the lowest:
        keeping the higher one is never worse, unless (for the team) a
        partner holds a card between them.
        """
        eff = self._eff
        led = None if keys is None else eff[self._trick_cards[0]]
        legal = playable(self._hands[seat], self.trump, led)
        counts, total, power, ours = self._counts[seat], self._total, self._power, self._ours[seat]
        mates = self._team_counts(seat) if ours else None
        later = self._size - len(self._trick_cards) - 1  # seats to play after this one
        low: list[Card] = []  # cannot become the trick's best
        beating: list[Card] = []  # would become the best, and a seat after may beat it
        sure: list[Card] = []  # the team's: would become the best, and no seat after can beat it
        for suit in sorted({eff[c] for c in legal}):
            suit_keys = self._keys[suit] if keys is None else keys
            top_after = self._top_after(seat, suit_keys, suit if led is None else led, later, False) if ours else _NEVER
            open_run = False  # no card of anybody else since the last card of this seat
            kept: list[Card] | None = None  # the kind of the last low or sure card kept
            clear = False  # no partner's card since then
            for c in self._orders[suit]:
                held = counts[c]
                outside = total[c] - held
                if outside:
                    open_run = False
                    if mates is not None and mates[c]:
                        clear = False
                if not held or open_run:
                    continue  # not this seat's, or equal to the card that opened the run
                open_run = not outside
                key = suit_keys[c]
                if keys is not None and key <= best_key:
                    kind = low
                elif key >= top_after:
                    kind = sure
                else:
                    beating.append(c)
                    continue
                if kind is not kept or not clear:
                    kind.append(c)
                kept = kind
                clear = mates is None or not mates[c]
        by_power = power.__getitem__
        beating.sort(key=by_power, reverse=not ours or keys is None)
        low.sort(key=by_power)
        if not ours:
            # the strongest first (a card that takes the trick ends the search), then the weakest (keeping the
            # cards that may take a trick later)
            return beating + low
        if keys is None:
            return sure + beating  # leading
        # the cheapest card that takes the trick from the others, else the cheapest card
        return low + sure + beating if self._ours[best_seat] else sure + beating + low

    def _top_after(self, seat: int, keys: list[int], led: int, later: int, team_only: bool) -> int:
        """The highest trick key one of the ``later`` seats after ``seat`` could play to the trick, ``led`` being
        the suit led; only the team's seats if ``team_only``."""
        eff, hands, after, ours = self._eff, self._hands, self._next, self._ours
        top = -1
        q = seat
        for _ in range(later):
            q = after[q]
            if team_only and not ours[q]:
                continue
            hand = hands[q]
            for c in [c for c in hand if eff[c] == led] or hand:
                if keys[c] > top:
                    top = keys[c]
        return top


class Claimable(Protocol):
    """What finding a claim's card needs of a game in its play (``referee.engine.game.Game`` is one): the seat to
    play, and the search of whether a team takes every trick left. The game runs the search; this module needs
    only this much of it, and so does not import the game, which imports this module to check claims."""

    @property
    def rules(self) -> Rules: ...

    @property
    def phase(self) -> object: ...

    @property
    def to_act(self) -> int | None: ...

    def claim_search(self, team: int, limit: int = ...) -> ClaimCheck: ...


def claim_card(game: Claimable) -> Card | None:
    """A card for the seat to play that keeps every remaining trick for its team, or None when none does."""
    if game.to_act is None:
        raise ValueError(f"no seat is to play in the {game.phase} phase")
    return game.claim_search(game.rules.team_of(game.to_act)).winning_card()
