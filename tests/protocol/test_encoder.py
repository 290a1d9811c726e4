"""The fast request encoder writes what protobuf reads, with every key taken from the message descriptors.

``tests/support/encoder_check.py`` (a process of its own) compares the encoder's bytes with
``decision_to_pb``'s message at every decision of random games of every
preset. It runs on the committed generated code, and on code protoc makes
from a copy of arena.proto with every field renumbered: a key written as a
literal would still hold the old number there, and the check would fail.
"""

from __future__ import annotations

import json
import re
import subprocess
import sys
from functools import cache
from pathlib import Path
from typing import Any

import pytest
from grpc_tools import protoc

from referee.protocol.bideuchre.v1 import arena_pb2 as pb
from referee.protocol.encoder import Form, field_key

ROOT = Path(__file__).resolve().parents[2]
PROTO = ROOT / "proto" / "bideuchre" / "v1" / "arena.proto"
# a field's declaration: `  repeated uint32 tricks_won = 12;`, `  map<string, string> rules = 3;`, `  Bid bid = 2;`
FIELD = re.compile(r"^(\s+(?:repeated\s+)?(?:map<[^>]+>|[A-Za-z_][\w.]*)\s+[a-z_]\w*\s*=\s*)(\d+)(\s*;)", re.MULTILINE)
SHIFT = 100


def run_check(*args: str) -> dict[str, Any]:
    done = subprocess.run(
        [sys.executable, "-m", "tests.support.encoder_check", *args],
        capture_output=True, text=True, timeout=300, check=False, cwd=ROOT,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    report: dict[str, Any] = json.loads(done.stdout)
    return report


@cache
def committed() -> dict[str, Any]:
    return run_check()


def assert_checked(report: dict[str, Any]) -> None:
    assert report["mismatches"] == 0, report["first_mismatch"]
    assert report["requests"] > 1000
    # every field the encoder has a key for was written, parsed back and found equal
    assert set(report["seen"]) == set(report["written"])
    assert set(report["request_fields"]) <= set(report["written"])
    assert report["negative_scores"] > 0  # int32 below zero: ten bytes on the wire


def test_the_encoder_writes_what_protobuf_reads_over_every_field() -> None:
    assert_checked(committed())


def renumbered_code(folder: Path) -> Path:
    """protoc's Python code for arena.proto with every field's number raised by SHIFT (keys of two bytes)."""
    text, count = FIELD.subn(lambda m: f"{m[1]}{int(m[2]) + SHIFT}{m[3]}", PROTO.read_text(encoding="utf-8"))
    assert count > 90, f"only {count} fields found in {PROTO}: update FIELD"
    source = folder / "proto" / "bideuchre" / "v1" / "arena.proto"
    source.parent.mkdir(parents=True)
    source.write_text(text, encoding="utf-8")
    out = folder / "out"
    out.mkdir()
    assert protoc.main(["grpc_tools.protoc", f"-I{folder / 'proto'}", f"--python_out={out}", str(source)]) == 0
    return out / "bideuchre" / "v1" / "arena_pb2.py"


def test_a_renumbered_proto_moves_every_key_with_it(tmp_path: Path) -> None:
    report = run_check(str(renumbered_code(tmp_path)))
    assert report["numbers"] == {name: number + SHIFT for name, number in committed()["numbers"].items()}
    assert_checked(report)


@pytest.mark.parametrize(
    ("message", "name", "form", "words"),
    [
        (pb.DecisionRequest, "game_id", Form.VARINT, "DecisionRequest.game_id is a string field"),
        (pb.DecisionRequest, "scores", Form.PACKED_VARINTS, "DecisionRequest.scores is a repeated int32 field"),
        (pb.DecisionRequest, "hand", Form.TEXT, "DecisionRequest.hand is a repeated string field"),
        (pb.DecisionRequest, "contract", Form.TEXT, "DecisionRequest.contract is a message field"),
        (pb.Play, "seat", Form.PACKED_VARINTS, "Play.seat is a uint32 field"),
        (pb.GameOver, "has_winner", Form.VARINT, "GameOver.has_winner is a bool field"),
    ],
)
def test_a_field_of_another_type_stops_the_encoder_with_its_name(
    message: type[Any], name: str, form: Form, words: str
) -> None:
    with pytest.raises(TypeError, match=rf"bideuchre\.v1\.{re.escape(words)}, which the request encoder does not"):
        field_key(message, name, form)
