"""Deal the cards a seat cannot see, and rebuild the game there: the core of a Monte Carlo bot.

A *world* is one guess at the hidden part of a hand that agrees with
everything the seat knows (``sdk.knowledge``): its own hand, the cards played,
the cards it gave or received, the suits other seats have shown out of, the
size of every hand and of every discard it did not see, and, under "right
bower to open", the jack each early bidder must have held. ``Determinizer``
samples worlds and rebuilds each one as a real engine ``Game`` standing at the
seat's decision, by dealing a deck arranged to give every seat its (guessed)
dealt hand and re-applying the hand's actions through the engine's public API.
Because the engine checks every replayed action, a rebuilt game is a legal
position by construction.

``Game.copy()`` then lets several candidate actions be tried from one
rebuilt position without replaying the hand again.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass

from referee.engine.cards import JACK, Card, effective_suit, make_card
from referee.engine.deal import deck_for_hands
from referee.engine.errors import EngineError
from referee.engine.events import BidEvent, ContractEvent, ExchangeEvent, PlayEvent
from referee.engine.game import DecisionKind, Game
from referee.engine.view import SeatView
from sdk.knowledge import Knowledge, knowledge_of


@dataclass(frozen=True)
class World:
    """One consistent guess at the hidden cards of the hand in progress."""

    hands: tuple[tuple[Card, ...], ...]  # every seat's hand now
    dealt: tuple[tuple[Card, ...], ...]  # every seat's hand as dealt
    exchanges: tuple[tuple[Card, ...], ...]  # the cards of each exchange of the hand, in order


@dataclass(frozen=True)
class _Slot:
    """Somewhere unseen cards must go: a seat's hand (``pile`` None) or a hidden discard."""

    seat: int
    pile: int | None  # index into view.exchanges for a hidden discard
    count: int
    barred: frozenset[int]  # effective suits that cannot go here (shown voids)


