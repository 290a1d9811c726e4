"""The club's server as hostile members meet it: a real server on a real port with TLS, in a network namespace
of its own, and members in theirs (veth pairs), each at an address of its own.

Every refusal is one line, and changes nothing: another member's token, a revoked one, none, a forged one, a
replayed or stale request, an upload changed on the way, a request for another member's logs or for any
version's files, a login flood (limited per address: the others go on), a certificate that is not the
pinned one (refused before the token leaves the member's machine), plain HTTP off the loopback. Last,
``kill -9`` of the server in the middle of an upload and of a build, then a restart: no half version is left,
nothing is lost, nothing is done twice, and no process of the killed server lives on."""

from __future__ import annotations

import json
import secrets
import subprocess
import tarfile
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest

from referee.club.db import connect, rows
from referee.club.tls import self_signed
from referee.frozen.archive import pack
from tests.frozen.test_archive import file, special, tar_gz
from tests.support.arena import ARENA
from tests.support.club import ClubNet, Member, Served, browser_at, invite, invite_here, ladder_rows, raw, setup, tidy
from tests.support.club import python_bot as real_bot
from tests.support.processes import wait_for, with_marker_in_cmdline


@dataclass
class Club:
    folder: Path
    served: Served
    people: dict[str, Member]
    root: Path

    def __getitem__(self, name: str) -> Member:
        return self.people[name]


@pytest.fixture(scope="module")
def club(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Club]:
    root = tmp_path_factory.mktemp("club")
    folder = root / "club"
    setup(folder, "python")
    cast = [
        (1, "ann", "member"),
        (2, "bob", "member"),
        (3, "boss", "admin"),
        (4, "mallory", "member"),
        (2, "quin", "member"),
    ]
    with ClubNet(4) as net:
        served = Served(net, folder, ("--submissions-per-day", "2")).start()
        try:
            people = {}
            for k, name, scope in cast:
                member = Member(net, k, name, root / name, invite_here(folder, name, scope))
                done = member.login(served)
                assert done.returncode == 0, done.stderr
                people[name] = member
            yield Club(folder, served, people, root)
        finally:
            served.stop()
    tidy(folder)


def python_bot(folder: Path, makefile: str = "", extra: dict[str, str] | None = None) -> Path:
    """A Python kit's folder that builds and never plays: its bot exits at once, so it fails its validation
    game (the tests here are about requests; a ladder of bots that play would keep a table busy meanwhile)."""
    made = real_bot(folder, makefile, extra)
    (made / "bot.py").write_text("import sys\n\nsys.exit('a bot of the requests tests: it never plays')\n")
    return made


def sent(done: subprocess.CompletedProcess[str], label: str) -> None:
    """``arena club submit``'s output: the version was frozen and built, and went on to its validation game."""
    assert f"{label}: validating: built in" in done.stdout, done.stdout + done.stderr
    assert f"{label}: error: validation game" in done.stdout, done.stdout  # the test's bot never plays


def one_line_error(done: subprocess.CompletedProcess[str]) -> str:
    lines = done.stderr.strip().splitlines()
    assert done.returncode != 0 and len(lines) == 1 and lines[0].startswith("error: "), done.stderr
    return lines[0]


def test_login_pins_the_certificate_and_keeps_the_token_for_the_user_alone(club: Club) -> None:
    ann = club["ann"]
    kept = json.loads(ann.config_file().read_text())
    login = kept["logins"][kept["current"]]
    assert kept["current"] == club.served.url(1) and login["member"] == "ann"
    assert login["check"] == "pinned" and login["fingerprint"] == club.served.fingerprint != ""
    assert login["token"] == ann.token
    assert ann.config_file().stat().st_mode & 0o777 == 0o600


def test_a_member_reads_its_own_versions_and_logs_not_anothers(club: Club) -> None:
    ann, bob, boss = club["ann"], club["bob"], club["boss"]
    for member, bot in ((ann, "annbot"), (bob, "bobbot")):
        folder = python_bot(club.root / f"{bot}-v1", extra={"secret.txt": f"{bot}'s own strategy"})
        sent(member.arena("submit", bot, str(folder)), f"{bot}@1")
    mine = ann.arena("status")
    assert "annbot@1" in mine.stdout and "bobbot" not in mine.stdout
    refused = one_line_error(ann.arena("logs", "bobbot"))
    assert "you have no bot named bobbot" in refused
    assert "you have no bot named bobbot" in one_line_error(ann.arena("logs", "bobbot@1"))
    assert "bobbot's own strategy" not in ann.arena("logs", "bobbot").stdout
    assert "another member's" in one_line_error(ann.arena("submit", "bobbot", str(club.root / "annbot-v1")))
    everyone = boss.arena("status").stdout
    assert "annbot@1" in everyone and "bobbot@1" in everyone  # the admin reads everything
    assert boss.arena("logs", "bobbot@1").returncode == 0


