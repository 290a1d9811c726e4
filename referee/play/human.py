"""The person's client: an SDK bot whose decisions are typed in the terminal.

``arena play`` starts this module as a process of its own on the terminal,
with ARENA_ADDRESS and ARENA_TOKEN like any bot (``python -m
referee.play.human``). It connects through the SDK's runner, so it sees
exactly what a bot at that seat sees. At each decision it clears the screen,
draws the table (``referee.play.screen``), offers the legal choices by number
and reads one line; a hand's end and the game's end are shown as they arrive,
and the next hand waits for Enter so the result can be read.
"""

from __future__ import annotations

import asyncio
import re
import sys
from collections.abc import Callable, Sequence

from rich.console import Console
from rich.markup import escape

from referee.engine.events import GameEndEvent
from referee.engine.game import DecisionKind
from referee.engine.view import SeatView
from referee.logging import configure
from referee.play.screen import Choice, TableScreen
from sdk.bot import Bot
from sdk.runner import SessionError, parse_args, play_session

PERSON_NAME = "human"


class HumanBot(Bot):
    """Every decision is asked of the person at the terminal."""

    name = PERSON_NAME
    version = "1"

    def __init__(self, console: Console, read: Callable[[str], str] | None = None) -> None:
        super().__init__()
        self.console = console
        self.read = read or console.input  # raises EOFError when the terminal closes
        self.screen: TableScreen | None = None
        self.pause = False  # a result is on screen: wait for Enter before the next table
        self.games = 0  # games started in this session

    # ---------------------------------------------------------------- hooks

    def game_start(self, view: SeatView) -> None:
        self.games += 1
        self.screen = TableScreen(
            view.rules, view.seat, self.seat_names, fancy=self.console.is_terminal, game=self.games
        )

    def hand_end(self, view: SeatView) -> None:
        self.console.print()
        self.console.print(self._screen().hand_summary(view))
        self.pause = True

    def game_over(self, view: SeatView, winner: int | None, reason: str) -> None:
        end = next((ev for ev in view.events if isinstance(ev, GameEndEvent)), None)
        if end is None:
            end = GameEndEvent(view.scores, winner, reason)
        self.console.print()
        self.console.print(self._screen().game_summary(end))
        self.pause = True

    def decide(self, view: SeatView) -> object:
        decision = view.decision
        if decision is None:
            raise ValueError("the view has no decision to take")
        screen = self._screen()
        if self.pause:
            self.read("Press Enter to go on ")
            self.pause = False
        self.console.clear()
        self.console.print(screen.table(view))
        question, choices = screen.choices(view, decision)
        self.console.print(screen.menu(question, choices))
        picked: object
        if decision.kind in (DecisionKind.GIVE, DecisionKind.DISCARD):
            picked = [choices[i].value for i in self._pick_many(choices, decision.count)]
        else:
            picked = choices[self._pick_one(choices)].value
        self.console.print("[dim]waiting for the other players...[/]")
        return picked

    def _screen(self) -> TableScreen:
        if self.screen is None:
            raise RuntimeError("a decision before the game started")
        return self.screen

    # ---------------------------------------------------------------- input

    def _pick_one(self, choices: Sequence[Choice]) -> int:
        """The index chosen: its number, or its text as shown (``JH``, ``4 S``, ``pass``)."""
        n = len(choices)
        while True:
            answer = self.read(f"Choose 1-{n}: ").strip()
            if answer.isdigit() and 1 <= int(answer) <= n:
                return int(answer) - 1
            matches = [i for i, c in enumerate(choices) if c.matches(answer)]
            if len(matches) == 1:
                return matches[0]
            self.console.print(
                f"[yellow]{escape(repr(answer))} is not one of the choices: type a number from 1 to {n}.[/]"
            )

    def _pick_many(self, choices: Sequence[Choice], count: int) -> list[int]:
        """``count`` different indices, typed as numbers separated by spaces or commas."""
        n = len(choices)
        while True:
            answer = self.read(f"Choose {count} of 1-{n}: ").strip()
            parts = [p for p in re.split(r"[\s,]+", answer) if p]
            numbers = [int(p) for p in parts if p.isdigit()]
            if len(numbers) == len(parts) == count and len(set(numbers)) == count and all(1 <= k <= n for k in numbers):
                return [k - 1 for k in numbers]
            self.console.print(
                f"[yellow]{escape(repr(answer))}: type {count} different "
                f"number{'s' if count > 1 else ''} from 1 to {n}.[/]"
            )


def main(argv: Sequence[str] | None = None) -> None:
    """Play the seat whose token is given (ARENA_ADDRESS / ARENA_TOKEN, or --address / --token)."""
    console = Console(highlight=False, emoji=False)  # bot names and cards are text, never ":emoji:" codes
    bot = HumanBot(console)
    args = parse_args(sys.argv[1:] if argv is None else argv, bot)
    configure("warning")
    try:
        asyncio.run(play_session(bot, args.address, args.token))
    except SessionError as exc:
        console.print(f"[bold red]error:[/] {escape(str(exc))}", soft_wrap=True)
        raise SystemExit(1) from None
    except (KeyboardInterrupt, EOFError):
        console.print("\nyou left the table")
        raise SystemExit(130) from None


if __name__ == "__main__":
    main()
