"""What the person at the table sees: the table from one seat's view, the choices, the results.

Everything here is built from a ``SeatView`` (what the seat may know, as the
referee sent it) and the seat names of the game, so the screen cannot show a
card the seat has not seen. Each line of the table starts with a label
(``Score``, ``Bids``, ``Table``, ``Your hand`` ...), so it reads well and can be
checked line by line. Card, bid and event wording is the replay's own
(``referee.replay.text``).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from rich.console import Group, RenderableType
from rich.rule import Rule
from rich.table import Table
from rich.text import Text

from referee.engine.bids import Bid
from referee.engine.cards import Card, Trump, card_str, effective_suit, sort_hand
from referee.engine.events import (
    BidEvent,
    ClaimEvent,
    ContractEvent,
    ExchangeEvent,
    GameEndEvent,
    PlayEvent,
    TrickEvent,
)
from referee.engine.game import Decision, DecisionKind
from referee.engine.rules import Rules
from referee.engine.view import SeatView
from referee.replay.text import Cards, Words

LABEL_WIDTH = 10


@dataclass(frozen=True, slots=True)
class Choice:
    """One numbered answer offered: what it reads as on screen, and the action it stands for."""

    label: Text
    value: object
    notation: str  # the log's notation of the value (``JH``, ``4 S``, ``pass``): it may be typed too

    def matches(self, typed: str) -> bool:
        """The person typed this choice's text (as shown, or in the log's notation), spaces and case aside."""
        wanted = _key(typed)
        return bool(wanted) and wanted in (_key(self.label.plain), _key(self.notation))


def _key(text: str) -> str:
    return "".join(text.split()).lower()


def _line(label: str, body: Text | str) -> Text:
    text = Text().append(f"{label:<{LABEL_WIDTH}}", style="bold")
    return text.append_text(body if isinstance(body, Text) else Text(body))


def _joined(parts: Sequence[Text], sep: str = " · ") -> Text:
    return Text(sep).join(parts) if parts else Text("none yet", style="dim")


class TableScreen:
    """Renders one seat's view of a game; ``names`` are the bots per seat (the seat itself shows as "you")."""

    def __init__(self, rules: Rules, seat: int, names: Sequence[str], fancy: bool = True, game: int = 1) -> None:
        self.rules = rules
        self.seat = seat
        self.game = game
        shown = [names[s] if s < len(names) else f"seat{s}" for s in range(rules.players)]
        shown[seat] = "you"
        self.cards = Cards(fancy)
        self.words = Words(self.cards, rules, shown, you=seat)

    # ------------------------------------------------------------------ table

    def table(self, view: SeatView) -> RenderableType:
        """The whole table as the seat sees it now."""
        rules, words = self.rules, self.words
        team = rules.team_of(self.seat)
        title = Text(f"Game {self.game} · Hand {view.hand_number} · you are seat {self.seat} (team {team})")
        title.stylize("bold")
        lines: list[RenderableType] = [Rule(title, align="left")]
        seats = [Text(f"{words.seat(s)} (team {rules.team_of(s)})") for s in range(rules.players)]
        lines.append(_line("Seats", _joined(seats)))
        lines.append(_line("Score", self._scores(view.scores)))
        lines.append(_line("Dealer", words.seat(view.dealer)))
        bids = [words.bid(BidEvent(view.hand_number, s, b)) for s, b in view.bids]
        lines.append(_line("Bids", _joined(bids)))
        contract = view.contract
        if contract is not None:
            text = words.contract(_contract_event(view))
            lines.append(_line("Contract", text[len("Contract: ") :]))
        exchanges = [self._exchange(ex) for ex in view.exchanges]
        if exchanges:
            lines.append(_line("Exchange", _joined(exchanges)))
        if contract is not None:
            tricks = [Text(f"team {t}: {n}") for t, n in enumerate(view.tricks_won)]
            count = Text(f" (trick {view.trick_number} of {rules.cards_each})", style="dim")
            lines.append(_line("Tricks", _joined(tricks).append_text(count)))
            last = self._last_trick(view)
            if last is not None:
                lines.append(_line("Last", last))
            lines.append(_line("Table", self._on_table(view)))
        lines.append(_line("Your hand", self._hand(view.hand, view.trump)))
        return Group(*lines)

    def _scores(self, scores: Sequence[int]) -> Text:
        mine = self.rules.team_of(self.seat)
        parts = [Text(f"team {t}{' (you)' if t == mine else ''}: {s}") for t, s in enumerate(scores)]
        rules = self.rules
        hands = rules.game_hands
        goal = f"game to {rules.game_points} points" if rules.game_over == "points" else f"game of {hands} hand"
        goal += "s" if rules.game_over != "points" and hands != 1 else ""
        return _joined(parts).append(f" ({goal})", style="dim")

    def _exchange(self, ev: ExchangeEvent) -> Text:
        return self.words.exchange(ev)[len("Exchange: ") :]

    def _plays(self, plays: Sequence[PlayEvent]) -> Text:
        return _joined([Text(f"{self.words.seat(p.seat)} ").append_text(self.cards.card(p.card)) for p in plays])

    def _trick(self, plays: Sequence[PlayEvent], won: TrickEvent) -> Text:
        return self._plays(plays).append(f", won by {self.words.seat(won.winner)}")

    def _last_trick(self, view: SeatView) -> Text | None:
        """The trick completed last in this hand, with its winner."""
        done = _tricks(view)
        if not done:
            return None
        plays, won = done[-1]
        return Text(f"trick {won.trick}: ").append_text(self._trick(plays, won))

    def _on_table(self, view: SeatView) -> Text:
        trick = view.current_trick
        if not trick:
            return Text("empty", style="dim")
        plays = [PlayEvent(view.hand_number, view.trick_number, s, c) for s, c in trick]
        text = self._plays(plays)
        winner = view.winning_seat()
        if winner is not None:
            text.append(f" ({self.words.seat(winner)} winning)", style="dim")
        return text

    def _hand(self, hand: Sequence[Card], trump: Trump | None) -> Text:
        """The cards by suit (trump first, marked; the left bower with trump), strongest first."""
        if not hand:
            return Text("no cards", style="dim")
        key = int(trump) if trump is not None else int(Trump.HIGH)
        groups: list[tuple[int, list[Card]]] = []
        if trump is not None and trump.is_suit:
            groups.append((int(trump), []))  # shown even when empty: "no trump in hand" is worth seeing
        for card in sort_hand(hand, trump):
            suit = effective_suit(card, key)
            if not groups or groups[-1][0] != suit:
                groups.append((suit, []))
            groups[-1][1].append(card)
        parts = []
        for suit, cards in groups:
            head = self.cards.suit(suit)
            if trump is not None and trump.is_suit and suit == int(trump):
                head.append(" trump", style="bold yellow")
            shown = self.cards.cards(cards) if cards else Text("none", style="dim")
            parts.append(head.append(": ").append_text(shown))
        return Text("  |  ").join(parts)

    # ---------------------------------------------------------------- choices

    def choices(self, view: SeatView, decision: Decision) -> tuple[Text, list[Choice]]:
        """The question and the numbered answers for ``decision`` (only legal ones)."""
        kind = decision.kind
        if kind is DecisionKind.BID:
            return Text("Your bid:"), [Choice(self._bid(b), b, b.text()) for b in decision.bids]
        if kind is DecisionKind.TRUMP:
            return Text("Name trump:"), [Choice(self.cards.trump(t), t, t.text()) for t in decision.trumps]
        if kind is DecisionKind.PLAY:
            legal = sort_hand(dict.fromkeys(decision.cards), view.trump)
            return Text("Play a card:"), [Choice(self.cards.card(c), c, card_str(c)) for c in legal]
        cards = sort_hand(decision.cards, view.trump)
        n = decision.count
        what = f"{n} card{'s' if n > 1 else ''}"
        if kind is DecisionKind.GIVE:
            assert decision.to is not None
            question = f"Give {what} to {self.words.seat(decision.to)} (numbers separated by spaces):"
        else:
            question = f"Discard {what} (numbers separated by spaces):"
        return Text(question), [Choice(self.cards.card(c), c, card_str(c)) for c in cards]

    def _bid(self, bid: Bid) -> Text:
        return Text("pass") if bid.is_pass else self.cards.bid(bid)

    @staticmethod
    def menu(question: Text, choices: Sequence[Choice]) -> RenderableType:
        grid = Table.grid(padding=(0, 3))
        per_row = 6
        for _ in range(min(per_row, len(choices))):
            grid.add_column()
        cells = [Text(f"{i:>2}) ", style="bold cyan").append_text(c.label) for i, c in enumerate(choices, 1)]
        for start in range(0, len(cells), per_row):
            row = cells[start : start + per_row]
            grid.add_row(*row, *[Text("")] * (min(per_row, len(cells)) - len(row)))
        return Group(Text("Your turn. ", style="bold green").append_text(question), grid)

    # ---------------------------------------------------------------- results

    def hand_summary(self, view: SeatView) -> RenderableType:
        """A hand just ended: the contract, every trick and who won it, the claims made, the result and the score."""
        words = self.words
        end = view.hand_result
        lines: list[RenderableType] = [Rule(Text(f"Hand {view.hand_number} is over", style="bold"), align="left")]
        if view.contract is not None:
            lines.append(words.contract(_contract_event(view)))
        for ev in view.exchanges:
            lines.append(words.exchange(ev))
        for plays, won in _tricks(view):
            lines.append(_line(f"Trick {won.trick}", self._trick(plays, won)))
        for claim in (ev for ev in view.events if isinstance(ev, ClaimEvent)):
            lines.append(_line(f"Trick {claim.trick}", words.claim(claim)))
        if end is not None:
            lines.append(words.result(end))
            lines.append(_line("Score", self._scores(end.scores)))
        return Group(*lines)

    def game_summary(self, end: GameEndEvent) -> RenderableType:
        mine = self.rules.team_of(self.seat)
        if end.winner is None:
            verdict = Text("No team wins.", style="bold")
        elif end.winner == mine:
            verdict = Text("Your team wins!", style="bold green")
        else:
            verdict = Text(f"Team {end.winner} wins; your team (team {mine}) loses.", style="bold red")
        return Group(Rule(Text("Game over", style="bold"), align="left"), self.words.game_end(end), verdict)


def _tricks(view: SeatView) -> list[tuple[list[PlayEvent], TrickEvent]]:
    """The completed tricks of the hand: the plays, in order, and who won."""
    done: list[tuple[list[PlayEvent], TrickEvent]] = []
    plays: list[PlayEvent] = []
    for ev in view.events:
        if isinstance(ev, PlayEvent):
            plays.append(ev)
        elif isinstance(ev, TrickEvent):
            done.append((plays, ev))
            plays = []
    return done


def _contract_event(view: SeatView) -> ContractEvent:
    return next(ev for ev in view.events if isinstance(ev, ContractEvent))