@pytest.mark.parametrize(
    "path",
    [
        "/versions",
        "/club.db",
        "/api/files?bot=annbot",
        "/api/download?bot=annbot&version=1",
        "/api/logs/../../versions",
        "/club/builds",
        "/%2e%2e/club.db",
    ],
)
def test_no_address_serves_a_versions_files(club: Club, path: str) -> None:
    ann = club["ann"]
    status, text = raw(ann, club.served.url(1) + path, headers={"Authorization": f"Bearer {club['boss'].token}"})
    assert status == 404, (status, text)
    assert "print(" not in text and "strategy" not in text


@pytest.mark.parametrize("how", ["none", "malformed", "forged secret", "another id", "revoked"])
def test_a_request_without_a_good_token_is_refused(club: Club, how: str) -> None:
    bob = club["bob"]
    _, token_id, secret = bob.token.split("_", 2)
    headers = {
        "none": {},
        "malformed": {"Authorization": "Bearer hello"},
        "forged secret": {"Authorization": f"Bearer club_{token_id}_{secrets.token_urlsafe(32)}"},
        "another id": {"Authorization": f"Bearer club_{secrets.token_hex(6)}_{secret}"},
        "revoked": {},
    }[how]
    if how == "revoked":
        token = invite(club.folder, f"gone{secrets.token_hex(2)}")
        headers = {"Authorization": f"Bearer {token}"}
        assert raw(bob, club.served.url(2) + "/api/me", headers=headers)[0] == 200
        name = raw(bob, club.served.url(2) + "/api/me", headers=headers)[1]
        revoked = subprocess.run(
            [ARENA, "club", "revoke", str(club.folder), json.loads(name)["member"]], capture_output=True, text=True
        )
        assert revoked.returncode == 0, revoked.stderr
    status, text = raw(bob, club.served.url(2) + "/api/status", headers=headers)
    assert status == 401, text
    assert "\n" not in json.loads(text)["error"]


def test_a_login_flood_is_limited_per_address_and_the_others_go_on(club: Club) -> None:
    mallory, ann = club["mallory"], club["ann"]
    url = club.served.url(4) + "/api/me"
    statuses = [raw(mallory, url, headers={"Authorization": f"Bearer club_{secrets.token_hex(6)}_x"})[0]
                for _ in range(12)]  # fmt: skip
    assert statuses[:10] == [401] * 10 and statuses[10:] == [429, 429]
    status, text = raw(mallory, url, headers={"Authorization": f"Bearer {mallory.token}"})
    assert status == 429 and "too many wrong tokens from 10.77.4.2" in json.loads(text)["error"]
    assert ann.arena("status").returncode == 0  # another address is not held up


def _submit_headers(member: Member, tree: str, nonce: str, made: float) -> dict[str, str]:
    return {
        "Authorization": f"Bearer {member.token}",
        "X-Arena-Nonce": nonce,
        "X-Arena-Time": f"{made}",
        "X-Arena-Tree": tree,
    }


def test_a_replayed_submit_changes_nothing_and_a_stale_one_is_refused(club: Club) -> None:
    ann = club["ann"]
    folder = python_bot(club.root / "replayed", extra={"note.txt": "replayed version"})
    packed = pack(folder)
    body = club.root / "replayed.tar.gz"
    body.write_bytes(packed.data)
    url = club.served.url(1) + "/api/submit?bot=annbot"
    headers = _submit_headers(ann, packed.tree.hash, secrets.token_hex(16), time.time())
    first = raw(ann, url, "POST", headers, body)
    again = raw(ann, url, "POST", headers, body)
    events = [json.loads(line) for line in first[1].splitlines()]
    replayed = [json.loads(line) for line in again[1].splitlines()]
    assert first[0] == again[0] == 200
    assert events[0]["new"] and not events[0].get("replayed")
    assert replayed[0]["replayed"] and replayed[0]["version"] == events[0]["version"]
    versions = [line for line in ann.arena("status").stdout.splitlines() if line.startswith("annbot@")]
    assert len(versions) == 2, versions  # v1 and this one: the replay made no third
    stale = _submit_headers(ann, packed.tree.hash, secrets.token_hex(16), time.time() - 3600)
    status, text = raw(ann, url, "POST", stale, body)
    assert status == 409 and "away from the server's clock" in json.loads(text)["error"]
    no_nonce = {k: v for k, v in headers.items() if k != "X-Arena-Nonce"}
    assert raw(ann, url, "POST", no_nonce, body)[0] == 409


