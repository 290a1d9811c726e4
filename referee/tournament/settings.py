"""Tournament settings: from a TOML file and the command line, saved in the tournament folder.

``Given`` holds what the user named (``read_toml`` for a file; the command
line is laid on top with ``Given.over``). ``resolve`` turns it into
``TournamentSettings``, filling what was not named from the defaults, or, on
``--resume``, from the settings saved when the tournament started; a resumed
tournament must describe the same games (``differences`` says which settings
do not), else its standings would not be those of one run.

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
    tcp = ["dotnet"]              # bots whose gRPC library cannot dial a unix: target (docs/protocol.md)
    workers = 2                   # referee processes the tables are spread over

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
import tomllib
from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

from referee.bots import BotCommand, BotSpecError, with_tcp
from referee.deadline import TimeControl
from referee.engine.errors import RulesError
from referee.engine.presets import DEFAULT_PRESET, rules_for
from referee.engine.rules import Rules, format_value, parse_override, parse_value
from referee.errors import ArenaError
from referee.match import FaultPolicy
from referee.sandbox import SandboxMode
from referee.tournament.schedule import ScheduledGame, ScheduleError, gauntlet, round_robin, set_size

SETTINGS_FORMAT = 1
MOVE_TIME_MS = (1, 3_600_000)  # the range --move-time allows
TIME_BANK_MS = (0, 3_600_000)  # the range --time-bank allows
_NAME = re.compile(r"^[A-Za-z0-9][A-Za-z0-9_.-]{0,63}$")


class SettingsError(ArenaError, ValueError):
    """Settings that cannot be used; the message is one line naming the bad part."""


def check_name(name: str) -> str:
    if not _NAME.match(name):
        raise SettingsError(
            f"bad tournament name {name!r}: use up to 64 letters, digits, '_', '-' or '.', "
            "starting with a letter or digit"
        )
    return name


@dataclass(frozen=True)
class TournamentSettings:
    """Everything that decides the games of a tournament (not how fast or where they run)."""

    bots: tuple[BotCommand, ...]
    preset: str
    rules: Rules
    overrides: tuple[tuple[str, str], ...]  # rule overrides as given (name, value text), for display
    games: int  # per pairing
    seed: int
    move_time_ms: int
    on_fault: FaultPolicy
    duplicate: bool
    name: str = "tournament"  # a label; not part of what must match on resume
    all_seatings: bool = False  # three teams: every order round the table, not only the rotations
    gauntlet: str | None = None  # the candidate of a gauntlet; None for a round-robin
    sandbox: SandboxMode = SandboxMode.AUTO  # how bots are contained; kept on resume unless given again
    time_bank_ms: int = 0

    @property
    def bot_names(self) -> tuple[str, ...]:
        return tuple(b.name for b in self.bots)

    @property
    def clock(self) -> TimeControl:
        return TimeControl(move_time_ms=self.move_time_ms, time_bank_ms=self.time_bank_ms)

    def schedule(self) -> tuple[ScheduledGame, ...]:
        if self.gauntlet is not None:
            return gauntlet(
                self.bot_names,
                self.rules,
                candidate=self.gauntlet,
                games=self.games,
                seed=self.seed,
                duplicate=self.duplicate,
                every_seating=self.all_seatings,
            )
        return round_robin(
            self.bot_names,
            self.rules,
            games=self.games,
            seed=self.seed,
            duplicate=self.duplicate,
            every_seating=self.all_seatings,
        )

    def record(self) -> dict[str, Any]:
        """The JSON saved as settings.json in the tournament folder."""
        return {
            "settings_format": SETTINGS_FORMAT,
            "name": self.name,
            "bots": {b.name: list(b.argv) for b in self.bots},
            "preset": self.preset,
            "rule_overrides": dict(self.overrides),
            "rules": self.rules.as_dict(),
            "games": self.games,
            "seed": self.seed,
            "move_time_ms": self.move_time_ms,
            "time_bank_ms": self.time_bank_ms,
            "on_fault": self.on_fault.value,
            "duplicate": self.duplicate,
            "all_seatings": self.all_seatings,
            "gauntlet": self.gauntlet,
            "sandbox": self.sandbox.value,
            "tcp": [b.name for b in self.bots if b.tcp],
        }

    @classmethod
    def from_record(cls, data: Any, where: str) -> TournamentSettings:
        """Read settings.json back; ``where`` names the file in errors."""
        try:
            if not isinstance(data, dict) or data.get("settings_format") != SETTINGS_FORMAT:
                raise SettingsError(f"not tournament settings of format {SETTINGS_FORMAT}")
            bots = tuple(BotCommand(str(name), tuple(map(str, argv))) for name, argv in data["bots"].items())
            bots = with_tcp(bots, map(str, data.get("tcp", [])))  # absent: saved before --tcp existed
            return cls(
                bots=bots,
                preset=str(data["preset"]),
                rules=Rules.from_dict(data["rules"]),
                overrides=tuple((str(k), str(v)) for k, v in data["rule_overrides"].items()),
                games=_int(data["games"]),
                seed=_int(data["seed"]),
                move_time_ms=_int(data["move_time_ms"]),
                on_fault=FaultPolicy(data["on_fault"]),
                duplicate=bool(data["duplicate"]),
                name=str(data["name"]),
                all_seatings=bool(data.get("all_seatings", False)),  # absent in folders from before the option
                gauntlet=None if data.get("gauntlet") is None else str(data["gauntlet"]),
                sandbox=SandboxMode(data.get("sandbox", SandboxMode.AUTO.value)),  # absent: saved before it existed
                time_bank_ms=_int(data.get("time_bank_ms", 0)),  # absent: saved before time banks
            )
        except KeyError as exc:
            raise SettingsError(f"{where}: missing {exc}") from None
        except (SettingsError, BotSpecError, RulesError, TypeError, ValueError, AttributeError) as exc:
            raise SettingsError(f"{where}: {exc}") from None

    def differences(self, other: TournamentSettings) -> list[str]:
        """What differs from ``other`` (as 'what: this / other'), among the settings that decide the games."""
        mine, theirs = self.record(), other.record()
        out = []
        for key in (
            "preset",
            "games",
            "seed",
            "move_time_ms",
            "time_bank_ms",
            "on_fault",
            "duplicate",
            "all_seatings",
            "gauntlet",
        ):
            if mine[key] != theirs[key]:
                out.append(f"{key} {mine[key]!r} / {theirs[key]!r}")
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


def _int(value: Any) -> int:
    if not isinstance(value, int) or isinstance(value, bool):
        raise TypeError(f"expected a whole number, got {value!r}")
    return value


# ------------------------------------------------------------- what was named


@dataclass(frozen=True)
class Given:
    """Settings the user named; None where nothing was said."""

    bots: tuple[BotCommand, ...] | None = None
    preset: str | None = None
    rules: Mapping[str, str] = field(default_factory=dict)  # overrides: option -> value text
    games: int | None = None
    seed: int | None = None
    move_time: int | None = None
    time_bank: int | None = None
    on_fault: FaultPolicy | None = None
    duplicate: bool | None = None
    all_seatings: bool | None = None
    name: str | None = None
    out: Path | None = None
    concurrency: int | None = None
    gauntlet: str | None = None  # the candidate bot of a gauntlet
    sandbox: SandboxMode | None = None
    workers: int | None = None  # referee processes (--workers): how, not which, games are played
    tcp: tuple[str, ...] | None = None  # the bots given a TCP address (--tcp): how they connect, not what they play

    def over(self, base: Given) -> Given:
        """These settings laid over ``base`` (rule overrides merge, the rest replaces)."""
        changes: dict[str, Any] = {
            k: getattr(self, k) for k in self.__dataclass_fields__ if k != "rules" and getattr(self, k) is not None
        }
        return replace(base, rules={**base.rules, **self.rules}, **changes)

    @property
    def names_rules(self) -> bool:
        return self.preset is not None or bool(self.rules)


def parse_bots(specs: list[str]) -> tuple[BotCommand, ...]:
    """``NAME=COMMAND`` arguments; a name given twice is an error."""
    bots = tuple(BotCommand.parse(spec) for spec in specs)
    _no_twice(bots)
    return bots


def parse_rules(specs: list[str]) -> dict[str, str]:
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


def resolve(given: Given, saved: TournamentSettings | None = None) -> TournamentSettings:
    """The settings: what was given, the rest from ``saved`` (resuming) or the defaults.

    Raises SettingsError, RulesError or BotSpecError with a one-line message.
    """
    if saved is not None:
        preset = given.preset or saved.preset
        if given.names_rules:
            rules, overrides = rules_for(preset, dict(given.rules)), tuple(given.rules.items())
        else:
            rules, overrides = saved.rules, saved.overrides
        base = saved
    else:
        preset = given.preset or DEFAULT_PRESET
        rules, overrides = rules_for(preset, dict(given.rules)), tuple(given.rules.items())
        base = None
    bots = given.bots if given.bots is not None else (base.bots if base else ())
    if not bots:
        raise SettingsError("no bots: give --bot NAME=COMMAND for each bot, or a --config file with a [bots] table")
    _no_twice(bots)
    if given.tcp is not None:
        bots = with_tcp(bots, given.tcp)
    elif base is not None:  # resumed: the bots that had a TCP address keep it
        bots = with_tcp(bots, {b.name for b in base.bots if b.tcp} & {b.name for b in bots})
    if len(bots) < rules.teams:
        raise SettingsError(
            f"a round-robin of {preset} ({rules.teams} teams) needs at least {rules.teams} bots, got {len(bots)}"
        )
    duplicate = _pick(given.duplicate, base and base.duplicate, True)
    all_seatings = _pick(given.all_seatings, base and base.all_seatings, False)
    games = _pick(given.games, base and base.games, set_size(rules, all_seatings))
    settings = TournamentSettings(
        bots=bots,
        preset=preset,
        rules=rules,
        overrides=overrides,
        games=games,
        seed=_pick(given.seed, base and base.seed, 1),
        move_time_ms=_pick(given.move_time, base and base.move_time_ms, 1000),
        on_fault=_pick(given.on_fault, base and base.on_fault, FaultPolicy.FORFEIT),
        duplicate=duplicate,
        name=_pick(given.name, base and base.name, "tournament"),
        all_seatings=all_seatings,
        gauntlet=_pick(given.gauntlet, base and base.gauntlet, None),
        sandbox=_pick(given.sandbox, base and base.sandbox, SandboxMode.AUTO),
        time_bank_ms=_pick(given.time_bank, base and base.time_bank_ms, 0),
    )
    try:
        settings.schedule()
    except ScheduleError as exc:
        raise SettingsError(str(exc)) from None
    return settings


def _pick(given: Any, saved: Any, default: Any) -> Any:
    if given is not None:
        return given
    return saved if saved is not None else default


# ------------------------------------------------------------------ TOML


KEYS = {
    "name": "a name (letters, digits, '_', '-', '.')",
    "out": "a folder path",
    "preset": "a preset name",
    "games": "a whole number >= 1",
    "seed": "a whole number",
    "move_time": f"a whole number of ms, {MOVE_TIME_MS[0]}..{MOVE_TIME_MS[1]}",
    "time_bank": f"a whole number of ms, {TIME_BANK_MS[0]}..{TIME_BANK_MS[1]}",
    "on_fault": "'forfeit' or 'default'",
    "duplicate": "true or false",
    "all_seatings": "true or false",
    "concurrency": "a whole number >= 1",
    "gauntlet": "the name of one of the bots",
    "sandbox": "'auto', 'required' or 'off'",
    "workers": "a whole number >= 1",
    "rules": "a table of rule options",
    "bots": "a table of NAME = COMMAND",
    "tcp": "a list of bot names",
}


@dataclass(frozen=True)
class TomlFile:
    """A settings file, read and parsed: its top-level table, and the line each key is set on (for errors)."""

    path: Path
    data: dict[str, Any]
    lines: dict[tuple[str | None, str], int]

    @classmethod
    def read(cls, path: Path) -> TomlFile:
        """SettingsError, naming the file, when it cannot be read or is not TOML."""
        try:
            text = path.read_text(encoding="utf-8")
        except FileNotFoundError:
            raise SettingsError(f"{path}: no such file") from None
        except UnicodeDecodeError:
            raise SettingsError(f"{path}: not UTF-8 text") from None
        except OSError as exc:
            raise SettingsError(f"{path}: cannot read it ({exc.strerror or exc})") from None
        try:
            data = tomllib.loads(text)
        except tomllib.TOMLDecodeError as exc:
            raise SettingsError(f"{path}: not valid TOML: {exc}") from None
        return cls(path, data, _key_lines(text))

    def bad(self, table: str | None, key: str, problem: str) -> SettingsError:
        """The error for a key (``table.key``), naming the file and the key's line."""
        line = self.lines.get((table, key))
        where = f"{self.path}:{line}" if line else str(self.path)
        shown = key if table is None else f"{table}.{key}"
        return SettingsError(f"{where}: {shown}: {problem}")

    def check_keys(self, known: Mapping[str, str]) -> None:
        """SettingsError on the first top-level key not in ``known`` (key -> what its value must be)."""
        for key in self.data:
            if key not in known:
                raise self.bad(None, key, f"unknown setting; known: {', '.join(known)}")

    def want(self, key: str, ok: bool, expected: str) -> None:
        if not ok:
            raise self.bad(None, key, f"expected {expected}, got {_shown(self.data[key])}")


