"""The ``arena`` typer application and the error handling shared by its commands.

Each command lives in a module of its own, imported when that command runs (or its help is asked): ``COMMANDS``
names the module and the line ``arena --help`` lists for it, so that ``arena --help`` and every command start
without importing the others (a command's module may import a great deal: gRPC, aiohttp, networkx).

Every command ends with one of the exit statuses of ``Status``, one per kind
of outcome, the same in every command (docs/cli.md has the table): errors
become exits here only, in ``fail`` and ``user_errors``, which take the
status from the kind of error (``referee.errors.InputError``: 2).
"""

from __future__ import annotations

import importlib
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from enum import IntEnum
from typing import TYPE_CHECKING, Any

import typer
import typer.main
from rich.console import Console, ConsoleDimensions
from rich.markup import escape
from typer.core import TyperArgument, TyperCommand, TyperGroup, TyperOption

from referee.errors import ArenaError, InputError

if TYPE_CHECKING:  # the typer the arena is developed with vendors click
    from typer import _click as click
else:
    try:  # typer >= 0.20 vendors click; older releases depend on it
        from typer import _click as click
    except ImportError:  # pragma: no cover - depends on the installed typer
        import click


class _PlainArgument(TyperArgument):
    """An argument shown in usage lines the usual way: LOG, not typer's {log}."""

    def get_usage_pieces(self, ctx: click.Context) -> list[str]:
        name = self.metavar or (self.name or "").upper()
        return [name if self.required else f"[{name}]"]


def plain_help(command: Any, ctx: click.Context) -> None:
    """Help as people read it: arguments named in capitals, and no type after a flag (``--verify``, not
    ``--verify <bool>``)."""
    for param in [*command.params, command.get_help_option(ctx)]:
        if isinstance(param, TyperArgument) and not isinstance(param, _PlainArgument):
            param.metavar = param.metavar or (param.name or "").upper()
            param.__class__ = _PlainArgument
        elif isinstance(param, TyperOption) and param.is_flag:
            param.metavar = ""
        elif isinstance(param, TyperOption) and param.multiple and param.metavar is None:
            param.metavar = (param.name or "").upper()  # --bot BOT, not --bot <list[str]>


class ArenaGroup(TyperGroup):
    """The ``arena`` group: every command's help goes through ``plain_help``."""

    def get_command(self, ctx: click.Context, cmd_name: str) -> click.Command | None:
        command = super().get_command(ctx, cmd_name)
        if command is not None:
            plain_help(command, ctx)
            if command.short_help is None and command.help:
                # the list of commands shows a docstring's first paragraph as one line, not broken where the
                # source line ends
                command.short_help = " ".join(command.help.split("\n\n")[0].split())
        return command

    def format_help(self, ctx: click.Context, formatter: click.HelpFormatter) -> None:
        plain_help(self, ctx)
        super().format_help(ctx, formatter)


@dataclass(frozen=True)
class Declared:
    """A command as ``arena`` knows it before importing it: the module whose ``app.command`` (or
    ``app.add_typer``) defines it, and the line ``arena --help`` lists for it (the first paragraph of its help:
    tests/test_cli_usage.py checks they agree)."""

    module: str
    summary: str


# Every command, in the order ``arena --help`` lists them.
COMMANDS = {
    "analyze": Declared(
        "referee.cli.analyze",
        "Rate every decision of the chosen seats by the points it gave up, from that seat's information only, with "
        "the luck of each hand's cards; per game and per bot, with the worst decisions.",
    ),
    "check-bot": Declared(
        "referee.cli.checkbot",
        "Put a bot through every kind of decision on every preset, and the protocol's Hello, Error, restart and "
        "Shutdown; exit status 0 only when every check passes, 1 when one fails, 2 on bad options.",
    ),
    "match": Declared(
        "referee.cli.match",
        "Play a match between bots (each seat its own process) and print the result and the log path.",
    ),
    "new": Declared(
        "referee.cli.new",
        "Start a bot in a new folder: a working starter in Python, JavaScript, C++, Go or Java, its build file, a "
        "README and a first test (arena check-bot); prints the commands to build it, check it and play a first match.",
    ),
    "play": Declared(
        "referee.cli.play",
        "Take a seat at the table in this terminal, or in the browser with --browser; bots play the other seats. "
        "You have no time limit (--move-time is the bots').",
    ),
    "presets": Declared(
        "referee.cli.presets",
        "List the presets, or show every rule option of one (with overrides applied).",
    ),
    "replay": Declared(
        "referee.cli.replay",
        "Show a logged game hand by hand, check it against the engine (--verify), write it as a web page (--html), "
        "or re-ask a bot one of its decisions (--ask with --at).",
    ),
    "report": Declared(
        "referee.cli.report",
        "Write a tournament's report: standings, crosstable, per-bot charts, every game with a replay link.",
    ),
    "serve": Declared(
        "referee.cli.serve",
        "Print the address and one token per seat, wait for bots started by hand (say, in a debugger), then play.",
    ),
    "sprt": Declared(
        "referee.cli.sprt",
        "Play duplicate pairs between two bots until a sequential probability ratio test says which hypothesis holds.",
    ),
    "tournament": Declared(
        "referee.cli.tournament",
        "Play a tournament between bots (a round-robin, a gauntlet, a Swiss or a knockout) and print the standings "
        "(wins, points per hand, Elo).",
    ),
    "ladder": Declared(
        "referee.cli.ladder",
        "A standing ladder: bots and their versions, rated (openskill) as they play; a page shows the ratings.",
    ),
    "club": Declared(
        "referee.cli.club",
        "A club: members send their bots from their own machines over HTTPS; each version is frozen, built in "
        "the sandbox and played on the ladder.",
    ),
}


