"""Starter bots: what ``arena new NAME --lang LANG`` writes, one folder per bot, in any kit's language.

A starter is a copy of the arena's own bot in that language (``example_bots/js``, ``cpp``, ``go``,
``java``; for Python, a bot on the SDK from ``templates/python``) with what a project of its own needs
beside it: the protocol (``proto/``, for the languages that generate code from it), a Makefile whose
``make`` builds the bot and whose ``make test`` runs its first test (``arena check-bot`` on it), a
README and a .gitignore. The Makefile names the arena that wrote it (``ARENA ?= ...``), so the test
runs the same arena without it being on the PATH. Every starter bids and plays by a short rule of
thumb, and is named after its folder: the copied bots read their folder's name when they start, the
Python starter has it written in.

``plan`` checks everything first (the folder, the name, the toolchain, the kit's files) and ``write``
then copies: a starter is written whole or not at all.
"""

from __future__ import annotations

import enum
import os
import shlex
import shutil
import subprocess
import sys
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from string import Template

from referee.bots import BotCommand
from referee.deadline import STARTUP_ALLOWANCE_MS, STARTUP_DECISIONS
from referee.errors import ArenaError, InputError

# the arena's checkout: its kits and the protocol (an editable install, as `make` sets up)
CHECKOUT = Path(__file__).resolve().parents[2]
PROTO = Path("proto") / "bideuchre" / "v1" / "arena.proto"
TEMPLATES = Path(__file__).resolve().parent / "templates"
GOCODE = Path("/usr/share/gocode/src")
JARS = Path("/usr/share/java")


class Language(enum.StrEnum):
    PYTHON = "python"
    JS = "js"
    CPP = "cpp"
    GO = "go"
    JAVA = "java"


class StarterError(InputError):
    """A starter that cannot be written; the message says what to do."""


def _pkg_config(*modules: str) -> Callable[[], bool]:
    def found() -> bool:
        if shutil.which("pkg-config") is None:
            return False
        return subprocess.run(["pkg-config", "--exists", *modules], check=False).returncode == 0

    found.__doc__ = f"the pkg-config modules {' '.join(modules)}"
    return found


def _golang_protobuf_1_5() -> bool:
    """github.com/golang/protobuf 1.4 or newer (grpc-go alone brings 1.3, which panics at the first Send)."""
    go_mod = GOCODE / "github.com" / "golang" / "protobuf" / "go.mod"
    return go_mod.is_file() and "google.golang.org/protobuf" in go_mod.read_text(encoding="utf-8")


@dataclass(frozen=True)
class Toolchain:
    """What building a starter needs: programs on the PATH, files, other checks; the Debian packages that
    bring them all (the Makefile's lists for the example bots)."""

    programs: tuple[str, ...]
    packages: str
    files: tuple[Path, ...] = ()
    checks: tuple[Callable[[], bool], ...] = ()

    def missing(self) -> list[str]:
        """What is not there, as a person reads it: program names, paths, descriptions."""
        gone: list[str] = [p for p in self.programs if shutil.which(p) is None]
        gone += [str(f) for f in self.files if not f.exists()]
        gone += [check.__doc__ or check.__name__ for check in self.checks if not check()]
        return gone


@dataclass(frozen=True)
class Kit:
    """One language's starter: the files it copies and writes, what builds it, how it runs."""

    language: Language
    toolchain: Toolchain
    command: str  # the bot's command from inside its folder
    entry: str  # the source at the top of its folder that speaks the protocol: a folder holding it is this kit's bot
    kit: str | None = None  # example_bots/<kit>: the bot copied
    copied: tuple[str, ...] = ()  # files of the kit copied (the kit's Makefile becomes the starter's)
    templates: tuple[str, ...] = ()  # files of templates/<language>/ copied
    proto: bool = True  # its build generates code from proto/
    tcp: bool = False  # its gRPC library cannot dial a Unix socket: it runs with --tcp NAME
    edit: str = ""  # where a person starts changing the bot (for the README)
    build: str = ""  # what `make` does, for the README (else: the Debian packages it needs)
    first_build: str = ""  # how long the first build takes, as bench/kits.py measured it (for the README)
    slow_start: bool = False  # its first decisions are slow (a JVM's): the README says what that costs


# the jars the Java bot is built and run with (its Makefile's list), in /usr/share/java
_JAVA_JARS = (
    "grpc-api grpc-core grpc-netty grpc-protobuf grpc-stub protobuf guava perfmark-api netty-codec-http2 "
    "geronimo-annotation-1.3-spec"
)

