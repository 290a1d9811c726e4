"""``arena replay LOG``: show a logged game, verify a log, write an HTML viewer, re-ask a bot.

Numbers given on the command line are checked here so that a bad one gets the
same one-line error (exit status 2, bad input) as a file that is not a game log.
``--verify`` fails (exit status 1) where the log is damaged or disagrees with the
engine: that is what it checks.
"""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

from referee.bots import output_lines
from referee.cli.app import Status, app, console, fail, user_errors
from referee.engine.game import Decision, DecisionKind
from referee.gamelog import LogError, NotAGameLog
from referee.names import shown_name
from referee.replay.html import viewer_page
from referee.replay.logfile import MatchLog, load_log
from referee.replay.text import Selection, render_match
from referee.replay.verify import verify_log


def _number(option: str, text: str | None, low: int, high: int | None = None) -> int | None:
    """A whole number from the command line, or a one-line error naming the option."""
    if text is None:
        return None
    try:
        value = int(text)
    except ValueError:
        raise fail(f"{option} needs a whole number, got {text!r}", Status.BAD_INPUT) from None
    if value < low or (high is not None and value > high):
        bounds = f"{low}..{high}" if high is not None else f"at least {low}"
        raise fail(f"{option} must be {bounds}, got {value}", Status.BAD_INPUT)
    return value


def _load(path: Path, verify: bool) -> MatchLog:
    """The log at ``path``; with ``verify``, a damaged line is what the check found (exit status 1)."""
    if not path.exists():
        raise fail(f"{path}: no such file", Status.BAD_INPUT)
    if not path.is_file():
        raise fail(f"{path}: not a file", Status.BAD_INPUT)
    try:
        return load_log(path)
    except LogError as exc:
        if verify and not isinstance(exc, NotAGameLog):
            raise fail(str(exc), Status.FAILED) from None
        raise


@app.command("replay")
def replay_command(
    log: Annotated[Path, typer.Argument(help="A game log (JSONL), as written by `arena match`.", show_default=False)],
    game: Annotated[
        str | None, typer.Option("--game", "-g", metavar="G", help="Only game G of a log holding several (1-based).")
    ] = None,
    hand: Annotated[str | None, typer.Option("--hand", "-n", metavar="N", help="Only hand N (1-based).")] = None,
    trick: Annotated[
        str | None,
        typer.Option("--trick", "-t", metavar="T", help="With --hand: start at trick T, showing who held what."),
    ] = None,
    seat: Annotated[
        str | None, typer.Option("--seat", "-s", metavar="S", help="Show only what seat S knew at each point.")
    ] = None,
    verify: Annotated[
        bool, typer.Option("--verify", help="Re-run the engine over the log and check every record.")
    ] = False,
    ask: Annotated[
        str | None,
        typer.Option(
            "--ask",
            metavar="COMMAND",
            help="Start this bot (COMMAND, or NAME=COMMAND as for `arena match --bot`), serve it the request "
            "logged at --at and print its answer beside the logged one.",
        ),
    ] = None,
    at: Annotated[
        str | None,
        typer.Option(
            "--at",
            metavar="ADDRESS",
            help="A decision: HAND.TRICK.SEAT (a play), HAND.bid.SEAT[.TURN], HAND.trump, HAND.give.SEAT, "
            "HAND.discard, or #N (the game's N-th decision). Alone: show the game from there; with --ask: "
            "put it to a bot.",
        ),
    ] = None,
    prime: Annotated[
        str,
        typer.Option(
            "--prime",
            metavar="game|hand|none",
            help="With --ask: first serve the seat's earlier requests of the whole game, of the hand only, or none.",
        ),
    ] = "game",
    html: Annotated[
        Path | None,
        typer.Option(
            "--html",
            metavar="OUT.html",
            help="Write a self-contained page that steps through the game on a card table "
            "(--hand and --seat choose where it opens).",
        ),
    ] = None,
) -> None:
    """Show a logged game hand by hand, check it against the engine (--verify), write it as a web page (--html),
    or re-ask a bot one of its decisions (--ask with --at)."""
    with user_errors(OSError):
        match = _load(log, verify)
        rules = match.rules
        selection = Selection(
            game=_number("--game", game, 1),
            hand=_number("--hand", hand, 1),
            trick=_number("--trick", trick, 1, rules.cards_each),
            seat=_number("--seat", seat, 0, rules.players - 1),
        )
        if selection.trick is not None and selection.hand is None:
            raise fail("--trick needs --hand (the hand the trick belongs to)", Status.BAD_INPUT)
        modes = [name for name, on in (("--verify", verify), ("--html", html is not None), ("--ask", ask)) if on]
        if len(modes) > 1:
            raise fail(f"choose one of {' and '.join(modes)}", Status.BAD_INPUT)
        if ask is not None:
            _ask(match, selection, ask, at, prime)
            return
        if at is not None:
            if verify:
                raise fail("choose one of --verify and --at", Status.BAD_INPUT)
            selection = _open_at(match, selection, at, html is not None)
        if verify:
            if selection.hand is not None or selection.seat is not None:
                raise fail("--verify checks whole games: drop --hand, --trick and --seat", Status.BAD_INPUT)
            _verify(match, selection.game)
            return
        if html is not None:
            if selection.trick is not None:
                raise fail("--html opens at the start of a hand: drop --trick", Status.BAD_INPUT)
            page = viewer_page(match, selection.game, start_hand=selection.hand, start_seat=selection.seat)
            html.write_text(page, encoding="utf-8")
            console.print(f"wrote {html}", highlight=False, soft_wrap=True)
            return
        fancy = console.is_terminal and console.encoding.lower().startswith("utf")
        render_match(console, match, selection, fancy=fancy)