def read_toml(path: Path) -> Given:
    """The settings of a tournament's TOML file; SettingsError names the file and line of the first problem."""
    toml = TomlFile.read(path)
    toml.check_keys(KEYS)
    return given_from_toml(toml)


def given_from_toml(toml: TomlFile) -> Given:
    """The settings of ``KEYS`` the file sets, checked (keys of other names are left to the caller)."""
    data = toml.data
    bad = toml.bad

    def want(key: str, ok: bool) -> None:
        toml.want(key, ok, KEYS[key])

    values: dict[str, Any] = {}
    for key in ("games", "concurrency", "workers"):
        if key in data:
            want(key, is_whole(data[key]) and data[key] >= 1)
            values[key] = data[key]
    if "seed" in data:
        want("seed", is_whole(data["seed"]))
        values["seed"] = data["seed"]
    if "move_time" in data:
        want("move_time", is_whole(data["move_time"]) and MOVE_TIME_MS[0] <= data["move_time"] <= MOVE_TIME_MS[1])
        values["move_time"] = data["move_time"]
    if "time_bank" in data:
        want("time_bank", is_whole(data["time_bank"]) and TIME_BANK_MS[0] <= data["time_bank"] <= TIME_BANK_MS[1])
        values["time_bank"] = data["time_bank"]
    for key in ("duplicate", "all_seatings"):
        if key in data:
            want(key, isinstance(data[key], bool))
            values[key] = data[key]
    if "on_fault" in data:
        want("on_fault", data["on_fault"] in {p.value for p in FaultPolicy})
        values["on_fault"] = FaultPolicy(data["on_fault"])
    if "sandbox" in data:
        want("sandbox", data["sandbox"] in {m.value for m in SandboxMode})
        values["sandbox"] = SandboxMode(data["sandbox"])
    for key in ("preset", "out", "name", "gauntlet"):
        if key in data:
            want(key, isinstance(data[key], str) and data[key].strip() != "")
    if "preset" in data:
        try:
            rules_for(data["preset"])
        except RulesError as exc:
            raise bad(None, "preset", str(exc)) from None
        values["preset"] = data["preset"]
    if "name" in data:
        try:
            values["name"] = check_name(data["name"])
        except SettingsError as exc:
            raise bad(None, "name", str(exc)) from None
    if "out" in data:
        values["out"] = Path(data["out"])
    if "gauntlet" in data:
        values["gauntlet"] = data["gauntlet"]
    if "tcp" in data:
        want("tcp", isinstance(data["tcp"], list) and all(isinstance(n, str) for n in data["tcp"]))
        values["tcp"] = tuple(data["tcp"])
    for key in ("rules", "bots"):
        if key in data:
            want(key, isinstance(data[key], dict))
    rules = {}
    for option, value in data.get("rules", {}).items():
        if isinstance(value, dict):
            raise bad("rules", option, "expected a value, got a table")
        try:
            rules[option] = format_value(option, parse_value(option, value))
        except RulesError as exc:
            raise bad("rules", option, str(exc)) from None
    if "bots" in data:
        bots = []
        for name, command in data["bots"].items():
            if isinstance(command, list) and command and all(isinstance(a, str) for a in command):
                command = shlex.join(command)
            if not isinstance(command, str):
                raise bad("bots", name, f"expected a command (a string, or a list of strings), got {_shown(command)}")
            try:
                bots.append(BotCommand.parse(f"{name}={command}"))
            except BotSpecError as exc:
                raise bad("bots", name, str(exc)) from None
        if not bots:
            raise bad(None, "bots", "the table lists no bots")
        values["bots"] = tuple(bots)
    return Given(rules=rules, **values)