KITS = {
    Language.PYTHON: Kit(
        Language.PYTHON,
        Toolchain(("make",), "make"),
        "python bot.py",
        entry="bot.py",
        templates=("bot.py", "test_bot.py", "Makefile"),
        proto=False,
        edit="bot.py: one method per decision kind, on the arena's Python SDK (README.md of the arena)",
        build="compiles bot.py with the arena's Python, so that a syntax error shows there and not in a match",
    ),
    Language.JS: Kit(
        Language.JS,
        Toolchain(("make", "node", "npm"), "make nodejs npm"),
        "node bot.js",
        entry="bot.js",
        kit="js",
        copied=("bot.js", "strategy.js", "package.json", "package-lock.json", "check-bot.test.js"),
        templates=("Makefile",),
        edit="strategy.js: one function per decision kind; bot.js speaks the protocol",
    ),
    Language.CPP: Kit(
        Language.CPP,
        Toolchain(
            ("make", "g++", "protoc", "grpc_cpp_plugin", "pkg-config"),
            "make g++ pkg-config libgrpc++-dev protobuf-compiler-grpc",
            checks=(_pkg_config("grpc++", "protobuf"),),
        ),
        "build/bot",
        entry="bot.cc",
        kit="cpp",
        copied=("bot.cc", "strategy.h", "strategy.cc", "Makefile", "check_bot_test.sh"),
        edit="strategy.cc: one function per decision kind; bot.cc speaks the protocol",
        first_build="the first build compiles the protocol's generated code, about 15 s of CPU time, a file per "
        "core at once (under 10 s on two idle cores; longer on a busy machine); later builds recompile only what "
        "changed",
    ),
    Language.GO: Kit(
        Language.GO,
        Toolchain(
            ("make", "go", "protoc", "protoc-gen-go", "protoc-gen-go-grpc"),
            "make golang-go protobuf-compiler protoc-gen-go protoc-gen-go-grpc golang-google-grpc-dev "
            "golang-google-protobuf-dev golang-github-golang-protobuf-1-5-dev",
            files=(GOCODE / "google.golang.org" / "grpc",),
            checks=(_golang_protobuf_1_5,),
        ),
        "build/bot",
        entry="main.go",
        kit="go",
        copied=("main.go", "strategy.go", "strategy_test.go", "checkbot_test.go", "Makefile"),
        edit="strategy.go: one function per decision kind; main.go speaks the protocol",
        first_build="the first build compiles the protocol's code and Debian's gRPC for Go into Go's build cache, "
        "about 10 s of CPU time; later builds take a moment",
    ),
    Language.JAVA: Kit(
        Language.JAVA,
        Toolchain(
            ("make", "java", "javac", "protoc", "grpc_java_plugin"),
            "make default-jdk protobuf-compiler protobuf-compiler-grpc-java-plugin libgrpc-java libprotobuf-java "
            "libnetty-java libguava-java libperfmark-java libgeronimo-annotation-1.3-spec-java",
            files=tuple(JARS / f"{jar}.jar" for jar in _JAVA_JARS.split()),
        ),
        "build/bot",
        entry="Bot.java",
        kit="java",
        copied=("Bot.java", "Strategy.java", "CheckBotTest.java", "Makefile"),
        tcp=True,
        slow_start=True,
        edit="Strategy.java: one method per decision kind; Bot.java speaks the protocol",
        first_build="the first build generates and compiles the protocol's classes, about 6 s of CPU time; later "
        "builds compile the bot's own classes alone",
    ),
}


@dataclass(frozen=True)
class Starter:
    """A starter ready to be written: where, for which bot, with which arena."""

    folder: Path  # as the person typed it (relative to where arena new runs)
    name: str  # the bot's NAME in NAME=COMMAND: the folder's name
    kit: Kit
    arena: str  # the arena command that wrote it
    python: str  # the arena's Python (the word `python` in a bot command)

    @property
    def build_command(self) -> str:
        return f"make -C {shlex.quote(str(self.folder))}"

    @property
    def check_command(self) -> str:
        """``arena check-bot`` on this bot, from where arena new ran."""
        return f"{shlex.quote(self.arena)} check-bot{self._tcp} {self._bot}"

    @property
    def match_command(self) -> str:
        """A first match, from where arena new ran: this bot against the rule-based example bot."""
        rules = "rules='python -m example_bots.rules_bot'"
        return f"{shlex.quote(self.arena)} match{self._tcp} --bot {self._bot} --bot {rules}"

    @property
    def _tcp(self) -> str:
        return f" --tcp {self.name}" if self.kit.tcp else ""

    @property
    def _bot(self) -> str:
        """NAME=COMMAND, quoted for a shell."""
        command = " ".join(shlex.quote(w) for w in self._command_from_here())
        return shlex.quote(f"{self.name}={command}")

    def _command_from_here(self) -> list[str]:
        words = shlex.split(self.kit.command)
        if "/" in words[0]:  # a program in the folder
            return [str(self.folder / words[0]), *words[1:]]
        return [words[0], *(str(self.folder / w) for w in words[1:])]  # an interpreter and a script


