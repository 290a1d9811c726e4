"""``--live``: a real tournament of slow bots watched in a real Chromium, on one referee and on workers; pages
closed or gone silent mid-game; Ctrl-C; and on Ray (in a network namespace of its own, ``live_ray.py``).
"""

from __future__ import annotations

import json
import os
import signal
import socket
import subprocess
import sys
import threading
import time
import urllib.error
import urllib.request
from pathlib import Path

import pytest
from playwright.sync_api import Browser

from tests.support.arena import ARENA, QUICK, REPO
from tests.support.browser import open_page, text_of
from tests.support.logs import result_lines
from tests.support.netns import NETNS_PIDS, in_netns
from tests.support.processes import children_of, wait_gone
from tests.support.report import live_url, slow

BOTS = [slow("a", 15), slow("b", 15), slow("c", 15)]


class Run:
    """``arena tournament --live 0`` in a process group of its own (for Ctrl-C), its output read as it comes."""

    def __init__(self, folder: Path, *args: str, bots: list[str] = BOTS) -> None:
        argv = [str(ARENA), "tournament", *QUICK, *(a for b in bots for a in ("--bot", b)), "--live", "0", *args]
        self.proc = subprocess.Popen(
            [*argv, "--out", str(folder)],
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
            process_group=0,
        )
        self.folder = folder
        self.out: list[str] = []
        self.err: list[str] = []
        self.readers = [
            threading.Thread(target=lambda s=stream, i=into: i.extend(iter(s.readline, "")), daemon=True)
            for stream, into in ((self.proc.stdout, self.out), (self.proc.stderr, self.err))
        ]
        for reader in self.readers:
            reader.start()

    def url(self, within_s: float = 60) -> str:
        deadline = time.monotonic() + within_s
        while (url := live_url(self.out)) is None:
            assert self.proc.poll() is None and time.monotonic() < deadline, f"no live view: {self.out} {self.err}"
            time.sleep(0.05)
        return url

    def wait(self, timeout: float = 240) -> int:
        """The exit status, once the run has ended and every line it wrote has been read (its pipes closed)."""
        code = self.proc.wait(timeout)
        for reader in self.readers:
            reader.join(30)
            assert not reader.is_alive(), "the run's output stayed open after it ended"
        return code

    def kill(self) -> None:
        if self.proc.poll() is None:
            os.killpg(self.proc.pid, signal.SIGKILL)
            self.proc.wait()


def wait_for_table(url: str, table: int, within_s: float = 60) -> str:
    """The table's page address, once the table has begun a game."""
    deadline = time.monotonic() + within_s
    page = f"{url}tables/{table}"
    while True:
        try:
            with urllib.request.urlopen(page, timeout=5):
                return page
        except urllib.error.HTTPError:
            assert time.monotonic() < deadline, f"table {table} never began"
            time.sleep(0.1)


@pytest.mark.parametrize("workers", ["1", "2"])
def test_pages_follow_the_games_and_the_standings(tmp_path: Path, browser: Browser, workers: str) -> None:
    run = Run(tmp_path / "t", "-n", "2", "-j", "2", "--workers", workers)
    try:
        url = run.url()
        report, problems = open_page(browser, url, 1280, 900, loopback=True)
        assert report.text_content("#live-status") == "live"
        tables = [open_page(browser, wait_for_table(url, t), 1024, 768, loopback=True) for t in (1, 2)]
        # a table's page advances as its game is played, every card shown
        table, table_problems = tables[0]
        start = int(table.get_attribute("body", "data-step") or 0)
        game = table.get_attribute("body", "data-live-game")
        table.wait_for_function(  # three steps further in this game, or three steps into the table's next one
            "([game, start]) => Number(document.body.dataset.step) > (document.body.dataset.liveGame === game"
            " ? start : 0) + 3",
            arg=[game, start],
            timeout=60_000,
        )
        assert table.locator("#seats .card.back").count() == 0
        assert table.locator("#seats .card").count() > 0
        # a page closed mid-game: nothing happens to the run
        tables[1][0].close()
        # a standings row changes when a game ends
        report.wait_for_function(
            "[...document.querySelectorAll('#standings tr[data-bot]')].some(tr => tr.children[2].textContent !== '0')",
            timeout=120_000,
        )
        assert int(text_of(report.text_content("#games-count")).split()[0]) >= 1
        assert run.wait() == 0, run.err
        assert result_lines(run.folder) == 6
        # the pages are told the run is over; the report page has every game
        report.wait_for_function("document.getElementById('live-status').textContent === 'finished'", timeout=20_000)
        assert report.text_content("#games-count") == "6 of 6 games"
        assert text_of(report.text_content("#meta")).startswith("6 of 6 games played")
        table.wait_for_function("document.getElementById('live-status').textContent === 'run over'", timeout=20_000)
        assert problems == [] and table_problems == []
        assert (run.folder / "report.html").exists()
        assert any(line.startswith("report: ") for line in run.out)
    finally:
        run.kill()


