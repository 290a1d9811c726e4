"""What the page is sent: one seat's view as JSON, and the page's answers read back into engine actions.

Everything here is made from a ``SeatView`` (what the seat may know, as the SDK rebuilt it from the referee's
messages) and the seat names of the game: the page cannot be sent a card the seat has not seen. Events are
written as the game log writes them (``referee.gamelog.event_record``, of the events as the seat saw them:
another seat's hand is ``null``), cards and bids in the log's notation (``JH``, ``4 S``).

Where each seat sits on the screen: the person is South (the bottom), and the other seats follow clockwise in
the order of play, evenly round the table (``positions``). With four seats the partner is North; with three
teams of two, the partner (three seats on) is North too; with two teams of three, the partners are upper left
and upper right and North is an opponent (the order of play stays the order round the table).
"""

from __future__ import annotations

import math
import re
from collections import Counter
from collections.abc import Sequence
from typing import Any

from referee.engine.bids import SPECIALS, Bid
from referee.engine.cards import (
    SUIT_LETTERS,
    Card,
    Trump,
    card_power,
    card_str,
    deck_copies,
    deck_ranks,
    effective_suit,
    make_card,
    parse_card,
)
from referee.engine.errors import InvalidActionError
from referee.engine.events import GameEndEvent, HandEndEvent, PlayEvent, TrickEvent
from referee.engine.game import ClaimAnswer, Decision, DecisionKind
from referee.engine.rules import Rules
from referee.engine.view import SeatView
from referee.gamelog import event_record
from referee.play.levels import LEVELS
from referee.replay.text import Cards

# Compass names of the places round the table, by number of seats, clockwise from the person (South).
PLACE_NAMES = {
    2: ("South", "North"),
    3: ("South", "North-west", "North-east"),
    4: ("South", "West", "North", "East"),
    5: ("South", "South-west", "North-west", "North-east", "South-east"),
    6: ("South", "South-west", "North-west", "North", "North-east", "South-east"),
}


# The level (``arena play --level``) of a bot by its name at the table.
LEVEL_OF = {level.name: number for number, level in LEVELS.items()}


class Refused(ValueError):
    """A request from the page that cannot be taken; the message is shown on the page."""


def positions(rules: Rules, seat: int) -> list[dict[str, Any]]:
    """Per seat: its place on the screen (x, y from -1 to 1, South at the bottom), its name and the name's
    letters (``dir``: S, W, N, E, NW ...), clockwise from ``seat``, the person's."""
    n = rules.players
    names = PLACE_NAMES.get(n, tuple(f"place {k}" for k in range(n)))
    out: list[dict[str, Any]] = [{}] * n
    for k in range(n):
        angle = math.pi / 2 + 2 * math.pi * k / n  # screen coordinates: y grows downwards, so pi/2 is the bottom
        s = (seat + k) % n
        place = names[k]
        out[s] = {
            "x": round(math.cos(angle), 3),
            "y": round(math.sin(angle), 3),
            "place": place,
            "dir": "".join(w[0] for w in place.split("-")).upper(),
        }
    return out


def card_json(card: Card, trump: Trump | None) -> dict[str, Any]:
    """A card for the page: its text, its suit as played (the left bower's is trump's) and its power (the
    sorting settings use them)."""
    key = int(trump) if trump is not None else int(Trump.HIGH)
    return {"c": card_str(card), "suit": SUIT_LETTERS[effective_suit(card, key)], "power": card_power(card, key)}


def _events(view: SeatView) -> list[dict[str, Any]]:
    return [event_record(ev) for ev in view.events]


def _tricks(view: SeatView) -> list[dict[str, Any]]:
    """The completed tricks of the hand: the plays in order and who won."""
    done: list[dict[str, Any]] = []
    plays: list[list[Any]] = []
    for ev in view.events:
        if isinstance(ev, PlayEvent):
            plays.append([ev.seat, card_str(ev.card)])
        elif isinstance(ev, TrickEvent):
            done.append({"trick": ev.trick, "plays": plays, "winner": ev.winner})
            plays = []
    return done


