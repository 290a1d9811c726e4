"""``arena demo``: the quick-start job run by ``make demo``."""

from __future__ import annotations

import random
from typing import Annotated

import typer
from rich.table import Table

from referee.cli.app import app, console, user_errors
from referee.engine.events import ContractEvent, HandEndEvent
from referee.engine.game import Game
from referee.engine.presets import DEFAULT_PRESET, rules_for
from referee.engine.simulate import play_game, random_chooser


@app.command("demo")
def demo_command(
    preset: Annotated[str, typer.Option(help="Rule preset.")] = DEFAULT_PRESET,
    seed: Annotated[int, typer.Option(help="Random seed.")] = 1,
) -> None:
    """Play one in-process game between random players and print each hand's result."""
    with user_errors():
        rules = rules_for(preset)
        rng = random.Random(seed)
        game = play_game(Game(rules, rng.randrange(rules.players)), random_chooser(rng), rng)
    table = Table(title=f"One game of {preset}, random players (seed {seed})")
    for col in ("hand", "declarer", "contract", "tricks", "points", "scores"):
        table.add_column(col)
    contract = None
    for ev in game.events:
        if isinstance(ev, ContractEvent):
            contract = ev
        elif isinstance(ev, HandEndEvent):
            if ev.passed_out:
                table.add_row(str(ev.hand), "-", "passed out", "", "", " / ".join(map(str, ev.scores)))
            else:
                assert contract is not None
                made = "made" if ev.made else "set"
                table.add_row(
                    str(ev.hand),
                    f"seat {ev.declarer}",
                    f"{contract.bid} in {contract.trump.text()} ({made})",
                    " / ".join(map(str, ev.tricks)),
                    " / ".join(map(str, ev.points)),
                    " / ".join(map(str, ev.scores)),
                )
    console.print(table)
    winner = "a draw" if game.winner is None else f"team {game.winner} wins"
    console.print(f"Game over ({game.end_reason}): {winner}, scores {list(game.scores)}")