def _store(club: Club) -> set[str]:
    return {p.name for p in (club.folder / "versions").iterdir()}


def test_an_upload_changed_on_the_way_is_refused_and_nothing_is_kept(club: Club) -> None:
    ann = club["ann"]
    folder = python_bot(club.root / "changed", extra={"note.txt": "as packed"})
    packed = pack(folder)
    body = club.root / "changed.tar.gz"
    (folder / "note.txt").write_text("changed after it was packed")
    body.write_bytes(pack(folder).data)
    before = _store(club)
    headers = _submit_headers(ann, packed.tree.hash, secrets.token_hex(16), time.time())
    status, text = raw(ann, club.served.url(1) + "/api/submit?bot=annbot", "POST", headers, body)
    assert status == 400 and "changed on the way" in json.loads(text)["error"]
    assert _store(club) == before


@pytest.mark.parametrize(
    "archive, status, expected",
    [
        (
            lambda: tar_gz(file("Makefile", b"build:\n"), file("bot.py"), file("../../outside.py")),
            400,
            "outside the bot's folder",
        ),
        (lambda: tar_gz(file("Makefile", b"build:\n"), file("/etc/cron.d/bot.py")), 400, "an absolute path"),
        (lambda: tar_gz(file("bot.py"), special("key", tarfile.SYMTYPE, "/etc/ssh")), 400, "outside the bot's folder"),
        (lambda: tar_gz(file("bot.py"), special("x", tarfile.LNKTYPE, "/etc/shadow")), 400, "outside the bot's folder"),
        (lambda: tar_gz(file("bot.py"), special("null", tarfile.CHRTYPE)), 400, "a device file"),
        (lambda: tar_gz(file("bot.py"), file("zeros", bytes(101 * 1024 * 1024))), 413, "over the limit of unpacked"),
        (lambda: tar_gz(file("Makefile", b"build:\n"), file("main.rs")), 400, "unknown language"),
        (lambda: tar_gz(file("bot.py")), 400, "no Makefile"),
        (lambda: tar_gz(), 400, "empty"),
        (lambda: b"x" * (21 * 1024 * 1024), 413, "over the limit of 20 MiB"),
    ],
    ids=[
        "dot-dot",
        "absolute",
        "symlink out",
        "hard link out",
        "device",
        "bomb",
        "unknown language",
        "no build file",
        "empty",
        "too big",
    ],
)
def test_a_hostile_upload_is_refused_by_the_server_and_nothing_is_kept(
    club: Club, archive: Callable[[], bytes], status: int, expected: str
) -> None:
    ann = club["ann"]
    body = club.root / f"hostile-{secrets.token_hex(4)}.tar.gz"
    body.write_bytes(archive())
    before = _store(club)
    headers = _submit_headers(ann, "0" * 64, secrets.token_hex(16), time.time())
    got, text = raw(ann, club.served.url(1) + "/api/submit?bot=annbot", "POST", headers, body)
    assert got == status and expected in json.loads(text)["error"], text
    assert _store(club) == before
    assert list((club.folder / "versions" / ".incoming").iterdir()) == []


def test_a_member_cannot_send_an_empty_folder_or_a_name_with_markup(club: Club) -> None:
    ann = club["ann"]
    empty = club.root / "empty"
    (empty / "build").mkdir(parents=True)
    assert "empty" in one_line_error(ann.arena("submit", "annbot", str(empty)))
    assert "cannot name a bot" in one_line_error(ann.arena("submit", "<b>bot</b>", str(club.root / "annbot-v1")))


def test_the_daily_quota_counts_new_versions(club: Club) -> None:
    quin = club["quin"]
    for k in range(2):
        sent(
            quin.arena("submit", "quinbot", str(python_bot(club.root / f"quin{k}", extra={"k.txt": str(k)}))),
            f"quinbot@{k + 1}",
        )
    same = quin.arena("submit", "quinbot", str(club.root / "quin0"))
    assert "nothing new" in same.stdout  # the same content: no new version, no quota
    refused = one_line_error(quin.arena("submit", "quinbot", str(python_bot(club.root / "quin2"))))
    assert "2 new versions in 24 hours" in refused and "the next one can be sent after" in refused
    info = quin.arena("info").stdout
    assert "submissions per day: 2" in info and "upload mib: 20" in info and "builds at once: 2" in info