def is_whole(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _shown(value: Any) -> str:
    kind = {bool: "a boolean", int: "a number", float: "a number", str: "a string", list: "a list", dict: "a table"}
    return f"{kind.get(type(value), type(value).__name__)} ({value!r})" if not isinstance(value, dict) else "a table"


_HEADER = re.compile(r"^\[\s*([^\[\]]+?)\s*\]")
_KEY = re.compile(r"""^\s*("[^"]*"|'[^']*'|[A-Za-z0-9_-]+(?:\s*\.\s*[A-Za-z0-9_-]+)*)\s*=""")


def _key_lines(text: str) -> dict[tuple[str | None, str], int]:
    """(table, key) -> the line it is set on, for error messages (simple tables and keys)."""
    lines: dict[tuple[str | None, str], int] = {}
    table: str | None = None
    for number, line in enumerate(text.splitlines(), start=1):
        header = _HEADER.match(line.strip())
        if header and not line.strip().startswith("[["):
            table = header.group(1).strip().strip("\"'")
            lines.setdefault((None, table), number)
            continue
        match = _KEY.match(line)
        if match:
            parts = (
                [p.strip().strip("\"'") for p in match.group(1).split(".")]
                if not match.group(1).startswith(("'", '"'))
                else [match.group(1)[1:-1]]
            )
            where = table
            if len(parts) == 2 and table is None:
                where, parts = parts[0], parts[1:]
            lines.setdefault((where, ".".join(parts)), number)
    return lines
