"""``arena new NAME --lang LANG`` as a person runs it: in a temporary folder, for every language, the starter
it writes builds, passes check-bot and plays a match with the three commands it prints, run as printed, and
passes its own first test (``make test``: ``arena check-bot``); it names itself after its folder and bids and
plays by its rule of thumb. A folder that exists, a language it does not know, a name that cannot
name a bot, a missing toolchain: one line saying what to do, exit status 2, nothing written.

Builds are reused where a kit has already built the same thing: a compiled starter's build/ folder starts as
a copy of its kit's (the protocol's generated and compiled code), and its own sources are then newer, so
``make`` compiles the bot itself and links it. Go reuses its build cache the same way.
"""

from __future__ import annotations

import json
import os
import re
import shlex
import shutil
import subprocess
from pathlib import Path
from typing import Any

import pytest

from referee.deadline import STARTUP_ALLOWANCE_MS, STARTUP_DECISIONS
from referee.engine.cards import card_power
from referee.engine.game import DecisionKind
from referee.gamelog import read_records
from referee.kits import KITS, Language
from referee.replay.logfile import load_log
from referee.replay.steps import DecisionPoint, GameReplay
from tests.support.arena import ARENA, REPO

MAKE_TARGET = {Language.JS: "example_bots/js/node_modules/.installed", Language.CPP: "cpp-bot",
               Language.GO: "go-bot", Language.JAVA: "java-bot"}  # fmt: skip


def new(cwd: Path, *args: str, env: dict[str, str] | None = None) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [ARENA, "new", *args], cwd=cwd, capture_output=True, text=True, timeout=60, env=env, check=False
    )


def run(argv: list[str], cwd: Path, timeout: float = 600) -> subprocess.CompletedProcess[str]:
    return subprocess.run(argv, cwd=cwd, capture_output=True, text=True, timeout=timeout, check=False)


def reuse_the_kits_build(language: Language, folder: Path) -> None:
    """Start the starter's build/ from its kit's (built by the Makefile as `make test` does), then make its
    own sources newer: what is left to make is the bot itself."""
    kit = KITS[language].kit
    if kit is None or language is Language.JS:
        return
    made = run(["make", "--no-print-directory", MAKE_TARGET[language]], REPO, timeout=900)
    assert made.returncode == 0, made.stdout + made.stderr
    shutil.copytree(REPO / "example_bots" / kit / "build", folder / "build", ignore=shutil.ignore_patterns("check-bot"))
    (folder / "build" / "bot").unlink()
    for source in KITS[language].copied:
        if source != "Makefile":
            os.utime(folder / source)


def records(log: Path) -> list[dict[str, Any]]:
    return [rec for _, rec in read_records(log)]


def report_of(out: str) -> dict[str, Any]:
    """The JSON report check-bot names in its verdict ("the report: PATH; ...")."""
    path = out.split("the report: ", 1)[1].split(";", 1)[0]
    data: dict[str, Any] = json.loads(Path(path).read_text())
    return data


def check_leads_and_bids(log: Path, seats: set[int]) -> None:
    """The starter bids and plays by its rule: it leads its strongest card every time it leads, and it makes a
    trick bid at least once."""
    match = load_log(log)
    leads = 0
    for logged in match.games:
        replay = GameReplay(match, logged)
        for item in replay:
            if not isinstance(item, DecisionPoint) or item.decision.seat not in seats:
                continue
            game = replay.game
            if item.decision.kind is DecisionKind.PLAY and not game.trick_cards:
                assert game.contract is not None
                trump = game.contract.trump
                strongest = max(card_power(c, trump) for c in item.decision.cards)
                assert isinstance(item.action, int)  # a card
                assert card_power(item.action, trump) == strongest, (item.hand, item.trick, item.action)
                leads += 1
    assert leads > 0
    bids = [r for r in records(log) if r["event"] == "bid" and r["seat"] in seats]
    assert any(b["bid"] != "pass" for b in bids), bids


@pytest.mark.parametrize("language", list(Language))
def test_a_starter_builds_passes_check_bot_and_plays_a_match(language: Language, tmp_path: Path) -> None:
    """The three commands arena new prints, run as printed (check-bot on one preset, the match short): the
    starter builds, passes check-bot under its folder's name, and plays a match by its rule of thumb."""
    name = f"my-{language.value}-bot"
    made = new(tmp_path, name, "--lang", language.value)
    assert made.returncode == 0, made.stdout + made.stderr
    lines = made.stdout.strip().splitlines()
    assert lines[0].startswith(f"wrote {name}/ (") and lines[0].endswith(f"a {language.value} bot named {name}")
    build, check, match = (line.strip() for line in lines[-3:])
    assert build == f"make -C {name}"
    tcp = ["--tcp", name] if KITS[language].tcp else []
    assert shlex.split(check)[:-1] == [ARENA, "check-bot", *tcp]
    assert shlex.split(match)[1 : 3 + len(tcp)] == ["match", *tcp, "--bot"]
    folder = tmp_path / name
    assert {"Makefile", "README.md", ".gitignore"} <= {p.name for p in folder.iterdir()}
    readme = (folder / "README.md").read_text()
    assert f"{build}\n{check}\n{match}\n" in readme and "$" not in readme.replace("$(", "")  # every field filled in
    if language is Language.PYTHON:
        assert "Debian packages" not in readme  # what a Python bot needs is the arena's Python
    assert KITS[language].first_build in readme  # how long a compiled kit's first build takes (bench/kits.py)

    reuse_the_kits_build(language, folder)
    built = run(shlex.split(build), tmp_path)
    assert built.returncode == 0, built.stdout + built.stderr
    if KITS[language].command == "build/bot":
        assert (folder / "build" / "bot").is_file()

    checked = run([*shlex.split(check), "--preset", "neuralplay", "--log-dir", str(tmp_path / "checked")], tmp_path)
    assert checked.returncode == 0, checked.stdout + checked.stderr
    assert report_of(checked.stdout)["hello"]["bot_name"] == name  # named after its folder

    tested = run(["make", "--no-print-directory", "-C", name, "test"], tmp_path)
    assert tested.returncode == 0, tested.stdout + tested.stderr
    assert f"ARENA={ARENA}" in tested.stdout  # the first test used the arena that wrote the starter

    logs = tmp_path / "logs"
    played = run([*shlex.split(match), "-r", "hand_limit=6", "--seed", "3", "--log-dir", str(logs)], tmp_path)
    assert played.returncode == 0, played.stdout + played.stderr
    [log] = logs.glob("match-*/*.jsonl")
    recs = records(log)
    assert [r for r in recs if r["event"] == "violation"] == []
    seats = {s["seat"] for s in recs[0]["seats"] if s["bot"] == name}
    assert seats == {0, 2}
    assert any(r["event"] == "play" and r["seat"] in seats for r in recs)
    assert any(r["event"] == "game_end" for r in recs)
    check_leads_and_bids(log, seats)


