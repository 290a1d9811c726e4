"""The committed generated code is what the pinned generator makes from proto/ today."""

from __future__ import annotations

from pathlib import Path

from tests.support.arena import REPO as ROOT
from tools.gen_proto import generate

GENERATED = ROOT / "referee" / "protocol" / "bideuchre" / "v1"
FILES = ("arena_pb2.py", "arena_pb2.pyi", "arena_pb2_grpc.py")


def test_generated_code_is_not_stale(tmp_path: Path) -> None:
    # what `make proto` runs, into a scratch folder
    fresh = generate(tmp_path)
    assert fresh == tmp_path / "referee" / "protocol" / "bideuchre" / "v1"
    for name in FILES:
        assert (fresh / name).read_text() == (GENERATED / name).read_text(), (
            f"{name} is stale: run `make proto` and commit the result"
        )


def test_the_descriptor_names_the_file_as_a_client_imports_it() -> None:
    from referee.protocol.bideuchre.v1 import arena_pb2, arena_pb2_grpc

    assert arena_pb2.DESCRIPTOR.name == "bideuchre/v1/arena.proto"
    assert arena_pb2.DESCRIPTOR.package == "bideuchre.v1"
    assert arena_pb2.BotMessage.__module__ == "referee.protocol.bideuchre.v1.arena_pb2"
    assert arena_pb2_grpc.ArenaStub is not None


def test_every_message_and_field_is_commented() -> None:
    """The contract: every message, field and enum value of the .proto has a comment above it."""
    lines = (ROOT / "proto" / "bideuchre" / "v1" / "arena.proto").read_text().splitlines()
    bare = []
    for number, line in enumerate(lines):
        text = line.strip()
        declares = text.startswith(("message ", "enum ", "rpc ")) or (
            text.endswith(";") and "=" in text and not text.startswith(("syntax", "package", "option"))
        )
        if not declares or text.endswith("_UNSPECIFIED = 0;"):
            continue
        above = lines[number - 1].strip() if number else ""
        if not above.startswith("//"):
            bare.append(f"line {number + 1}: {text}")
    assert not bare, "uncommented declarations:\n" + "\n".join(bare)
