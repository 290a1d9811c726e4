"""One place holds the wire format: outside referee/protocol, the arena's code imports no generated module.

The referee, the SDK and the Python example bots talk to the wire package
(domain, messages, encoder, decoded), never to the code protoc made from
arena.proto, nor to any other ``*_pb2`` module but gRPC's own health service
(the server reports its health with it; it is not the arena's protocol).
Tests may import generated code: they check it.
"""

from __future__ import annotations

import ast
from collections.abc import Iterator
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
WIRE = ROOT / "referee" / "protocol"
CHECKED = ("referee", "sdk", "example_bots")
GRPC_OWN = ("grpc_health.",)


def imported(source: str) -> Iterator[str]:
    """Every module a source text imports, by full name (``from a import b`` gives ``a.b`` as well as ``a``)."""
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Import):
            yield from (alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module is not None and node.level == 0:
            yield node.module
            yield from (f"{node.module}.{alias.name}" for alias in node.names)


def generated_imports(source: str) -> list[str]:
    return sorted(
        {
            name
            for name in imported(source)
            if (name.startswith("referee.protocol.bideuchre") or name.endswith(("_pb2", "_pb2_grpc")))
            and not name.startswith(GRPC_OWN)
        }
    )


@pytest.mark.parametrize(
    ("source", "found"),
    [
        (
            "from referee.protocol.bideuchre.v1 import arena_pb2 as pb",
            ["referee.protocol.bideuchre.v1", "referee.protocol.bideuchre.v1.arena_pb2"],
        ),
        ("import referee.protocol.bideuchre.v1.arena_pb2", ["referee.protocol.bideuchre.v1.arena_pb2"]),
        ("from referee.protocol import bideuchre", ["referee.protocol.bideuchre"]),
        ("def f():\n    from google.protobuf import descriptor_pb2", ["google.protobuf.descriptor_pb2"]),
        ("from grpc_health.v1 import health_pb2", []),
        ("from referee.protocol.messages import to_bytes", []),
    ],
)
def test_the_check_finds_generated_imports_in_every_form(source: str, found: list[str]) -> None:
    assert generated_imports(source) == found


def test_nothing_outside_the_wire_package_imports_generated_code() -> None:
    checked, found = 0, {}
    for package in CHECKED:
        for path in sorted((ROOT / package).rglob("*.py")):
            if path.is_relative_to(WIRE) or "node_modules" in path.parts:
                continue
            checked += 1
            names = generated_imports(path.read_text(encoding="utf-8"))
            if names:
                found[str(path.relative_to(ROOT))] = names
    assert checked > 100
    assert found == {}
