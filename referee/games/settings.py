"""The games' settings, declared once (``GameChoices``) and resolved in one place (``resolve_games``).

Every command that plays games between bots takes these settings: the rules
(preset and overrides), the seed, the clock (move time, time bank, start-up
allowance), the fault policy, the sandbox, the bots and which of them connect over TCP. Each
field of ``GameChoices`` declares one (``referee.setting``): its kind of
value and range, default, help text, flag, the key it is saved under and
whether it decides the games. Beside them, the settings some runs share:
where the tables play (``TableChoices``: how many at once, over how many
worker processes), the seatings of three teams (``SeatingChoices``) and the
name and folder of a run in a folder of its own (``FolderChoices``).

A run's settings are these and its own: a tournament's, the format
(``referee.tournament.settings``); an SPRT's, its test
(``referee.sprt.config``); a ladder's, its policy (``referee.ladder.setup``).

``resolve_games`` turns what the user named into ``GameSettings``, filling
what was not named from the defaults, or, on ``--resume``, from the settings
saved when the run started. ``GameSettings.record`` is the games' part of a
run's settings.json (``from_record`` reads it back, also from files written
by older arenas); ``differences`` says which of the settings that decide the
games differ from the saved ones (a resumed run must describe the same games).
"""

from __future__ import annotations

import dataclasses
import re
import shlex
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, fields
from pathlib import Path
from typing import Any, ClassVar, Self, TypeVar

from referee.bots import BotCommand, BotSpecError, with_tcp
from referee.deadline import STARTUP_ALLOWANCE_MS, STARTUP_DECISIONS, TimeControl
from referee.engine.errors import RulesError
from referee.engine.presets import DEFAULT_PRESET, rules_for
from referee.engine.rules import Rules, format_value, parse_override, parse_value
from referee.match import FaultPolicy, MatchConfig, SeatBot
from referee.runfolder import LOGS, RunFolder
from referee.sandbox import Sandbox, SandboxMode
from referee.server import DEFAULT_HOST
from referee.setting import (
    BadValue,
    Choice,
    Choices,
    Flag,
    Folder,
    Kind,
    Names,
    Setting,
    SettingsError,
    Text,
    WholeNumber,
    declare,
    shown,
)

S = TypeVar("S", bound="GameSettings")

SETTINGS_FORMAT = 1  # of settings.json (and of the settings a ladder keeps)
_CLOCK = TimeControl()  # a match's time control unless told otherwise: the defaults of move_time and time_bank
_NAME = re.compile(r"^[A-Za-z0-9][A-Za-z0-9_.-]{0,63}$")
_MS = 3_600_000  # the longest a move time or a time bank may be: an hour


def check_name(name: str) -> str:
    if not _NAME.match(name):
        raise SettingsError(
            f"bad tournament name {name!r}: use up to 64 letters, digits, '_', '-' or '.', "
            "starting with a letter or digit"
        )
    return name


def parse_bots(specs: Iterable[str]) -> tuple[BotCommand, ...]:
    """``NAME=COMMAND`` arguments; a name given twice is an error."""
    bots = tuple(BotCommand.parse(spec) for spec in specs)
    _no_twice(bots)
    return bots


def parse_rules(specs: Iterable[str]) -> dict[str, str]:
    """``--rule name=value`` arguments, checked one by one (RulesError names the bad one)."""
    out = {}
    for spec in specs:
        name, text = parse_override(spec)
        out[name] = format_value(name, parse_value(name, text))
    return out


def _no_twice(bots: tuple[BotCommand, ...]) -> None:
    seen: set[str] = set()
    for bot in bots:
        if bot.name in seen:
            raise SettingsError(f"bot name {bot.name!r} is given twice: every bot needs a name of its own")
        seen.add(bot.name)