class Recorder:
    """A TLS server with a certificate of its own, at the server's address: it records every byte a client
    sends once the handshake is done."""

    def __init__(self, net: ClubNet, folder: Path, port: int) -> None:
        certificate = self_signed(folder, ["10.77.1.1"])
        self.received = folder / "received.bin"
        code = f"""
import socket, ssl
context = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
context.load_cert_chain({str(certificate.cert)!r}, {str(certificate.key)!r})
server = socket.create_server(("0.0.0.0", {port}))
print("listening", flush=True)
with open({str(self.received)!r}, "ab") as out:
    while True:
        raw, _ = server.accept()
        try:
            with context.wrap_socket(raw, server_side=True) as tls:
                tls.settimeout(5)
                while data := tls.recv(65536):
                    out.write(data)
                    out.flush()
        except (OSError, ssl.SSLError):
            pass
"""
        self.process = subprocess.Popen(
            ["ip", "netns", "exec", net.server, "python3", "-c", code], stdout=subprocess.PIPE, text=True
        )
        assert self.process.stdout is not None and self.process.stdout.readline().strip() == "listening"

    def stop(self) -> None:
        self.process.kill()
        self.process.wait(30)


def test_a_certificate_that_is_not_the_pinned_one_is_refused_before_anything_is_sent(club: Club) -> None:
    ann = club["ann"]
    recorder = Recorder(club.served.net, club.root / "impostor", 9443)
    try:
        kept = json.loads(ann.config_file().read_text())
        login = kept["logins"][kept["current"]]
        impostor = club.served.url(1).replace(":8443", ":9443")
        kept["logins"][impostor] = {**login, "url": impostor}  # the pin of the real server, at the impostor's
        kept["current"] = impostor
        ann.config_file().write_text(json.dumps(kept))
        refused = one_line_error(ann.arena("status"))
        assert "is not the one pinned at login" in refused and "nothing was sent" in refused
        relogin = one_line_error(ann.arena("login", impostor, stdin=ann.token + "\n"))
        assert "changed since the last login" in relogin
        assert recorder.received.read_bytes() == b""  # no request, no token
    finally:
        recorder.stop()
        kept["current"] = club.served.url(1)
        del kept["logins"][impostor]
        ann.config_file().write_text(json.dumps(kept))


def test_plain_http_only_on_the_loopback(club: Club) -> None:
    served = subprocess.run(
        [ARENA, "club", "serve", str(club.root / "plain"), "--plain-http", "--host", "0.0.0.0"],
        capture_output=True, text=True, timeout=60,
    )  # fmt: skip
    assert served.returncode == 2 and "only on 127.0.0.1" in served.stderr
    ann = club["ann"]
    refused = one_line_error(ann.arena("login", "http://10.77.1.1:8443", stdin=ann.token + "\n"))
    assert "plain HTTP only to 127.0.0.1" in refused


def test_tls_is_what_the_server_speaks(club: Club) -> None:
    ann = club["ann"]
    code = """
import socket, ssl, sys
raw = socket.create_connection(("10.77.1.1", 8443), timeout=10)
context = ssl.SSLContext(ssl.PROTOCOL_TLS_CLIENT)
context.check_hostname = False
context.verify_mode = ssl.CERT_NONE
with context.wrap_socket(raw) as tls:
    print(tls.version())
plain = socket.create_connection(("10.77.1.1", 8443), timeout=10)
plain.sendall(b"GET /api/hello HTTP/1.1\\r\\nHost: x\\r\\n\\r\\n")
print(repr(plain.recv(100)[:4]))
"""
    done = ann.python(code)
    assert done.returncode == 0, done.stderr
    version, plain = done.stdout.split()
    assert version in ("TLSv1.2", "TLSv1.3") and "HTTP" not in plain


MARKUP = '<img src=x onerror="window.pwned = 2"><script>window.pwned = 1</script>'