class Determinizer:
    """Samples worlds consistent with ``view`` and rebuilds the game in each of them."""

    def __init__(self, view: SeatView, knowledge: Knowledge | None = None) -> None:
        self.view = view
        self.rules = view.rules
        self.knowledge = knowledge if knowledge is not None else knowledge_of(view)
        k = self.knowledge
        contract = view.contract
        active = contract.active if contract is not None else tuple(range(self.rules.players))
        trump = view.trump
        slots = [
            _Slot(s, None, k.unknown_slots(s), k.voids.get(s, frozenset()) if s in active else frozenset())
            for s in range(self.rules.players)
            if s != view.seat and k.unknown_slots(s) > 0
        ]
        slots += [_Slot(p.seat, p.exchange, p.count, frozenset()) for p in k.hidden_piles]
        self._slots = slots
        # Cards this seat gave a seat that then discarded unseen: in that seat's hand or its discard.
        self._suspects = [
            (card, [i for i, s in enumerate(slots) if s.seat == p.seat and s.pile in (None, p.exchange)])
            for p in k.hidden_piles
            for card in p.suspects
        ]
        self._pool = list(k.unseen.elements())
        if len(self._pool) != sum(s.count for s in slots):
            raise ValueError(f"the view does not add up: {len(self._pool)} unseen cards for the places {slots}")
        self._suit_of = {c: effective_suit(c, trump) for c in set(self._pool)} if trump is not None else None
        # The places each effective suit may go (voids bar some), worked out once.
        self._barred = any(s.barred for s in slots) and self._suit_of is not None
        self._fitting_for = {suit: [i for i, s in enumerate(slots) if suit not in s.barred] for suit in range(4)}
        self._required = self._required_jacks()
        self._played_by: list[list[Card]] = [[] for _ in range(self.rules.players)]
        for seat, card in k.played:
            self._played_by[seat].append(card)
        # A game before the deal, built once: each world starts from a fork of it.
        self._template = Game(self.rules, view.dealer)

    # ------------------------------------------------------------------ sample

    def _required_jacks(self) -> list[tuple[int, Card]]:
        """Right bower to open: each 1st/2nd-seat bid naming a suit means that seat was dealt its jack."""
        rules, view = self.rules, self.view
        if not rules.right_bower_to_open:
            return []
        needed: list[tuple[int, Card]] = []
        for seat, bid in view.bids:
            if (seat - view.dealer) % rules.players not in (1, 2) or seat == view.seat:
                continue
            if bid.trump is None or not bid.trump.is_suit:
                continue
            jack = make_card(bid.trump, JACK)
            shown = (
                any(s == seat and c == jack for s, c in self.knowledge.played)
                or self.knowledge.known.get(seat, Counter())[jack]
            )
            if not shown and (seat, jack) not in needed:
                needed.append((seat, jack))
        return needed

    def sample(self, rng: random.Random) -> World | None:
        """One world, or None when this attempt could not satisfy every constraint (try again)."""
        pool = self._pool[:]
        rng.shuffle(pool)
        slots = self._slots
        filled: list[list[Card]] = [[] for _ in slots]
        room = [s.count for s in slots]
        pinned: list[tuple[int, Card]] = []
        # Right bower to open: put the jack an early bidder needed back in its hand (or, when it
        # cannot be there, it went in a gift this seat did not see: _complete sees to that).
        for seat, jack in self._required:
            spot = next((i for i, s in enumerate(slots) if s.seat == seat and room[i] and self._fits(s, jack)), None)
            if spot is not None and jack in pool:
                pool.remove(jack)
                room[spot] -= 1
                pinned.append((spot, jack))
        for card, places in self._suspects:
            fitting = [i for i in places if room[i] > 0 and self._fits(slots[i], card)]
            if card in pool and fitting:
                spot = rng.choices(fitting, weights=[room[i] for i in fitting])[0]
                pool.remove(card)
                room[spot] -= 1
                pinned.append((spot, card))
        # Each card to a place that may hold it, chosen in proportion to the room left
        # (with no voids shown this is a uniform deal); when every such place is full,
        # move cards along to make room (an augmenting path), so a deal is found
        # whenever one exists.
        if not self._barred:
            # No voids shown: the shuffled pool dealt out in turn is a uniform deal.
            at = 0
            for i, r in enumerate(room):
                filled[i] = pool[at : at + r]
                at += r
        else:
            fitting_for = self._fitting_for
            suit_of = self._suit_of
            for card in pool:
                fitting = fitting_for[suit_of[card]]  # type: ignore[index]
                total = 0
                for i in fitting:
                    total += room[i] - len(filled[i])
                if total > 0:
                    pick = rng.random() * total
                    for i in fitting:
                        pick -= room[i] - len(filled[i])
                        if pick < 0:
                            break
                    if len(filled[i]) >= room[i]:  # float edge: the last place with room
                        i = next(j for j in reversed(fitting) if len(filled[j]) < room[j])
                    filled[i].append(card)
                elif not self._make_room(card, filled, room, set(), rng):
                    return None
        for spot, jack in pinned:
            filled[spot].append(jack)
        return self._complete(filled, rng)

    def _make_room(
        self, card: Card, filled: list[list[Card]], room: list[int], visited: set[int], rng: random.Random
    ) -> bool:
        """Place ``card`` by moving cards already placed to other places that may hold them."""
        fitting = [i for i, s in enumerate(self._slots) if i not in visited and self._fits(s, card)]
        rng.shuffle(fitting)
        for i in fitting:
            visited.add(i)
            if len(filled[i]) < room[i]:
                filled[i].append(card)
                return True
            for j, other in enumerate(filled[i]):
                if self._make_room(other, filled, room, visited, rng):
                    filled[i][j] = card
                    return True
        return False

    def _fits(self, slot: _Slot, card: Card) -> bool:
        return not slot.barred or self._suit_of is None or self._suit_of[card] not in slot.barred

    def _complete(self, filled: list[list[Card]], rng: random.Random) -> World | None:
        """Hands now and hidden discards are placed: choose hidden gifts, work back to the deal."""
        view, k, n = self.view, self.knowledge, self.rules.players
        hands = [list(view.hand) if s == view.seat else [] for s in range(n)]
        for s, holding in k.known.items():
            hands[s].extend(holding.elements())
        piles: dict[int, list[Card]] = {}
        for i, slot in enumerate(self._slots):
            if slot.pile is None:
                hands[slot.seat].extend(filled[i])
            else:
                piles[slot.pile] = filled[i]
        if not view.exchanges:
            # No exchange yet: each seat was dealt what it holds and has played.
            played_by = self._played_by
            dealt_lists = [hands[s] + played_by[s] if s != view.seat else list(view.dealt) for s in range(n)]
            if any(jack not in dealt_lists[s] for s, jack in self._required):
                return None
            return World(hands=tuple(tuple(h) for h in hands), dealt=tuple(tuple(d) for d in dealt_lists), exchanges=())
        # Each seat's cards through the hand: now + played + given away - received = dealt.
        dealt = [Counter(hands[s]) for s in range(n)]
        for s in range(n):
            dealt[s].update(self._played_by[s])
        received: list[Counter[Card]] = [Counter() for _ in range(n)]
        exchanges: list[tuple[Card, ...]] = []
        for i, ev in enumerate(view.exchanges):
            if ev.cards is not None:
                cards = ev.cards
            elif ev.to_seat is None:
                cards = tuple(piles[i])
            else:
                # A gift this seat did not see: some of the cards the receiver holds or played
                # (with the jack the giver needed to have opened the bidding, if it is not elsewhere).
                stock = Counter(hands[ev.to_seat]) + Counter(self._played_by[ev.to_seat]) - received[ev.to_seat]
                forced = [j for s, j in self._required if s == ev.from_seat and not dealt[s][j] and stock[j]]
                stock.subtract(forced)
                choice = list(stock.elements())
                if len(choice) + len(forced) < ev.count:
                    return None
                cards = (*forced, *rng.sample(choice, ev.count - len(forced)))
            exchanges.append(cards)
            dealt[ev.from_seat].update(cards)
            if ev.to_seat is not None:
                received[ev.to_seat].update(cards)
        each = self.rules.cards_each
        for s in range(n):
            dealt[s].subtract(received[s])
            if s == view.seat:
                dealt[s] = Counter(view.dealt)
            elif min(dealt[s].values(), default=0) < 0 or sum(dealt[s].values()) != each:
                return None
        if any(not dealt[s][jack] for s, jack in self._required):
            return None
        return World(
            hands=tuple(tuple(h) for h in hands),
            dealt=tuple(tuple(d.elements()) for d in dealt),
            exchanges=tuple(exchanges),
        )

    # ----------------------------------------------------------------- rebuild

    def rebuild(self, world: World) -> Game:
        """The engine game at this seat's decision, with the world's cards (raises EngineError if inconsistent)."""
        view = self.view
        game = self._template.copy()
        game.deal(deck_for_hands(self.rules, view.dealer, world.dealt))
        exchange = 0
        for ev in view.events:
            if isinstance(ev, PlayEvent):
                game.apply(ev.card)
            elif isinstance(ev, BidEvent):
                game.apply(ev.bid)
            elif isinstance(ev, ContractEvent):
                decision = game.decision()
                if decision is not None and decision.kind is DecisionKind.TRUMP:
                    game.apply(ev.trump)  # trump named after the auction
            elif isinstance(ev, ExchangeEvent):
                game.apply(list(world.exchanges[exchange]))
                exchange += 1
        return game

    def sample_game(
        self, rng: random.Random, attempts: int = 20, likelihood: Callable[[World], float] | None = None
    ) -> tuple[World, Game] | None:
        """A sampled world and the game rebuilt in it, or None if ``attempts`` samples all failed.

        With ``likelihood`` (world -> 0..1, say how well the world fits the bidding),
        each world is kept with that probability, except the last attempt's.
        """
        for _ in range(attempts):
            world = self.sample_fitting(rng, attempts, likelihood)
            if world is None:
                return None
            try:
                return world, self.rebuild(world)
            except EngineError:
                pass  # constraints too tight for this guess: try another
        return None

    def sample_fitting(
        self, rng: random.Random, attempts: int = 20, likelihood: Callable[[World], float] | None = None
    ) -> World | None:
        """A sampled world, kept with probability ``likelihood(world)``; None if no attempt found a world.

        When every world found was turned down, the likeliest of them. For searches that need
        only the cards (a playout from the hands now) and no rebuilt game.
        """
        fallback: tuple[float, World] | None = None
        for _ in range(attempts):
            world = self.sample(rng)
            if world is None:
                continue
            if likelihood is None:
                return world
            fit = likelihood(world)
            if rng.random() < fit:
                return world
            if fallback is None or fit > fallback[0]:
                fallback = (fit, world)
        return None if fallback is None else fallback[1]
