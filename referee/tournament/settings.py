"""A tournament's settings: the games' settings (``referee.games.settings``) and its format, declared once
(``TournamentChoices``), from a TOML file and the command line, saved in the run folder.

``TournamentChoices`` holds what the user named (``read_toml`` for a file; the command
line is laid on top with ``TournamentChoices.over``): the games' settings
(``GameChoices``), the run's name and folder (``FolderChoices``) and the
format's own (games per pairing, duplicate deals, the format, its rounds,
tie-break sets and seeding); each of its fields declares one setting
(``referee.setting``). ``resolve`` turns it into ``TournamentSettings``:
the games' settings resolved where every command's are
(``referee.games.settings.resolve_games``), and the format's from what was
named, or, on ``--resume``, from the settings saved when the tournament
started; a resumed tournament must describe the same games (``differences``
says which settings do not), else its standings would not be those of one
run.

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
from dataclasses import dataclass
from pathlib import Path
from typing import Any, ClassVar

from referee.games.scheduled import set_size
from referee.games.settings import (
    FolderChoices,
    GameChoices,
    GameSettings,
    SeatingChoices,
    TableChoices,
    named_or_saved,
    own_settings,
    parse_bots,
    parse_rules,
    require_bots,
    resolve_games,
)
from referee.runfolder import RunFolder
from referee.setting import (
    BadValue,
    Choice,
    Choices,
    Flag,
    Kind,
    SettingsError,
    Text,
    TomlFile,
    WholeNumber,
    declare,
)
from referee.tournament.formats import Knockout, Swiss, swiss_default_rounds
from referee.tournament.schedule import (
    FixedSchedule,
    Format,
    FormatError,
    FormatName,
    Plan,
    ScheduleError,
    gauntlet,
    round_robin,
)

__all__ = [
    "Seeding",
    "SettingsError",
    "TomlFile",
    "TournamentChoices",
    "TournamentSettings",
    "UsageError",
    "parse_bots",
    "parse_rules",
    "read_toml",
    "resolve",
]

TIE_SETS = 2  # a knockout's tie-break sets at most, unless --tie-sets says otherwise


class UsageError(SettingsError):
    """Settings that do not go together (a format and options it does not take, too many rounds): a usage
    error, exit status 2; the message says what to change."""


@dataclass(frozen=True)
class Seeding:
    """The seeds of a Swiss or a knockout, from an earlier run's standings (by Elo): ``--seeding elo FOLDER``.

    ``order``: the bots, best seed first, once read (saved, so that a resumed run has the same seeds); the
    bots the earlier run did not have come after its bots, in the order chosen."""

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
            raise BadValue()
        try:
            return self.from_cli(value)
        except UsageError as exc:
            raise BadValue(str(exc)) from None

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


@dataclass(frozen=True)
class TournamentChoices(TableChoices, SeatingChoices, GameChoices, FolderChoices):
    """The settings of a tournament the user named: its name and folder, the games' settings and its format's;
    None where nothing was said. Each field declares one setting, in the order help and errors list them."""

    games: int | None = declare(
        WholeNumber(low=1),
        "Games per pairing.",
        default_text="one per seating: 2, or 3 for three teams",
        flag="--games",
        short="-n",
        saved="games",
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
        WholeNumber(low=1),
        "Swiss: the rounds. Default: ceil(log2 N) + 1 for N bots (log3 with three teams), at most as many as "
        "the field allows without a repeated pairing.",
        flag="--rounds",
        saved="rounds",
        decides_games=True,
        since_v1=True,
    )
    tie_sets: int | None = declare(
        WholeNumber(low=0),
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
        "order they are chosen.",
        flag="--seeding",
        saved="seeding",
        decides_games=True,
        since_v1=True,
    )


SETTINGS = TournamentChoices.declared()


@dataclass(frozen=True)
class TournamentSettings(GameSettings):
    """Everything that decides the games of a tournament (not how fast or where they run): the games' settings
    and an attribute per saved setting of its format (under its ``saved`` name)."""

    CHOICES: ClassVar[type[Choices]] = TournamentChoices

    name: str  # a label; not part of what must match on resume
    games: int  # per pairing
    duplicate: bool
    all_seatings: bool  # three teams: every order round the table, not only the rotations
    gauntlet: str | None  # the candidate of a gauntlet; None for a round-robin
    format_name: FormatName = FormatName.ROUND_ROBIN  # settings.json from before formats: or a gauntlet
    rounds: int | None = None  # a Swiss's rounds (None for the other formats)
    tie_sets: int = TIE_SETS  # a knockout's most tie-break sets per match
    seeding: Seeding | None = None  # the seeds of a Swiss or knockout by an earlier run's Elo; None: as chosen

    @property
    def seeds(self) -> tuple[str, ...]:
        """The bots, best seed first (a Swiss's first standings, a knockout's bracket)."""
        return self.seeding.order if self.seeding is not None and self.seeding.order else self.bot_names

    def describe(self, plan: Plan) -> dict[str, Any]:
        """What standings.json and the report say of the format: its name, its rounds and the last one fixed,
        and for a format played in rounds its seeds and its meetings round by round."""
        out: dict[str, Any] = {"format": str(self.format_name), "rounds": plan.rounds, "round": plan.round}
        if plan.meetings:
            out["seeds"] = list(self.seeds)
            if plan.bracket:
                out["tie_sets"] = self.tie_sets
            out["matches"] = [m.as_dict() for m in plan.meetings]
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
            return FixedSchedule(
                gauntlet(self.bot_names, self.rules, candidate=self.gauntlet, every_seating=self.all_seatings, **common)
            )
        return FixedSchedule(round_robin(self.bot_names, self.rules, every_seating=self.all_seatings, **common))

    @classmethod
    def completed(cls, plain: dict[str, Any], data: dict[str, Any]) -> dict[str, Any]:
        if plain["format_name"] is None:  # saved before formats: a gauntlet or a round-robin
            plain["format_name"] = FormatName.ROUND_ROBIN if plain["gauntlet"] is None else FormatName.GAUNTLET
        return plain


def resolve(chosen: TournamentChoices, saved: TournamentSettings | None = None) -> TournamentSettings:
    """The settings: what was chosen, the rest from ``saved`` (resuming) or the defaults.

    Raises SettingsError, RulesError or BotSpecError with a one-line message.
    """
    games = resolve_games(chosen, saved)
    require_bots(games)
    rules, bots = games.rules, games.bot_names
    plain = named_or_saved(chosen, saved, own_settings(TournamentChoices))
    if plain["games"] is None:  # one duplicate set: one game per seating
        plain["games"] = set_size(rules, plain["all_seatings"])
    plain.update(_format_settings(chosen, plain, bots, rules.teams))
    if not plain["format_name"].in_rounds and len(bots) < rules.teams:
        raise SettingsError(
            f"a {plain['format_name']} of {games.preset} ({rules.teams} teams) needs at least {rules.teams} bots, "
            f"got {len(bots)}"
        )
    settings = games.extended(TournamentSettings, **plain)
    try:
        settings.format().plan({})
    except FormatError as exc:
        raise UsageError(str(exc)) from None
    except ScheduleError as exc:
        raise SettingsError(str(exc)) from None
    return settings


def _format_settings(
    chosen: TournamentChoices, plain: dict[str, Any], bots: tuple[str, ...], teams: int
) -> dict[str, Any]:
    """The format, its rounds and its seeding, checked against each other (UsageError for what does not go
    together); the seeding's order read from the earlier run's folder when it is named now."""
    format = plain["format_name"]
    if format is None or (chosen.format is None and chosen.gauntlet is not None):  # --gauntlet NAME: a gauntlet
        format = FormatName.GAUNTLET if plain["gauntlet"] is not None else FormatName.ROUND_ROBIN
    if format is FormatName.GAUNTLET and plain["gauntlet"] is None:
        raise UsageError("--format gauntlet needs its bot: add --gauntlet NAME")
    if format is not FormatName.GAUNTLET and plain["gauntlet"] is not None:
        raise UsageError(
            f"--gauntlet {plain['gauntlet']} plays a gauntlet, not a {format}: "
            f"drop one of --gauntlet and --format {format}"
        )
    if format is not FormatName.SWISS and chosen.rounds is not None:
        raise UsageError(f"--rounds is for --format swiss, not {format}: drop --rounds")
    rounds = plain["rounds"] if format is FormatName.SWISS else None
    if format is FormatName.SWISS and rounds is None:
        rounds = swiss_default_rounds(len(bots), teams)
    seeding = plain["seeding"]
    if seeding is not None and not format.in_rounds:
        raise UsageError(f"--seeding is for --format swiss or knockout, not {format}: drop --seeding")
    if chosen.seeding is not None:  # named now: read the earlier run's standings (a resumed run keeps its seeds)
        seeding = chosen.seeding.read(bots)
    return {"format_name": format, "rounds": rounds, "seeding": seeding}


def read_toml(path: Path) -> TournamentChoices:
    """The settings of a tournament's TOML file; SettingsError names the file and line of the first problem."""
    toml = TomlFile.read(path)
    toml.check_keys(SETTINGS)
    return TournamentChoices.from_toml(toml)
