"""The game in the terminal, hand by hand, from every seat or from one seat's view.

Each hand is printed when it ends: the deal, the auction, the contract and
trump, the exchanges, a table of the tricks (lead, each seat's card, winner),
and the hand's tricks, points and running totals. With a seat chosen, what is
shown comes from the engine's view of that seat (``GameReplay.seat_view_at``):
the other hands and the exchanges it took no part in stay hidden, and each
trick row shows what the seat held before it.

Cards get suit symbols and colour when ``fancy`` (a terminal), and the ten
reads "10" as on a card face (``10♦``); otherwise the log's own notation
(``JH``, ``TD``), so the output greps and diffs well.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from typing import ClassVar

from rich.console import Console, Group, RenderableType
from rich.rule import Rule
from rich.table import Table
from rich.text import Text

from referee.engine.bids import Bid
from referee.engine.cards import RANK_LETTERS, SUIT_LETTERS, Card, Trump, card_rank, card_suit, sort_hand
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
from referee.engine.game import DecisionKind
from referee.engine.rules import Rules
from referee.engine.view import seat_view
from referee.gamelog import LogError
from referee.names import printable_name
from referee.replay.logfile import LoggedGame, MatchLog
from referee.replay.steps import DecisionPoint, GameReplay, Step, Violation

SUIT_SYMBOLS = "♠♥♦♣"
_RED_SUITS = (1, 2)  # hearts, diamonds


class Cards:
    """Card, trump and bid text: symbols and colour, or the log's plain notation."""

    def __init__(self, fancy: bool) -> None:
        self.fancy = fancy

    def suit(self, suit: int) -> Text:
        if not self.fancy:
            return Text(SUIT_LETTERS[suit])
        return Text(SUIT_SYMBOLS[suit], style="red" if suit in _RED_SUITS else "")

    def card(self, card: Card, style: str = "") -> Text:
        suit = card_suit(card)
        rank = RANK_LETTERS[card_rank(card)]
        # fancy text is what card faces say (the HTML viewer's too): "10", not the notation's "T"
        text = Text("10" if self.fancy and rank == "T" else rank, style=style)
        text.append_text(self.suit(suit))
        if self.fancy and suit in _RED_SUITS:
            text.stylize("red")
        return text

    def cards(self, cards: Iterable[Card]) -> Text:
        return Text(" ").join(self.card(c) for c in cards)

    def trump(self, trump: Trump) -> Text:
        return self.suit(int(trump)) if trump.is_suit else Text(trump.text())

    def bid(self, bid: Bid) -> Text:
        head = str(bid.level) if bid.kind == "level" else bid.kind
        text = Text(head)
        if bid.trump is not None:
            text.append("" if self.fancy and bid.trump.is_suit and bid.kind == "level" else " ")
            text.append_text(self.trump(bid.trump))
        return text


