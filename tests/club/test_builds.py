"""Builds in the sandbox: a build that downloads, forks without end, fills the disk or runs too long is
stopped, each with a clear reason and its output, and nothing it made is kept; a build sees none of the
club's files; a build dies with the server however the server ends. (The five kits' real builds are in
test_club_run.py, through the server.)"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from referee.club.build import Builder, BuildLimits, Outcome, recipe
from referee.frozen.store import FrozenStore
from referee.frozen.tree import MIB, Limits
from referee.kits import Language
from referee.sandbox import SandboxMode, resolve
from tests.support.club import python_bot
from tests.support.processes import wait_for, with_marker_in_cmdline

LIMITS = BuildLimits(seconds=20, disk_bytes=64 * MIB, processes=32)


def builder(club: Path, limits: BuildLimits = LIMITS) -> Builder:
    sandbox, _ = resolve(SandboxMode.REQUIRED)
    assert sandbox is not None
    return Builder(sandbox.with_hidden(club), limits, user=65534 if os.geteuid() == 0 else None)


BOMB = """
import os, time
while True:
    try:
        if os.fork() == 0:
            time.sleep(1000)
    except OSError:
        time.sleep(0.01)
"""


def build(tmp_path: Path, makefile: str, limits: BuildLimits = LIMITS) -> tuple[Outcome, FrozenStore]:
    """Build a Python bot with ``makefile``: the outcome, and the store of what builds made."""
    club = tmp_path / "club"
    store = FrozenStore(club / "versions")
    folder = python_bot(tmp_path / "bot", textwrap.dedent(makefile), {"bomb.py": BOMB})
    frozen = store.put_folder(folder, Limits())
    made = builder(club, limits)
    out = FrozenStore(club / "builds")
    outcome = made.build(frozen.folder, store.tree(frozen.hash), recipe(Language.PYTHON, club, made.python), out)
    return outcome, out


def kept(out: FrozenStore) -> list[str]:
    """What a store of builds holds (its trees), and what is left in its incoming folder."""
    return [p.name for p in out.root.iterdir() if p.name != ".incoming"] + list(
        p.name for p in (out.root / ".incoming").iterdir()
    )


HOSTILE = {
    "downloads": (
        """\
        build:
        \tpython3 -c "import urllib.request; urllib.request.urlopen('http://downloads.example.invalid/package.tar.gz')"
        """,
        "tried the network",
    ),
    # a fork bomb that keeps trying: stopped while it runs
    "forks without end": (
        "build:\n\tpython3 bomb.py\n",
        "started 32 processes at once, its limit (a fork without end?), and was stopped",
    ),
    # one that gives up at its first failed fork (dash does): its output says why it failed
    "forks until it fails": (
        "build:\n\tsh -c 'while :; do sleep 1000 & done'\n",
        "32 processes at once",
    ),
    "fills the disk": ("build:\n\tdd if=/dev/zero of=big bs=1M count=100000\n", "filled its 64 MiB of disk"),
    "runs too long": ("build:\n\tsleep 1000\n", "ran over its 5 s and was stopped"),
    "fails": ("build:\n\t@echo 'bot.py:3: syntax error <here>' >&2; exit 3\n", "the build failed (exit status 2)"),
}


@pytest.mark.parametrize("case", list(HOSTILE))
def test_a_hostile_build_is_stopped_with_its_reason(tmp_path: Path, case: str) -> None:
    makefile, expected = HOSTILE[case]
    limits = LIMITS if case != "runs too long" else BuildLimits(seconds=5, disk_bytes=64 * MIB, processes=32)
    outcome, out = build(tmp_path, makefile, limits)
    assert not outcome.ok
    assert expected in outcome.reason and "\n" not in outcome.reason
    assert outcome.seconds < LIMITS.seconds + 10
    assert kept(out) == []  # nothing it made is kept
    if case == "fails":
        assert "bot.py:3: syntax error <here>" in outcome.log  # the member reads its output


def test_a_build_reads_nothing_of_the_club_and_writes_only_its_own_folder(tmp_path: Path) -> None:
    club = tmp_path / "club"
    (club / "secret").mkdir(parents=True)
    (club / "secret" / "token.txt").write_text("the club's secret")
    makefile = f"""\
    build:
    \ttest ! -e {club}/secret/token.txt
    \ttouch made-here
    \t! touch {tmp_path}/escaped 2>/dev/null
    \t! touch /var/lib/escaped 2>/dev/null
    """
    outcome, _ = build(tmp_path, makefile)
    assert outcome.ok and outcome.made is not None, outcome.log
    assert (outcome.made.folder / "made-here").exists() and (outcome.made.folder / "bot.py").exists()
    assert not (tmp_path / "escaped").exists() and not Path("/var/lib/escaped").exists()


def test_a_build_that_makes_a_link_out_is_refused(tmp_path: Path) -> None:
    outcome, _ = build(tmp_path, "build:\n\tln -s /etc/passwd passwd\n")
    assert not outcome.ok and "cannot be taken" in outcome.reason and "outside the bot's folder" in outcome.reason


def test_a_build_dies_with_the_server_even_after_kill_9(tmp_path: Path) -> None:
    marker = f"arena-build-{os.getpid()}-{tmp_path.name}"
    folder = python_bot(tmp_path / "bot", f"build:\n\tpython3 -c 'import time; time.sleep(1000)' {marker}\n")
    code = textwrap.dedent(f"""
        import os, sys
        from pathlib import Path
        from tests.club.test_builds import builder
        from referee.club.build import recipe
        from referee.frozen.store import FrozenStore
        from referee.frozen.tree import Limits
        from referee.kits import Language
        club = Path({str(tmp_path / "club")!r})
        store = FrozenStore(club / "versions")
        frozen = store.put_folder(Path({str(folder)!r}), Limits())
        made = builder(club)
        made_for = recipe(Language.PYTHON, club, made.python)
        made.build(frozen.folder, store.tree(frozen.hash), made_for, FrozenStore(club / "out"))
    """)
    server = subprocess.Popen([sys.executable, "-c", code], cwd=Path(__file__).resolve().parents[2])
    try:
        wait_for(lambda: with_marker_in_cmdline(marker), "the build to start", 60)
    finally:
        os.kill(server.pid, signal.SIGKILL)
        server.wait(30)
    wait_for(lambda: not with_marker_in_cmdline(marker), "the build to die with the server", 30)
