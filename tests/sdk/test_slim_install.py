"""bideuchre-sdk (sdk-dist/): a bot author's install brings grpcio, protobuf, the engine, the wire and the SDK.

The quick checks run in the arena's venv, where typer, rich, structlog and
aiohttp are installed, so an import of one of them by the SDK would succeed
there and must be caught by name (tools/check_sdk_imports.py). The slow ones
build the wheel and install it alone in a fresh virtualenv: with a compiler,
it has the double-dummy solver and plays a real ``arena match`` whose bots
are that venv's Python running the installed example bots; where the
compiler fails, it installs without the solver, says so, and still decides
claims (the engine's pure-Python search). pip fetches the wheel's build backend and its dependencies from
the package index pip is set up with: where a look-up there finds none of
them, that test is skipped saying so in one line ("no package index
reachable: ...").
"""

from __future__ import annotations

import json
import os
import runpy
import subprocess
import sys
import tomllib
import venv
from collections.abc import Mapping
from pathlib import Path

import pytest

from referee.replay.logfile import load_log
from referee.replay.verify import verify_log
from tests.support.arena import ARENA, REPO

SDK_DIST = REPO / "sdk-dist"
CHECK = REPO / "tools" / "check_sdk_imports.py"
HEAVY = ("typer", "click", "rich", "structlog", "aiohttp", "grpc_health", "grpc_reflection", "grpc_tools", "ray")


def project(pyproject: Path) -> dict[str, object]:
    table: dict[str, object] = tomllib.loads(pyproject.read_text(encoding="utf-8"))["project"]
    return table


def test_importing_the_sdk_brings_in_nothing_of_the_referee_nor_its_libraries() -> None:
    """Every module the wheel ships, imported where everything is installed: only the standard library, grpc,
    protobuf and the shipped modules come in (no referee.logging, structlog, rich ...)."""
    run = subprocess.run([sys.executable, str(CHECK)], capture_output=True, text=True, timeout=120, check=False)
    assert run.returncode == 0, run.stdout + run.stderr
    assert run.stdout.splitlines() == [
        f"{len(shipped())} modules of bideuchre-sdk import with the standard library, grpc and protobuf alone"
    ]


def shipped() -> list[str]:
    """The modules the wheel holds, as the check script reads them from sdk-dist/pyproject.toml."""
    names: list[str] = runpy.run_path(str(CHECK))["shipped_modules"]()
    return names


def test_the_wheel_ships_the_sdk_the_engine_the_wire_and_the_example_bots() -> None:
    names = shipped()
    for module in ("sdk", "sdk.runner", "sdk.log", "sdk.simulator", "referee.errors", "referee.engine.game"):
        assert module in names
    wire = ("bideuchre.v1.arena_pb2", "domain", "messages", "encoder", "decoded")
    assert {f"referee.protocol.{m}" for m in wire} <= set(names)
    bots = sorted(n.removeprefix("example_bots.") for n in names if n.startswith("example_bots."))
    assert bots == ["first_bot", "montecarlo_bot", "random_bot", "rules_bot"]
    assert not any(n.startswith(("referee.cli", "referee.server", "referee.match", "referee.logging")) for n in names)


def test_its_version_and_dependencies_are_the_arenas() -> None:
    slim, arena = project(SDK_DIST / "pyproject.toml"), project(REPO / "pyproject.toml")
    assert slim["version"] == arena["version"]
    assert isinstance(slim["dependencies"], list) and isinstance(arena["dependencies"], list)
    wanted = [d for d in arena["dependencies"] if d.split(">")[0].split("=")[0] in ("grpcio", "protobuf")]
    assert slim["dependencies"] == wanted


def run(argv: list[str | Path], *, cwd: Path | None = None, timeout: float = 300) -> subprocess.CompletedProcess[str]:
    done = subprocess.run(argv, cwd=cwd, capture_output=True, text=True, timeout=timeout, check=False)
    assert done.returncode == 0, f"{argv}\n{done.stdout}\n{done.stderr}"
    return done