class _Bots(Kind[tuple[BotCommand, ...]]):
    """NAME = COMMAND, a string or a list of arguments (``[bots]``); ``--bot NAME=COMMAND`` on the command line."""

    @property
    def expects(self) -> str:
        return "a table of NAME = COMMAND"

    @property
    def cli(self) -> Any:
        return list[str]

    def read(self, value: Any) -> tuple[BotCommand, ...]:
        if not isinstance(value, dict):
            raise BadValue()
        bots = []
        for name, command in value.items():
            if isinstance(command, list) and command and all(isinstance(a, str) for a in command):
                command = shlex.join(command)
            if not isinstance(command, str):
                raise BadValue(f"expected a command (a string, or a list of strings), got {shown(command)}", name)
            try:
                bots.append(BotCommand.parse(f"{name}={command}"))
            except BotSpecError as exc:
                raise BadValue(str(exc), name) from None
        if not bots:
            raise BadValue("the table lists no bots")
        return tuple(bots)

    def from_cli(self, value: Any) -> tuple[BotCommand, ...]:
        return tuple(BotCommand.parse(spec) for spec in value)  # a match may seat one bot at several teams

    def typer_options(self) -> dict[str, Any]:
        return {"metavar": "NAME=COMMAND"}


class _RuleOverrides(Kind[Mapping[str, str]]):
    """Rule options over the preset's (``[rules]``); ``--rule NAME=VALUE`` on the command line."""

    @property
    def expects(self) -> str:
        return "a table of rule options"

    @property
    def cli(self) -> Any:
        return list[str]

    def read(self, value: Any) -> Mapping[str, str]:
        if not isinstance(value, dict):
            raise BadValue()
        rules = {}
        for option, text in value.items():
            if isinstance(text, dict):
                raise BadValue("expected a value, got a table", option)
            try:
                rules[option] = format_value(option, parse_value(option, text))
            except RulesError as exc:
                raise BadValue(str(exc), option) from None
        return rules

    def from_cli(self, value: Any) -> Mapping[str, str]:
        return parse_rules(value)

    def typer_options(self) -> dict[str, Any]:
        return {"metavar": "NAME=VALUE"}


@dataclass(frozen=True)
class FolderChoices(Choices):
    """A run in a folder of its own (a tournament, an SPRT): its name and its folder, as the user named them."""

    name: str | None = declare(
        Text("a name (letters, digits, '_', '-', '.')", check_name),
        "The run's name; its folder is logs/NAME/.",
        default="tournament",
        default_text="the folder's name",
        flag="--name",
        saved="name",
    )
    out: Path | None = declare(
        Folder(),
        "The run's folder.",
        default_text=f"{LOGS}/NAME/",
        flag="--out",
        short="-o",
    )