class Words:
    """One line of text per event of a game, for the terminal and the HTML viewer alike."""

    # A verb after the seat that reads the text ("you"), and after any other seat.
    _VERBS: ClassVar[dict[str, str]] = {
        "bid": "bids",
        "pass": "passes",
        "play": "plays",
        "give": "gives",
        "discard": "discards",
        "claim": "claims",
    }

    def __init__(self, cards: Cards, rules: Rules, names: list[str], you: int | None = None) -> None:
        self.cards = cards
        self.rules = rules
        self.names = [printable_name(n) for n in names]  # a log can be edited: no control codes
        self.you = you  # the seat of the person reading, when there is one ("you bid", not "you bids")

    def seat(self, seat: int) -> str:
        return f"{seat} {self.names[seat]}"

    def does(self, seat: int, verb: str) -> str:
        """``seat`` and ``verb`` agreeing with it: "2 rules bids", "1 you bid"."""
        return f"{self.seat(seat)} {verb if seat == self.you else self._VERBS[verb]}"

    def event(self, event: Event) -> Text:
        """Any event, in a few words."""
        if isinstance(event, DealEvent):
            return Text(f"Hand {event.hand} dealt by {self.seat(event.dealer)}")
        if isinstance(event, BidEvent):
            return self.bid(event)
        if isinstance(event, ContractEvent):
            return self.contract(event)
        if isinstance(event, ExchangeEvent):
            return self.exchange(event)
        if isinstance(event, PlayEvent):
            return Text(f"{self.does(event.seat, 'play')} ").append_text(self.cards.card(event.card))
        if isinstance(event, TrickEvent):
            return Text(f"Trick {event.trick} won by {self.seat(event.winner)}")
        if isinstance(event, ClaimEvent):
            return self.claim(event)
        if isinstance(event, HandEndEvent):
            return self.result(event)
        return self.game_end(event)

    def claim(self, ev: ClaimEvent) -> Text:
        tricks = "the last trick" if ev.tricks == 1 else f"the remaining {ev.tricks} tricks"
        text = Text(f"{self.does(ev.seat, 'claim')} {tricks} for team {ev.team}: ")
        if ev.accepted:
            return text.append("accepted, the hand ends", style="bold")
        return text.append("refused, play goes on")

    def bid(self, ev: BidEvent) -> Text:
        if ev.bid.is_pass:
            return Text(self.does(ev.seat, "pass"))
        return Text(f"{self.does(ev.seat, 'bid')} ").append_text(self.cards.bid(ev.bid))

    def contract(self, ev: ContractEvent) -> Text:
        c = self.cards
        text = Text(f"Contract: {self.seat(ev.declarer)} (team {self.rules.team_of(ev.declarer)}) bid ")
        text.append_text(c.bid(ev.bid)).append(", trump ").append_text(c.trump(ev.trump))
        if ev.alone:
            out = [s for s in range(self.rules.players) if s not in ev.active]
            sit = "sits" if len(out) == 1 and out[0] != self.you else "sit"
            text.append(f", plays alone ({', '.join(self.seat(s) for s in out)} {sit} out)")
        return text

    def exchange(self, ev: ExchangeEvent) -> Text:
        who = ev.from_seat
        verb = (
            f"{self.does(who, 'discard')} {ev.count}"
            if ev.to_seat is None
            else f"{self.does(who, 'give')} {ev.count} to {self.seat(ev.to_seat)}"
        )
        text = Text(f"Exchange: {verb}")
        if ev.cards is None:
            return text.append(" (cards hidden)", style="dim")
        return text.append(": ").append_text(self.cards.cards(ev.cards))

    def result(self, end: HandEndEvent) -> Text:
        scores = " / ".join(map(str, end.scores))
        if end.passed_out:
            return Text(f"Everyone passed: the hand is thrown in. Scores {scores}", style="bold")
        points = " / ".join(f"{p:+d}" for p in end.points)
        made = "made" if end.made else "set"
        tricks = " / ".join(map(str, end.tricks))
        return Text(f"Result: tricks {tricks}, contract {made}, points {points}, scores {scores}", style="bold")

    def game_end(self, end: GameEndEvent) -> Text:
        scores = " / ".join(map(str, end.scores))
        who = "no team wins" if end.winner is None else f"team {end.winner} wins"
        detail = f" ({end.detail})" if end.detail else ""
        return Text(f"Game over ({end.reason}{detail}): {who}, scores {scores}", style="bold")

    def violation(self, v: Violation) -> Text:
        what = {"forfeit": "the team forfeits", "default-action": "the referee played for it", "none": "no penalty"}
        return Text(f"! {self.seat(v.seat)} {v.kind}: {v.detail} ({what[v.penalty]})", style="yellow")


@dataclass(frozen=True, slots=True)
class Selection:
    """What to show: a game (None: all), a hand and a first trick, a seat's view."""

    game: int | None = None
    hand: int | None = None
    trick: int | None = None
    seat: int | None = None


@dataclass
class _Hand:
    """What one hand showed, gathered while it is replayed."""

    number: int
    dealer: int
    scores_before: tuple[int, ...]
    deal: DealEvent | None = None
    own: tuple[Card, ...] = ()  # seat view: the seat's holding once the contract and exchanges are done
    bids: list[BidEvent] = field(default_factory=list)
    contract: ContractEvent | None = None
    exchanges: list[ExchangeEvent] = field(default_factory=list)
    plays: dict[int, dict[int, Card]] = field(default_factory=dict)  # trick -> seat -> card
    leaders: dict[int, int] = field(default_factory=dict)
    winners: dict[int, int] = field(default_factory=dict)
    holdings: dict[int, dict[int, tuple[Card, ...]]] = field(default_factory=dict)  # trick -> seat -> cards held
    claimed: ClaimEvent | None = None  # the claim that ended the hand
    notes: list[Text] = field(default_factory=list)
    end: HandEndEvent | None = None


