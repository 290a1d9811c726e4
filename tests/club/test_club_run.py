"""A whole club run, with real parts: a server in a network namespace of its own, members in theirs, the five
kits built for real in the sandbox (``arena new`` starters), games played and rated on a real ladder, real
SQLite, the pages in Chromium at a member's machine.

The admin invites three members; they submit bots in three languages (the admin two more: every kit is
built); the versions build, validate, play and are rated; a member sends a new version, which supersedes
the first; each member reads their own logs and not another's; the public page shows the leaderboard and
finished games' replays, a member's page that member's versions; ``kill -9`` of the server in the middle of
a game, then a restart: nothing is lost and nothing is rated twice."""

from __future__ import annotations

import json
import subprocess
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from pathlib import Path

import pytest

from tests.support.arena import ARENA
from tests.support.club import ClubNet, Member, Served, browser_at, invite, ladder_rows, new_bot, setup, tidy
from tests.support.processes import wait_for

KITS = {"ann": ("annpy", "python"), "bob": ("bobgo", "go"), "cat": ("catjava", "java")}
ADMIN_KITS = (("clubjs", "js"), ("clubcpp", "cpp"))
BOTS = [b for b, _ in KITS.values()] + [b for b, _ in ADMIN_KITS]


@dataclass
class Run:
    folder: Path
    served: Served
    people: dict[str, Member]
    root: Path
    submitted: dict[str, str]  # bot -> the submit command's output


def statuses(folder: Path) -> dict[str, str]:
    return {f"{b}@{v}": str(s) for b, v, s in ladder_rows(folder, "SELECT bot, version, status FROM versions")}


def ladder_games(folder: Path) -> int:
    (count,) = ladder_rows(
        folder, "SELECT COUNT(*) FROM games g JOIN sets s ON s.id = g.set_id WHERE s.kind = 'ladder'"
    )
    return int(str(count[0]))


@pytest.fixture(scope="module")
def run(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Run]:
    root = tmp_path_factory.mktemp("clubrun")
    folder = root / "club"
    setup(folder)
    with ClubNet(4) as net:
        served = Served(net, folder, ("--concurrency", "2")).start()
        try:
            people = {}
            for k, name in enumerate(["ann", "bob", "cat", "boss"], start=1):
                extra = ("--admin",) if name == "boss" else ()
                member = Member(net, k, name, root / name, invite(folder, name, *extra))
                done = member.login(served)
                assert done.returncode == 0, done.stderr
                people[name] = member
            (root / "bots").mkdir()
            jobs = [(people[m], bot, lang) for m, (bot, lang) in KITS.items()]
            jobs += [(people["boss"], bot, lang) for bot, lang in ADMIN_KITS]
            submitted = {}
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


@pytest.mark.parametrize("bot", BOTS)
def test_every_kit_is_built_validated_and_plays(run: Run, bot: str) -> None:
    out = run.submitted[bot]
    steps = [line.split(": ", 2)[1] for line in out.splitlines() if line.startswith(f"{bot}@1: ")]
    assert steps[0].startswith("version 1 of") and steps[-3:] == ["building", "validating", "playing"], out
    assert f"{bot}@1: validating: built in" in out


def test_the_versions_are_rated_as_they_play(run: Run) -> None:
    wait_for(lambda: ladder_games(run.folder) >= 6, "six ladder games", 300)
    rated = ladder_rows(run.folder, "SELECT DISTINCT version FROM ratings")
    assert len(rated) >= 2
    status = run.people["ann"].arena("status")
    assert status.returncode == 0 and "annpy@1  python" in status.stdout
    assert "playing" in status.stdout


def test_a_new_version_supersedes_the_first_once_it_plays(run: Run) -> None:
    ann = run.people["ann"]
    folder = run.root / "bots" / "annpy"
    (folder / "bot.py").write_text((folder / "bot.py").read_text() + "\n# version 2: the same play, new files\n")
    done = ann.arena("submit", "annpy", str(folder))
    assert done.returncode == 0, done.stdout + done.stderr
    assert "annpy@2: version 2 of annpy, python" in done.stdout and "annpy@2: playing" in done.stdout
    wait_for(
        lambda: statuses(run.folder).get("annpy@1") == "superseded",
        lambda: (
            f"annpy@1 to be superseded: {statuses(run.folder)} {done.stdout} {ann.arena('status').stdout} "
            f"{(run.folder / 'ladder.json').read_text()[-3000:]} {sorted(p.name for p in run.folder.iterdir())}"
        ),
        60,
    )