@dataclass(frozen=True)
class GameChoices(Choices):
    """The games' settings the user named (a file, the command line); None where nothing was said. Each field
    declares one setting, in the order help and errors list them."""

    preset: str | None = declare(
        Text("a preset name", rules_for, metavar="NAME"),
        "The rule preset; `arena presets` lists them.",
        default=DEFAULT_PRESET,
        flag="--preset",
        short="-p",
        saved="preset",
        decides_games=True,
    )
    seed: int | None = declare(
        WholeNumber(),
        "Seed of the deals: the same seed and bots play the same games.",
        default=1,
        flag="--seed",
        saved="seed",
        decides_games=True,
    )
    move_time: int | None = declare(
        WholeNumber(1, _MS, unit="ms"),
        "Time per decision in ms, plus a small grace.",
        default=_CLOCK.move_time_ms,
        flag="--move-time",
        saved="move_time_ms",
        decides_games=True,
    )
    time_bank: int | None = declare(
        WholeNumber(0, _MS, unit="ms"),
        "Time bank per bot per game in ms: an answer over --move-time draws on it before it is a timeout.",
        default=_CLOCK.time_bank_ms,
        default_text="{}, none",
        flag="--time-bank",
        saved="time_bank_ms",
        decides_games=True,
        since_v1=True,
    )
    startup_allowance: int | None = declare(
        WholeNumber(0, _MS, unit="ms"),
        f"Start-up allowance per bot process in ms: its first {STARTUP_DECISIONS} decisions may take this much "
        "more than --move-time in all, drawn before the time bank (a restarted bot has it again).",
        default=STARTUP_ALLOWANCE_MS,
        flag="--startup-allowance",
        saved="startup_allowance_ms",
        decides_games=True,
        since_v1=True,
        before=0,  # a run folder older than the allowance resumes as it was played: without one
    )
    on_fault: FaultPolicy | None = declare(
        Choice(FaultPolicy),
        "A timeout, crash or illegal answer: the team forfeits the game, or a default action is played.",
        default=FaultPolicy.FORFEIT,
        flag="--on-fault",
        saved="on_fault",
        decides_games=True,
    )
    sandbox: SandboxMode | None = declare(
        Choice(SandboxMode),
        "Contain each bot process (Linux namespaces via bubblewrap or unshare, see docs/security.md): auto uses "
        "it where it can be made and warns where not, required refuses to start without, off runs bots bare.",
        default=SandboxMode.AUTO,
        flag="--sandbox",
        saved="sandbox",
        since_v1=True,
    )
    rules: Mapping[str, str] = declare(
        _RuleOverrides(),
        "Override a rule option (repeatable).",
        flag="--rule",
        short="-r",
        decides_games=True,
        mapping=True,
    )
    bots: tuple[BotCommand, ...] | None = declare(
        _Bots(),
        "Repeatable: the bots (at least one per team).",
        flag="--bot",
        short="-b",
        decides_games=True,
    )
    # how a bot connects, not what it plays
    tcp: tuple[str, ...] | None = declare(
        Names("a list of bot names"),
        "Repeatable: bot NAME gets a 127.0.0.1 host:port in ARENA_ADDRESS (a relay in its sandbox), not a unix: "
        "target, for gRPC libraries that cannot dial a Unix socket (docs/protocol.md).",
        flag="--tcp",
        since_v1=True,
    )

    @property
    def names_rules(self) -> bool:
        return self.preset is not None or bool(self.rules)


@dataclass(frozen=True)
class TableChoices(Choices):
    """Where a run's tables play, as the user named it: how many at once, and the referee processes they are
    spread over. How, not which, games are played: not saved, a resumed run chooses again."""

    concurrency: int | None = declare(
        WholeNumber(low=1),
        "Tables playing at once.",
        default_text="the CPUs",
        flag="--concurrency",
        short="-j",
    )
    workers: int | None = declare(
        WholeNumber(low=1),
        "Referee processes on this machine to spread the tables over.",
        default_text="one per two CPUs, at most one per table",
        flag="--workers",
        short="-w",
    )


@dataclass(frozen=True)
class SeatingChoices(Choices):
    """Which orders round the table a group of three teams plays (a tournament's, a ladder's sets)."""

    all_seatings: bool | None = declare(
        Flag(),
        "Three teams: play all 6 orders round the table, not only the 3 rotations, so each bot also sits on "
        "either side of each other (twice the games per duplicate set).",
        default=False,
        flag="--all-seatings",
        saved="all_seatings",
        decides_games=True,
        since_v1=True,
    )


# saved and compared by hand (GameSettings): a preset's rules with the overrides; the bots' commands
_BY_HAND = ("preset", "rules", "bots", "tcp")


def saved_plainly(settings: Iterable[Setting]) -> list[Setting]:
    """The saved settings among ``settings`` kept as they are (one value, one key of settings.json, one
    attribute of the resolved settings)."""
    return [s for s in settings if s.saved is not None and s.name not in _BY_HAND]


def named_or_saved(chosen: Choices, saved: object | None, settings: Iterable[Setting]) -> dict[str, Any]:
    """Each plainly saved setting among ``settings``, by its saved name: as ``chosen`` names it, else as the
    ``saved`` run had it (resuming), else its default."""
    out = {}
    for s in saved_plainly(settings):
        assert s.saved is not None
        named = getattr(chosen, s.name)
        out[s.saved] = named if named is not None else (getattr(saved, s.saved) if saved is not None else s.default)
    return out


