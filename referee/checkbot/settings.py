"""``arena check-bot``'s settings, declared once (``CheckChoices``), and the opening of a check (``open_check``).

A check takes the games' settings it can use (``referee.games.settings``: rule overrides, the move time,
the sandbox, a TCP address for the bot), resolved where every command's are, once per preset checked; and its
own: the presets, the report as JSON, the folder of the bot's output.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from pathlib import Path

from referee.bots import BotCommand, with_tcp
from referee.checkbot.positions import check_overrides, check_rules
from referee.engine.errors import RulesError
from referee.engine.presets import PRESETS
from referee.engine.rules import Rules
from referee.games.placement import Warn, bot_sandbox
from referee.games.settings import GameChoices, GameSettings, resolve_games
from referee.runfolder import LOGS
from referee.sandbox import Sandbox
from referee.setting import Choices, Flag, Folder, Names, declare


@dataclass(frozen=True)
class CheckChoices(Choices):
    """What ``arena check-bot``'s own options named (None: not named)."""

    presets: tuple[str, ...] | None = declare(
        Names("a list of preset names"),
        "Check on this preset only, repeatable",
        default_text="every preset",
        flag="--preset",
        short="-p",
    )
    as_json: bool | None = declare(
        Flag(), "Print the report as JSON (for scripts), not a table.", default=False, flag="--json"
    )
    log_dir: Path | None = declare(
        Folder(), "Folder for the bot's output (stdout and stderr).", default=LOGS, flag="--log-dir"
    )


@dataclass(frozen=True)
class CheckOpened:
    """A check, ready to run: the bot, the presets and rule overrides, the rules each preset is checked under,
    the move time, the sandbox and where the bot's output goes."""

    command: BotCommand
    presets: list[str]
    overrides: dict[str, str]
    played: dict[str, Rules]
    move_time_ms: int
    sandbox: Sandbox | None
    log_dir: Path


def open_check(bot: str, games: GameChoices, chosen: CheckChoices, *, warn: Warn) -> CheckOpened:
    """The check of bot ``bot`` (NAME=COMMAND) these settings describe; a one-line ``ArenaError`` for what
    cannot be checked: an unknown preset, an override that does not fit one, a bot that cannot start."""
    (command,) = with_tcp([BotCommand.parse(bot)], games.tcp or ())  # --tcp NAME, as in every other command
    command.check_runnable()
    presets = list(dict.fromkeys(chosen.presets)) if chosen.presets else list(PRESETS)
    overrides = dict(games.rules)
    check_overrides(overrides)  # a malformed or unknown override: a one-line error naming it
    settings = [_resolved(games, name) for name in presets]
    return CheckOpened(
        command=command,
        presets=presets,
        overrides=overrides,
        played={s.preset: _preset_rules(s.preset, overrides) for s in settings},
        move_time_ms=settings[0].move_time_ms,
        sandbox=bot_sandbox(settings[0].sandbox, warn),
        log_dir=chosen.value("log_dir"),
    )


def _resolved(games: GameChoices, preset: str) -> GameSettings:
    """The games' settings on ``preset``; an override that does not fit it is a one-line error naming both."""
    try:
        return resolve_games(replace(games, preset=preset, tcp=None))  # --tcp names the bot: applied above
    except RulesError as exc:
        if games.rules and preset in PRESETS:
            raise RulesError(f"--rule on {preset}: {exc}") from None
        raise


def _preset_rules(preset: str, overrides: dict[str, str]) -> Rules:
    """The rules a preset's positions are played under (a game of one hand)."""
    try:
        return check_rules(preset, overrides)
    except RulesError as exc:
        if overrides:
            raise RulesError(f"--rule on {preset}: {exc}") from None
        raise
