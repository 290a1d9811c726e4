"""Tournament settings: declared once (``Given``), from a TOML file and the command line, saved in the run folder.

``Given`` holds what the user named (``read_toml`` for a file; the command
line is laid on top with ``Given.over``); each of its fields declares one
setting (``referee.setting``): its kind of value and range, default, help
text, flag, the key it is saved under and whether it decides the games.
``resolve`` turns it into ``TournamentSettings``, filling what was not named
from the defaults, or, on ``--resume``, from the settings saved when the
tournament started; a resumed tournament must describe the same games
(``differences`` says which settings do not), else its standings would not
be those of one run.

The TOML file (see docs/tournament.md)::

    name = "weekly"               # the folder: logs/weekly/ (or out = "some/dir")
    preset = "neuralplay"
    games = 4                     # per pairing
    seed = 7
    move_time = 500               # ms per decision
    time_bank = 2000              # ms per bot per game, drawn on by answers over move_time
    on_fault = "forfeit"          # or "default"
    duplicate = true
    all_seatings = false          # three teams: all 6 seatings, not the 3 rotations
    concurrency = 2               # tables at once
    gauntlet = "rules"            # only this bot's games: it plays every other bot
    sandbox = "auto"              # or "required", "off": how bots are contained (docs/security.md)
    workers = 2                   # referee processes the tables are spread over
    tcp = ["dotnet"]              # bots whose gRPC library cannot dial a unix: target (docs/protocol.md)

    [rules]                       # rule overrides, as with --rule
    hand_limit = 200

    [bots]                        # NAME = COMMAND (a string, or a list of arguments)
    rules = "python -m example_bots.rules_bot"
    random = ["python", "-m", "example_bots.random_bot"]

Every error names the file and, where it can be found, the line.
"""

from __future__ import annotations

import re
import shlex
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from referee.bots import BotCommand, BotSpecError, with_tcp
from referee.deadline import TimeControl
from referee.engine.errors import RulesError
from referee.engine.presets import DEFAULT_PRESET, rules_for
from referee.engine.rules import Rules, format_value, parse_override, parse_value
from referee.match import FaultPolicy
from referee.runfolder import LOGS, RunFolder
from referee.sandbox import SandboxMode
from referee.setting import (
    Choice,
    Flag,
    Folder,
    Kind,
    Named,
    Names,
    Setting,
    SettingsError,
    Text,
    TomlFile,
    Whole,
    Wrong,
    declare,
    shown,
)
from referee.tournament.schedule import Fixed, Format, ScheduleError, gauntlet, round_robin, set_size

__all__ = [
    "Given",
    "SettingsError",
    "TomlFile",
    "TournamentSettings",
    "check_name",
    "parse_bots",
    "parse_rules",
    "read_toml",
    "resolve",
]

SETTINGS_FORMAT = 1
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
            raise Wrong()
        bots = []
        for name, command in value.items():
            if isinstance(command, list) and command and all(isinstance(a, str) for a in command):
                command = shlex.join(command)
            if not isinstance(command, str):
                raise Wrong(f"expected a command (a string, or a list of strings), got {shown(command)}", name)
            try:
                bots.append(BotCommand.parse(f"{name}={command}"))
            except BotSpecError as exc:
                raise Wrong(str(exc), name) from None
        if not bots:
            raise Wrong("the table lists no bots")
        return tuple(bots)

    def from_cli(self, value: Any) -> tuple[BotCommand, ...]:
        return parse_bots(value)

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
            raise Wrong()
        rules = {}
        for option, text in value.items():
            if isinstance(text, dict):
                raise Wrong("expected a value, got a table", option)
            try:
                rules[option] = format_value(option, parse_value(option, text))
            except RulesError as exc:
                raise Wrong(str(exc), option) from None
        return rules

    def from_cli(self, value: Any) -> Mapping[str, str]:
        return parse_rules(value)

    def typer_options(self) -> dict[str, Any]:
        return {"metavar": "NAME=VALUE"}


