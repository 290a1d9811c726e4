"""``kill -9`` of the club's server in the middle of an upload and of a build, then a restart: no half version
is left, nothing is lost, nothing is done twice, and no process of the killed server lives on."""

from __future__ import annotations

import json
import secrets
import subprocess
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest

from referee.club.db import connect, rows
from referee.frozen.archive import pack
from tests.support.arena import ARENA
from tests.support.club import ClubNet, Member, Served, invite, python_bot, setup, tidy
from tests.support.processes import wait_for, with_marker_in_cmdline


@dataclass
class Club:
    folder: Path
    served: Served
    ann: Member
    root: Path


@pytest.fixture(scope="module")
def club(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Club]:
    root = tmp_path_factory.mktemp("restart")
    folder = root / "club"
    setup(folder, "python")
    with ClubNet(1) as net:
        served = Served(net, folder).start()
        try:
            ann = Member(net, 1, "ann", root / "ann", invite(folder, "ann"))
            assert ann.login(served).returncode == 0
            yield Club(folder, served, ann, root)
        finally:
            served.stop()
    tidy(folder)


def submissions(folder: Path) -> list[tuple[str, int, str]]:
    db = connect(folder / "club.db")
    try:
        return [(r["bot"], r["version"], r["state"]) for r in rows(db, "SELECT bot, version, state FROM submissions")]
    finally:
        db.close()


# an upload sent slowly, by hand: the headers, then the body a chunk at a time
SLOW = """
import http.client, json, ssl, sys, time
url, token, tree, body = sys.argv[1], sys.argv[2], sys.argv[3], sys.argv[4]
host, port = url.split("//")[1].split(":")
context = ssl.SSLContext(ssl.PROTOCOL_TLS_CLIENT)
context.check_hostname = False
context.verify_mode = ssl.CERT_NONE
data = open(body, "rb").read()
connection = http.client.HTTPSConnection(host, int(port), context=context, timeout=60)
connection.putrequest("POST", "/api/submit?bot=slowbot")
for k, v in {"Authorization": "Bearer " + token, "X-Arena-Nonce": sys.argv[5], "X-Arena-Time": str(time.time()),
             "X-Arena-Tree": tree, "Content-Length": str(len(data))}.items():
    connection.putheader(k, v)
connection.endheaders()
for k in range(0, len(data), 256 * 1024):
    connection.send(data[k : k + 256 * 1024])
    print("sent", k, flush=True)
    time.sleep(0.2)
"""


def test_a_server_killed_mid_upload_keeps_no_half_version(club: Club) -> None:
    folder = python_bot(club.root / "slowbot", extra={"weights.bin": secrets.token_hex(4 * 1024 * 1024)})
    packed = pack(folder)
    body = club.root / "slow.tar.gz"
    body.write_bytes(packed.data)
    before = sorted(p.name for p in (club.folder / "versions").iterdir())
    sender = subprocess.Popen(
        ["ip", "netns", "exec", club.ann.ns, "python3", "-c", SLOW, club.served.url(1), club.ann.token,
         packed.tree.hash, str(body), secrets.token_hex(16)],
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
    )  # fmt: skip
    assert sender.stdout is not None
    for _ in range(4):  # a megabyte of it is in
        assert sender.stdout.readline().startswith("sent"), sender.stderr.read() if sender.stderr else ""
    club.served.kill9()
    sender.kill()
    sender.wait(30)
    club.served.start()
    assert sorted(p.name for p in (club.folder / "versions").iterdir()) == before
    assert list((club.folder / "versions" / ".incoming").iterdir()) == []
    assert not any(bot == "slowbot" for bot, _, _ in submissions(club.folder))
    done = club.ann.arena("submit", "slowbot", str(folder))  # sent again whole: one version
    assert done.returncode == 0 and "slowbot@1: built" in done.stdout, done.stdout + done.stderr


def test_a_server_killed_mid_build_builds_it_again_once(club: Club) -> None:
    marker = f"slow-build-{secrets.token_hex(4)}"
    makefile = f"build:\n\tpython3 -c 'import time; time.sleep(4)' {marker}\n\tpython3 -m py_compile bot.py\n"
    folder = python_bot(club.root / "buildbot", makefile)
    submit = subprocess.Popen(
        ["ip", "netns", "exec", club.ann.ns, ARENA, "club", "submit", "buildbot", str(folder)],
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=club.ann.env,
    )  # fmt: skip
    wait_for(lambda: with_marker_in_cmdline(marker), "the build to start", 120)
    club.served.kill9()
    wait_for(lambda: not with_marker_in_cmdline(marker), "the killed server's build to die with it", 30)
    submit.communicate(timeout=60)
    assert submissions(club.folder).count(("buildbot", 1, "building")) == 1
    club.served.start()
    wait_for(
        lambda: ("buildbot", 1, "built") in submissions(club.folder),
        "the build to be done again, after the restart",
        120,
    )
    assert [s for s in submissions(club.folder) if s[0] == "buildbot"] == [("buildbot", 1, "built")]
    logs = club.ann.arena("logs", "buildbot@1")
    assert logs.returncode == 0 and "built in" in logs.stdout, logs.stderr
    status = json.dumps(club.ann.arena("status").stdout)
    assert status.count("buildbot@") == 1
