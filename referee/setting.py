"""Settings declared once: what a setting is, the kinds of value it can take, and the settings a user chose.

The settings a command takes are a frozen dataclass (a ``Choices``) whose fields are
declared with ``declare``: the field's name is the setting's name and its TOML
key; the declaration gives the kind of value (which says what it expects and
checks the range), the default, the help text, the command-line flag, the key
it is saved under in a run's settings.json and whether it decides the games
(a resumed run must then have the same). A field holds None where the user
named nothing, so that a TOML file, a resumed run's saved settings or the
default decide.

From the declaration come: reading a TOML file (``TomlFile``; every error
names the file, the key and, where it can be found, the line), the command
line's options (``referee.cli.options``), the saved record and the resume
check of a run (``referee.games.settings``). Adding a setting is adding
a field.
"""

from __future__ import annotations

import dataclasses
import enum
import functools
import re
import tomllib
from collections.abc import Callable, Mapping
from dataclasses import dataclass, fields, replace
from pathlib import Path
from typing import Any, Generic, Self, TypeVar

from referee.errors import ArenaError, InputError

T = TypeVar("T")
E = TypeVar("E", bound=enum.Enum)
_SETTING = "setting"  # the key of a field's metadata that holds its Setting


class SettingsError(InputError):
    """Settings that cannot be used; the message is one line naming the bad part."""


class BadValue(Exception):
    """A value its setting does not take. ``problem``: what is wrong (None: "expected ..., got ..."); ``inside``:
    the key within a table (``[bots]``'s NAME) the problem is with."""

    def __init__(self, problem: str | None = None, inside: str | None = None) -> None:
        super().__init__(problem)
        self.problem = problem
        self.inside = inside


# ------------------------------------------------------------------ kinds of value


class Kind(Generic[T]):
    """A kind of value: how it is read from a file or a saved record, how the command line gives it, how it shows."""

    @property
    def expects(self) -> str:
        """What a value must be, as an error says it ("a whole number >= 1")."""
        raise NotImplementedError

    @property
    def cli(self) -> Any:
        """The type the command line parses the option as (typer reads it so, with ``typer_options``)."""
        return str

    def read(self, value: Any) -> T:
        """A value from a TOML file; BadValue when it is not one."""
        raise NotImplementedError

    def from_cli(self, value: Any) -> T:
        """A value the command line parsed (as ``cli``, in the range ``typer_options`` gives); a domain error
        (``ArenaError``, one line) when it cannot be used."""
        return value

    def record(self, value: T) -> Any:
        """The value as JSON."""
        return value

    def from_record(self, value: Any) -> T:
        """The value saved as JSON (TypeError or ValueError when it is not one)."""
        return self.read(value)

    def shown(self, value: T) -> str:
        """The value as help texts show a default."""
        return str(value)

    def typer_options(self) -> dict[str, Any]:
        return {}


