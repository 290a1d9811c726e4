"""Issue 19: partners cannot pass each other their hands, and a bot writes nothing anyone else can see.

Both seats of one team run sbx_partner, which publishes its dealt hand on 25
side channels (TCP, UDP, abstract and path Unix sockets, FIFOs, files in
/tmp, /var/tmp, /dev/shm, $HOME and the working folder, System V and POSIX
IPC, signals, and locks and inotify on a file both can read) and reads its partner's, and which writes into the working
folder, $HOME and its opponent's program. The match runs from a copy of the
arena's code, once under /tmp (with a virtualenv there, as a fresh clone's)
and once elsewhere, with bubblewrap and with the unshare fallback: nothing gets through and nothing is written. The
control runs (``--sandbox off``) show that every channel carries the
partner's real hand and every write lands, so the checks can fail.
"""

from __future__ import annotations

import ctypes
import ctypes.util
import hashlib
import os
import shutil
import subprocess
import sys
import uuid
import zlib
from collections.abc import Iterator
from pathlib import Path

import pytest

from referee.sandbox.layout import in_private
from tests.support.arena import REPO
from tests.support.logs import only_log, seat_kind_penalty
from tests.support.sandbox import BOTS, verified

PLACES = ("tmp", "var-tmp", "dev-shm", "home", "cwd")
CHANNELS = {
    "tcp",
    "udp",
    "abstract",
    "sysv-shm",
    "sysv-msg",
    "posix-mq",
    "signal",
    "flock",
    "fcntl-lock",
    "inotify",
    *(f"{kind}:{place}" for kind in ("unix-socket", "fifo", "file") for place in PLACES),
}


@pytest.fixture(scope="module")
def elsewhere() -> Iterator[Path]:
    """A folder outside every private place (/tmp, /var/tmp, /dev/shm, /run): beside the checkout, or in $HOME."""
    base = REPO if not in_private(str(REPO)) else Path.home()
    folder = base / f".hostile-{uuid.uuid4().hex[:8]}"
    folder.mkdir()
    try:
        yield folder
    finally:
        shutil.rmtree(folder, ignore_errors=True)


def copy_of_the_arena(into: Path) -> Path:
    """The arena's Python code and the partner bot, copied into ``into``/arena (a checkout there)."""
    checkout = into / "arena"
    skip = shutil.ignore_patterns("__pycache__", "node_modules", "build", "*.stderr")
    for package in ("referee", "sdk", "example_bots"):
        shutil.copytree(REPO / package, checkout / package, ignore=skip)
    shutil.copy(BOTS / "sbx_partner.py", checkout / "sbx_partner.py")
    return checkout


def virtualenv_in(folder: Path) -> Path:
    """A virtualenv in ``folder`` that sees this one's packages (a .pth file): the Python of a checkout there.
    Its ``python`` is a symbolic link, found on the PATH, in a folder the sandbox gives back: a fresh clone
    under /tmp once failed there ("Can't create file at .../.venv/bin/python")."""
    venv = folder / ".venv"
    subprocess.run([sys.executable, "-m", "venv", "--without-pip", str(venv)], check=True, timeout=120)
    (site,) = venv.glob("lib/python*/site-packages")
    (site / "arena-tests.pth").write_text("\n".join(p for p in sys.path if p.endswith("site-packages")) + "\n")
    return venv / "bin" / "python"


def play(
    checkout: Path, home: Path, key: str, sandbox: str, tool: str, tools_dir: Path, python: str
) -> subprocess.CompletedProcess[str]:
    """``arena match`` run from ``checkout`` (its code first on the path) by ``python``, partners against random;
    the bots' commands name ``python``, found first on the PATH in the folder of the arena's own."""
    env = {**os.environ, "HOME": str(home), "PYTHONPATH": str(checkout)}
    if tool == "unshare":  # a PATH with unshare but no bwrap
        tools_dir.mkdir(exist_ok=True)
        (tools_dir / "unshare").symlink_to(shutil.which("unshare") or "unshare")
        env["PATH"] = f"{tools_dir}{os.pathsep}{Path(sys.executable).parent}"
    victim = checkout / "example_bots" / "random_bot.py"
    argv = [
        python, "-c", "from referee.cli import main; main()", "match",
        "--preset", "double-deck", "--rule", "hand_limit=3", "--move-time", "3000", "--on-fault", "default",
        "--sandbox", sandbox, "--log-dir", str(checkout / "logs"),
        "--bot", f"partner=python sbx_partner.py {key} {victim}",
        "--bot", "random=python -m example_bots.random_bot",
    ]  # fmt: skip
    return subprocess.run(argv, cwd=checkout, env=env, capture_output=True, text=True, timeout=300)


