"""Making a ladder and changing its field: ``init``, ``add``, ``retire``.

A ladder's settings (``referee.ladder.settings``) are fixed when it is made; the bots it is made with are
the first versions, and each later version is added by ``add``.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace
from typing import Any

from referee.bots import BotCommand
from referee.ladder import policy
from referee.ladder.backup import write_backup
from referee.ladder.database import LadderDatabase, LadderError, Version
from referee.ladder.freezing import freeze
from referee.ladder.settings import LadderChoices, LadderSettings, ladder_settings
from referee.runfolder import RunFolder

NAME_LENGTH = 22  # a bot's name, so that "NAME.vN" (and a validation copy's "NAME.vN.c3") fit a bot name


@dataclass(frozen=True)
class Added:
    version: Version
    previous: Version | None

    def line(self) -> str:
        v = self.version
        frozen = f", frozen as {v.code.shown}" if v.code.frozen else ""
        if self.previous is None:
            return (
                f"added {v.bot}, version {v.version} ({v.label}{frozen}): it plays once it passes its validation game"
            )
        return (
            f"added {v.bot} version {v.version} ({v.label}{frozen}), after version {self.previous.version} "
            f"({self.previous.status}): it plays once it passes its validation game, and then version "
            f"{self.previous.version} is superseded (its rating kept)"
        )


def check_bot(command: BotCommand) -> None:
    """LadderError or BotSpecError (one line) for a bot the ladder cannot take."""
    if len(command.name) > NAME_LENGTH:
        raise LadderError(f"bot name {command.name!r} is too long for a ladder: at most {NAME_LENGTH} characters")
    command.check_runnable()


def create(folder: RunFolder, settings: LadderSettings, options: dict[str, Any]) -> LadderDatabase:
    """A new ladder in ``folder`` (which must not exist, or be empty): its database, written whole (made beside,
    then renamed into place), and its ladder.json."""
    if folder.ladder_db.exists():
        raise LadderError(f"{folder.path} is a ladder already: add bots with `arena ladder add`")
    if folder.path.exists() and (not folder.path.is_dir() or any(folder.path.iterdir())):
        raise LadderError(f"{folder.path} is not empty: choose a new folder for the ladder")
    folder.path.mkdir(parents=True, exist_ok=True)
    db = LadderDatabase.build(folder, settings, options)
    write_backup(db)
    return db


def init(folder: RunFolder, chosen: LadderChoices) -> tuple[LadderDatabase, list[Added]]:
    """Make the ladder (its settings fixed now) and add the bots ``chosen`` names as their first versions.
    Nothing is written when something is wrong."""
    settings = ladder_settings(chosen, folder.path.name)
    bots = chosen.bots or ()
    for command in bots:
        check_bot(command)
    db = create(folder, settings, {"all_versions": bool(chosen.value("all_versions"))})
    return db, [add(db, command) for command in bots]


def add(db: LadderDatabase, command: BotCommand) -> Added:
    """A new version of ``command.name`` (its first, or the next), running a frozen copy of its files
    (``referee.ladder.freezing``)."""
    check_bot(command)
    frozen = freeze(db.folder, command.argv)
    code = replace(frozen.code, tcp=command.tcp)
    version, previous = policy.add_version(db, command.name, frozen.argv, code)
    return Added(version, previous)


def retire(db: LadderDatabase, name: str) -> Sequence[Version]:
    return policy.retire(db, name)
