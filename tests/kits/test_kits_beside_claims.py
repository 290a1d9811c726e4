"""Bots written before claims existed play on unaffected at a table where another bot claims.

Each kit (JavaScript, C++, Go, Java) is built afresh, as an outside author's copy of it would be, from
protocol v1 as it was before claims: arena.proto without the claim (``Action.claim``, the ``Event.claim``
member and its ``ClaimMade``, ``DecisionRequest.may_claim``). That bot knows nothing of them: a claim event
reaches it as an Event with no member of its oneof set (protobuf keeps the unknown field), and a request's
``may_claim`` as an unknown field. It then plays a game against ``tests/referee/bots/claim_bot.py``, which
claims in the last three tricks of every hand (some claims hold and end the hand, most are refused and play
goes on): no violation, no Error, the game played out, the log verified.
"""

from __future__ import annotations

import shutil
import subprocess
import sys
from collections import Counter
from pathlib import Path

import pytest

from referee.kits import KITS, Language
from tests.support.arena import REPO, TESTS, arena
from tests.support.js import JS_DIR, require_js_bot
from tests.support.logs import only_log, records

PROTO = REPO / "proto" / "bideuchre" / "v1" / "arena.proto"
CLAIMER = f"claim={sys.executable} {TESTS / 'referee' / 'bots' / 'claim_bot.py'} last 3"


def before_claims(text: str) -> str:
    """arena.proto without what claims added: every declaration that names a claim, with the comment above it,
    and the two claim messages."""
    out: list[str] = []
    comment: list[str] = []
    lines = iter(text.splitlines())
    for line in lines:
        stripped = line.strip()
        if stripped.startswith("//"):
            comment.append(line)
            continue
        if stripped.startswith(("message Claim {", "message ClaimMade {")):
            while not line.strip().endswith("}"):
                line = next(lines)
            comment = []
            continue
        if "claim" in stripped.lower():
            comment = []
            continue
        out += [*comment, line]
        comment = []
    return "\n".join(out + comment) + "\n"


def test_the_old_proto_has_no_claim_and_keeps_everything_else() -> None:
    now = PROTO.read_text(encoding="utf-8")
    old = before_claims(now)
    assert "claim" not in old.lower()
    gone = Counter(now.splitlines()) - Counter(old.splitlines())
    declarations = Counter({line.strip(): n for line, n in gone.items() if not line.strip().startswith("//")})
    assert declarations == Counter(
        [
            "Claim claim = 6;",
            "message Claim {}",
            "bool may_claim = 20;",
            "ClaimMade claim = 10;",
            "message ClaimMade {",
            "uint32 seat = 1;",
            "uint32 team = 2;",
            "uint32 trick = 3;",
            "uint32 tricks = 4;",
            "bool accepted = 5;",
            "}",
        ]
    )


def old_kit(language: Language, folder: Path) -> tuple[str, list[str]]:
    """The kit's bot copied into ``folder`` with the old proto beside it, built: its NAME=COMMAND, and the
    match options it needs."""
    kit = KITS[language]
    assert kit.kit is not None
    source = REPO / "example_bots" / kit.kit
    for name in kit.copied:
        shutil.copy2(source / name, folder / name)
    proto = folder / "proto" / "bideuchre" / "v1" / "arena.proto"
    proto.parent.mkdir(parents=True)
    proto.write_text(before_claims(PROTO.read_text(encoding="utf-8")), encoding="utf-8")
    if language is Language.JS:
        require_js_bot()
        (folder / "node_modules").symlink_to(JS_DIR / "node_modules")
        return f"old=node {folder / 'bot.js'}", []
    if shutil.which("make") is None:
        pytest.fail("make is not on PATH: the kits are built by their Makefiles")
    build = subprocess.run(
        ["make", "--no-print-directory", "-C", str(folder), "build/bot"],
        capture_output=True,
        text=True,
        timeout=900,
    )
    assert build.returncode == 0, build.stdout + build.stderr
    return f"old={folder / 'build' / 'bot'}", ["--tcp", "old"] if kit.tcp else []


@pytest.mark.slow
@pytest.mark.parametrize("language", [Language.JS, Language.CPP, Language.GO, Language.JAVA])
def test_a_kit_built_before_claims_plays_on_beside_a_claiming_bot(language: Language, tmp_path: Path) -> None:
    folder = tmp_path / f"old-{language.value}"
    folder.mkdir()
    bot, options = old_kit(language, folder)
    logs = tmp_path / "logs"
    run = arena(
        "match",
        *options,
        "--bot",
        CLAIMER,
        "--bot",
        bot,
        "--preset",
        "neuralplay",
        "-r",
        "hand_limit=6",
        "--seed",
        "5",
        "--log-dir",
        logs,
        timeout=600,
    )
    assert run.returncode == 0, run.stdout + run.stderr
    log = only_log(logs)
    recs = records(log)
    assert [r for r in recs if r["event"] == "violation"] == []
    claims = [r for r in recs if r["event"] == "claim"]
    assert {r["accepted"] for r in claims} == {True, False}, "claims that ended hands, and refused ones"
    [end] = [r for r in recs if r["event"] == "game_end"]
    assert end["reason"] in ("target", "hands", "mercy", "hand-limit"), end  # played out, never forfeited
    old_seats = {s["seat"] for s in recs[0]["seats"] if s["bot"] == "old"}
    assert old_seats == {1, 3}
    assert any(r["event"] == "play" and r["seat"] in old_seats for r in recs)
    # the old bots played on after refused claims: their next card in the same trick, after the claim
    refused = [r for r in claims if not r["accepted"]]
    assert any(
        r["event"] == "play" and r["seat"] in old_seats and (r["hand"], r["trick"]) == (c["hand"], c["trick"])
        for c in refused
        for r in recs[recs.index(c) + 1 :]
    )
    for output in sorted(logs.glob("*-old.stderr")):
        text = output.read_text()
        assert "shutdown (match finished)" in text, text
        assert "referee error" not in text and "ignoring an unknown" not in text, text
    verify = arena("replay", log, "--verify")
    assert verify.returncode == 0, verify.stdout + verify.stderr