def is_whole(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


@dataclass(frozen=True)
class WholeNumber(Kind[int]):
    """A whole number, at least ``low`` and at most ``high`` where given; ``unit`` names what it counts."""

    low: int | None = None
    high: int | None = None
    unit: str = ""
    metavar: str | None = None

    @property
    def expects(self) -> str:
        what = f"a whole number{f' of {self.unit}' if self.unit else ''}"
        if self.low is not None and self.high is not None:
            return f"{what}, {self.low}..{self.high}"
        return f"{what} >= {self.low}" if self.low is not None else what

    @property
    def cli(self) -> Any:
        return int

    def read(self, value: Any) -> int:
        if not is_whole(value):
            raise BadValue()
        if (self.low is not None and value < self.low) or (self.high is not None and value > self.high):
            raise BadValue()
        return int(value)

    def from_record(self, value: Any) -> int:
        if not is_whole(value):
            raise TypeError(f"expected a whole number, got {value!r}")
        return int(value)

    def typer_options(self) -> dict[str, Any]:
        bounds = {k: v for k, v in (("min", self.low), ("max", self.high)) if v is not None}
        return {**bounds, "metavar": self.metavar} if self.metavar else bounds


@dataclass(frozen=True)
class Numeral(Kind[int]):
    """A whole number whose range is known only once what it counts in is read (a game of a log, a seat of its
    rules): the command line gives it as text, a bad one is a one-line error naming the option, and the range
    is checked where it is known."""

    metavar: str

    @property
    def expects(self) -> str:
        return "a whole number"

    def read(self, value: Any) -> int:
        if not is_whole(value):
            raise BadValue()
        return int(value)

    def from_cli(self, value: Any) -> int:
        try:
            return int(value)
        except ValueError:
            raise BadValue(f"needs a whole number, got {value!r}") from None

    def typer_options(self) -> dict[str, Any]:
        return {"metavar": self.metavar}


@dataclass(frozen=True)
class Number(Kind[float]):
    """A number; strictly between ``above`` and ``below``, and at least ``low``, where given. ``expects_text``: how
    errors name it."""

    expects_text: str = "a number"
    above: float | None = None
    below: float | None = None
    low: float | None = None

    @property
    def expects(self) -> str:
        return self.expects_text

    @property
    def cli(self) -> Any:
        return float

    def read(self, value: Any) -> float:
        if not isinstance(value, int | float) or isinstance(value, bool):
            raise BadValue()
        if (self.above is not None and not value > self.above) or (self.below is not None and not value < self.below):
            raise BadValue()
        if self.low is not None and value < self.low:
            raise BadValue()
        return float(value)

    def from_record(self, value: Any) -> float:
        return float(value)

    def shown(self, value: float) -> str:
        return f"{value:g}"

    def typer_options(self) -> dict[str, Any]:
        return {} if self.low is None else {"min": self.low}


class Flag(Kind[bool]):
    """True or false: on the command line, a flag (``--duplicate/--no-duplicate``, or ``--all-seatings`` alone)."""

    @property
    def expects(self) -> str:
        return "true or false"

    @property
    def cli(self) -> Any:
        return bool

    def read(self, value: Any) -> bool:
        if not isinstance(value, bool):
            raise BadValue()
        return value

    def from_record(self, value: Any) -> bool:
        return bool(value)


@dataclass(frozen=True)
class Choice(Kind[E]):
    """One of an enum's values (a ``str`` enum), case-insensitive on the command line."""

    of: type[E]

    @property
    def expects(self) -> str:
        names = [repr(m.value) for m in self.of]
        return " or ".join(names) if len(names) < 3 else f"{', '.join(names[:-1])} or {names[-1]}"

    @property
    def cli(self) -> Any:
        return self.of

    def read(self, value: Any) -> E:
        if value not in {m.value for m in self.of}:
            raise BadValue()
        return self.of(value)

    def from_cli(self, value: Any) -> E:
        return self.of(value)

    def record(self, value: E) -> Any:
        return value.value

    def from_record(self, value: Any) -> E:
        return self.of(value)

    def shown(self, value: E) -> str:
        return str(value.value)

    def typer_options(self) -> dict[str, Any]:
        return {"case_sensitive": False}


@dataclass(frozen=True)
class Text(Kind[str]):
    """A string that is not blank; ``check`` (where given) takes it or raises a domain error saying why not."""

    expects_text: str
    check: Callable[[str], Any] | None = None
    metavar: str | None = None

    @property
    def expects(self) -> str:
        return self.expects_text

    def read(self, value: Any) -> str:
        if not isinstance(value, str) or not value.strip():
            raise BadValue()
        try:
            return self.from_cli(value)
        except ArenaError as exc:
            raise BadValue(str(exc)) from None

    def from_cli(self, value: Any) -> str:
        if self.check is not None:
            self.check(value)
        return str(value)

    def from_record(self, value: Any) -> str:
        return str(value)

    def typer_options(self) -> dict[str, Any]:
        return {"metavar": self.metavar} if self.metavar else {}


class Folder(Kind[Path]):
    """A folder's path."""

    @property
    def expects(self) -> str:
        return "a folder path"

    @property
    def cli(self) -> Any:
        return Path

    def read(self, value: Any) -> Path:
        if not isinstance(value, str) or not value.strip():
            raise BadValue()
        return Path(value)

    def from_cli(self, value: Any) -> Path:
        return Path(value)

    def record(self, value: Path) -> Any:
        return str(value)

    def typer_options(self) -> dict[str, Any]:
        return {"file_okay": False}


@dataclass(frozen=True)
class OutputPath(Folder):
    """A path to write to (a file, or a folder of files where the command says so); ``metavar`` names it."""

    metavar: str = "FILE"

    @property
    def expects(self) -> str:
        return "a file path"

    def typer_options(self) -> dict[str, Any]:
        return {"metavar": self.metavar}


@dataclass(frozen=True)
class Names(Kind[tuple[str, ...]]):
    """A list of names; on the command line, an option given once per name."""

    expects_text: str = "a list of names"
    metavar: str = "NAME"

    @property
    def expects(self) -> str:
        return self.expects_text

    @property
    def cli(self) -> Any:
        return list[str]

    def read(self, value: Any) -> tuple[str, ...]:
        if not isinstance(value, list) or not all(isinstance(n, str) for n in value):
            raise BadValue()
        return tuple(value)

    def from_cli(self, value: Any) -> tuple[str, ...]:
        return tuple(value)

    def record(self, value: tuple[str, ...]) -> Any:
        return list(value)

    def typer_options(self) -> dict[str, Any]:
        return {"metavar": self.metavar}


# ------------------------------------------------------------------ settings


@dataclass(frozen=True)
class Setting:
    """One setting, declared once (a field of a ``Choices``, by ``declare``)."""

    kind: Kind[Any]
    help: str  # for the command line's help, without the default (which is added from ``default``)
    default: Any = None  # None: none (the setting is off), or worked out where it is used (``default_text`` says how)
    default_text: str | None = None  # the help's words for the default: "{}" stands for ``kind.shown(default)``
    flag: str | None = None  # "--move-time", or "--duplicate/--no-duplicate"; None: only in a file
    short: str | None = None  # "-n"
    saved: str | None = None  # its key in settings.json, and its attribute in the resolved settings; None: not saved
    decides_games: bool = False  # a resumed run must have the same value (else its results are not one run's)
    since_v1: bool = False  # added after settings format 1: a settings.json without it has the default
    name: str = ""  # the field's name (the TOML key), filled in by ``declared``

    @property
    def can_be_off(self) -> bool:
        """Whether None is one of its values (the setting is off: no gauntlet), not only "not named"."""
        return self.default is None and self.default_text is None

    def default_words(self) -> str | None:
        """How the help says the default; None when it says nothing."""
        if self.default_text is not None:
            if "{}" not in self.default_text:
                return self.default_text
            return self.default_text.replace("{}", self.kind.shown(self.default))
        if self.default is None:
            return None
        if isinstance(self.kind, Flag):
            on, _, off = (self.flag or "").partition("/")
            side = on if self.default else off
            return side.lstrip("-") or None  # a flag with no "off" side says nothing of being off
        return self.kind.shown(self.default)


def declare(
    kind: Kind[Any],
    help: str,
    *,
    default: Any = None,
    default_text: str | None = None,
    flag: str | None = None,
    short: str | None = None,
    saved: str | None = None,
    decides_games: bool = False,
    since_v1: bool = False,
    mapping: bool = False,
) -> Any:
    """A field of a ``Choices`` that declares a setting (see ``Setting``); ``mapping``: its value is a mapping
    (a TOML table), empty when nothing was named, and merges when laid over another."""
    setting = Setting(kind, help, default, default_text, flag, short, saved, decides_games, since_v1)
    if mapping:
        return dataclasses.field(default_factory=dict, metadata={_SETTING: setting})
    return dataclasses.field(default=None, metadata={_SETTING: setting})


@dataclass(frozen=True)
class Choices:
    """The settings a user chose (a frozen dataclass whose fields are ``declare``d): what the user named, None (or
    an empty mapping) where nothing was said."""

    @classmethod
    @functools.cache
    def declared(cls) -> dict[str, Setting]:
        """The settings, by name, in the order they are declared."""
        return {f.name: replace(f.metadata[_SETTING], name=f.name) for f in fields(cls) if _SETTING in f.metadata}

    @classmethod
    def from_options(cls, options: Mapping[str, Any]) -> Self:
        """The settings among the command line's ``options`` (by name; None where not given), each converted
        from what the command line parsed. A value that cannot be used raises its one-line domain error."""
        values = {}
        for name, setting in cls.declared().items():
            value = options.get(name)
            if value is None or (isinstance(value, list | tuple) and not value):
                continue  # not given (a repeatable option: not once)
            try:
                values[name] = setting.kind.from_cli(value)
            except BadValue as exc:  # a value the option's kind does not take: said with the option's name
                flag = (setting.flag or name).split("/")[0]
                raise SettingsError(f"{flag} {exc.problem or f'expects {setting.kind.expects}'}") from None
        return cls(**values)

    @classmethod
    def from_toml(cls, toml: TomlFile) -> Self:
        """The settings of these choices that the file sets, checked (keys of other names are left alone)."""
        values = {}
        for name, setting in cls.declared().items():
            if name in toml.data:
                values[name] = toml.value(name, setting.kind)
        return cls(**values)

    def over(self, base: Self) -> Self:
        """These settings laid over ``base``: what is named here replaces, tables (mappings) merge."""
        changes: dict[str, Any] = {}
        for name in self.declared():
            mine = getattr(self, name)
            if isinstance(mine, Mapping):
                changes[name] = {**getattr(base, name), **mine}
            elif mine is not None:
                changes[name] = mine
        return replace(base, **changes)

    def value(self, name: str) -> Any:
        """The setting as named, else its default."""
        mine = getattr(self, name)
        return self.declared()[name].default if mine is None else mine


# ------------------------------------------------------------------ TOML files


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

    def check_keys(self, known: Mapping[str, Setting]) -> None:
        """SettingsError on the first top-level key that is no setting in ``known``."""
        for key in self.data:
            if key not in known:
                raise self.bad(None, key, f"unknown setting; known: {', '.join(known)}")

    def value(self, key: str, kind: Kind[T]) -> T:
        """The top-level ``key``'s value, read as ``kind``; SettingsError naming the key and line when it is
        not one."""
        try:
            return kind.read(self.data[key])
        except BadValue as exc:
            if exc.inside is not None:
                raise self.bad(key, exc.inside, exc.problem or "") from None
            raise self.bad(None, key, exc.problem or f"expected {kind.expects}, got {shown(self.data[key])}") from None


def shown(value: Any) -> str:
    """A TOML value as an error names it: its kind and its value."""
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