def _recorded(setting: Setting, value: Any) -> Any:
    """A saved setting's value as JSON (None for a setting that is off)."""
    return None if value is None else setting.kind.record(value)


@dataclass(frozen=True)
class GameSettings:
    """Everything that decides how the games are played (not which games, nor how fast or where they run).

    An attribute per plainly saved setting of its declarations (``CHOICES``, under its ``saved`` name), the
    bots, and the rules the preset and overrides make. A run's settings extend it (``extended``): their own
    declarations add their own attributes, saved and read back the same way."""

    CHOICES: ClassVar[type[Choices]] = GameChoices  # the declarations of these settings

    bots: tuple[BotCommand, ...]
    preset: str
    rules: Rules
    overrides: tuple[tuple[str, str], ...]  # rule overrides as given (name, value text), for display
    seed: int
    move_time_ms: int
    time_bank_ms: int
    startup_allowance_ms: int
    on_fault: FaultPolicy
    sandbox: SandboxMode  # how bots are contained; kept on resume unless given again

    @property
    def bot_names(self) -> tuple[str, ...]:
        return tuple(b.name for b in self.bots)

    @property
    def clock(self) -> TimeControl:
        return TimeControl(
            move_time_ms=self.move_time_ms,
            time_bank_ms=self.time_bank_ms,
            startup_allowance_ms=self.startup_allowance_ms,
        )

    def games_only(self) -> GameSettings:
        """These settings without a run's own."""
        return self.extended(GameSettings)

    def extended(self, cls: type[S], **more: Any) -> S:
        """A run's settings: these, and ``more`` (the run's own attributes)."""
        return cls(**{f.name: getattr(self, f.name) for f in fields(GameSettings)}, **more)

    def match_config(
        self,
        *,
        seats: tuple[SeatBot, ...],
        games: int,
        log_dir: Path,
        sandbox: Sandbox | None,
        host: str = DEFAULT_HOST,
        port: int = 0,
    ) -> MatchConfig:
        """The match of ``games`` games these settings describe, with these ``seats`` (one per seat)."""
        return MatchConfig(
            preset=self.preset,
            rules=self.rules,
            seats=seats,
            games=games,
            seed=self.seed,
            clock=self.clock,
            policy=self.on_fault,
            log_dir=log_dir,
            host=host,
            port=port,
            sandbox=sandbox,
        )

    def record(self) -> dict[str, Any]:
        """The JSON saved as settings.json in a run's folder."""
        plain = saved_plainly(type(self).CHOICES.declared().values())
        readable = {b.name: list(b.readable) for b in self.bots if b.readable}  # a ladder's frozen copies
        return {
            "settings_format": SETTINGS_FORMAT,
            "bots": {b.name: list(b.argv) for b in self.bots},
            "preset": self.preset,
            "rule_overrides": dict(self.overrides),
            "rules": self.rules.as_dict(),
            **{s.saved: _recorded(s, getattr(self, s.saved)) for s in plain if s.saved is not None},
            "tcp": [b.name for b in self.bots if b.tcp],
            **({"readable": readable} if readable else {}),
        }

    @classmethod
    def from_record(cls, data: Any, where: str) -> Self:
        """Read settings.json back; ``where`` names the file in errors. A setting added since format 1 that the
        file lacks (written by an older arena) has what the older arena played by (``before``), else its default;
        the keys of other settings are left alone."""
        try:
            if not isinstance(data, dict) or data.get("settings_format") != SETTINGS_FORMAT:
                raise SettingsError(f"not tournament settings of format {SETTINGS_FORMAT}")
            bots = tuple(BotCommand(str(name), tuple(map(str, argv))) for name, argv in data["bots"].items())
            plain = {}
            for s in saved_plainly(cls.CHOICES.declared().values()):
                assert s.saved is not None
                if s.since_v1 and s.saved not in data:
                    plain[s.saved] = s.default if s.before is None else s.before
                elif data[s.saved] is None and s.can_be_off:
                    plain[s.saved] = None
                else:
                    plain[s.saved] = s.kind.from_record(data[s.saved])
            readable = {str(k): tuple(map(str, v)) for k, v in data.get("readable", {}).items()}
            bots = tuple(dataclasses.replace(b, readable=readable.get(b.name, ())) for b in bots)
            return cls(
                bots=with_tcp(bots, map(str, data.get("tcp", []))),
                preset=str(data["preset"]),
                rules=Rules.from_dict(data["rules"]),
                overrides=tuple((str(k), str(v)) for k, v in data["rule_overrides"].items()),
                **cls.completed(plain, data),
            )
        except KeyError as exc:
            raise SettingsError(f"{where}: missing {exc}") from None
        except (SettingsError, BotSpecError, RulesError, TypeError, ValueError, AttributeError) as exc:
            raise SettingsError(f"{where}: {exc}") from None

    @classmethod
    def completed(cls, plain: dict[str, Any], data: dict[str, Any]) -> dict[str, Any]:
        """The plainly saved settings read from ``data`` (a file), completed where an older file says less, and
        with what a run's settings save by hand."""
        return plain

    @classmethod
    def load(cls, folder: RunFolder) -> Self:
        """The settings a run folder's run was started with; SettingsError (or FolderError) when there are none."""
        return cls.from_record(folder.saved_settings(), str(folder.settings))

    def differences(self, other: GameSettings, *, but: Iterable[str] = ()) -> list[str]:
        """What differs from ``other`` (as 'what: this / other'), among the settings that decide the games (less
        the settings named in ``but``)."""
        mine, theirs = self.record(), other.record()
        declared = type(self).CHOICES.declared().values()
        keys = [s.saved for s in declared if s.decides_games and s.saved and s.name not in but]
        out = [f"{key} {mine[key]!r} / {theirs[key]!r}" for key in keys if mine[key] != theirs[key]]
        if mine["bots"] != theirs["bots"]:
            a, b = mine["bots"], theirs["bots"]
            if list(a) != list(b):
                out.append(f"bots {', '.join(a)} / {', '.join(b)}")
            else:
                out += [f"bot {n} command {shlex.join(a[n])!r} / {shlex.join(b[n])!r}" for n in a if a[n] != b[n]]
        for option, value in mine["rules"].items():
            if theirs["rules"].get(option) != value:
                out.append(f"rule {option} {value!r} / {theirs['rules'].get(option)!r}")
        return out