class _NotImported(TyperCommand):
    """A command whose module is not imported yet: its name and its line in the list of commands."""


class CommandsOnDemand(ArenaGroup):
    """The ``arena`` group itself. It knows every command of ``COMMANDS`` from the start (the list in its help,
    the names typer suggests for a mistyped one), and imports a command's module when the command is looked up
    to run or to show its own help."""

    listing = False  # True while the group's own help is written: the list needs no command imported

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        for name, declared in COMMANDS.items():
            self.commands.setdefault(name, _NotImported(name, short_help=declared.summary))

    def list_commands(self, ctx: click.Context) -> list[str]:
        return list(COMMANDS)

    def get_command(self, ctx: click.Context, cmd_name: str) -> click.Command | None:
        if isinstance(self.commands.get(cmd_name), _NotImported) and not self.listing:
            importlib.import_module(COMMANDS[cmd_name].module)  # its app.command (or app.add_typer) registers it
            self.commands[cmd_name] = _registered(cmd_name)
        return super().get_command(ctx, cmd_name)

    def format_help(self, ctx: click.Context, formatter: click.HelpFormatter) -> None:
        self.listing = True
        try:
            super().format_help(ctx, formatter)
        finally:
            self.listing = False


app = typer.Typer(
    cls=CommandsOnDemand,
    name="arena",
    help="Bid Euchre bot arena: run matches and tournaments between bots, replay and verify game logs.",
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
)


@app.callback()
def _arena() -> None:
    """Every command runs under this group (``app.callback`` makes typer build a group even before a command's
    module has registered it)."""


def _registered(name: str) -> click.Command:
    """The click command of ``name`` as its module registered it on ``app`` (imported by now)."""
    for info in app.registered_commands:
        if info.name == name:
            return typer.main.get_command_from_info(
                info, pretty_exceptions_short=app.pretty_exceptions_short, rich_markup_mode=app.rich_markup_mode
            )
    for group in app.registered_groups:
        if group.name == name:
            return typer.main.get_group_from_info(
                group,
                pretty_exceptions_short=app.pretty_exceptions_short,
                rich_markup_mode=app.rich_markup_mode,
                suggest_commands=app.suggest_commands,
            )
    raise LookupError(f"{COMMANDS[name].module} defines no command {name!r}")


# Columns of output that goes to a pipe or a file: as wide as what is printed (a cut table loses its cells).
PIPED_WIDTH = 10_000


class ArenaConsole(Console):
    """The commands' console: as wide as the terminal; on a pipe or a file (``arena ... | less``, a script
    reading it), as wide as each line printed, so that no table is cut to fit 80 columns. COLUMNS, when set,
    is the width everywhere (the tests set it)."""

    @property
    def size(self) -> ConsoleDimensions:
        size = super().size
        if self._width is None and "COLUMNS" not in self._environ and not self.is_terminal:
            return ConsoleDimensions(PIPED_WIDTH, size.height)
        return size

    @size.setter
    def size(self, new_size: tuple[int, int]) -> None:
        self._width, self._height = new_size


# emoji=False: rich would turn ":100:" in "file.jsonl:100: ..." (or in a bot's name) into an emoji
console = ArenaConsole(emoji=False)
err_console = ArenaConsole(stderr=True, emoji=False)


class Status(IntEnum):
    """How a command ended: one exit status per kind of outcome, the same for every command."""

    OK = 0
    FAILED = 1  # it ran, and what it ran failed: a check, a verification, a bot, the machine (cannot listen...)
    BAD_INPUT = 2  # what was typed or named cannot be used, so nothing ran (typer's usage errors are 2 too)
    INTERRUPTED = 130  # Ctrl-C or SIGTERM: stopped cleanly, what was kept is said


def status_of(error: Exception) -> Status:
    """The exit status of an error: bad input (``InputError``) or a failure (anything else)."""
    return Status.BAD_INPUT if isinstance(error, InputError) else Status.FAILED


def fail(message: str, status: Status) -> typer.Exit:
    """Print a one-line error and return the Exit to raise, with the status of the kind of mistake."""
    # escape: messages quote user input and engine text like "[rule: follow-suit]", which is not markup
    err_console.print(f"[bold red]error:[/] {escape(message)}", highlight=False, soft_wrap=True)
    return typer.Exit(status)


@contextmanager
def user_errors(*types: type[Exception]) -> Iterator[None]:
    """Turn what the user got wrong (an ``ArenaError``) and the other ``types`` named (OSError: cannot listen,
    cannot write) into a one-line message and the exit status of its kind (``status_of``). Anything else is a
    bug: it propagates, with its traceback."""
    caught: tuple[type[Exception], ...] = (ArenaError, *types)
    try:
        yield
    except caught as exc:
        raise fail(str(exc), status_of(exc)) from None
