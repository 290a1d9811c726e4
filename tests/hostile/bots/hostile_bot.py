"""A bot that attacks the referee's protocol once: ``python hostile_bot.py MODE N [TAG]``.

It plays the SDK defaults; its stream to the referee is wrapped so that,
when it writes its N-th answer of the session, it does this instead or first:

- ``flood``: 40 Actions naming requests that were never sent, then its answer;
- ``big``: a 10 MB message in place of its answer;
- ``garbage``: bytes that are not a BotMessage in place of its answer;
- ``double-hello``: a second Hello on its stream, then its answer;
- ``streams``: 200 more streams on its connection, each with a Hello
  naming a made-up token, then its answer;
- ``intruder``: a second stream presenting its own seat's token (as a thief
  of the token would), then its answer.

TAG is not read: it marks the command line, so that a test can look for
processes left behind (the bot may run in a sandbox, with pids of its own).
"""

from __future__ import annotations

import asyncio
import secrets
import sys
from typing import Any

import grpc

import sdk.runner
from example_bots.random_bot import RandomBot
from referee.protocol.decoded import HelloMsg, decode_bot_message
from referee.protocol.domain import PLAY_METHOD
from referee.protocol.messages import action_to_pb, hello_to_pb, to_bytes

MODE, AT = sys.argv[1], int(sys.argv[2])
_channel = grpc.aio.insecure_channel


class _Stream:
    """The SDK's stream, with the attack slipped in at the AT-th answer."""

    def __init__(self, channel: Any, call: Any) -> None:
        self._channel, self._call = channel, call
        self.read, self.cancel = call.read, call.cancel
        self.writes = 0
        self.token = ""

    async def write(self, data: bytes) -> None:
        self.writes += 1
        if self.writes == 1:  # the Hello
            hello = decode_bot_message(data)
            assert isinstance(hello, HelloMsg)
            self.token = hello.token
        elif self.writes == AT + 1:
            attack = await self._attack(data)
            if attack is None:
                return
            data = attack
        await self._call.write(data)

    async def _attack(self, answer: bytes) -> bytes | None:
        if MODE == "flood":
            for k in range(40):
                await self._call.write(to_bytes(action_to_pb(10**6 + k, _PLAY, 0)))
        elif MODE == "big":
            return b"\x12" + bytes(10 * 1024 * 1024)
        elif MODE == "garbage":
            return b"\xff\xfe garbage \x00\x01"
        elif MODE == "double-hello":
            await self._call.write(to_bytes(hello_to_pb(self.token, "again", "1")))
        elif MODE == "streams":
            calls = [self._channel.stream_stream(PLAY_METHOD)() for _ in range(200)]
            for call in calls:
                await call.write(to_bytes(hello_to_pb(secrets.token_urlsafe(18), "x", "1")))
            await asyncio.gather(*(call.read() for call in calls), return_exceptions=True)
            for call in calls:
                call.cancel()
        elif MODE == "intruder":
            call = self._channel.stream_stream(PLAY_METHOD)()
            await call.write(to_bytes(hello_to_pb(self.token, "thief", "1")))
            await asyncio.gather(call.read(), return_exceptions=True)
            call.cancel()
        else:
            raise SystemExit(f"unknown mode {MODE!r}")
        return answer


class _Channel:
    def __init__(self, address: str) -> None:
        self._inner = _channel(address)

    async def __aenter__(self) -> _Channel:
        await self._inner.__aenter__()
        return self

    async def __aexit__(self, *exc: object) -> None:
        await self._inner.__aexit__(*exc)

    def stream_stream(self, method: str) -> Any:
        make = self._inner.stream_stream(method)
        return lambda: _Stream(self._inner, make())


from referee.engine.game import DecisionKind

_PLAY = DecisionKind.PLAY
grpc.aio.insecure_channel = _Channel

if __name__ == "__main__":
    sdk.runner.run(RandomBot(), [])