def plan(folder: Path, language: Language) -> Starter:
    """Check that the starter can be written at ``folder`` (nothing there yet, a usable bot name, the
    toolchain and the kit's files present); StarterError saying what to do, else the Starter."""
    kit = KITS[language]
    name = folder.name
    if folder.exists() or folder.is_symlink():
        raise StarterError(f"{folder} already exists: name a new folder (arena new writes only into a new one)")
    if not folder.parent.is_dir():
        raise StarterError(f"{folder.parent} is not a folder: make it first, or name a folder in one that exists")
    try:
        usable = BotCommand.parse(f"{name}=bot").name == name
    except ArenaError:
        usable = False
    if not usable:
        raise StarterError(
            f"{name!r} cannot name a bot: use up to 32 letters, digits, '_', '-' or '.', starting with a letter or "
            "digit (the folder's name is the bot's NAME)"
        )
    missing = kit.toolchain.missing()
    if missing:
        packages = kit.toolchain.packages
        raise StarterError(
            f"a {language.value} bot needs {', '.join(missing)}, not found: install the Debian packages "
            f"{packages} (as root: apt-get update && apt-get install {packages}), then run arena new again"
        )
    sources = [
        TEMPLATES / "README.md",
        TEMPLATES / "gitignore",
        *(TEMPLATES / language.value / t for t in kit.templates),
    ]
    if kit.kit is not None:
        sources += [CHECKOUT / "example_bots" / kit.kit / f for f in kit.copied]
    if kit.proto:
        sources.append(CHECKOUT / PROTO)
    absent = [str(s) for s in sources if not s.is_file()]
    if absent:
        raise StarterError(
            f"the arena's kit files are missing ({absent[0]}): arena new copies them from the arena's checkout, "
            "so run the arena installed from it (make, or pip install -e)"
        )
    return Starter(folder, name, kit, _this_arena(), sys.executable)


def _this_arena() -> str:
    """The arena command running now: the console script beside its Python (a virtualenv's bin), else the
    one on the PATH."""
    beside = Path(sys.executable).parent / "arena"
    if beside.is_file():
        return str(beside)
    return os.path.abspath(shutil.which("arena") or "arena")


def write(starter: Starter) -> list[Path]:
    """Write the starter's folder (the ``plan`` checks passed); the files written. On any failure the
    folder is removed again: nothing is half-written."""
    kit = starter.kit
    folder = starter.folder
    folder.mkdir()
    try:
        written = []
        for name in kit.templates:
            source = TEMPLATES / kit.language.value / name
            if source.suffix == ".py":  # the bot's name written in (the folder's)
                text = Template(source.read_text(encoding="utf-8")).substitute(name=starter.name)
                (folder / name).write_text(text, encoding="utf-8")
                shutil.copystat(source, folder / name)
                written.append(folder / name)
            else:
                written.append(_copy(source, folder / name))
        for name in kit.copied:
            written.append(_copy(CHECKOUT / "example_bots" / str(kit.kit) / name, folder / name))
        if kit.proto:
            (folder / PROTO).parent.mkdir(parents=True)
            written.append(_copy(CHECKOUT / PROTO, folder / PROTO))
        makefile = folder / "Makefile"
        header = (
            f"# The arena that wrote this bot (arena new), for `make test`; the Python of its bot commands.\n"
            f"ARENA  ?= {starter.arena}\nPYTHON ?= {starter.python}\n\n"
        )
        makefile.write_text(header + makefile.read_text(encoding="utf-8"), encoding="utf-8")
        readme = Template((TEMPLATES / "README.md").read_text(encoding="utf-8")).substitute(
            name=starter.name,
            language=kit.language.value,
            edit=kit.edit,
            command=kit.command,
            build=starter.build_command,
            check=starter.check_command,
            match=starter.match_command,
            arena=starter.arena,
            needs=kit.build or f"builds the bot (it needs the Debian packages {kit.toolchain.packages})",
            took=f"; {kit.first_build}" if kit.first_build else "",
            tcp=_TCP_NOTE if kit.tcp else "",
            slow_start=SLOW_START_NOTE if kit.slow_start else "",
        )
        (folder / "README.md").write_text(readme, encoding="utf-8")
        written.append(folder / "README.md")
        written.append(_copy(TEMPLATES / "gitignore", folder / ".gitignore"))
        return written
    except BaseException:
        shutil.rmtree(folder, ignore_errors=True)
        raise


_TCP_NOTE = (
    "\nDebian's grpc-java cannot dial the seat's Unix socket, so this bot runs with `--tcp NAME`, as the "
    "commands above do (in `arena check-bot`, `match`, `tournament`, `sprt` and `play` alike): its "
    "ARENA_ADDRESS is then a 127.0.0.1 host:port inside its own sandbox.\n"
)

# A JVM loads its classes and compiles its hot code while it plays its first decisions.
SLOW_START_NOTE = (
    "\nA JVM is slow at its start: class loading and its first compilations make this bot's first decisions "
    "take up to about half a second. Every bot process has a start-up allowance, "
    f"{STARTUP_ALLOWANCE_MS} ms over its first {STARTUP_DECISIONS} decisions, drawn before any time bank (the "
    'arena\'s docs/protocol.md, "Time limits"), which covers that at the default move time and at '
    "`--move-time 200`. With less time per decision, on a busy machine, or with `--startup-allowance 0`, its "
    "first decisions can time out and forfeit games: give it `--startup-allowance MS` or `--time-bank MS` "
    "(a bank per game) to spare.\n"
)


def _copy(source: Path, target: Path) -> Path:
    shutil.copy2(source, target)
    return target
