"""A whole club run, with real parts: a server in a network namespace of its own, members in theirs, the five
kits built for real in the sandbox (``arena new`` starters), real SQLite.

The admin invites three members; they submit bots in three languages (the admin two more: every kit is
built); the versions build, validate, play and are rated; a member sends a new version; each member reads
their own logs and not another's."""

from __future__ import annotations

import json
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from pathlib import Path

import pytest

from tests.support.club import ClubNet, Member, Served, invite, new_bot, setup, tidy

KITS = {"ann": ("annpy", "python"), "bob": ("bobgo", "go"), "cat": ("catjava", "java")}
ADMIN_KITS = (("clubjs", "js"), ("clubcpp", "cpp"))


@dataclass
class Run:
    folder: Path
    served: Served
    people: dict[str, Member]
    root: Path
    submitted: dict[str, str]  # bot -> the submit command's output


@pytest.fixture(scope="module")
def run(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Run]:
    root = tmp_path_factory.mktemp("clubrun")
    folder = root / "club"
    setup(folder)
    with ClubNet(4) as net:
        served = Served(net, folder).start()
        try:
            people = {}
            for k, name in enumerate(["ann", "bob", "cat", "boss"], start=1):
                extra = ("--admin",) if name == "boss" else ()
                member = Member(net, k, name, root / name, invite(folder, name, *extra))
                done = member.login(served)
                assert done.returncode == 0, done.stderr
                people[name] = member
            submitted = {}
            (root / "bots").mkdir()
            jobs = [(people[m], bot, lang) for m, (bot, lang) in KITS.items()]
            jobs += [(people["boss"], bot, lang) for bot, lang in ADMIN_KITS]
            with ThreadPoolExecutor(len(jobs)) as pool:  # sent at once; the server builds two at a time
                sent = {
                    bot: pool.submit(member.arena, "submit", bot, str(new_bot(root / "bots" / bot, language)))
                    for member, bot, language in jobs
                }
                for bot, future in sent.items():
                    done = future.result()
                    assert done.returncode == 0, done.stdout + done.stderr
                    submitted[bot] = done.stdout
            yield Run(folder, served, people, root, submitted)
        finally:
            served.stop()
    tidy(folder)


@pytest.mark.parametrize("bot", [b for b, _ in KITS.values()] + [b for b, _ in ADMIN_KITS])
def test_every_kit_is_built_on_the_server(run: Run, bot: str) -> None:
    out = run.submitted[bot]
    assert f"{bot}@1: built: built in" in out, out


def test_each_member_reads_their_own_logs_and_not_anothers(run: Run) -> None:
    ann, bob = run.people["ann"], run.people["bob"]
    mine = ann.arena("logs", "annpy")
    assert mine.returncode == 0 and "py_compile" in mine.stdout, mine.stderr
    theirs = ann.arena("logs", "bobgo")
    assert theirs.returncode != 0 and "you have no bot named bobgo" in theirs.stderr
    assert "go build" not in theirs.stdout
    status = json.dumps(bob.arena("status").stdout)
    assert "bobgo@1" in status and "annpy" not in status
