"""``arena presets``: list the rule systems, or show every option of one."""

from __future__ import annotations

from typing import Annotated

import typer
from rich.table import Table

from referee.cli.app import app, console, user_errors
from referee.engine.presets import DEFAULT_PRESET, PRESET_NOTES, PRESETS, rules_for
from referee.engine.rules import Rules, option_values

_BIDDING = {"single": "one bid each", "two": "up to two bids each", "multiple": "bidding until all pass"}


def summary(rules: Rules) -> str:
    """The rules' shape in a line: seats, deck, bidding, special bids, game end."""
    seats = (
        f"{rules.players} players, each alone"
        if rules.teams == rules.players
        else f"{rules.players} players in {rules.teams} teams"
    )
    specials = ", ".join(rules.special_bids) or "no special bids"
    end = f"to {rules.game_points} points" if rules.game_over == "points" else f"of {rules.game_hands} hands"
    return (
        f"{seats}, {rules.deck} deck, {rules.cards_each} cards each; "
        f"{_BIDDING[rules.bidding_rounds]}, {specials}; game {end}"
    )


@app.command("presets")
def presets_command(
    name: Annotated[str | None, typer.Argument(help="A preset to show in full.")] = None,
    rule: Annotated[
        list[str] | None, typer.Option("--rule", "-r", help="Override an option, name=value (repeatable).")
    ] = None,
) -> None:
    """List the presets, or show every rule option of one (with overrides applied)."""
    with user_errors():
        if name is None:
            if rule:
                rules_for(DEFAULT_PRESET, rule)  # validate, so a bad override is reported
            table = Table(title="Rule presets", show_lines=False)
            table.add_column("preset", style="bold")
            table.add_column("what sets it apart")
            table.add_column("summary")
            for preset_name, rules in PRESETS.items():
                marker = " (default)" if preset_name == DEFAULT_PRESET else ""
                table.add_row(preset_name + marker, PRESET_NOTES[preset_name], summary(rules))
            console.print(table)
            return
        rules = rules_for(name, rule or [])
        base = PRESETS[name]
        table = Table(title=f"Preset {name}" + (" with overrides" if rule else ""))
        table.add_column("option", style="bold")
        table.add_column("value")
        table.add_column("values")
        table.add_column("meaning")
        for option, value, help_text in rules.describe():
            changed = getattr(rules, option) != getattr(base, option)
            table.add_row(option, f"[yellow]{value}[/]" if changed else value, option_values(option), help_text)
        console.print(table)