# what pip fetches for the slow test: the wheel's build backend, and what the wheel needs
FROM_THE_INDEX = ("setuptools", "wheel", "grpcio", "protobuf")


def index_problem(env: dict[str, str] | None = None) -> str | None:
    """None when pip, as it is set up (pip.conf, PIP_* in ``env``), finds each of ``FROM_THE_INDEX`` on its
    package index; else why not, in one line. A real look-up each (``pip index versions``), not a guess."""
    for package in FROM_THE_INDEX:
        argv = [sys.executable, "-m", "pip", "index", "versions", package, "--retries", "1", "--timeout", "15"]
        probe = subprocess.run(argv, capture_output=True, text=True, timeout=120, check=False, env=env)
        if probe.returncode != 0:
            said = [line for line in probe.stderr.splitlines() if line.strip()]
            return f"pip cannot find {package} ({said[-1].strip() if said else f'exit status {probe.returncode}'})"
    return None


def test_the_index_probe_says_in_a_line_why_there_is_none() -> None:
    """pip pointed at an address where nothing listens, without its other sources: the probe says so."""
    nowhere = {**os.environ, "PIP_CONFIG_FILE": os.devnull, "PIP_INDEX_URL": "http://127.0.0.1:9/simple"}
    nowhere |= {"PIP_EXTRA_INDEX_URL": "", "PIP_FIND_LINKS": ""}
    why = index_problem(nowhere)
    assert why is not None and why.startswith("pip cannot find setuptools (") and "\n" not in why, why


def slim_venv(dist: Path, slim: Path, env: Mapping[str, str]) -> Path:
    """The wheel built as `make sdk-wheel` builds it (pip fetches setuptools into a build environment of its own),
    with ``env`` (its compiler), installed alone in a fresh venv from the base interpreter (nothing of the arena's
    venv) at ``slim``: that venv's Python."""
    argv: list[str | Path] = [sys.executable, "-m", "pip", "wheel", "--quiet", "--no-deps", "--wheel-dir", dist]
    built = subprocess.run([*argv, SDK_DIST], capture_output=True, text=True, timeout=300, check=False, env=env)
    assert built.returncode == 0, built.stdout + built.stderr
    [wheel] = dist.glob("bideuchre_sdk-*.whl")
    venv.EnvBuilder(with_pip=True, symlinks=True).create(slim)
    python = slim / "bin" / "python"
    run([python, "-m", "pip", "install", "--quiet", wheel])
    listed = json.loads(run([python, "-m", "pip", "list", "--format", "json"]).stdout)
    installed = {p["name"].lower().replace("_", "-") for p in listed} - {"pip", "setuptools", "wheel"}
    assert installed == {"bideuchre-sdk", "grpcio", "protobuf", "typing-extensions"}, listed  # grpcio needs the last
    return python


# whether the compiled solver is there, and why not
SOLVER_PROBE = "import referee.solver as s; print(s.available()); print(s.unavailable_reason())"