def _open_at(match: MatchLog, selection: Selection, at: str, page: bool) -> Selection:
    """``--at ADDRESS`` without ``--ask``: say which decision it is, and show the game from there (its hand,
    from its trick; a page opens at its hand)."""
    from referee.replay.ask import Address, AskError
    from referee.replay.steps import DecisionPoint, GameReplay

    if selection.hand is not None or selection.trick is not None:
        raise fail("--at names the decision: drop --hand and --trick", Status.BAD_INPUT)
    with user_errors(AskError):
        address = Address.parse(at)
        game = selection.game
        if game is None:
            if len(match.games) != 1:
                raise fail(f"{match.path} holds {len(match.games)} games: choose one with --game", Status.BAD_INPUT)
            game = 1
        logged = match.game(game)
        replay = GameReplay(match, logged)
        point = next((p for p in replay if isinstance(p, DecisionPoint) and address.matches(p)), None)
        if point is None:
            where = f" (the log is cut off: game {game} stops {replay.cut_off})" if replay.cut_off else ""
            raise AskError(f"game {game} has no decision {address.text}{where}")
    from referee.replay.ask import action_text

    decision = point.decision
    name = shown_name(logged.seat_names[decision.seat])
    where = f"hand {point.hand}" + (f", trick {point.trick}" if point.trick else "")
    verb = _VERBS.get(decision.kind, decision.kind.value)
    taken = action_text(decision.kind, point.action)
    console.print(
        f"{match.path}: game {game}, decision {point.number} ({where}): seat {decision.seat} ({name}) to {verb}, "
        f"log line {point.line}: {taken}",
        highlight=False,
        soft_wrap=True,
    )
    trick = point.trick or None if not page else None
    return Selection(game=game, hand=point.hand, trick=trick, seat=selection.seat)


def _ask(match: MatchLog, selection: Selection, command: str | None, at: str | None, prime: str) -> None:
    # imported here: only --ask needs the referee's server (and grpc)

    with user_errors():
        _ask_bot(match, selection, command, at, prime)