def test_an_existing_folder_is_left_alone(tmp_path: Path) -> None:
    (tmp_path / "mine").mkdir()
    (tmp_path / "mine" / "notes.txt").write_text("keep me")
    made = new(tmp_path, "mine", "--lang", "go")
    assert made.returncode == 2
    assert made.stderr.strip().splitlines() == [
        "error: mine already exists: name a new folder (arena new writes only into a new one)"
    ]
    assert [p.name for p in (tmp_path / "mine").iterdir()] == ["notes.txt"]


def test_an_unknown_language_is_one_line(tmp_path: Path) -> None:
    made = new(tmp_path, "mine", "--lang", "cobol")
    assert made.returncode == 2
    [line] = made.stderr.strip().splitlines()
    assert "'cobol' is not one of 'python', 'js', 'cpp', 'go', 'java'" in line, line
    assert list(tmp_path.iterdir()) == []


def test_a_name_that_cannot_name_a_bot(tmp_path: Path) -> None:
    made = new(tmp_path, "odd=name", "--lang", "python")
    assert made.returncode == 2
    [line] = made.stderr.strip().splitlines()
    assert "cannot name a bot" in line, line
    assert list(tmp_path.iterdir()) == []


@pytest.mark.parametrize("language", [Language.GO, Language.JAVA, Language.CPP, Language.JS])
def test_a_missing_toolchain_names_the_packages_and_writes_nothing(language: Language, tmp_path: Path) -> None:
    empty = tmp_path / "bin"
    empty.mkdir()
    made = new(tmp_path, "mine", "--lang", language.value, env={**os.environ, "PATH": str(empty)})
    assert made.returncode == 2
    [line] = made.stderr.strip().splitlines()
    packages = KITS[language].toolchain.packages
    assert line.startswith(f"error: a {language.value} bot needs make, "), line
    assert line.endswith(f"install the Debian packages {packages} (as root: apt-get update && apt-get install "
                         f"{packages}), then run arena new again"), line  # fmt: skip
    assert not (tmp_path / "mine").exists()


def makefile_variables() -> dict[str, str]:
    """The Makefile's variables as make reads them (MAKE=true: the kits' own Makefiles print nothing)."""
    db = run(["make", "-pn", "MAKE=true", "test"], REPO, timeout=120).stdout
    return dict(re.findall(r"^(\w+) :?= (.*)$", db, flags=re.MULTILINE))


def test_the_starters_toolchains_are_the_packages_the_makefile_installs() -> None:
    """arena new and `make test` name the same Debian packages for each compiled language."""
    variables = makefile_variables()
    for language, variable in ((Language.CPP, "CPP_PACKAGES"), (Language.GO, "GO_PACKAGES"),
                               (Language.JAVA, "JAVA_PACKAGES")):  # fmt: skip
        assert KITS[language].toolchain.packages == f"make {variables[variable]}", language
    jars = {f"/usr/share/java/{jar}.jar" for jar in variables["JAVA_JARS"].split()}
    assert {str(f) for f in KITS[Language.JAVA].toolchain.files} == jars


def test_each_kits_entry_is_a_file_its_starter_writes() -> None:
    """The file by which the club tells a bot's kit (``Kit.entry``) is one the starter writes, and no two kits
    share one."""
    for kit in KITS.values():
        assert kit.entry in kit.copied + kit.templates, kit.language
    assert len({kit.entry for kit in KITS.values()}) == len(KITS)


def test_the_java_starter_warns_of_its_slow_start_and_names_the_allowance(tmp_path: Path) -> None:
    """Issue 38, item 1: a JVM's first decisions are slow; the Java starter's README says what covers them (the
    start-up allowance, its value) and what to give it when that is not enough. Other starters say nothing."""
    for language in (Language.JAVA, Language.PYTHON):
        made = new(tmp_path, f"slow-{language.value}", "--lang", language.value)
        assert made.returncode == 0, made.stdout + made.stderr
        readme = " ".join((tmp_path / f"slow-{language.value}" / "README.md").read_text().split())
        warned = f"start-up allowance, {STARTUP_ALLOWANCE_MS} ms over its first {STARTUP_DECISIONS} decisions"
        assert (warned in readme) is (language is Language.JAVA), readme
        assert ("--startup-allowance MS" in readme) is (language is Language.JAVA)
