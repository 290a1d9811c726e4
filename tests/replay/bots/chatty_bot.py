"""A test bot that says on stderr why it chose what it did, then takes the SDK's default: for ``--ask``'s output.

``python chatty_bot.py``; every decision prints ``chatty: KIND, N legal, chose ACTION``.
"""

from __future__ import annotations

import sys

from sdk import Bot, SeatView, run


class ChattyBot(Bot):
    name = "chatty"
    version = "1"

    def decide(self, view: SeatView) -> object:
        action = super().decide(view)
        decision = view.decision
        assert decision is not None
        print(f"chatty: {decision.kind}, {len(decision.options)} legal, chose {action}", file=sys.stderr)
        return action


if __name__ == "__main__":
    run(ChattyBot())
