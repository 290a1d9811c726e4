"""The committed generated code is what the pinned generator makes from proto/ today."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
GENERATED = ROOT / "referee" / "protocol" / "bideuchre" / "v1"
FILES = ("arena_pb2.py", "arena_pb2.pyi", "arena_pb2_grpc.py")


def test_generated_code_is_not_stale(tmp_path: Path) -> None:
    # the same command as `make proto`, into a scratch folder
    subprocess.run(
        [
            sys.executable,
            "-m",
            "grpc_tools.protoc",
            "-Ireferee/protocol=proto",
            f"--python_out={tmp_path}",
            f"--pyi_out={tmp_path}",
            f"--grpc_python_out={tmp_path}",
            "proto/bideuchre/v1/arena.proto",
        ],
        cwd=ROOT,
        check=True,
    )
    fresh = tmp_path / "referee" / "protocol" / "bideuchre" / "v1"
    for name in FILES:
        assert (fresh / name).read_text() == (GENERATED / name).read_text(), (
            f"{name} is stale: run `make proto` and commit the result"
        )


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
