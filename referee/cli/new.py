"""``arena new``: a folder with a starter bot in one of the kits' languages, ready to build and check."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

from referee.cli.app import app, console, user_errors
from referee.kits import Language, plan, write


@app.command("new")
def new_command(
    folder: Annotated[Path, typer.Argument(help="The new bot's folder; its name is the bot's NAME.")],
    lang: Annotated[Language, typer.Option("--lang", "-l", help="The bot's language.")],
) -> None:
    """Start a bot in a new folder: a working starter in Python, JavaScript, C++, Go or Java, its build file,
    a README and a first test (arena check-bot); prints the commands to build it, check it and play a first match."""
    with user_errors():  # a folder that exists, a name that is not a bot's, a missing toolchain: bad input
        starter = plan(folder, lang)
    with user_errors(OSError):
        written = write(starter)
    console.print(f"wrote {folder}/ ({len(written)} files): a {lang.value} bot named {starter.name}", highlight=False)
    console.print("build it, check it, then play a first match:", highlight=False)
    for command in (starter.build_command, starter.check_command, starter.match_command):
        console.print(f"  {command}", highlight=False, markup=False, soft_wrap=True)