def received(output: str) -> dict[str, list[tuple[int, int, list[str]]]]:
    """What the partners printed they got: channel -> (from seat, hand, cards)."""
    out: dict[str, list[tuple[int, int, list[str]]]] = {}
    for line in output.splitlines():
        if line.startswith("sbx_partner: got "):
            channel, seat, hand, cards = line.split()[2:6]
            out.setdefault(channel, []).append((int(seat), int(hand), cards.split(",")))
    return out


def dealt(records: list[dict]) -> dict[tuple[int, int], set[str]]:
    """(hand, seat) -> the cards dealt, from the log (written when the hand is over)."""
    return {
        (r["hand"], seat): set(cards)
        for r in records
        if r["event"] == "reveal"
        for seat, cards in enumerate(r["hands"])
    }


def leftovers(key: str) -> list[str]:
    """What a run left in the machine's shared places: files, System V objects, POSIX queues (removed here)."""
    found = []
    for folder in ("/tmp", "/var/tmp", "/dev/shm"):
        for path in Path(folder).glob(f"sbx-{key}-*"):
            found.append(str(path))
            path.unlink()
    libc = ctypes.CDLL(None, use_errno=True)
    librt = ctypes.CDLL(ctypes.util.find_library("rt") or None, use_errno=True)
    base = 0x5A000000 + (zlib.crc32(key.encode()) % 0x10000) * 16
    for seat in range(4):
        shm = libc.shmget(base + seat, 0, 0)
        if shm >= 0:
            found.append(f"shm {base + seat:#x}")
            libc.shmctl(shm, 0, None)  # IPC_RMID
        queue = libc.msgget(base + 8 + seat, 0)
        if queue >= 0:
            found.append(f"msg {base + 8 + seat:#x}")
            libc.msgctl(queue, 0, None)
        if librt.mq_unlink(f"/sbx-{key}-mq-{seat}".encode()) == 0:
            found.append(f"mq {seat}")
    return found


def tree_hash(folder: Path) -> dict[str, str]:
    return {
        str(p.relative_to(folder)): hashlib.sha256(p.read_bytes()).hexdigest()
        for p in sorted(folder.rglob("*"))
        if p.is_file() and "logs" not in p.parts and "__pycache__" not in p.parts
    }


@pytest.mark.parametrize("place", ["tmp", "elsewhere"])
@pytest.mark.parametrize("tool", ["bwrap", "unshare", "off"])
def test_partners_share_nothing_and_write_nothing(tool: str, place: str, tmp_path: Path, elsewhere: Path) -> None:
    if tool == "bwrap" and shutil.which("bwrap") is None:
        pytest.fail("bubblewrap is not installed: `make test` installs it (Debian package bubblewrap)")
    base = tmp_path if place == "tmp" else elsewhere / uuid.uuid4().hex[:8]
    base.mkdir(exist_ok=True)
    assert in_private(str(base)) == (place == "tmp")
    checkout = copy_of_the_arena(base)
    home = elsewhere / f"home-{uuid.uuid4().hex[:8]}"  # outside the private places, so the bot can see it
    home.mkdir()
    before, home_before = tree_hash(checkout), tree_hash(home)
    key = uuid.uuid4().hex[:10]
    sandbox = "off" if tool == "off" else "required"
    # under /tmp the arena runs from a virtualenv there too, as a fresh clone's does
    python = str(virtualenv_in(base)) if place == "tmp" else sys.executable
    run = play(checkout, home, key, sandbox, tool, tmp_path / "tools", python)
    left = leftovers(key)
    assert run.returncode == 0, run.stderr
    logs = checkout / "logs"
    outputs = {p.name: p.read_text(errors="replace") for p in logs.glob("match-*/*partner*.stderr")}
    assert len(outputs) == 2  # both seats of the team played
    records = verified(only_log(logs))
    assert seat_kind_penalty(records) == []
    got = received("".join(outputs.values()))
    wrote = [line for text in outputs.values() for line in text.splitlines() if line.startswith("sbx_partner: wrote")]
    if tool != "off":
        assert all(text.splitlines()[0].endswith(f"(in a {tool} sandbox)") for text in outputs.values())
        assert got == {}, got
        assert wrote == [] and left == []
        assert tree_hash(checkout) == before and tree_hash(home) == home_before
        return
    # the control run: every channel carried the partner's real hand, every write landed
    assert set(got) == CHANNELS
    hands = dealt(records)
    for channel, messages in got.items():
        if channel not in ("signal", "flock", "fcntl-lock", "inotify"):  # one bit each, not cards
            assert all(set(cards) <= hands[hand, seat] for seat, hand, cards in messages), channel
    assert len(wrote) == 3 * 2 and left
    assert tree_hash(checkout) != before and tree_hash(home) != home_before