@pytest.mark.slow
def test_without_a_compiler_the_slim_sdk_installs_and_says_it_has_no_solver(tmp_path: Path) -> None:
    """The wheel built where the C++ compiler fails (CC and CXX are /bin/false): it installs, it has no solver and
    says so, the engine still decides claims (its pure-Python search), and a bot says so as it starts (the Monte
    Carlo bot: that it plays its worlds out)."""
    if (why := index_problem()) is not None:
        pytest.skip(f"no package index reachable: {why}")
    python = slim_venv(tmp_path / "dist", tmp_path / "venv", {**os.environ, "CC": "/bin/false", "CXX": "/bin/false"})
    available, reason = run([python, "-I", "-c", SOLVER_PROBE]).stdout.splitlines()
    assert available == "False" and reason.startswith("the compiled double-dummy solver is not built ("), reason
    claim = (
        "import random\n"
        "from referee.engine.presets import preset\n"
        "from referee.engine.simulate import random_action, shuffled_deck\n"
        "from referee.engine.game import Game, Phase\n"
        "rules, rng = preset('neuralplay'), random.Random(3)\n"
        "game = Game(rules)\n"
        "game.deal(shuffled_deck(rules, rng))\n"
        "while game.phase is not Phase.PLAY: game.apply(random_action(game.decision(), rng))\n"
        "search = game.claim_search(rules.team_of(game.to_act))\n"
        "print(type(search).__name__, search.holds() in (True, False))\n"
    )
    assert run([python, "-I", "-c", claim]).stdout.split() == ["ClaimSearch", "True"]

    def start(bot: str) -> str:
        """The bot started with no referee to reach: it exits 1; its stderr."""
        started = subprocess.run(
            [python, "-I", "-m", f"example_bots.{bot}", "--address", f"unix:{tmp_path}/none", "--token", "t"],
            capture_output=True,
            text=True,
            timeout=60,
            check=False,
        )
        assert started.returncode == 1
        return started.stderr

    stderr = start("random_bot")
    assert stderr.splitlines()[0] == f"note: {reason}; the engine's claims fall back to its pure-Python search", stderr
    # the Monte Carlo bot plays its worlds out instead of solving them, and says so as it starts
    note = f"note: montecarlo: {reason}; it plays its sampled worlds out instead"
    assert note in start("montecarlo_bot").splitlines()


@pytest.mark.slow
def test_a_venv_with_only_the_slim_sdk_plays_a_match(tmp_path: Path) -> None:
    if (why := index_problem()) is not None:
        pytest.skip(f"no package index reachable: {why}")
    author = tmp_path / "author"  # a bot author's folder, holding the venv: where they run the arena
    slim = author / "venv"
    python = slim_venv(tmp_path / "dist", slim, os.environ)
    assert run([python, "-I", "-c", SOLVER_PROBE]).stdout.splitlines() == ["True", "None"]

    # -I: the venv's own site-packages only (no current folder, no PYTHONPATH): what an installed bot sees
    probe = f"import importlib.util as u, sdk; print(sdk.__file__); print([m for m in {HEAVY!r} if u.find_spec(m)])"
    where, found = run([python, "-I", "-c", probe]).stdout.splitlines()
    assert Path(where).is_relative_to(slim) and found == "[]"
    assert run([python, "-I", CHECK]).stdout.startswith(f"{len(shipped())} modules of bideuchre-sdk import")
    refused = subprocess.run([python, "-I", "-c", "import referee.logging"], capture_output=True, text=True, timeout=60)
    assert refused.returncode == 1 and "No module named 'referee.logging'" in refused.stderr

    # a real match from the arena's venv, each seat run by the slim venv's Python from the installed example bots
    logs = tmp_path / "logs"
    bots = {"montecarlo": "example_bots.montecarlo_bot", "random": "example_bots.random_bot"}
    args: list[str | Path] = [
        ARENA,
        "match",
        "--log-dir",
        logs,
        "--seed",
        "5",
        "--rule",
        "hand_limit=2",
        "--move-time",
        "300",
    ]
    for name, module in bots.items():
        args += ["--bot", f"{name}={python} -I -m {module}"]
    played = run(args, cwd=author, timeout=300)
    [log] = logs.glob("match-*/*.jsonl")
    assert f"log: {log}" in played.stdout.replace("\n", "")
    assert verify_log(load_log(log)).games == 1
    records = [json.loads(line) for line in log.read_text(encoding="utf-8").splitlines()]
    assert records[0]["event"] == "match_start" and records[-1]["event"] == "match_end"
    assert [s["bot"] for s in records[0]["seats"]] == ["montecarlo", "random"] * 2
    assert not [r for r in records if r["event"] == "violation"]
    outputs = sorted(log.parent.glob("*.stderr"))
    assert len(outputs) == 4
    for output in outputs:  # each seat's process: the slim venv's Python, and no traceback
        text = output.read_text(encoding="utf-8")
        assert text.splitlines()[0].startswith(f"--- {python} -I -m example_bots."), text
        assert "Traceback" not in text, text
