"""Members and tokens in a real club database: only a slow hash of a token is kept, a token opens its own
member only, a revoked token opens nothing, a member invited again keeps its bots; wrong tokens are counted
per address; replayed requests change nothing; the member's config file is the user's alone."""

from __future__ import annotations

import hashlib
import os
import sqlite3
import stat
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from referee.club import config, members, submissions
from referee.club.db import ClubError, connect, rows
from referee.club.members import ADMIN, MEMBER, Tokens
from referee.club.replay import ReplayError, answer, claim
from referee.club.throttle import Throttle
from tests.support.arena import invoke


@pytest.fixture
def db(tmp_path: Path) -> Iterator[sqlite3.Connection]:
    connection = connect(tmp_path / "club.db")
    yield connection
    connection.close()


def test_only_a_slow_hash_of_a_token_is_kept(db: sqlite3.Connection, tmp_path: Path) -> None:
    member, token = members.invite(db, "ann")
    assert member.scope == MEMBER
    _, token_id, secret = token.split("_", 2)
    stored = rows(db, "SELECT id, salt, hash FROM tokens")
    assert len(stored) == 1 and stored[0]["id"] == token_id
    assert bytes(stored[0]["hash"]) == hashlib.scrypt(
        secret.encode(), salt=bytes(stored[0]["salt"]), n=2**14, r=8, p=1, maxmem=64 * 1024 * 1024, dklen=32
    )
    everything = (tmp_path / "club.db").read_bytes() + b"".join(p.read_bytes() for p in tmp_path.glob("club.db-*"))
    assert secret.encode() not in everything and token.encode() not in everything


def test_a_token_opens_its_member_only_and_a_revoked_one_nothing(db: sqlite3.Connection) -> None:
    ann, ann_token = members.invite(db, "ann")
    bob, bob_token = members.invite(db, "bob", ADMIN)
    tokens = Tokens(db)
    assert tokens.check(ann_token) == ann and tokens.check(bob_token) == bob and bob.admin
    _, token_id, secret = ann_token.split("_", 2)
    forged = [
        f"club_{token_id}_{secret[:-1]}{'A' if secret[-1] != 'A' else 'B'}",  # the right id, a wrong secret
        f"club_{bob_token.split('_')[1]}_{secret}",  # ann's secret under bob's id
        "club_000000000000_" + "A" * 43,  # an id of no token
        ann_token + "x",
        "",
        "Bearer " + ann_token,
    ]
    assert [tokens.check(t) for t in forged] == [None] * len(forged)
    assert members.revoke(db, "ann") == 1
    assert tokens.check(ann_token) is None  # at once, though it was checked (and remembered) just before
    with pytest.raises(ClubError, match="no member named"):
        members.revoke(db, "nobody")


def test_a_member_invited_again_gets_a_new_token_and_keeps_its_bots(db: sqlite3.Connection) -> None:
    ann, first = members.invite(db, "ann")
    submissions.submit(db, ann, "annbot", "a" * 64, "python", 10, 1, per_day=5)
    with pytest.raises(ClubError, match="a token in use"):
        members.invite(db, "ann")
    members.revoke(db, "ann")
    again, second = members.invite(db, "ann")
    tokens = Tokens(db)
    assert again.id == ann.id and tokens.check(second) == again and tokens.check(first) is None
    assert submissions.owner(db, "annbot") == "ann"


@pytest.mark.parametrize("name", ["", "-ann", "a" * 33, "ann smith", "<b>ann</b>", "ann\n"])
def test_a_member_name_with_markup_or_spaces_is_refused(db: sqlite3.Connection, name: str) -> None:
    with pytest.raises(ClubError, match="cannot name a member"):
        members.invite(db, name)


