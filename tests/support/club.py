"""A club on a real network: the server in a network namespace of its own, each member in another, joined
to the server's by a veth pair, so that every request crosses a real network (not the loopback), from an
address of its own.

``ClubNet`` makes the namespaces (``ip netns``, as root) and tears them down; ``Served`` runs ``arena club
serve`` in the server's namespace (``kill9`` and ``start`` again, for the restart tests); ``Member`` runs
the member's ``arena club`` commands in its own namespace, with a config folder of its own. Addresses are
10.77.K.1 (the server's side) and 10.77.K.2 (member K's), each pair a /30 of its own: namespaces have
their own network stacks, so every test run can use the same addresses.
"""

from __future__ import annotations

import os
import secrets
import shutil
import sqlite3
import subprocess
import sys
import time
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING

from tests.support.arena import ARENA, QUICK

if TYPE_CHECKING:
    from playwright.sync_api import Browser
from tests.support.processes import wait_for

PORT = 8443


def ip(*args: str) -> None:
    done = subprocess.run(["ip", *args], capture_output=True, text=True, timeout=30, check=False)
    assert done.returncode == 0, f"ip {' '.join(args)}: {done.stderr}"


@dataclass
class ClubNet:
    """The server's namespace and one per member, each joined to the server's by a veth pair."""

    members: int
    tag: str = field(default_factory=lambda: secrets.token_hex(3))

    @property
    def server(self) -> str:
        return f"club-s-{self.tag}"

    def member(self, k: int) -> str:
        return f"club-m{k}-{self.tag}"

    def server_address(self, k: int) -> str:
        """The server's address as member ``k`` reaches it."""
        return f"10.77.{k}.1"

    def member_address(self, k: int) -> str:
        return f"10.77.{k}.2"

    def __enter__(self) -> ClubNet:
        try:
            self._make()
        except BaseException:  # a namespace made before the failure is not left behind
            self.__exit__()
            raise
        return self

    def _make(self) -> None:
        ip("netns", "add", self.server)
        ip("-n", self.server, "link", "set", "lo", "up")
        for k in range(1, self.members + 1):
            ns = self.member(k)
            ip("netns", "add", ns)
            ip("-n", ns, "link", "set", "lo", "up")
            ours, theirs = f"vs{k}", f"vm{k}"
            ip("link", "add", ours, "netns", self.server, "type", "veth", "peer", "name", theirs, "netns", ns)
            ip("-n", self.server, "addr", "add", f"{self.server_address(k)}/30", "dev", ours)
            ip("-n", ns, "addr", "add", f"{self.member_address(k)}/30", "dev", theirs)
            ip("-n", self.server, "link", "set", ours, "up")
            ip("-n", ns, "link", "set", theirs, "up")

    def __exit__(self, *exc: object) -> None:
        for ns in [self.server, *(self.member(k) for k in range(1, self.members + 1))]:
            subprocess.run(["ip", "netns", "del", ns], capture_output=True, timeout=30, check=False)

    def run(self, ns: str, argv: list[str], **kwargs: object) -> subprocess.CompletedProcess[str]:
        return subprocess.run(
            ["ip", "netns", "exec", ns, *argv],
            capture_output=True,
            text=True,
            check=False,
            **kwargs,  # type: ignore[call-overload]
        )