def test_a_members_page_shows_its_own_versions_and_markup_as_text(club: Club) -> None:
    bob = club["bob"]
    makefile = f"build:\n\t@echo '{MARKUP}'\n\tpython3 -m py_compile bot.py\n"
    sent(bob.arena("submit", "bobbot", str(python_bot(club.root / "markup", makefile))), "bobbot@2")
    page = bob.arena("page")
    assert page.returncode == 0, page.stderr
    address = page.stdout.strip()
    assert address.startswith(club.served.url(2) + "/login?code=")
    with browser_at(bob, club.root) as browser:
        context = browser.new_context(ignore_https_errors=True)  # a self-signed certificate (its pin is the CLI's)
        tab = context.new_page()
        tab.goto(address)
        tab.wait_for_function("document.body.dataset.ready === '1'")
        assert tab.url == club.served.url(2) + "/me"
        text = tab.inner_text("body")
        assert "bobbot" in text and "annbot" not in text and "quinbot" not in text
        logs = tab.eval_on_selector_all("pre.build-log", "nodes => nodes.map(n => n.textContent)")
        assert any(MARKUP in log for log in logs)  # as text
        assert tab.evaluate("document.querySelectorAll('pre img, pre script').length") == 0
        assert tab.evaluate("window.pwned === undefined")
        used = context.new_page().goto(address)
        assert used is not None and used.status == 403  # the address opens one session, once
        stranger = browser.new_context(ignore_https_errors=True).new_page().goto(club.served.url(2) + "/me")
        assert stranger is not None and stranger.status == 401  # no session: nothing
        context.close()


def test_retry_validates_again_a_version_in_error_and_builds_again_one_whose_build_failed(club: Club) -> None:
    boss, ann = club["boss"], club["ann"]
    sent(boss.arena("submit", "retrybot", str(python_bot(club.root / "retrybot"))), "retrybot@1")
    tries = "SELECT tries, status FROM versions WHERE bot = 'retrybot' AND version = 1"
    assert ladder_rows(club.folder, tries) == [(0, "error")]
    again = boss.arena("retry", "retrybot@1")
    assert "retrybot@1: tried again, its content unchanged" in again.stdout, again.stdout + again.stderr
    assert "retrybot@1: error: validation game" in again.stdout and again.returncode == 1  # it fails again
    assert ladder_rows(club.folder, tries) == [(1, "error")]  # a second validation game, on a new deal
    validations = "SELECT COUNT(*) FROM sets WHERE kind = 'validation' AND versions = (SELECT json_array(id) " \
        "FROM versions WHERE bot = 'retrybot')"  # fmt: skip
    assert ladder_rows(club.folder, validations) == [(2,)]
    refused = one_line_error(ann.arena("retry", "retrybot@1"))  # not hers
    assert "you have no bot named retrybot" in refused
    assert ladder_rows(club.folder, tries) == [(1, "error")]
    failing = python_bot(club.root / "failbuild", "build:\n\t@echo 'this build fails on purpose' && false\n")
    done = boss.arena("submit", "failbot", str(failing))
    assert "failbot@1: build failed" in done.stdout and "this build fails on purpose" in done.stdout, done.stdout
    again = boss.arena("retry", "failbot@1")
    assert "failbot@1: tried again" in again.stdout and "failbot@1: build failed" in again.stdout, again.stdout
    assert [s for s in submissions(club.folder) if s[0] == "failbot"] == [("failbot", 1, "failed")]


# ------------------------------------------------------------------ kill -9 of the server (last: it restarts)


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
        ["ip", "netns", "exec", club["boss"].ns, "python3", "-c", SLOW, club.served.url(3), club["boss"].token,
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
    done = club["boss"].arena("submit", "slowbot", str(folder))  # sent again whole: one version
    sent(done, "slowbot@1")


def test_a_server_killed_mid_build_builds_it_again_once(club: Club) -> None:
    marker = f"slow-build-{secrets.token_hex(4)}"
    makefile = f"build:\n\tpython3 -c 'import time; time.sleep(4)' {marker}\n\tpython3 -m py_compile bot.py\n"
    folder = python_bot(club.root / "buildbot", makefile)
    submit = subprocess.Popen(
        ["ip", "netns", "exec", club["boss"].ns, ARENA, "club", "submit", "buildbot", str(folder)],
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=club["boss"].env,
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
    logs = club["boss"].arena("logs", "buildbot@1")
    assert logs.returncode == 0 and "--- build output" in logs.stdout and "py_compile" in logs.stdout, logs.stderr
    status = json.dumps(club["boss"].arena("status").stdout)
    assert status.count("buildbot@") == 1
