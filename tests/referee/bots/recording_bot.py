"""The random example bot, recording every message the referee sends it.

Each received message is appended (hex of the wire bytes, one per line) to
``$RECORD_DIR/<pid>-<random>.msgs`` (a file per process: in the sandbox every
bot has the same pid) before the SDK reads it, so a test can check exactly
what crossed the wire to this seat. The test makes RECORD_DIR writable in the
sandbox (``tests.support.referee.run_match``).
"""

from __future__ import annotations

import os
import uuid

import sdk.runner
from example_bots.random_bot import RandomBot
from referee.protocol import decoded

_path = os.path.join(os.environ["RECORD_DIR"], f"{os.getpid()}-{uuid.uuid4().hex}.msgs")
_decode = decoded.decode_referee_message


def _recording_decode(data: bytes, *, seat: int, players: int) -> decoded.RefereeInfo:
    with open(_path, "a", encoding="ascii") as f:
        f.write(data.hex() + "\n")
    return _decode(data, seat=seat, players=players)


decoded.decode_referee_message = _recording_decode

if __name__ == "__main__":
    sdk.runner.run(RandomBot())