@dataclass
class Served:
    """``arena club serve FOLDER`` in the server's namespace, on every address, port ``PORT``."""

    net: ClubNet
    folder: Path
    args: tuple[str, ...] = ()
    process: subprocess.Popen[str] | None = None
    fingerprint: str = ""
    output: Path | None = None

    def start(self, *extra: str) -> Served:
        self.output = self.folder.parent / f"serve-{time.monotonic_ns()}.log"
        out = self.output.open("w")
        process = subprocess.Popen(
            ["ip", "netns", "exec", self.net.server, ARENA, "club", "serve", str(self.folder), "--port", str(PORT),
             *self.args, *extra],
            stdout=out, stderr=subprocess.STDOUT, text=True,
        )  # fmt: skip
        self.process = process
        wait_for(lambda: "served at" in self.log() or process.poll() is not None, "the club to serve", 120)
        assert process.poll() is None, self.log()
        for line in self.log().splitlines():
            if "fingerprint:" in line:
                self.fingerprint = line.split("fingerprint:", 1)[1].strip()
        return self

    def log(self) -> str:
        return self.output.read_text() if self.output is not None and self.output.exists() else ""

    def kill9(self) -> None:
        """``kill -9`` the server (the arena, not ``ip``, which exec'd it: the same process)."""
        assert self.process is not None
        self.process.kill()
        self.process.wait(30)

    def stop(self) -> None:
        if self.process is not None and self.process.poll() is None:
            self.process.terminate()
            try:
                self.process.wait(30)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait(30)

    def url(self, k: int) -> str:
        return f"https://{self.net.server_address(k)}:{PORT}"


def admin(*args: str) -> subprocess.CompletedProcess[str]:
    """An admin's command on the club's folder (``invite``, ``revoke`` ...), on the server's machine."""
    return subprocess.run([ARENA, "club", *args], capture_output=True, text=True, timeout=60, check=False)


def invite(folder: Path, name: str, *extra: str) -> str:
    """``arena club invite FOLDER NAME``: the token it prints once."""
    done = admin("invite", str(folder), name, *extra)
    assert done.returncode == 0, done.stderr
    tokens = [line for line in done.stdout.splitlines() if line.startswith("club_")]
    assert len(tokens) == 1, done.stdout
    return tokens[0]


def invite_here(folder: Path, name: str, scope: str = "member") -> str:
    """A member invited by this process, on the club's database (what ``invite`` does, without starting a
    command): the token."""
    from referee.club.db import connect
    from referee.club.members import invite as invite_member

    db = connect(folder / "club.db")
    try:
        return invite_member(db, name, scope)[1]
    finally:
        db.close()


@dataclass
class Member:
    """A member at its own machine: namespace ``k`` of the net, a config folder of its own."""

    net: ClubNet
    k: int
    name: str
    home: Path
    token: str = ""

    @property
    def ns(self) -> str:
        return self.net.member(self.k)

    @property
    def env(self) -> dict[str, str]:
        return {**os.environ, "XDG_CONFIG_HOME": str(self.home / "config"), "HOME": str(self.home)}

    def arena(self, *args: str, stdin: str | None = None, timeout: float = 600) -> subprocess.CompletedProcess[str]:
        return self.net.run(self.ns, [ARENA, "club", *args], input=stdin, env=self.env, timeout=timeout)

    def python(self, code: str, *args: str, timeout: float = 120) -> subprocess.CompletedProcess[str]:
        """Python code run at the member's machine (a request made by hand)."""
        return self.net.run(self.ns, [sys.executable, "-c", code, *args], env=self.env, timeout=timeout)

    def login(self, served: Served) -> subprocess.CompletedProcess[str]:
        return self.arena("login", served.url(self.k), stdin=self.token + "\n")

    def config_file(self) -> Path:
        return self.home / "config" / "arena" / "club.json"


def new_bot(folder: Path, language: str) -> Path:
    """``arena new`` of a starter in ``language`` at ``folder``."""
    done = subprocess.run([ARENA, "new", str(folder), "--lang", language], capture_output=True, text=True,
                          timeout=60, check=False)  # fmt: skip
    assert done.returncode == 0, done.stderr
    return folder


def python_bot(folder: Path, makefile: str = "", extra: dict[str, str] | None = None) -> Path:
    """A Python bot folder (the kit's starter), its Makefile replaced by ``makefile`` when given."""
    new_bot(folder, "python")
    if makefile:
        (folder / "Makefile").write_text(makefile)
    for name, text in (extra or {}).items():
        (folder / name).write_text(text)
    return folder


