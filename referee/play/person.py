"""A match with a person at one seat: the referee here, the person's client on the terminal.

``play_with_person`` runs an ordinary ``Match`` (server, bot processes, game
log) in which the person's seat is a player started by hand: this module
starts the client (``referee.play.human``) as a child process that keeps the
terminal, with the seat's token, as ``arena serve`` asks a person to do. The
seat's time control is its own (no limit by default), so the referee waits
for the person as long as it takes; the bots keep the match's.

If the client ends before the match does (the person closed the terminal or
pressed Ctrl-D), the match is stopped and ``PersonLeft`` says so; the log
holds every complete game.
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import sys
from collections.abc import Callable, Coroutine, Sequence
from typing import Any

from referee.bots import die_with_parent
from referee.deadline import TimeControl
from referee.engine.rules import Rules
from referee.errors import ArenaError, ConfigError
from referee.match import GameResult, Match, MatchConfig, MatchResult, SeatBot
from referee.play.human import PERSON_NAME

# How long the client may take to leave after the match's Shutdown.
CLIENT_EXIT_S = 10.0


class PersonLeft(ArenaError):
    """The person's client ended before the match did."""


def browser_client(port: int, features_json: str, others: int | None = None) -> Callable[[Match], Sequence[str]]:
    """The browser table's client (``referee.browserseat``) as a command for a match: it serves the table on
    127.0.0.1:``port`` and reads the match's log after each hand and game; ``others``: the level of the bots at
    the other seats (None: bots of --bot), for the deal played again by the strongest level."""

    def command(match: Match) -> Sequence[str]:
        argv = [sys.executable, "-m", "referee.browserseat", "--port", str(port), "--features", features_json]
        return [*argv, "--log", str(match.log_path), *(["--others", str(others)] if others is not None else [])]

    return command


def person_seat() -> SeatBot:
    """The person's seat: started by hand (the client), with no time limit."""
    return SeatBot(PERSON_NAME, None, TimeControl.unlimited())


def seats_around(rules: Rules, seat: int, person: SeatBot, bots: Sequence[SeatBot]) -> tuple[SeatBot, ...]:
    """The person at ``seat``; one bot at every other seat, or one bot per other seat clockwise from the
    person's left. Bad counts raise ConfigError with a one-line message."""
    players = rules.players
    if not 0 <= seat < players:
        raise ConfigError(f"seat {seat} is not a seat of a {players}-player game (seats 0 to {players - 1})")
    others = players - 1
    if len(bots) == 1:
        bots = list(bots) * others
    if len(bots) != others:
        raise ConfigError(
            f"{len(bots)} bots for the {others} other seats: give one bot for all of them, "
            f"or one per seat clockwise from your left"
        )
    seats: list[SeatBot] = [person] * players
    for k, bot in enumerate(bots, start=1):
        seats[(seat + k) % players] = bot
    return tuple(seats)


async def play_with_person(
    config: MatchConfig,
    seat: int,
    *,
    on_start: Callable[[Match], None] | None = None,
    on_game: Callable[[GameResult], None] | None = None,
    client: Sequence[str] | Callable[[Match], Sequence[str]] = (sys.executable, "-m", "referee.play.human"),
    linger: bool = False,
) -> MatchResult:
    """Play ``config`` (whose seat ``seat`` is started by hand) with the client on this terminal.

    ``client``: the client's command, or a function of the match that gives it (it may name the log).
    ``linger``: after the match, the client stays until it ends by itself (the browser table keeps its page
    up for the replays and the analysis until the person closes it), not ``CLIENT_EXIT_S`` at most."""
    if config.seats[seat].command is not None:
        raise ValueError(f"seat {seat} is a bot's, not the person's")
    process: asyncio.subprocess.Process | None = None
    try:
        async with Match(config) as match:
            if on_start is not None:
                on_start(match)
            env = dict(os.environ)
            env.update(ARENA_ADDRESS=match.server.address, ARENA_TOKEN=match.players[seat].token)
            argv = client(match) if callable(client) else client
            process = await asyncio.create_subprocess_exec(*argv, env=env, preexec_fn=die_with_parent)
            kept = f"the log holds every complete game: {match.log_path}"
            try:
                result = await _until_left(match.play(on_game=on_game), process)
            except PersonLeft as exc:
                raise PersonLeft(f"{exc}; {kept}") from None
            if not match.players[seat].connected:  # it left, and the referee saw it first (a forfeit)
                raise PersonLeft(f"the game was stopped: the player's client left the table; {kept}")
            # Shutdown to the client first, which then exits, while the server is still up to deliver it
            await match.pool.close("match finished", players=[match.players[seat]])
            await _reap(process, None if linger else CLIENT_EXIT_S)
        return result
    finally:
        if process is not None and process.returncode is None:
            with contextlib.suppress(ProcessLookupError):
                process.kill()
            await process.wait()


async def _until_left(playing: Coroutine[Any, Any, MatchResult], process: asyncio.subprocess.Process) -> MatchResult:
    match_task = asyncio.ensure_future(playing)
    client_task = asyncio.ensure_future(process.wait())
    try:
        await asyncio.wait({match_task, client_task}, return_when=asyncio.FIRST_COMPLETED)
        if match_task.done():
            return match_task.result()
        code = client_task.result()
        raise PersonLeft(f"the game was stopped: the player's client left the table (exit status {code})")
    finally:
        for task in (match_task, client_task):
            if not task.done():
                task.cancel()
                with contextlib.suppress(asyncio.CancelledError):
                    await task


async def _reap(process: asyncio.subprocess.Process, within: float | None) -> None:
    try:
        await asyncio.wait_for(process.wait(), within)
    except TimeoutError:
        process.kill()
        await process.wait()