def test_each_member_reads_their_own_logs_and_not_anothers(run: Run) -> None:
    ann, bob = run.people["ann"], run.people["bob"]
    mine = bob.arena("logs", "bobgo")
    assert mine.returncode == 0, mine.stderr
    assert "bobgo@1: playing" in mine.stdout and "--- build output" in mine.stdout and "go build" in mine.stdout
    assert "--- what it printed: table" in mine.stdout  # its bot's own stderr, from its games
    theirs = ann.arena("logs", "bobgo")
    assert theirs.returncode != 0 and "you have no bot named bobgo" in theirs.stderr
    assert "go build" not in theirs.stdout
    status = json.dumps(bob.arena("status").stdout)
    assert "bobgo@1" in status and "annpy" not in status and "catjava" not in status
    everyone = run.people["boss"].arena("status").stdout
    assert all(f"{bot}@1" in everyone for bot in BOTS)


def test_the_public_page_and_a_members_page_in_chromium(run: Run) -> None:
    bob = run.people["bob"]
    address = bob.arena("page").stdout.strip()
    public = run.served.url(2) + "/"
    with browser_at(bob, run.root) as browser:
        context = browser.new_context(ignore_https_errors=True)  # the club's own certificate (pinned by the CLI)
        errors: list[str] = []
        context.on("weberror", lambda e: errors.append(str(e.error)))
        page = context.new_page()
        page.goto(public)
        page.wait_for_function("document.body.dataset.ready === '1'")
        board = page.inner_text("#leaderboard")
        assert all(bot in board for bot in BOTS), board
        assert "validation game" not in page.content()  # no version's reasons: they are its member's
        page.goto(public + "#bot=bobgo")
        page.wait_for_selector("#recent a[data-game]")
        game = page.get_attribute("#recent a[data-game]", "data-game")
        replay = context.new_page()
        shown = replay.goto(f"{run.served.url(2)}/replays/{game}.html")
        assert shown is not None and shown.status == 200
        replay.wait_for_function("document.body.dataset.step !== undefined")
        mine = context.new_page()
        mine.goto(address)
        mine.wait_for_function("document.body.dataset.ready === '1'")
        text = mine.inner_text("body")
        assert "bobgo" in text and "playing" in text
        versions = mine.inner_text("#versions")
        assert "bobgo" in versions and not any(bot in versions for bot in BOTS if bot != "bobgo")  # bob's alone
        assert mine.evaluate("document.querySelectorAll('canvas').length") >= 1  # its rating over time
        assert "Head to head, by version" in text
        context.close()
    assert errors == []  # the pages' scripts ran through


def test_kill_9_mid_game_then_a_restart_loses_nothing_and_rates_nothing_twice(run: Run) -> None:
    before = ladder_games(run.folder)
    wait_for(lambda: ladder_games(run.folder) > before, "a game to be recorded: the tables are playing", 120)
    run.served.kill9()  # in the middle of the next games
    after_kill = ladder_games(run.folder)
    run.served.start()
    wait_for(lambda: ladder_games(run.folder) >= after_kill + 4, "games after the restart", 300)
    numbers = ladder_rows(run.folder, "SELECT number FROM games")
    assert len(numbers) == len(set(numbers))
    per_seating = ladder_rows(run.folder, "SELECT set_id, rotation, COUNT(*) FROM games GROUP BY set_id, rotation")
    assert all(count == 1 for _, _, count in per_seating)  # no game of a set recorded twice
    updates = ladder_rows(run.folder, "SELECT set_id, version, COUNT(*) FROM ratings GROUP BY set_id, version")
    assert all(count == 1 for _, _, count in updates)  # no set rated twice
    checked = subprocess.run([ARENA, "ladder", "check", str(run.folder)], capture_output=True, text=True, timeout=120)
    assert checked.returncode == 0, checked.stdout + checked.stderr
    assert all(status in ("active", "superseded") for status in statuses(run.folder).values())
