"""tools/grpc_probe.py against a real referee (`arena serve`): a generic gRPC client finds the
Arena service through reflection alone and gets SERVING from health checking."""

from __future__ import annotations

import json
import re
import subprocess
import sys
from collections.abc import Iterator

import pytest

from tests.support.arena import ARENA, REPO

PROBE = REPO / "tools" / "grpc_probe.py"

# Runs the probe as its own program and then reports the project's modules and
# the generated protobuf modules it had loaded, besides protobuf's own and the
# reflection client's: it must know the services only from the server.
WATCHED_RUN = """
import atexit, json, runpy, sys
def loaded():
    names = [
        m for m in sys.modules
        if m.split(".")[0] in ("referee", "sdk", "example_bots")
        or (m.endswith("_pb2") and m.split(".")[0] not in ("google", "grpc_reflection"))
    ]
    print(json.dumps(sorted(names)), file=sys.stderr)
atexit.register(loaded)
sys.argv = sys.argv[1:]
runpy.run_path(sys.argv[0], run_name="__main__")
"""


@pytest.fixture(scope="module")
def referee(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """`arena serve`, waiting for bots that never come; yields its address."""
    serve = subprocess.Popen(
        [ARENA, "serve", "--log-dir", str(tmp_path_factory.mktemp("serve"))],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    try:
        assert serve.stdout is not None
        for line in serve.stdout:
            found = re.search(r"listening on (\S+)", line)
            if found:
                yield found[1]
                break
        else:
            pytest.fail(f"arena serve printed no address: {serve.stderr.read() if serve.stderr else ''}")
    finally:
        serve.kill()
        serve.wait()


def probe(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-c", WATCHED_RUN, str(PROBE), *args], check=False, capture_output=True, text=True, timeout=60
    )


def test_reflection_and_health_with_no_local_protocol(referee: str) -> None:
    run = probe(referee, "--json")
    assert run.returncode == 0, run.stderr
    assert json.loads(run.stderr.strip().splitlines()[-1]) == []  # no arena_pb2, no project code
    report = json.loads(run.stdout)
    assert set(report["services"]) == {
        "bideuchre.v1.Arena",
        "grpc.health.v1.Health",
        "grpc.reflection.v1alpha.ServerReflection",
    }
    # the file as a client imports it (protoc -Iproto), not the path of the Python package
    assert report["services"]["bideuchre.v1.Arena"]["file"] == "bideuchre/v1/arena.proto"
    assert report["services"]["bideuchre.v1.Arena"]["methods"] == [
        {
            "name": "Play",
            "client_streaming": True,
            "server_streaming": True,
            "input": "bideuchre.v1.BotMessage",
            "output": "bideuchre.v1.RefereeMessage",
        }
    ]
    messages = report["messages"]
    fields = {name: {f["name"]: f for f in found} for name, found in messages.items()}
    assert set(fields["bideuchre.v1.BotMessage"]) == {"hello", "action"}
    assert fields["bideuchre.v1.BotMessage"]["hello"]["oneof"] == "message"
    assert set(fields["bideuchre.v1.RefereeMessage"]) == {
        "welcome",
        "game_start",
        "decision",
        "game_over",
        "error",
        "shutdown",
    }
    legal_cards = fields["bideuchre.v1.DecisionRequest"]["legal_cards"]
    assert (legal_cards["type"], legal_cards["repeated"], legal_cards["number"]) == ("string", True, 15)
    assert fields["bideuchre.v1.DecisionRequest"]["kind"]["type"] == "bideuchre.v1.DecisionKind"
    assert fields["bideuchre.v1.Action"]["request_id"]["type"] == "uint64"
    assert report["health"][""] == "SERVING"
    assert report["health"]["bideuchre.v1.Arena"] == "SERVING"


def test_text_report(referee: str) -> None:
    run = probe(referee)
    assert run.returncode == 0, run.stderr
    lines = run.stdout.splitlines()
    assert "  rpc Play(stream bideuchre.v1.BotMessage) returns (stream bideuchre.v1.RefereeMessage)" in lines
    assert "    repeated string legal_cards = 15" in lines
    assert "  (the server): SERVING" in lines
    assert "  bideuchre.v1.Arena: SERVING" in lines


def test_no_server_is_a_one_line_error() -> None:
    run = probe("127.0.0.1:1", "--timeout", "1")
    assert run.returncode == 2
    assert run.stdout == ""
    assert run.stderr.splitlines()[0] == "error: no gRPC server answers at 127.0.0.1:1 within 1 s"