class GameText:
    """Renders one logged game into rich renderables, hand by hand."""

    def __init__(self, match: MatchLog, logged: LoggedGame, cards: Cards, selection: Selection) -> None:
        self.match = match
        self.logged = logged
        self.rules = match.rules
        self.cards = cards
        self.sel = selection
        self.words = Words(cards, match.rules, logged.seat_names)
        self.seat = self.words.seat
        self.replay = GameReplay(match, logged)
        self.hands_seen = 0

    def header(self) -> RenderableType:
        rules, logged = self.rules, self.logged
        title = Text(f"Game {logged.number} of {len(self.match.games)}", style="bold")
        title.append(f": {self.match.preset}, id {logged.game_id}, first dealer {self.seat(logged.first_dealer)}")
        seats = ", ".join(f"{self.seat(s)} (team {rules.team_of(s)})" for s in range(rules.players))
        lines = [title, Text(f"Seats: {seats}")]
        if self.sel.seat is not None:
            lines.append(
                Text(f"Seen from seat {self.seat(self.sel.seat)}: only what it knew at each point", style="bold")
            )
        return Group(*lines)

    # ---------------------------------------------------------------- walk

    def blocks(self) -> Iterator[RenderableType]:
        """Renderables in order: the header, each shown hand, notes, the game's end."""
        yield self.header()
        replay, game, sel = self.replay, self.replay.game, self.sel
        current: _Hand | None = None
        try:
            for item in replay:
                if isinstance(item, Violation):
                    note = self.words.violation(item)
                    if current is not None and current.end is None:
                        current.notes.append(note)
                    else:
                        yield note
                    continue
                if isinstance(item, DecisionPoint):
                    if current is not None and item.decision.kind is DecisionKind.PLAY and not game.trick_cards:
                        current.leaders[item.trick] = item.decision.seat
                        current.holdings[item.trick] = self._holdings()
                    continue
                event = self._shown(item)
                if isinstance(event, DealEvent):
                    current = _Hand(event.hand, event.dealer, tuple(game.scores), deal=event)
                    self.hands_seen = event.hand
                    continue
                if isinstance(event, GameEndEvent):
                    if current is not None and current.end is None:
                        yield from self._flush(current)
                        current = None
                    yield self._game_end(event)
                    continue
                assert current is not None
                self._add(current, event)
                if isinstance(event, (ContractEvent, ExchangeEvent)) and sel.seat is not None:
                    current.own = seat_view(game, sel.seat).hand
                if isinstance(event, HandEndEvent):
                    yield from self._flush(current)
                    if sel.hand is not None and event.hand >= sel.hand:
                        return  # the chosen hand is shown: no need to replay the rest
        except LogError:
            if current is not None and current.end is None:
                yield from self._flush(current)
            raise
        if replay.cut_off is not None:
            if current is not None and current.end is None:
                yield from self._flush(current)
            yield Text(
                f"The log is cut off here: game {self.logged.number} stops {replay.cut_off}.", style="bold yellow"
            )

    def _shown(self, step: Step) -> Event:
        """The event as the chosen seat saw it (the engine's view), or as it happened."""
        if self.sel.seat is None:
            return step.event
        _, events = self.replay.seat_view_at(step, self.sel.seat)
        return events[-1] if events else step.event

    def _holdings(self) -> dict[int, tuple[Card, ...]]:
        """Who holds what before a trick: the chosen seat's view, or every active seat's hand."""
        game = self.replay.game
        if self.sel.seat is not None:
            return {self.sel.seat: seat_view(game, self.sel.seat).hand}
        return {s: tuple(game.hands[s]) for s in game.active}

    def _add(self, hand: _Hand, event: Event) -> None:
        if isinstance(event, BidEvent):
            hand.bids.append(event)
        elif isinstance(event, ContractEvent):
            hand.contract = event
        elif isinstance(event, ExchangeEvent):
            hand.exchanges.append(event)
        elif isinstance(event, PlayEvent):
            hand.plays.setdefault(event.trick, {})[event.seat] = event.card
        elif isinstance(event, TrickEvent):
            hand.winners[event.trick] = event.winner
        elif isinstance(event, ClaimEvent):
            hand.notes.append(Text(f"Trick {event.trick}: ").append_text(self.words.claim(event)))
            if event.accepted:
                hand.claimed = event
        elif isinstance(event, HandEndEvent):
            hand.end = event

    def _shown_hand(self, number: int) -> bool:
        return self.sel.hand is None or self.sel.hand == number

    # ---------------------------------------------------------------- one hand

    def _flush(self, hand: _Hand) -> Iterator[RenderableType]:
        if not self._shown_hand(hand.number):
            return
        c, sel = self.cards, self.sel
        if sel.trick is not None and sel.trick not in hand.plays:
            thrown = " (it was thrown in)" if hand.end is not None and hand.end.passed_out else ""
            raise LogError(f"hand {hand.number} of game {self.logged.number} has no trick {sel.trick}{thrown}")
        scores = " / ".join(map(str, hand.scores_before))
        title = Text(f"Hand {hand.number}: dealer {self.seat(hand.dealer)}, scores {scores}", style="bold")
        yield Rule(title, align="left") if c.fancy else Text("\n").append_text(title)
        if hand.deal is not None and sel.trick is None:
            yield self._deal(hand.deal)
        if hand.bids:
            yield Text("Auction: ").append_text(Text(", ").join(self.words.bid(b) for b in hand.bids))
        if hand.contract is not None:
            yield self.words.contract(hand.contract)
        if sel.trick is None:
            for ex in hand.exchanges:
                yield self.words.exchange(ex)
            took_part = any(sel.seat in (ex.from_seat, ex.to_seat) for ex in hand.exchanges)
            if sel.seat is not None and hand.contract is not None and took_part:
                own = Text(f"  {self.seat(sel.seat)} now holds: ")
                yield own.append_text(c.cards(sort_hand(hand.own, hand.contract.trump)))
        else:
            yield self._position(hand, sel.trick)
        if hand.plays:
            yield self._tricks(hand, sel.trick or 1)
        yield from hand.notes
        if hand.end is not None:
            yield self.words.result(hand.end)

    def _deal(self, deal: DealEvent) -> RenderableType:
        table = Table.grid(padding=(0, 2))
        table.add_column()
        table.add_column()
        for s, cards in enumerate(deal.hands):
            shown = (
                Text(f"({self.rules.cards_each} cards, hidden)", style="dim")
                if cards is None
                else self.cards.cards(sort_hand(cards))
            )
            table.add_row(Text(f"  {self.seat(s)}"), shown)
        return Group(Text("Deal:"), table)

    def _position(self, hand: _Hand, trick: int) -> RenderableType:
        table = Table.grid(padding=(0, 2))
        table.add_column()
        table.add_column()
        trump = hand.contract.trump if hand.contract else None
        for s, cards in hand.holdings[trick].items():
            table.add_row(Text(f"  {self.seat(s)}"), self.cards.cards(sort_hand(cards, trump)))
        won = [0] * self.rules.teams
        for t, winner in hand.winners.items():
            if t < trick:
                won[self.rules.team_of(winner)] += 1
        return Group(Text(f"Before trick {trick} (tricks won so far {' / '.join(map(str, won))}):"), table)

    def _tricks(self, hand: _Hand, first: int) -> RenderableType:
        c = self.cards
        active = hand.contract.active if hand.contract else tuple(range(self.rules.players))
        trump = hand.contract.trump if hand.contract else None
        table = Table(box=None, padding=(0, 1), show_edge=False, pad_edge=False)
        table.add_column("trick", justify="right")
        table.add_column("lead")
        for s in active:
            table.add_column(Text(self.seat(s)))
        table.add_column("winner")
        if self.sel.seat is not None:
            table.add_column(Text(f"{self.seat(self.sel.seat)} held"))
        for trick in sorted(t for t in hand.plays if t >= first):
            plays = hand.plays[trick]
            winner = hand.winners.get(trick)
            row: list[Text] = [Text(str(trick)), Text(self.seat(hand.leaders[trick]) if trick in hand.leaders else "")]
            for s in active:
                if s not in plays:
                    row.append(Text(""))
                elif s == winner:
                    row.append(c.card(plays[s], style="bold").append("*"))
                else:
                    row.append(c.card(plays[s]))
            if winner is not None:
                row.append(Text(self.seat(winner)))
            else:
                row.append(Text("(claimed)" if hand.claimed is not None else "(not finished)"))
            if self.sel.seat is not None:
                held = hand.holdings.get(trick, {}).get(self.sel.seat, ())
                row.append(c.cards(sort_hand(held, trump)))
            table.add_row(*row)
        return Group(Text("Tricks (* marks the winning card):"), table)

    def _game_end(self, end: GameEndEvent) -> RenderableType:
        text = self.words.game_end(end)
        return Group(Rule(), text) if self.cards.fancy else Group(Text(), text)


def render_match(console: Console, match: MatchLog, selection: Selection, *, fancy: bool) -> None:
    """Print the selected games of ``match``; raises ``LogError``/``Mismatch`` after printing what came before."""
    cards = Cards(fancy)
    games = match.games if selection.game is None else [match.game(selection.game)]
    if not games:
        console.print(f"{match.path}: the log holds no game yet (it stops after line {match.last_line}).")
        return
    for logged in games:
        text = GameText(match, logged, cards, selection)
        for block in text.blocks():
            console.print(block)
        if selection.hand is not None and text.hands_seen < selection.hand:
            raise LogError(f"game {logged.number} has {text.hands_seen} hands; there is no hand {selection.hand}")
        console.print()
    for entry in match.violations:
        rec = entry.record
        console.print(
            Text(f"! line {entry.line}: seat {rec.get('seat')} {rec.get('kind')}: {rec.get('detail')}", style="yellow")
        )
    if match.cut_off and games[-1] is match.games[-1] and games[-1].has_end:
        console.print(Text(f"The log is cut off after game {len(match.games)}: no match_end.", style="bold yellow"))