def _ask_bot(match: MatchLog, selection: Selection, command: str | None, at: str | None, prime: str) -> None:
    from referee.replay.ask import PRIMING, Address, action_text, bot_command, find_request, run_ask, same_action

    if command is None or at is None:
        raise fail("--ask COMMAND and --at ADDRESS go together", Status.BAD_INPUT)
    if selection.hand is not None or selection.trick is not None:
        raise fail("--at names the decision: drop --hand and --trick", Status.BAD_INPUT)
    address = Address.parse(at)
    if prime not in PRIMING:
        raise fail(f"--prime must be one of {', '.join(PRIMING)}, got {prime!r}", Status.BAD_INPUT)
    bot = bot_command(command)
    bot.check_runnable()
    game = selection.game
    if game is None:
        if len(match.games) != 1:
            raise fail(f"{match.path} holds {len(match.games)} games: choose one with --game", Status.BAD_INPUT)
        game = 1
    request = find_request(match, game, address, prime)
    point, decision = request.point, request.decision
    if selection.seat is not None and selection.seat != decision.seat:  # --seat S: the seat it is asked of
        raise fail(
            f"the decision at {address.text} is seat {decision.seat}'s, not seat {selection.seat}'s", Status.BAD_INPUT
        )
    names = request.replay.logged.seat_names
    where = f"hand {point.hand}" + (f", trick {point.trick}" if point.trick else "")
    console.print(
        f"{match.path}: game {game}, decision {point.number} ({where}): seat {decision.seat} "
        f"({shown_name(names[decision.seat])}) to {_VERBS.get(decision.kind, decision.kind.value)}, "
        f"log line {point.line}",
        highlight=False,
        soft_wrap=True,
    )
    console.print(f"  legal: {_choices(decision)}", highlight=False, soft_wrap=True)
    earlier = f", after its {len(request.earlier)} earlier request(s)" if request.earlier else ""
    console.print(
        f"  request {request.request_id}: {len(request.events)} new event(s), time limit {request.time_limit_ms} ms"
        f"{f', time bank {request.time_bank_ms} ms' if request.time_bank_ms else ''}{earlier}",
        highlight=False,
        soft_wrap=True,
    )
    logged = action_text(decision.kind, point.action)
    if point.refused_claims:
        logged += " (after its claim was refused)"
    faults = "; ".join(f"{v.kind}: {shown_name(v.detail, 500)}" for v in point.violations)
    if not request.was_asked:
        logged += " (played by the referee: the bot had crashed and was not asked)"
    elif faults:
        logged += f" (played by the referee after {faults})"
    console.print(f"  logged: {logged}", highlight=False, soft_wrap=True)
    answer = run_ask(match, request, bot, match.path.parent)
    if answer.action is None:
        console.print("  asked:  no answer", highlight=False)
        _print_output(answer.output)
        raise fail(f"bot {bot.name!r}: {answer.problem}", Status.FAILED)
    text = action_text(decision.kind, answer.action)
    if answer.claim is not None:
        text += " (accepted: the hand ends)" if answer.claim.accepted else " (refused: the seat plays a card next)"
    if not answer.legal:
        console.print(f"  asked:  {text}", highlight=False, soft_wrap=True)
        _print_output(answer.output)
        raise fail(f"bot {bot.name!r} answered {text}: {answer.problem}", Status.FAILED)
    same = "same as the log" if same_action(decision.kind, answer.action, point.action) else "differs from the log"
    console.print(f"  asked:  {text} ({same})", highlight=False, soft_wrap=True)
    _print_output(answer.output)


# The bot's last lines printed after its answer (the whole of it is in the file named).
OUTPUT_LINES = 5


def _print_output(output: Path | None) -> None:
    """Where the asked bot's stdout and stderr went, and its last lines: why it chose what it did, if it says."""
    if output is None:
        return
    lines = output_lines(output, OUTPUT_LINES)
    said = f", its last {len(lines)} line(s):" if lines else " (it printed nothing)"
    console.print(f"  output: {output}{said}", highlight=False, soft_wrap=True, markup=False)
    for line in lines:
        console.print(f"    {line}", highlight=False, soft_wrap=True, markup=False)


def _verify(match: MatchLog, game: int | None) -> None:
    """``--verify``: the summary, or the first record that disagrees with the engine (exit status 1: the check
    failed; a file that is no game log at all is bad input, 2)."""
    if game is not None:
        match.game(game)  # no such game: bad input, not a failed check
    try:
        console.print(verify_log(match, game).summary(), highlight=False, soft_wrap=True)
    except LogError as exc:
        raise fail(str(exc), Status.FAILED) from None


_VERBS = {DecisionKind.TRUMP: "name trump"}


def _choices(decision: Decision) -> str:
    """The legal choices of a decision, in the log's notation."""
    from referee.replay.ask import action_text

    if decision.kind is DecisionKind.GIVE or decision.kind is DecisionKind.DISCARD:
        to = f" to seat {decision.to}" if decision.to is not None else ""
        return f"any {decision.count} of {action_text(decision.kind, decision.options)}{to}"
    shown = [action_text(decision.kind, option) for option in decision.options]
    more = f" ... ({len(shown)} in all)" if len(shown) > 24 else ""
    return ", ".join(shown[:24]) + more
