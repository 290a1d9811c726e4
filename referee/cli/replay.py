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
from referee.cli import options as opt
from referee.cli.app import Status, app, console, fail, user_errors
from referee.engine.game import Decision, DecisionKind
from referee.gamelog import LogError, NotAGameLog
from referee.names import shown_name
from referee.replay.html import viewer_page
from referee.replay.logfile import MatchLog, load_log
from referee.replay.settings import Mode, ReplayChoices, decision_at, one_game
from referee.replay.settings import choose as choose_replay
from referee.replay.text import Selection, render_match
from referee.replay.verify import verify_log

Game = Annotated[str | None, opt.option(ReplayChoices, "game")]  # text: checked against the log
Hand = Annotated[str | None, opt.option(ReplayChoices, "hand")]
Trick = Annotated[str | None, opt.option(ReplayChoices, "trick")]
Seat = Annotated[str | None, opt.option(ReplayChoices, "seat")]
Verify = Annotated[bool | None, opt.option(ReplayChoices, "verify")]
Ask = Annotated[str | None, opt.option(ReplayChoices, "ask")]
At = Annotated[str | None, opt.option(ReplayChoices, "at")]
Prime = Annotated[str | None, opt.option(ReplayChoices, "prime")]
Html = Annotated[Path | None, opt.option(ReplayChoices, "html")]


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
    ctx: typer.Context,
    log: Annotated[Path, typer.Argument(help="A game log (JSONL), as written by `arena match`.", show_default=False)],
    game: Game = None,
    hand: Hand = None,
    trick: Trick = None,
    seat: Seat = None,
    verify: Verify = None,
    ask: Ask = None,
    at: At = None,
    prime: Prime = None,
    html: Html = None,
) -> None:
    """Show a logged game hand by hand, check it against the engine (--verify), write it as a web page (--html),
    or re-ask a bot one of its decisions (--ask with --at)."""
    with user_errors(OSError):
        chosen = ReplayChoices.from_options(ctx.params)
        match = _load(log, bool(chosen.verify))
        todo = choose_replay(match, chosen)
        selection = todo.selection
        if todo.mode is Mode.ASK and chosen.ask is not None and chosen.at is not None:
            _ask(match, selection, chosen.ask, chosen.at, chosen.value("prime"))
            return
        if chosen.at is not None:
            selection = _open_at(match, selection, chosen.at, todo.mode is Mode.HTML)
        if todo.mode is Mode.VERIFY:
            _verify(match, selection.game)
        elif todo.mode is Mode.HTML and chosen.html is not None:
            page = viewer_page(match, selection.game, start_hand=selection.hand, start_seat=selection.seat)
            chosen.html.write_text(page, encoding="utf-8")
            console.print(f"wrote {chosen.html}", highlight=False, soft_wrap=True)
        else:
            render_match(
                console, match, selection, fancy=console.is_terminal and console.encoding.lower().startswith("utf")
            )


def _open_at(match: MatchLog, selection: Selection, at: str, page: bool) -> Selection:
    """``--at ADDRESS`` without ``--ask``: say which decision it is, and show the game from there (its hand,
    from its trick; a page opens at its hand)."""
    from referee.replay.ask import AskError, action_text

    with user_errors(AskError):
        found = decision_at(match, selection, at)
    point, decision = found.point, found.point.decision
    name = shown_name(found.logged.seat_names[decision.seat])
    where = f"hand {point.hand}" + (f", trick {point.trick}" if point.trick else "")
    verb = _VERBS.get(decision.kind, decision.kind.value)
    taken = action_text(decision.kind, point.action)
    console.print(
        f"{match.path}: game {found.game}, decision {point.number} ({where}): seat {decision.seat} ({name}) to "
        f"{verb}, log line {point.line}: {taken}",
        highlight=False,
        soft_wrap=True,
    )
    trick = point.trick or None if not page else None
    return Selection(game=found.game, hand=point.hand, trick=trick, seat=selection.seat)


def _ask(match: MatchLog, selection: Selection, command: str, at: str, prime: str) -> None:
    """``--ask COMMAND --at ADDRESS``: the logged request put to the bot again, its answer beside the log's."""
    # imported here: only --ask needs the referee's server (and grpc)
    from referee.replay.ask import Address, action_text, bot_command, find_request, run_ask, same_action

    with user_errors():
        address = Address.parse(at)
        bot = bot_command(command)
        bot.check_runnable()
        game = one_game(match, selection)
        request = find_request(match, game, address, prime)
        point, decision = request.point, request.decision
        if selection.seat is not None and selection.seat != decision.seat:  # --seat S: the seat it is asked of
            raise fail(
                f"the decision at {address.text} is seat {decision.seat}'s, not seat {selection.seat}'s",
                Status.BAD_INPUT,
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