def decision_json(view: SeatView, decision: Decision, number: int | str) -> dict[str, Any]:
    """The decision as the page offers it: only legal choices."""
    kind = decision.kind
    out: dict[str, Any] = {"id": number, "kind": str(kind), "count": decision.count, "to": decision.to}
    if kind is DecisionKind.BID:
        out["options"] = [b.text() for b in decision.bids]
    elif kind is DecisionKind.TRUMP:
        out["options"] = [t.text() for t in decision.trumps]
    else:
        out["options"] = [card_str(c) for c in decision.cards]
    out["mayClaim"] = view.may_claim
    return out


def view_json(view: SeatView, names: Sequence[str]) -> dict[str, Any]:
    """The table as the seat sees it now (``view`` may be a hand's or the game's end: no cards held)."""
    rules = view.rules
    contract = view.contract
    trump = view.trump
    shown = [names[s] if s < len(names) else f"seat {s}" for s in range(rules.players)]
    out: dict[str, Any] = {
        "seat": view.seat,
        "players": rules.players,
        "teams": rules.teams,
        "team": view.team,
        "names": shown,
        "levels": [LEVEL_OF.get(name) if s != view.seat else None for s, name in enumerate(shown)],
        "seatTeams": [rules.team_of(s) for s in range(rules.players)],
        "places": positions(rules, view.seat),
        "hand": view.hand_number,
        "dealer": view.dealer,
        "scores": list(view.scores),
        "cards": [card_json(c, trump) for c in view.hand],
        "bids": [[s, b.text()] for s, b in view.bids],
        "contract": None,
        "trick": [[s, card_str(c)] for s, c in view.current_trick],
        "tricks": _tricks(view),
        "tricksWon": list(view.tricks_won),
        "trickNumber": view.trick_number,
        "cardsEach": rules.cards_each,
        "deck": {
            "cards": [card_str(make_card(0, r))[0] for r in deck_ranks(rules.deck)],
            "copies": deck_copies(rules.deck),
        },
        "events": _events(view),
        "winning": view.winning_seat(),
    }
    if contract is not None:
        out["contract"] = {
            "declarer": contract.declarer,
            "bid": contract.bid.text(),
            "trump": contract.trump.text(),
            "alone": contract.alone,
            "active": list(contract.active),
        }
    result = view.hand_result
    if result is not None:
        out["result"] = _hand_end(result)
    return out


def _hand_end(ev: HandEndEvent) -> dict[str, Any]:
    return {
        "tricks": list(ev.tricks),
        "points": list(ev.points),
        "scores": list(ev.scores),
        "passedOut": ev.passed_out,
        "declarer": ev.declarer,
        "made": ev.made,
    }


def game_end_json(end: GameEndEvent) -> dict[str, Any]:
    return {"scores": list(end.scores), "winner": end.winner, "reason": end.reason, "detail": end.detail}


def goal_text(rules: Rules) -> str:
    if rules.game_over == "points":
        return f"game to {rules.game_points}"
    return f"game of {rules.game_hands} hand{'s' if rules.game_hands != 1 else ''}"


# ------------------------------------------------------------------ the page's answers


def action_from(view: SeatView, decision: Decision, answer: Any) -> object:
    """The engine action the page asks for (``{"card": "JH"}``, ``{"bid": "4 S"}``, ``{"trump": "S"}``,
    ``{"cards": [...]}``), checked against the decision's legal choices; ``Refused`` saying why not."""
    if not isinstance(answer, dict):
        raise Refused("the answer must be a JSON object")
    kind = decision.kind
    try:
        if kind is DecisionKind.PLAY:
            card = parse_card(_text(answer, "card"))
            if card not in decision.cards:
                raise Refused(f"{card_str(card)} cannot be played now: play one of {_list(decision.cards)}")
            return card
        if kind is DecisionKind.BID:
            bid = Bid.parse(_text(answer, "bid"))
            if bid not in decision.bids:
                raise Refused(f"{bid.text()!r} is not a bid you may make now")
            return bid
        if kind is DecisionKind.TRUMP:
            trump = Trump.parse(_text(answer, "trump"))
            if trump not in decision.trumps:
                raise Refused(f"{trump.text()} cannot be named trump now")
            return trump
        texts = answer.get("cards")
        if not isinstance(texts, list) or not all(isinstance(t, str) for t in texts):
            raise Refused('give the cards as a list of cards, like ["JH", "9C"]')
        cards = [parse_card(t) for t in texts]
    except InvalidActionError as exc:
        raise Refused(str(exc)) from None
    if len(cards) != decision.count:
        raise Refused(f"choose {decision.count} card{'s' if decision.count != 1 else ''}, not {len(cards)}")
    if Counter(cards) - Counter(view.hand):
        raise Refused(f"{' '.join(card_str(c) for c in cards)}: not all of them are in your hand")
    return cards


