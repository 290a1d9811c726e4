"""A bot whose games after the first pair wait for it: ``python late_pair_bot.py RESULTS KIND``.

It plays as the example bot KIND (``rules`` or ``random``). In a game after the first two (game ids after
``g0002``: the second deal on), it first waits, at the game's start, until the run's RESULTS file
(``results.jsonl``) holds two games, the first pair, or 60 s. So in an SPRT on four tables the test can
decide on the first pair while the second deal's two games are still at their tables: they finish after
the decision. (Run it with a move time longer than the wait, and bare, so that it can read RESULTS.)
"""

from __future__ import annotations

import sys
import time
from pathlib import Path

import sdk.runner
from example_bots.random_bot import RandomBot
from example_bots.rules_bot import RulesBot
from referee.protocol.decoded import GameStartInfo
from sdk import Bot, SeatView

RESULTS = Path(sys.argv[1])
FIRST_PAIR = ("g0001", "g0002")

_bare_view = sdk.runner._bare_view
game_ids: list[str] = []


def _noting_the_game(start: GameStartInfo) -> SeatView:
    game_ids.append(start.game_id)
    return _bare_view(start)


sdk.runner._bare_view = _noting_the_game


def pairs_in(path: Path) -> int:
    try:
        return len(path.read_text().splitlines()) // 2
    except FileNotFoundError:
        return 0


class WaitsForTheFirstPair(Bot):
    def game_start(self, view: SeatView) -> None:
        super().game_start(view)
        if game_ids[-1] in FIRST_PAIR:
            return
        deadline = time.monotonic() + 60
        while pairs_in(RESULTS) < 1 and time.monotonic() < deadline:
            time.sleep(0.05)


class LateRules(WaitsForTheFirstPair, RulesBot):
    pass


class LateRandom(WaitsForTheFirstPair, RandomBot):
    pass


if __name__ == "__main__":
    sdk.runner.run({"rules": LateRules, "random": LateRandom}[sys.argv[2]](), [])