def resolve_games(chosen: GameChoices, saved: GameSettings | None = None) -> GameSettings:
    """The games' settings: what ``chosen`` names, the rest from ``saved`` (resuming) or the defaults. The one
    place what the user named becomes the settings games are played under.

    Raises SettingsError, RulesError or BotSpecError with a one-line message.
    """
    preset = chosen.preset or (saved.preset if saved is not None else GameChoices.declared()["preset"].default)
    if saved is None or chosen.names_rules:
        rules, overrides = rules_for(preset, dict(chosen.rules)), tuple(chosen.rules.items())
    else:
        rules, overrides = saved.rules, saved.overrides
    bots = chosen.bots if chosen.bots is not None else (saved.bots if saved is not None else ())
    if chosen.tcp is not None:
        bots = with_tcp(bots, chosen.tcp)
    elif saved is not None:  # resumed: the bots that had a TCP address keep it
        bots = with_tcp(bots, {b.name for b in saved.bots if b.tcp} & {b.name for b in bots})
    plain = named_or_saved(chosen, saved, GameChoices.declared().values())
    return GameSettings(bots=bots, preset=preset, rules=rules, overrides=overrides, **plain)


def own_settings(choices: type[Choices]) -> list[Setting]:
    """The settings a run's declarations add to the games' (``GameChoices``)."""
    games = GameChoices.declared()
    return [s for name, s in choices.declared().items() if name not in games]


def require_bots(settings: GameSettings) -> None:
    """SettingsError unless the settings name bots, each by a name of its own (a run's standings are by name)."""
    if not settings.bots:
        raise SettingsError("no bots: give --bot NAME=COMMAND for each bot, or a --config file with a [bots] table")
    _no_twice(settings.bots)