@dataclass(frozen=True)
class Given(Named):
    """The settings of a tournament (and an SPRT, a ladder: every run of games between bots) the user named;
    None where nothing was said. Each field declares one setting, in the order help and errors list them."""

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
    preset: str | None = declare(
        Text("a preset name", rules_for, metavar="NAME"),
        "The rule preset; `arena presets` lists them.",
        default=DEFAULT_PRESET,
        flag="--preset",
        short="-p",
        saved="preset",
        decides_games=True,
    )
    games: int | None = declare(
        Whole(low=1),
        "Games per pairing.",
        default_text="one per seating: 2, or 3 for three teams",
        flag="--games",
        short="-n",
        saved="games",
        decides_games=True,
    )
    seed: int | None = declare(
        Whole(),
        "Seed of the deals: the same seed and bots play the same games.",
        default=1,
        flag="--seed",
        saved="seed",
        decides_games=True,
    )
    move_time: int | None = declare(
        Whole(1, _MS, unit="ms"),
        "Time per decision in ms, plus a small grace.",
        default=_CLOCK.move_time_ms,
        flag="--move-time",
        saved="move_time_ms",
        decides_games=True,
    )
    time_bank: int | None = declare(
        Whole(0, _MS, unit="ms"),
        "Time bank per bot per game in ms: an answer over --move-time draws on it before it is a timeout.",
        default=_CLOCK.time_bank_ms,
        default_text="{}, none",
        flag="--time-bank",
        saved="time_bank_ms",
        decides_games=True,
        since_v1=True,
    )
    on_fault: FaultPolicy | None = declare(
        Choice(FaultPolicy),
        "A timeout, crash or illegal answer: the team forfeits the game, or a default action is played.",
        default=FaultPolicy.FORFEIT,
        flag="--on-fault",
        saved="on_fault",
        decides_games=True,
    )
    duplicate: bool | None = declare(
        Flag(),
        "Play each deal once per seating, so the luck of the cards cancels out.",
        default=True,
        flag="--duplicate/--no-duplicate",
        saved="duplicate",
        decides_games=True,
    )
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
    concurrency: int | None = declare(
        Whole(low=1),
        "Tables playing at once.",
        default_text="the CPUs",
        flag="--concurrency",
        short="-j",
    )
    gauntlet: str | None = declare(
        Text("the name of one of the bots", metavar="NAME"),
        "A gauntlet instead of a round-robin: this bot plays every other bot; the others do not meet.",
        flag="--gauntlet",
        saved="gauntlet",
        decides_games=True,
        since_v1=True,
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
    # how, not which, games are played: referee processes (--workers)
    workers: int | None = declare(
        Whole(low=1),
        "Referee processes on this machine to spread the tables over.",
        default_text="one per two CPUs, at most one per table",
        flag="--workers",
        short="-w",
    )
    rules: Mapping[str, str] = declare(
        _RuleOverrides(),
        "Override a rule option (repeatable).",
        flag="--rule",
        short="-r",
        decides_games=True,
        table=True,
    )
    bots: tuple[BotCommand, ...] | None = declare(
        _Bots(),
        "Repeatable: the bots of the round-robin (at least one per team).",
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


SETTINGS = Given.table()
# saved and compared by hand (TournamentSettings): a preset's rules with the overrides; the bots' commands
_BY_HAND = ("preset", "rules", "bots", "tcp")


def _plain() -> list[Setting]:
    """The saved settings kept as they are (one value, one key of settings.json, one attribute)."""
    return [s for s in SETTINGS.values() if s.saved is not None and s.name not in _BY_HAND]


@dataclass(frozen=True)
class TournamentSettings:
    """Everything that decides the games of a tournament (not how fast or where they run).

    An attribute per saved setting of ``Given`` (under its ``saved`` name), and the rules the preset and
    overrides make."""

    bots: tuple[BotCommand, ...]
    preset: str
    rules: Rules
    overrides: tuple[tuple[str, str], ...]  # rule overrides as given (name, value text), for display
    games: int  # per pairing
    seed: int
    move_time_ms: int
    time_bank_ms: int
    on_fault: FaultPolicy
    duplicate: bool
    all_seatings: bool  # three teams: every order round the table, not only the rotations
    gauntlet: str | None  # the candidate of a gauntlet; None for a round-robin
    sandbox: SandboxMode  # how bots are contained; kept on resume unless given again
    name: str  # a label; not part of what must match on resume

    @property
    def bot_names(self) -> tuple[str, ...]:
        return tuple(b.name for b in self.bots)

    @property
    def clock(self) -> TimeControl:
        return TimeControl(move_time_ms=self.move_time_ms, time_bank_ms=self.time_bank_ms)

    def format(self) -> Format:
        """How the games follow from these settings and the results so far (``Format.plan``)."""
        if self.gauntlet is not None:
            return Fixed(
                gauntlet(
                    self.bot_names,
                    self.rules,
                    candidate=self.gauntlet,
                    games=self.games,
                    seed=self.seed,
                    duplicate=self.duplicate,
                    every_seating=self.all_seatings,
                )
            )
        return Fixed(
            round_robin(
                self.bot_names,
                self.rules,
                games=self.games,
                seed=self.seed,
                duplicate=self.duplicate,
                every_seating=self.all_seatings,
            )
        )

    def record(self) -> dict[str, Any]:
        """The JSON saved as settings.json in the tournament folder."""
        return {
            "settings_format": SETTINGS_FORMAT,
            "bots": {b.name: list(b.argv) for b in self.bots},
            "preset": self.preset,
            "rule_overrides": dict(self.overrides),
            "rules": self.rules.as_dict(),
            **{s.saved: s.kind.record(getattr(self, s.saved)) for s in _plain() if s.saved is not None},
            "tcp": [b.name for b in self.bots if b.tcp],
        }

    @classmethod
    def from_record(cls, data: Any, where: str) -> TournamentSettings:
        """Read settings.json back; ``where`` names the file in errors. A setting added since format 1 that the
        file lacks (written by an older arena) has its default."""
        try:
            if not isinstance(data, dict) or data.get("settings_format") != SETTINGS_FORMAT:
                raise SettingsError(f"not tournament settings of format {SETTINGS_FORMAT}")
            bots = tuple(BotCommand(str(name), tuple(map(str, argv))) for name, argv in data["bots"].items())
            plain = {}
            for s in _plain():
                assert s.saved is not None
                if s.since_v1 and s.saved not in data:
                    plain[s.saved] = s.default
                elif data[s.saved] is None and s.can_be_off:
                    plain[s.saved] = None
                else:
                    plain[s.saved] = s.kind.from_record(data[s.saved])
            return cls(
                bots=with_tcp(bots, map(str, data.get("tcp", []))),
                preset=str(data["preset"]),
                rules=Rules.from_dict(data["rules"]),
                overrides=tuple((str(k), str(v)) for k, v in data["rule_overrides"].items()),
                **plain,
            )
        except KeyError as exc:
            raise SettingsError(f"{where}: missing {exc}") from None
        except (SettingsError, BotSpecError, RulesError, TypeError, ValueError, AttributeError) as exc:
            raise SettingsError(f"{where}: {exc}") from None

    @classmethod
    def load(cls, folder: RunFolder) -> TournamentSettings:
        """The settings a run folder's run was started with; SettingsError (or FolderError) when there are none."""
        return cls.from_record(folder.saved_settings(), str(folder.settings))

    def differences(self, other: TournamentSettings, *, but: Iterable[str] = ()) -> list[str]:
        """What differs from ``other`` (as 'what: this / other'), among the settings that decide the games (less
        the settings named in ``but``)."""
        mine, theirs = self.record(), other.record()
        keys = [s.saved for s in SETTINGS.values() if s.decides_games and s.saved and s.name not in but]
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


def resolve(given: Given, saved: TournamentSettings | None = None) -> TournamentSettings:
    """The settings: what was given, the rest from ``saved`` (resuming) or the defaults.

    Raises SettingsError, RulesError or BotSpecError with a one-line message.
    """
    preset = given.preset or (saved.preset if saved is not None else SETTINGS["preset"].default)
    if saved is None or given.names_rules:
        rules, overrides = rules_for(preset, dict(given.rules)), tuple(given.rules.items())
    else:
        rules, overrides = saved.rules, saved.overrides
    bots = given.bots if given.bots is not None else (saved.bots if saved is not None else ())
    if not bots:
        raise SettingsError("no bots: give --bot NAME=COMMAND for each bot, or a --config file with a [bots] table")
    _no_twice(bots)
    if given.tcp is not None:
        bots = with_tcp(bots, given.tcp)
    elif saved is not None:  # resumed: the bots that had a TCP address keep it
        bots = with_tcp(bots, {b.name for b in saved.bots if b.tcp} & {b.name for b in bots})
    if len(bots) < rules.teams:
        raise SettingsError(
            f"a round-robin of {preset} ({rules.teams} teams) needs at least {rules.teams} bots, got {len(bots)}"
        )
    plain = {}
    for s in _plain():
        assert s.saved is not None
        named = getattr(given, s.name)
        plain[s.saved] = named if named is not None else (getattr(saved, s.saved) if saved is not None else s.default)
    if plain["games"] is None:  # one duplicate set: one game per seating
        plain["games"] = set_size(rules, plain["all_seatings"])
    settings = TournamentSettings(bots=bots, preset=preset, rules=rules, overrides=overrides, **plain)
    try:
        settings.format().plan({})
    except ScheduleError as exc:
        raise SettingsError(str(exc)) from None
    return settings


def read_toml(path: Path) -> Given:
    """The settings of a tournament's TOML file; SettingsError names the file and line of the first problem."""
    toml = TomlFile.read(path)
    toml.check_keys(SETTINGS)
    return Given.from_toml(toml)