def ladder_rows(folder: Path, query: str) -> list[tuple[object, ...]]:
    """Rows of a query on the club's ladder, read with a connection of the test's own."""
    db = sqlite3.connect(folder / "ladder.db")
    try:
        return [tuple(r) for r in db.execute(query).fetchall()]
    finally:
        db.close()


def setup(folder: Path, *languages: str, rules: Sequence[str] = QUICK) -> None:
    """A club's folder: its ladder (``arena ladder init``, quick games, bots in the sandbox), then ``arena club
    setup`` of these kits, from copies of this machine's caches and with npm kept offline (the tests reach no
    address outside the machine)."""
    made = subprocess.run([ARENA, "ladder", "init", str(folder), *rules, "--sandbox", "required"],
                          capture_output=True, text=True, timeout=120, check=False)  # fmt: skip
    assert made.returncode == 0, made.stderr
    args = [a for language in languages for a in ("--lang", language)]
    done = subprocess.run(
        [ARENA, "club", "setup", str(folder), "--copy-caches", *args], capture_output=True, text=True, timeout=900,
        env={**os.environ, "npm_config_offline": "true"}, check=False,
    )  # fmt: skip
    assert done.returncode == 0, done.stdout + done.stderr


def tidy(folder: Path) -> None:
    """Remove a club's folder (builds are read-only)."""
    for top, dirs, _ in os.walk(folder):
        for name in dirs:
            path = os.path.join(top, name)
            if not os.path.islink(path):
                os.chmod(path, 0o755)
    shutil.rmtree(folder, ignore_errors=True)


# A request made by hand at a member's machine: python -c RAW URL METHOD HEADERS_JSON BODY_FILE. TLS without a
# check (the tests compare fingerprints themselves); prints the status and the answer's text as JSON.
RAW = """
import http.client, json, ssl, sys
from urllib.parse import urlsplit
url, method, headers, body = sys.argv[1], sys.argv[2], json.loads(sys.argv[3]), sys.argv[4]
parts = urlsplit(url)
context = ssl.SSLContext(ssl.PROTOCOL_TLS_CLIENT)
context.check_hostname = False
context.verify_mode = ssl.CERT_NONE
connection = http.client.HTTPSConnection(parts.hostname, parts.port, context=context, timeout=60)
data = open(body, "rb").read() if body else None
path = parts.path + ("?" + parts.query if parts.query else "")
connection.request(method, path, body=data, headers=headers)
response = connection.getresponse()
print(json.dumps({"status": response.status, "text": response.read().decode(errors="replace")}))
"""


def raw(member: Member, url: str, method: str = "GET", headers: dict[str, str] | None = None,
        body: Path | None = None) -> tuple[int, str]:  # fmt: skip
    """A request by hand from ``member``'s machine: (status, text)."""
    import json

    done = member.python(RAW, url, method, json.dumps(headers or {}), str(body or ""))
    assert done.returncode == 0, done.stderr
    answer = json.loads(done.stdout)
    return int(answer["status"]), str(answer["text"])


@contextmanager
def browser_at(member: Member, folder: Path) -> Iterator[Browser]:
    """Chromium (Debian's, under Playwright) at ``member``'s machine: started in its network namespace by a
    wrapper, so that its requests cross the same network as the member's commands."""
    from playwright.sync_api import sync_playwright

    from tests.support.browser import CHROMIUM, CHROMIUM_ARGS

    wrapper = folder / f"chromium-{member.ns}"
    wrapper.write_text(f'#!/bin/sh\nexec ip netns exec {member.ns} {CHROMIUM} "$@"\n')
    wrapper.chmod(0o755)
    with sync_playwright() as pw:
        browser = pw.chromium.launch(executable_path=str(wrapper), args=CHROMIUM_ARGS)
        try:
            yield browser
        finally:
            browser.close()
