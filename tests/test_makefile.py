"""The Makefile, where a new user meets it: a missing Debian package it cannot install is one clear line.

Each case runs the real Makefile's rule for Chromium (pointed at a path that
does not exist) with a PATH that lacks what the install needs.
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import tomllib
from pathlib import Path

import pytest

from tests.support.arena import REPO

MAKE = shutil.which("make")


def make_chromium(
    tmp_path: Path, tools: list[str], *overrides: str, variable: str = "CHROMIUM"
) -> subprocess.CompletedProcess[str]:
    """`make CHROMIUM=<missing>` (or another ``variable`` naming what a rule makes) with only ``tools`` on the
    PATH."""
    bin_dir = tmp_path / "bin"
    bin_dir.mkdir()
    for tool in tools:
        found = shutil.which(tool)
        assert found is not None, tool
        os.symlink(found, bin_dir / tool)
    missing = tmp_path / "no-chromium"
    assert MAKE is not None, "make is not on PATH (`make test` runs these tests through it)"
    return subprocess.run(
        [MAKE, "--no-print-directory", f"{variable}={missing}", *overrides, str(missing)],
        cwd=REPO,
        capture_output=True,
        text=True,
        timeout=60,
        env={"PATH": str(bin_dir), "HOME": str(tmp_path)},
    )


@pytest.mark.parametrize(
    ("tools", "overrides", "says"),
    [
        (["id"], [], "missing for the browser tests: the Debian packages chromium; install them, then run make again"),
        (
            ["id", "apt-get"],
            ["SUDO=sudo"],  # as a user who is not root, on a machine without sudo
            "missing for the browser tests: the Debian packages chromium, and installing them needs root: "
            "run 'apt-get update && apt-get install chromium' as root, then make again",
        ),
    ],
)
def test_a_package_make_cannot_install_is_one_clear_line(
    tmp_path: Path, tools: list[str], overrides: list[str], says: str
) -> None:
    run = make_chromium(tmp_path, tools, *overrides)
    assert run.returncode != 0
    assert run.stdout.strip().splitlines() == [says]
    assert "Error 1" in run.stderr and "not found" not in run.stderr


def test_make_test_installs_every_system_package_the_suite_needs() -> None:
    """`make test` names each program it installs from Debian as a prerequisite (issue 19: it named
    $(BWRAP) before defining it, so bubblewrap was never installed and the suite ran on the weaker
    sandbox). The rule as make reads it must list bubblewrap and Chromium."""
    assert MAKE is not None
    # MAKE=true: the kits' own Makefiles, which make runs even under -n, print no database of their own
    db = subprocess.run([MAKE, "-pn", "MAKE=true", "test"], cwd=REPO, capture_output=True, text=True, timeout=120)
    (rule,) = [line for line in db.stdout.splitlines() if line.startswith("test:")]
    prerequisites = rule.split(":", 1)[1].split()
    assert "/usr/bin/bwrap" in prerequisites and "/usr/bin/chromium" in prerequisites, rule
    # and the compiled example bots (issue 30): each rule installs its toolchain from Debian when missing
    kits = ["example_bots/cpp/build/bot", "example_bots/go/build/bot", "example_bots/java/build/bot"]
    assert all(kit in prerequisites for kit in kits), rule


@pytest.mark.parametrize(
    ("variable", "what", "packages"),
    [
        (
            "GO_BIN",
            "the Go bot",
            "golang-go protobuf-compiler protoc-gen-go protoc-gen-go-grpc golang-google-grpc-dev "
            "golang-google-protobuf-dev golang-github-golang-protobuf-1-5-dev",
        ),
        (
            "JAVA_BIN",
            "the Java bot",
            "default-jdk protobuf-compiler protobuf-compiler-grpc-java-plugin libgrpc-java libprotobuf-java "
            "libnetty-java libguava-java libperfmark-java libgeronimo-annotation-1.3-spec-java",
        ),
    ],
)
def test_a_kit_without_its_toolchain_names_the_debian_packages(
    tmp_path: Path, variable: str, what: str, packages: str
) -> None:
    """The Go and Java bots' rules, on a machine without Go or Java (a PATH without them) and without apt-get:
    one line naming every package to install."""
    run = make_chromium(tmp_path, ["id"], variable=variable)
    assert run.returncode != 0
    assert run.stdout.strip().splitlines() == [
        f"missing for {what}: the Debian packages {packages}; install them, then run make again"
    ]


CHECKS = [".venv/bin/ruff check .", ".venv/bin/ruff format --check .", ".venv/bin/mypy", ".venv/bin/lint-imports"]


def recipe(target: str) -> tuple[list[str], str]:
    """The command lines ``make -n TARGET`` prints (it runs none of them), and that output whole."""
    assert MAKE is not None
    dry = subprocess.run(
        [MAKE, "--no-print-directory", "-n", target], cwd=REPO, capture_output=True, text=True, timeout=120
    )
    assert dry.returncode == 0, dry.stderr
    return [line.strip() for line in dry.stdout.splitlines()], dry.stdout


def test_make_test_runs_ruff_and_mypy_before_the_suite() -> None:
    """`make test` checks the code first: ruff's lint and format check, mypy and lint-imports (the import layers;
    each pinned in the dev extra, which the venv rule installs), then pytest."""
    lines, dry = recipe("test")
    # the suite on two workers, then the tests that measure time or CPU one at a time: together, every test
    suite = '.venv/bin/python -m pytest -q -n 2 --dist loadfile --no-loadscope-reorder -m "not serial"'
    serial = ".venv/bin/python -m pytest -q -m serial"
    assert all(line in lines for line in [*CHECKS, suite, serial]), dry
    at = [lines.index(c) for c in CHECKS]
    assert at == sorted(at) and at[-1] < lines.index(suite) < lines.index(serial), dry  # in this order
    makefile = (REPO / "Makefile").read_text()
    assert "-m pip install --quiet -e '.[dev]'" in makefile  # the venv gets the dev extra: ruff, mypy, types-protobuf
    dev = tomllib.loads((REPO / "pyproject.toml").read_text())["project"]["optional-dependencies"]["dev"]
    assert {"ruff", "mypy", "types-protobuf", "import-linter", "pytest-xdist"} <= {
        re.split(r"[<>=!~ \[]", d, maxsplit=1)[0] for d in dev
    }


def test_make_check_runs_the_checks_then_the_in_process_tier() -> None:
    """`make check`, the loop while editing: the same checks as `make test`, then the tests not marked
    `processes` (tests/conftest.py), and none of the system packages or compiled bots only that tier needs."""
    lines, dry = recipe("check")
    tier = '.venv/bin/python -m pytest -q -n 2 -m "not processes"'
    at = [lines.index(line) for line in [*CHECKS, tier]]
    assert at == sorted(at), dry
    assert MAKE is not None
    db = subprocess.run([MAKE, "-pn", "check"], cwd=REPO, capture_output=True, text=True, timeout=120)
    (rule,) = [line for line in db.stdout.splitlines() if line.startswith("check:")]
    assert rule.split(":", 1)[1].split() == [".venv/.installed"], rule
