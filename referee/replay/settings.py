"""``arena replay``'s settings, declared once (``ReplayChoices``), and what they ask of a log (``choose``).

The numbers (``--game``, ``--hand``, ``--trick``, ``--seat``) are given as text and checked against the
log once it is read (its number of seats and cards), so that a bad one is the same one-line error (exit
status 2, bad input) as a file that is not a game log. ``choose`` says which one thing is asked: show the
game, check it against the engine (``--verify``), write its page (``--html``), or put one of its decisions
to a bot again (``--ask``); ``decision_at`` finds the decision ``--at`` names.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum
from pathlib import Path
from typing import TYPE_CHECKING

from referee.errors import InputError
from referee.replay.logfile import LoggedGame, MatchLog
from referee.replay.text import Selection
from referee.setting import Choices, Flag, Numeral, OutputPath, Text, declare

if TYPE_CHECKING:  # the steps of a game replayed: only --at needs them
    from referee.replay.steps import DecisionPoint


class ReplayUsage(InputError):
    """Options that do not go together, or a number the log has not: one line, exit status 2."""


@dataclass(frozen=True)
class ReplayChoices(Choices):
    """What ``arena replay``'s options named (None: not named)."""

    game: int | None = declare(
        Numeral("G"), "Only game G of a log holding several (1-based).", flag="--game", short="-g"
    )
    hand: int | None = declare(Numeral("N"), "Only hand N (1-based).", flag="--hand", short="-n")
    trick: int | None = declare(
        Numeral("T"), "With --hand: start at trick T, showing who held what.", flag="--trick", short="-t"
    )
    seat: int | None = declare(Numeral("S"), "Show only what seat S knew at each point.", flag="--seat", short="-s")
    verify: bool | None = declare(
        Flag(), "Re-run the engine over the log and check every record.", default=False, flag="--verify"
    )
    ask: str | None = declare(
        Text("a bot's command", metavar="COMMAND"),
        "Start this bot (COMMAND, or NAME=COMMAND as for `arena match --bot`), serve it the request logged at --at "
        "and print its answer beside the logged one.",
        flag="--ask",
    )
    at: str | None = declare(
        Text("a decision's address", metavar="ADDRESS"),
        "A decision: HAND.TRICK.SEAT (a play), HAND.bid.SEAT[.TURN], HAND.trump, HAND.give.SEAT, HAND.discard, or "
        "#N (the game's N-th decision). Alone: show the game from there; with --ask: put it to a bot.",
        flag="--at",
    )
    prime: str | None = declare(
        Text("game, hand or none", metavar="game|hand|none"),
        "With --ask: first serve the seat's earlier requests of the whole game, of the hand only, or none.",
        default="game",
        flag="--prime",
    )
    html: Path | None = declare(
        OutputPath("OUT.html"),
        "Write a self-contained page that steps through the game on a card table (--hand and --seat choose where "
        "it opens).",
        flag="--html",
    )


class Mode(StrEnum):
    """The one thing a replay is asked to do."""

    SHOW = "show"
    VERIFY = "verify"
    HTML = "html"
    ASK = "ask"


@dataclass(frozen=True)
class Chosen:
    """What to do with the log, and which part of it."""

    mode: Mode
    selection: Selection


def _number(option: str, value: int | None, low: int, high: int | None = None) -> int | None:
    """A number of the command line in its range, or a one-line error naming the option."""
    if value is not None and (value < low or (high is not None and value > high)):
        bounds = f"{low}..{high}" if high is not None else f"at least {low}"
        raise ReplayUsage(f"{option} must be {bounds}, got {value}")
    return value


def choose(match: MatchLog, chosen: ReplayChoices) -> Chosen:
    """The mode and the selection ``chosen`` asks of ``match``; ReplayUsage (one line) for numbers the log has
    not and for options that do not go together."""
    rules = match.rules
    selection = Selection(
        game=_number("--game", chosen.game, 1),
        hand=_number("--hand", chosen.hand, 1),
        trick=_number("--trick", chosen.trick, 1, rules.cards_each),
        seat=_number("--seat", chosen.seat, 0, rules.players - 1),
    )
    if selection.trick is not None and selection.hand is None:
        raise ReplayUsage("--trick needs --hand (the hand the trick belongs to)")
    named = [(Mode.VERIFY, "--verify", bool(chosen.verify)), (Mode.HTML, "--html", chosen.html is not None)]
    modes = [(mode, flag) for mode, flag, on in [*named, (Mode.ASK, "--ask", chosen.ask is not None)] if on]
    if len(modes) > 1:
        raise ReplayUsage(f"choose one of {' and '.join(flag for _, flag in modes)}")
    mode = modes[0][0] if modes else Mode.SHOW
    if mode is Mode.ASK:
        _check_ask(chosen, selection)
        return Chosen(mode, selection)
    if chosen.at is not None and mode is Mode.VERIFY:
        raise ReplayUsage("choose one of --verify and --at")
    if mode is Mode.VERIFY and (selection.hand is not None or selection.seat is not None):
        raise ReplayUsage("--verify checks whole games: drop --hand, --trick and --seat")
    if mode is Mode.HTML and chosen.at is None and selection.trick is not None:
        raise ReplayUsage("--html opens at the start of a hand: drop --trick")
    return Chosen(mode, selection)


def _check_ask(chosen: ReplayChoices, selection: Selection) -> None:
    """ReplayUsage unless ``--ask`` has what it needs: the decision (``--at``), and a priming it knows."""
    from referee.replay.ask import PRIMING

    if chosen.at is None:
        raise ReplayUsage("--ask COMMAND and --at ADDRESS go together")
    if selection.hand is not None or selection.trick is not None:
        raise ReplayUsage("--at names the decision: drop --hand and --trick")
    prime = chosen.value("prime")
    if prime not in PRIMING:
        raise ReplayUsage(f"--prime must be one of {', '.join(PRIMING)}, got {prime!r}")


def one_game(match: MatchLog, selection: Selection) -> int:
    """The game a decision is looked for in: the one chosen, or the log's only one."""
    if selection.game is not None:
        return selection.game
    if len(match.games) != 1:
        raise ReplayUsage(f"{match.path} holds {len(match.games)} games: choose one with --game")
    return 1


@dataclass(frozen=True)
class Found:
    """The decision ``--at`` names: its game, the logged game and the point of it."""

    game: int
    logged: LoggedGame
    point: DecisionPoint


def decision_at(match: MatchLog, selection: Selection, at: str) -> Found:
    """The decision at ``--at ADDRESS`` in the chosen game; AskError or ReplayUsage (one line) when there is
    none."""
    from referee.replay.ask import Address, AskError
    from referee.replay.steps import DecisionPoint, GameReplay

    if selection.hand is not None or selection.trick is not None:
        raise ReplayUsage("--at names the decision: drop --hand and --trick")
    address = Address.parse(at)
    game = one_game(match, selection)
    logged = match.game(game)
    replay = GameReplay(match, logged)
    point = next((p for p in replay if isinstance(p, DecisionPoint) and address.matches(p)), None)
    if point is None:
        where = f" (the log is cut off: game {game} stops {replay.cut_off})" if replay.cut_off else ""
        raise AskError(f"game {game} has no decision {address.text}{where}")
    return Found(game, logged, point)