def _text(answer: dict[str, Any], key: str) -> str:
    value = answer.get(key)
    if not isinstance(value, str):
        raise Refused(f"the answer names no {key}")
    return value


def _list(cards: Sequence[Card]) -> str:
    return " ".join(dict.fromkeys(card_str(c) for c in cards))


def action_json(action: object) -> Any:
    """An answer as the page names it (a card, a bid, a trump, a list of cards, ``"claim"``); ValueError for
    anything else."""
    if isinstance(action, Bid | Trump):
        return action.text()
    if isinstance(action, ClaimAnswer):
        return "claim"
    if isinstance(action, list | tuple):
        return [card_str(c) for c in sorted(action)]
    if isinstance(action, int):
        return card_str(action)
    raise ValueError(f"not an answer the page can show: {action!r}")


_CARDS = Cards(fancy=True)


def choice_text(action: object) -> str:
    """An answer as a person reads it: ``J♥``, ``4♠``, ``high``, ``J♥ 9♣``, ``claim``."""
    if isinstance(action, Bid):
        return "pass" if action.is_pass else _CARDS.bid(action).plain
    if isinstance(action, Trump):
        return _CARDS.trump(action).plain
    if isinstance(action, ClaimAnswer):
        return "claim"
    if isinstance(action, list | tuple):
        return _CARDS.cards(sorted(action)).plain
    if isinstance(action, int):
        return _CARDS.card(action).plain
    raise ValueError(f"not an answer the page can show: {action!r}")


# A bid typed with its trump stuck to its level or as a symbol: "4s", "4♠", "call1h".
_TYPED_BID = re.compile(rf"^\s*(\d+|{'|'.join(SPECIALS)})\s*([shdc♠♥♦♣])\s*$", re.IGNORECASE)
_SYMBOL_LETTERS = {"♠": "S", "♥": "H", "♦": "D", "♣": "C"}


def typed_bid(text: str, decision: Decision) -> Bid:
    """The bid a person typed (``4 S``, ``4s``, ``4♠``, ``pass``, ``call1 h``), which must be one of the
    decision's; ``Refused`` naming the bids this decision allows otherwise."""
    if (m := _TYPED_BID.match(text)) is not None:
        text = f"{m.group(1)} {_SYMBOL_LETTERS.get(m.group(2), m.group(2))}"
    try:
        bid = Bid.parse(text)
    except InvalidActionError:
        raise Refused(f"{text.strip()!r} is not a bid: {bids_allowed(decision)}") from None
    if bid not in decision.bids:
        raise Refused(f"{choice_text(bid)} is not a bid you may make now: {bids_allowed(decision)}")
    return bid


def bids_allowed(decision: Decision) -> str:
    """The decision's bids in a few words: "you may pass, or bid 1 to 8, call2 or moon, with ♠, ♥, ♦, ♣ or high"."""
    heads: dict[str, list[str]] = {}
    for b in decision.bids:
        if not b.is_pass:
            heads.setdefault(str(b.level) if b.kind == "level" else str(b.kind), []).append(
                "" if b.trump is None else _CARDS.trump(b.trump).plain
            )
    levels = [h for h in heads if h.isdigit()]
    names = ([f"{levels[0]} to {levels[-1]}" if len(levels) > 2 else " or ".join(levels)] if levels else []) + [
        h for h in heads if not h.isdigit()
    ]
    trumps = {tuple(t) for t in heads.values()}
    said = names[0] if len(names) == 1 else ", ".join(names[:-1]) + " or " + names[-1]
    if len(trumps) == 1 and (shared := next(iter(trumps))) != ("",):
        said += ", with " + ", ".join(shared[:-1]) + " or " + shared[-1] if len(shared) > 1 else f", in {shared[0]}"
    elif len(trumps) > 1:
        said = "; ".join(f"{h} with {' or '.join(t for t in ts if t)}" if any(ts) else h for h, ts in heads.items())
    may_pass = any(b.is_pass for b in decision.bids)
    if not heads:
        return "you may only pass"
    return f"you may {'pass, or ' if may_pass else ''}bid {said}"
