"""Golden playthroughs: one seeded game per preset between fixed deterministic bots.

Each file ``tests/golden/<preset>.jsonl`` holds two games, each a header line
(preset, rule overrides, seed, players) and then every engine event of the
game, as the game log writes it (``referee.gamelog.event_record``): the rules
bot against the first-legal bot (the rules bot's claims included: it claims
the rest of a hand when it holds nothing but sure winners, so the games show
accepted claims ending hands), then seeded random play (``random_action``),
which reaches the special bids and exchanges the first game may not. ``test_golden.py`` plays each
game again and diffs it line by line, so a change to the engine (a faster
trick loop, say) is shown to play exactly the same games.

The games are shortened by a rule override (a low target or few hands) to keep
the files small. After a deliberate change to the rules, regenerate with::

    .venv/bin/python -m tests.support.golden
"""

from __future__ import annotations

import json
import random
from pathlib import Path

from example_bots.first_bot import FirstBot
from example_bots.rules_bot import RulesBot
from referee.engine.game import Game
from referee.engine.presets import PRESETS, rules_for
from referee.engine.simulate import random_action, shuffled_deck
from referee.engine.view import seat_view
from referee.gamelog import dumps, event_record
from sdk.bot import Bot

GOLDEN = Path(__file__).resolve().parents[1] / "golden"  # the golden files, beside test_golden.py
SEED = 13
REGENERATE = ".venv/bin/python -m tests.support.golden"
# Shorter games: a low target, or few hands where the game ends after a number of hands.
SHORTEN = {"game_points": "12", "game_hands": "3", "hand_limit": "6"}


def golden_path(preset: str) -> Path:
    return GOLDEN / f"{preset}.jsonl"


def playthrough(preset: str) -> list[str]:
    """The lines of the golden file of ``preset``: each game's header, then its events."""
    rules = rules_for(preset, SHORTEN)
    lines: list[str] = []
    for players in ("bots", "random"):
        rng = random.Random(f"{SEED}:{preset}:{players}")
        # Rules bot on team 0, first-legal bot on every other team (both ignore their rng);
        # or every seat random, drawing from the game's own seeded rng.
        bots: list[Bot] = [RulesBot() if rules.team_of(s) == 0 else FirstBot() for s in range(rules.players)]
        game = Game(rules, rng.randrange(rules.players))
        while not game.is_over:
            game.deal(shuffled_deck(rules, rng))
            while (decision := game.decision()) is not None:
                if players == "random":
                    game.apply(random_action(decision, rng))
                else:
                    game.answer(bots[decision.seat].decide(seat_view(game, decision.seat)))
        names = [b.name for b in bots] if players == "bots" else ["random"] * rules.players
        header = {"preset": preset, "overrides": SHORTEN, "seed": SEED, "players": names}
        lines.append(json.dumps(header, sort_keys=True))
        lines += [dumps(event_record(ev)) for ev in game.events]
    return lines


def main() -> None:
    for preset in PRESETS:
        lines = playthrough(preset)
        golden_path(preset).write_text("\n".join(lines) + "\n")
        print(f"{preset}: {len(lines) - 1} events")


if __name__ == "__main__":
    main()