def test_a_bot_is_its_first_senders_and_the_daily_quota_counts_new_versions_only(db: sqlite3.Connection) -> None:
    ann, _ = members.invite(db, "ann")
    bob, _ = members.invite(db, "bob")
    boss, _ = members.invite(db, "boss", ADMIN)
    first, new = submissions.submit(db, ann, "annbot", "a" * 64, "python", 10, 1, per_day=2)
    assert new and first.version == 1
    again, new = submissions.submit(db, ann, "annbot", "a" * 64, "python", 10, 1, per_day=2)
    assert not new and again.id == first.id  # the same content: the same version, no quota spent
    with pytest.raises(submissions.NotYours, match="another member's"):
        submissions.submit(db, bob, "annbot", "b" * 64, "python", 10, 1, per_day=2)
    with pytest.raises(submissions.NotYours, match="you have no bot named annbot"):
        submissions.get(db, bob, "annbot")
    assert submissions.get(db, boss, "annbot").member == "ann"  # an admin reads everything
    second, _ = submissions.submit(db, ann, "annbot", "c" * 64, "python", 10, 1, per_day=2)
    assert second.version == 2
    with pytest.raises(submissions.QuotaError, match="2 new versions in 24 hours"):
        submissions.submit(db, ann, "annbot", "d" * 64, "python", 10, 1, per_day=2)
    assert [s.label for s in submissions.of_member(db, ann)] == ["annbot@2", "annbot@1"]
    for k in range(3):  # an admin has no quota
        submissions.submit(db, boss, "bossbot", f"{k}" * 64, "python", 10, 1, per_day=2)
    assert submissions.of_member(db, bob) == []


def test_wrong_tokens_are_limited_per_address() -> None:
    now = [1000.0]
    throttle = Throttle(failures=3, window_s=60, clock=lambda: now[0])
    for _ in range(3):
        assert throttle.wait("10.0.0.1") == 0
        throttle.failed("10.0.0.1")
    assert throttle.wait("10.0.0.1") == pytest.approx(60)
    assert throttle.wait("10.0.0.2") == 0  # another address is not held up
    now[0] += 30
    assert throttle.wait("10.0.0.1") == pytest.approx(30)
    now[0] += 31
    assert throttle.wait("10.0.0.1") == 0


def test_a_replayed_request_gets_its_first_answer_and_a_stale_one_is_refused(db: sqlite3.Connection) -> None:
    ann, _ = members.invite(db, "ann")
    bob, _ = members.invite(db, "bob")
    nonce, now = "0123456789abcdef" * 2, f"{time.time()}"
    assert claim(db, ann, nonce, now) is None
    with pytest.raises(ReplayError, match="being handled already"):
        claim(db, ann, nonce, now)
    answer(db, nonce, {"version": 3})
    assert claim(db, ann, nonce, now) == {"version": 3}
    with pytest.raises(ReplayError, match="another member"):
        claim(db, bob, nonce, now)
    with pytest.raises(ReplayError, match="away from the server's clock"):
        claim(db, ann, "f" * 32, f"{time.time() - 3600}")
    for bad in (None, "short", "G" * 32):
        with pytest.raises(ReplayError, match="X-Arena-Nonce"):
            claim(db, ann, bad, now)


def test_the_members_config_is_the_users_alone(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path / "xdg"))
    with pytest.raises(ClubError, match="not logged in"):
        config.current()
    login = config.Login("https://10.0.0.1:8443", "club_x", "ann", config.PINNED, "AB:CD")
    path = config.save(login)
    assert path == tmp_path / "xdg" / "arena" / "club.json"
    assert stat.S_IMODE(os.stat(path).st_mode) == 0o600
    assert stat.S_IMODE(os.stat(path.parent).st_mode) == 0o700
    assert config.current() == login
    monkeypatch.delenv("XDG_CONFIG_HOME")
    monkeypatch.setenv("HOME", str(tmp_path / "home"))
    assert config.path() == tmp_path / "home" / ".config" / "arena" / "club.json"


def test_serve_refuses_a_folder_that_is_no_ladder_or_a_ladder_whose_bots_run_bare(tmp_path: Path) -> None:
    code, _, err = invoke("club", "serve", tmp_path / "nothing", "--plain-http", "--host", "127.0.0.1", "--port", "0")
    assert code != 0 and "no such folder" in err and "arena ladder init" in err
    made, _, err = invoke("ladder", "init", tmp_path / "bare", "--sandbox", "off")
    assert made == 0, err
    code, _, err = invoke("club", "serve", tmp_path / "bare", "--plain-http", "--host", "127.0.0.1", "--port", "0")
    assert code != 0 and "plays with --sandbox off" in err and "--sandbox required" in err, err
    assert not (tmp_path / "bare" / "club.db").exists()  # refused before anything is made
