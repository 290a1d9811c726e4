"""The fast request encoder against protobuf, over every field it writes:
``python -m tests.support.encoder_check [ARENA_PB2]`` (from the repository's root).

Run by test_encoder.py in a process of its own, so that ARENA_PB2 (a module
protoc generated from another version of arena.proto) can stand in for the
committed ``referee.protocol.bideuchre.v1.arena_pb2`` before anything of the
wire package is imported. Plays short random games of every preset in the
engine; at each decision, the bytes ``RequestEncoder`` writes are parsed by
protobuf and compared with the message ``decision_to_pb`` builds field by
field. Prints one JSON object: the requests checked, how often each field was
seen in the parsed requests, the encoder's list of fields with their numbers,
the negative scores written, and the mismatches (the first one in full).
"""

from __future__ import annotations

import importlib.util
import json
import random
import sys
from typing import Any

PB2 = "referee.protocol.bideuchre.v1.arena_pb2"


def substitute(path: str) -> None:
    """Load the generated module at ``path`` as the wire package's own."""
    spec = importlib.util.spec_from_file_location(PB2, path)
    if spec is None or spec.loader is None:
        raise SystemExit(f"{path}: not a Python module")
    module = importlib.util.module_from_spec(spec)
    sys.modules[PB2] = module
    spec.loader.exec_module(module)


def check() -> dict[str, Any]:
    from referee.engine.events import visible_to
    from referee.engine.game import Decision, DecisionKind, Game
    from referee.engine.presets import PRESETS
    from referee.engine.simulate import play_game, random_action
    from referee.protocol.bideuchre.v1 import arena_pb2 as pb
    from referee.protocol.encoder import WRITTEN, RequestEncoder
    from referee.protocol.messages import decision_to_pb

    requests, negative = 0, 0
    mismatches: list[str] = []
    seen: dict[str, int] = {}

    def check_then_play(game: Game, decision: Decision) -> object:
        """At each decision: the request written both ways, compared; then a random action."""
        nonlocal requests, negative
        seat = decision.seat
        untold = [visible_to(ev, seat) for ev in game.events[told[seat] :]]
        told[seat] = len(game.events)
        # small and large values, zero (left out) included, so that varints of every length are written
        asked: dict[str, Any] = {
            "request_id": requests + 1 + (requests % 3) * 2**40,
            "game_id": ("", "g1", "game-" + "x" * 200)[requests % 3],
            "events": untold,
            "time_limit_ms": (900, 0, 60_000)[requests % 3],
            "time_bank_ms": (0, 250, 3_600_000)[requests % 3],
            "may_claim": decision.kind is DecisionKind.PLAY and requests % 2 == 0,  # false after a refused claim
            "startup_allowance_ms": (2000, 0, 1)[requests % 3],
        }
        data = encoder.decision(game, decision, **asked)
        wanted = decision_to_pb(game, decision, **asked)
        parsed = pb.RefereeMessage.FromString(data)
        same_bytes = parsed.SerializeToString(deterministic=True) == wanted.SerializeToString(deterministic=True)
        if parsed != wanted or not same_bytes:
            mismatches.append(f"request {requests}: wrote {parsed} wanted {wanted}")
        fields = [field for field, _ in parsed.ListFields()] + [f for f, _ in parsed.decision.ListFields()]
        for play in parsed.decision.current_trick:
            fields += [field for field, _ in play.ListFields()]
        for field in fields:
            seen[field.full_name] = seen.get(field.full_name, 0) + 1
        negative += sum(1 for score in parsed.decision.scores if score < 0)
        requests += 1
        return random_action(decision, rng)

    for preset, base in PRESETS.items():
        rules = base.with_overrides({"hand_limit": "4"})
        rng = random.Random(f"encoder:{preset}")
        encoder = RequestEncoder()  # one per game, as the referee has
        told = [0] * rules.players  # per seat: the game's events it has been told
        play_game(Game(rules, rng.randrange(rules.players)), check_then_play, rng)
    messages = (pb.RefereeMessage, pb.DecisionRequest, pb.Play)
    return {
        "requests": requests,
        "seen": seen,
        "written": {name: form.name for name, form in WRITTEN.items()},
        "numbers": {f.full_name: f.number for m in messages for f in m.DESCRIPTOR.fields},
        "request_fields": [f.full_name for f in pb.DecisionRequest.DESCRIPTOR.fields],
        "negative_scores": negative,
        "mismatches": len(mismatches),
        "first_mismatch": mismatches[0] if mismatches else None,
    }


if __name__ == "__main__":
    if len(sys.argv) > 1:
        substitute(sys.argv[1])
    print(json.dumps(check()))
