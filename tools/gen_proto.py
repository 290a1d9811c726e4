"""Generate the Python code of the protocol from proto/ (what `make proto` runs).

``python tools/gen_proto.py [ROOT]`` writes ``ROOT/referee/protocol/bideuchre/v1/``
(``arena_pb2.py``, ``.pyi``, ``arena_pb2_grpc.py``); ROOT is the repository by
default. protoc runs with ``-Iproto``, so the descriptor names the file
``bideuchre/v1/arena.proto``, exactly as a client in any language imports
it (and as server reflection reports it). protoc's output then takes the module to be
``bideuchre.v1.arena_pb2`` (the gRPC stub imports it so, the message classes
name it as their module); both are rewritten to the package the code lives
in, ``referee.protocol.bideuchre.v1``.
tests/protocol checks that the committed code is what this makes.
"""

from __future__ import annotations

import sys
from pathlib import Path

from grpc_tools import protoc

REPO = Path(__file__).resolve().parents[1]
PROTO = "bideuchre/v1/arena.proto"
PACKAGE = "referee.protocol"
# (file, what protoc writes, what it must say)
_REWRITES = (
    ("arena_pb2_grpc.py", "from bideuchre.v1 import arena_pb2 as", f"from {PACKAGE}.bideuchre.v1 import arena_pb2 as"),
    ("arena_pb2.py", "'bideuchre.v1.arena_pb2'", f"'{PACKAGE}.bideuchre.v1.arena_pb2'"),
)


def generate(root: Path = REPO) -> Path:
    """Write the generated code under ``root``; returns its folder."""
    out = root / Path(*PACKAGE.split("."))
    out.mkdir(parents=True, exist_ok=True)
    argv = [
        "grpc_tools.protoc",
        f"-I{REPO / 'proto'}",
        f"--python_out={out}",
        f"--pyi_out={out}",
        f"--grpc_python_out={out}",
        str(REPO / "proto" / PROTO),
    ]
    if protoc.main(argv) != 0:
        raise SystemExit(f"protoc failed on proto/{PROTO}")
    folder = out / "bideuchre" / "v1"
    for name, written, wanted in _REWRITES:
        path = folder / name
        text = path.read_text(encoding="utf-8")
        if written not in text:
            raise SystemExit(f"{path}: protoc's output has changed ({written} not found); update {__file__}")
        path.write_text(text.replace(written, wanted), encoding="utf-8")
    return folder


if __name__ == "__main__":
    print(generate(Path(sys.argv[1]) if len(sys.argv) > 1 else REPO))
