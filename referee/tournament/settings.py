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

import json
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
from referee.tournament.formats import Knockout, Swiss, swiss_default_rounds
from referee.tournament.schedule import (
    Fixed,
    Format,
    FormatError,
    FormatName,
    Plan,
    ScheduleError,
    gauntlet,
    round_robin,
    set_size,
)

__all__ = [
    "Given",
    "Seeding",
    "SettingsError",
    "TomlFile",
    "TournamentSettings",
    "UsageError",
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


TIE_SETS = 2  # a knockout's tie-break sets at most, unless --tie-sets says otherwise


class UsageError(SettingsError):
    """Settings that do not go together (a format and options it does not take, too many rounds): a usage
    error, exit status 2; the message says what to change."""


@dataclass(frozen=True)
class Seeding:
    """The seeds of a Swiss or a knockout, from an earlier run's standings (by Elo): ``--seeding elo FOLDER``.

    ``order``: the bots, best seed first, once read (saved, so that a resumed run has the same seeds); the
    bots the earlier run did not have come after its bots, in the order given."""

    by: str  # "elo"
    folder: str
    order: tuple[str, ...] = ()

    def as_json(self) -> dict[str, Any]:
        return {"by": self.by, "folder": self.folder, "order": list(self.order)}

    def read(self, bots: tuple[str, ...]) -> Seeding:
        """The seeding with its order read from the folder's standings.json; SettingsError when it has none."""
        path = RunFolder(Path(self.folder)).standings_json
        what = f"--seeding elo {self.folder}"
        try:
            data = json.loads(path.read_text(encoding="utf-8"))
            ranked = [str(row["bot"]) for row in sorted(data["standings"], key=lambda r: -float(r["elo"]))]
        except FileNotFoundError:
            raise SettingsError(
                f"{what}: no {path.name} there (the folder of a finished arena tournament has one): name such a folder"
            ) from None
        except (OSError, ValueError, KeyError, TypeError) as exc:
            raise SettingsError(f"{what}: cannot read {path} ({exc})") from None
        known = [b for b in ranked if b in bots]
        return Seeding(self.by, self.folder, (*known, *(b for b in bots if b not in known)))


class _SeedingKind(Kind[Seeding]):
    """``--seeding elo FOLDER``; in a file ``seeding = ["elo", "FOLDER"]``."""

    @property
    def expects(self) -> str:
        return 'a list ["elo", FOLDER]'

    @property
    def cli(self) -> Any:
        return tuple[str, str]

    def read(self, value: Any) -> Seeding:
        if not (isinstance(value, list) and len(value) == 2 and all(isinstance(v, str) for v in value)):
            raise Wrong()
        try:
            return self.from_cli(value)
        except UsageError as exc:
            raise Wrong(str(exc)) from None

    def from_cli(self, value: Any) -> Seeding:
        by, folder = value
        if by != "elo":
            raise UsageError(f"--seeding {by} {folder}: the one seeding there is is 'elo FOLDER' (an earlier run's)")
        return Seeding(by, str(folder))

    def record(self, value: Seeding) -> Any:
        return value.as_json()

    def from_record(self, value: Any) -> Seeding:
        if not isinstance(value, dict):
            raise TypeError(f"expected a seeding, got {value!r}")
        return Seeding(str(value["by"]), str(value["folder"]), tuple(map(str, value.get("order", []))))

    def typer_options(self) -> dict[str, Any]:
        return {"metavar": "elo FOLDER"}


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
    format: FormatName | None = declare(
        Choice(FormatName),
        "How the bots meet: every group once (round-robin), one bot against the others (gauntlet, with "
        "--gauntlet NAME), rounds of groups of near scores (swiss), or a seeded bracket (knockout). Default: "
        "round-robin, or gauntlet with --gauntlet.",
        flag="--format",
        saved="format_name",
        decides_games=True,
        since_v1=True,
    )
    rounds: int | None = declare(
        Whole(low=1),
        "Swiss: the rounds. Default: ceil(log2 N) + 1 for N bots (log3 with three teams), at most as many as "
        "the field allows without a repeated pairing.",
        flag="--rounds",
        saved="rounds",
        decides_games=True,
        since_v1=True,
    )
    tie_sets: int | None = declare(
        Whole(low=0),
        "Knockout: the most duplicate sets a tied match plays on; still tied, points per hand decide.",
        default=TIE_SETS,
        flag="--tie-sets",
        saved="tie_sets",
        decides_games=True,
        since_v1=True,
    )
    seeding: Seeding | None = declare(
        _SeedingKind(),
        "Swiss and knockout: seed the bots by Elo in an earlier run's standings (its folder). Default: in the "
        "order they are given.",
        flag="--seeding",
        saved="seeding",
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
    # the format (defaults: a round-robin, for settings made without one, such as a ladder's)
    format_name: FormatName = FormatName.ROUND_ROBIN  # settings.json from before formats: or a gauntlet
    rounds: int | None = None  # a Swiss's rounds (None for the other formats)
    tie_sets: int = TIE_SETS  # a knockout's most tie-break sets per match
    seeding: Seeding | None = None  # the seeds of a Swiss or knockout by an earlier run's Elo; None: as given

    @property
    def bot_names(self) -> tuple[str, ...]:
        return tuple(b.name for b in self.bots)

    @property
    def clock(self) -> TimeControl:
        return TimeControl(move_time_ms=self.move_time_ms, time_bank_ms=self.time_bank_ms)

    @property
    def seeds(self) -> tuple[str, ...]:
        """The bots, best seed first (a Swiss's first standings, a knockout's bracket)."""
        return self.seeding.order if self.seeding is not None and self.seeding.order else self.bot_names

    def describe(self, plan: Plan) -> dict[str, Any]:
        """What standings.json and the report say of the format: its name, its rounds and the last one fixed,
        and for a format played in rounds its seeds and its meetings round by round."""
        out: dict[str, Any] = {"format": str(self.format_name), "rounds": plan.rounds, "round": plan.round}
        if plan.matches:
            out["seeds"] = list(self.seeds)
            if plan.bracket:
                out["tie_sets"] = self.tie_sets
            out["matches"] = [m.as_dict() for m in plan.matches]
        return out

    def format(self) -> Format:
        """How the games follow from these settings and the results so far (``Format.plan``)."""
        common: dict[str, Any] = {"games": self.games, "seed": self.seed, "duplicate": self.duplicate}
        if self.format_name is FormatName.SWISS:
            assert self.rounds is not None
            return Swiss.of(self.seeds, self.rules, rounds=self.rounds, every_seating=self.all_seatings, **common)
        if self.format_name is FormatName.KNOCKOUT:
            return Knockout.of(
                self.seeds, self.rules, tie_sets=self.tie_sets, every_seating=self.all_seatings, **common
            )
        if self.gauntlet is not None:
            return Fixed(
                gauntlet(self.bot_names, self.rules, candidate=self.gauntlet, every_seating=self.all_seatings, **common)
            )
        return Fixed(round_robin(self.bot_names, self.rules, every_seating=self.all_seatings, **common))

    def record(self) -> dict[str, Any]:
        """The JSON saved as settings.json in the tournament folder."""
        return {
            "settings_format": SETTINGS_FORMAT,
            "bots": {b.name: list(b.argv) for b in self.bots},
            "preset": self.preset,
            "rule_overrides": dict(self.overrides),
            "rules": self.rules.as_dict(),
            **{s.saved: _recorded(s, getattr(self, s.saved)) for s in _plain() if s.saved is not None},
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
            if plain["format_name"] is None:  # saved before formats: a gauntlet or a round-robin
                plain["format_name"] = FormatName.ROUND_ROBIN if plain["gauntlet"] is None else FormatName.GAUNTLET
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


def _recorded(setting: Setting, value: Any) -> Any:
    """A saved setting's value as JSON (None for a setting that is off)."""
    return None if value is None else setting.kind.record(value)


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
    plain = {}
    for s in _plain():
        assert s.saved is not None
        named = getattr(given, s.name)
        plain[s.saved] = named if named is not None else (getattr(saved, s.saved) if saved is not None else s.default)
    if plain["games"] is None:  # one duplicate set: one game per seating
        plain["games"] = set_size(rules, plain["all_seatings"])
    plain.update(_format_settings(given, plain, tuple(b.name for b in bots), rules.teams))
    if not plain["format_name"].in_rounds and len(bots) < rules.teams:
        raise SettingsError(
            f"a {plain['format_name']} of {preset} ({rules.teams} teams) needs at least {rules.teams} bots, "
            f"got {len(bots)}"
        )
    settings = TournamentSettings(bots=bots, preset=preset, rules=rules, overrides=overrides, **plain)
    try:
        settings.format().plan({})
    except FormatError as exc:
        raise UsageError(str(exc)) from None
    except ScheduleError as exc:
        raise SettingsError(str(exc)) from None
    return settings


def _format_settings(given: Given, plain: dict[str, Any], bots: tuple[str, ...], teams: int) -> dict[str, Any]:
    """The format, its rounds and its seeding, checked against each other (UsageError for what does not go
    together); the seeding's order read from the earlier run's folder when it is named now."""
    format = plain["format_name"]
    if format is None or (given.format is None and given.gauntlet is not None):  # --gauntlet NAME: a gauntlet
        format = FormatName.GAUNTLET if plain["gauntlet"] is not None else FormatName.ROUND_ROBIN
    if format is FormatName.GAUNTLET and plain["gauntlet"] is None:
        raise UsageError("--format gauntlet needs its bot: add --gauntlet NAME")
    if format is not FormatName.GAUNTLET and plain["gauntlet"] is not None:
        raise UsageError(
            f"--gauntlet {plain['gauntlet']} plays a gauntlet, not a {format}: "
            f"drop one of --gauntlet and --format {format}"
        )
    if format is not FormatName.SWISS and given.rounds is not None:
        raise UsageError(f"--rounds is for --format swiss, not {format}: drop --rounds")
    rounds = plain["rounds"] if format is FormatName.SWISS else None
    if format is FormatName.SWISS and rounds is None:
        rounds = swiss_default_rounds(len(bots), teams)
    seeding = plain["seeding"]
    if seeding is not None and not format.in_rounds:
        raise UsageError(f"--seeding is for --format swiss or knockout, not {format}: drop --seeding")
    if given.seeding is not None:  # named now: read the earlier run's standings (a resumed run keeps its seeds)
        seeding = given.seeding.read(bots)
    return {"format_name": format, "rounds": rounds, "seeding": seeding}


def read_toml(path: Path) -> Given:
    """The settings of a tournament's TOML file; SettingsError names the file and line of the first problem."""
    toml = TomlFile.read(path)
    toml.check_keys(SETTINGS)
    return Given.from_toml(toml)