def test_ctrl_c_stops_the_server_with_the_run_even_with_a_page_that_stopped_reading(tmp_path: Path) -> None:
    run = Run(tmp_path / "t", "-n", "4", "-j", "2", "--workers", "1")
    try:
        url = run.url()
        host, port = url.split("/")[2].split(":")
        page = wait_for_table(url, 1)
        # a browser that stops reading: it asks for the table's events and never reads a byte of them
        silent = socket.create_connection((host, int(port)))
        silent.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 1024)
        silent.sendall(f"GET {page.split(port, 1)[1]}/events?game=x&steps=0 HTTP/1.1\r\nHost: {host}\r\n\r\n".encode())
        deadline = time.monotonic() + 120
        while result_lines(run.folder) < 1:
            assert time.monotonic() < deadline and run.proc.poll() is None, run.err
            time.sleep(0.1)
        pids = children_of(run.proc.pid)
        assert pids, "no bot processes"
        os.killpg(run.proc.pid, signal.SIGINT)  # as a terminal's Ctrl-C
        assert run.wait(60) == 130, run.err
        assert run.err[-1].startswith("interrupted: finished games kept")
        wait_gone([run.proc.pid, *pids])
        with pytest.raises(OSError):
            socket.create_connection((host, int(port)), timeout=2).close()
        silent.close()
    finally:
        run.kill()


def test_the_live_view_follows_ray_tables(tmp_path: Path) -> None:
    """On a local Ray (in namespaces of its own: loopback only, its own process ids): the table's game and the
    finished games reach the live view from the Ray actors, and nothing is left running after the run."""
    bots = [a for b in BOTS[:2] for a in ("--bot", b)]
    run = in_netns(
        sys.executable, "-m", "tests.support.live_ray", str(tmp_path / "t"), "--", *QUICK, *bots, "-n", "4", "-j", "2",
        timeout=400, namespaces=NETNS_PIDS, cwd=str(REPO),
    )  # fmt: skip
    assert run.returncode == 0, run.stderr[-3000:]
    seen = json.loads(run.stdout.strip().splitlines()[-1])
    assert seen["exit"] == 0, seen
    assert seen["table_events"]["game"] >= 1 and seen["table_events"]["more"] >= 1, seen
    assert seen["steps"] > 10, seen
    assert seen["report_games"] >= 1, seen
    assert seen["left"] == [], seen
    assert result_lines(tmp_path / "t") == 4


def test_the_live_page_shows_the_round_in_play(tmp_path: Path, browser: Browser) -> None:
    """A Swiss of three bots watched live: the page's header names round 1 while its meeting is played, then
    round 2 once the results of round 1 have fixed it; the bye and the meetings of each round are on the page."""
    run = Run(tmp_path / "t", "--format", "swiss", "--rounds", "2", "-j", "1", bots=[slow(n, 25) for n in "abc"])
    try:
        report, problems = open_page(browser, run.url(), 1280, 900, loopback=True)
        # every header the page shows, from the one it opened with
        report.evaluate(
            "() => { window.titles = [document.getElementById('title').textContent];"
            " new MutationObserver(() => window.titles.push(document.getElementById('title').textContent))"
            ".observe(document.getElementById('title'), {childList: true, characterData: true, subtree: true}); }"
        )
        report.wait_for_function("document.getElementById('live-status').textContent === 'finished'", timeout=240_000)
        assert run.wait() == 0, run.err
        titles = [t for t in report.evaluate("window.titles") if "round" in t]
        assert titles[0].endswith("swiss, round 1 of 2, double-deck"), titles
        assert titles[-1].endswith("swiss, round 2 of 2, double-deck"), titles
        assert report.locator(".round-table").count() == 2
        standings = json.loads((run.folder / "standings.json").read_text(encoding="utf-8"))
        assert standings["format"] == "swiss" and standings["round"] == 2 and standings["complete"] is True
        for r in (1, 2):  # each round: one meeting and a bye, as standings.json says
            rows = report.locator(f'.round-table[data-round="{r}"] tr[data-bots]')
            assert rows.count() == sum(m["round"] == r for m in standings["matches"]) == 2
        assert problems == []
    finally:
        run.kill()
