"""docs/sdk.md, the SDK's reference, cannot rot: its examples run, and it and the SDK's docstrings cover the
same names (issue 31).

- Every python block of the page runs, in order, in one namespace (what its ``assert`` lines say holds); the
  first block, a bot, is also saved as the page says and its ``arena`` lines run against it.
- Every name ``sdk`` exports has a docstring of its own (a class's or a function's; for a value, the string
  under its assignment) and is named in the page; so are every field of ``SeatView`` and every method and
  attribute a ``Bot`` offers.
- The example in ``sdk/bot.py``'s docstring runs.
"""

from __future__ import annotations

import ast
import dataclasses
import importlib
import inspect
import re
import textwrap
from pathlib import Path

import pytest

import sdk
from sdk import Bot, SeatView
from tests.support.arena import REPO
from tests.support.docs import Block, blocks, run_line

PAGE = REPO / "docs" / "sdk.md"


def code_names(page: Path) -> set[str]:
    """Every identifier in the page's inline code and in its python blocks."""
    text = page.read_text(encoding="utf-8")
    spans = re.findall(r"`([^`\n]+)`", text)
    code = [b.text for b in blocks(page) if b.language == "python"]
    return {word for chunk in [*spans, *code] for word in re.findall(r"[A-Za-z_]\w*", chunk)}


def own_docstring(name: str) -> str | None:
    """The docstring ``name`` has where it is defined: its class's or function's own, or for a value the string
    right under its assignment (read from the source, so a value never borrows its type's docstring)."""
    init = ast.parse(Path(sdk.__file__).read_text(encoding="utf-8"))
    module = sdk.__name__
    for node in init.body:
        if isinstance(node, ast.ImportFrom) and any(alias.name == name for alias in node.names):
            module = node.module or module
    source = Path(inspect.getfile(importlib.import_module(module))).read_text(encoding="utf-8")
    body = ast.parse(source).body
    for k, node in enumerate(body):
        if isinstance(node, ast.FunctionDef | ast.ClassDef) and node.name == name:
            return ast.get_docstring(node)
        targets = (
            node.targets if isinstance(node, ast.Assign) else [node.target] if isinstance(node, ast.AnnAssign) else []
        )
        if any(isinstance(t, ast.Name) and t.id == name for t in targets) and k + 1 < len(body):
            after = body[k + 1]
            if isinstance(after, ast.Expr) and isinstance(after.value, ast.Constant):
                return str(after.value.value)
    return None


@pytest.mark.parametrize("name", sdk.__all__)
def test_every_name_of_the_sdk_has_a_docstring_and_is_in_the_reference(name: str) -> None:
    doc = own_docstring(name)
    assert doc and len(doc.split()) >= 3, f"sdk.{name} has no docstring of its own"
    assert name in code_names(PAGE), f"docs/sdk.md does not name sdk.{name}"


def test_every_field_of_the_view_and_every_part_of_a_bot_is_in_the_reference() -> None:
    named = code_names(PAGE)
    fields = {f.name for f in dataclasses.fields(SeatView)}
    properties = {n for n, v in vars(SeatView).items() if isinstance(v, property) or n == "winning_seat"}
    missing = sorted((fields | properties) - named)
    assert not missing, f"docs/sdk.md does not name the view's {missing}"
    parts = {n for n in vars(Bot) if not n.startswith("_")} | set(vars(Bot()))
    assert not sorted(parts - named), f"docs/sdk.md does not name the Bot's {sorted(parts - named)}"


def test_the_pages_examples_run(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    namespace: dict[str, object] = {"__name__": "sdk_docs"}
    page_blocks: list[Block] = blocks(PAGE)
    python = [b for b in page_blocks if b.language == "python"]
    assert len(python) >= 10
    for k, block in enumerate(python, start=1):  # the bot's block too: run() is behind __main__
        exec(compile(block.text, f"{PAGE}, python block {k}", "exec"), namespace)
    first = python[0]
    assert first.file == "mybot.py"
    (tmp_path / first.file).write_text(first.text, encoding="utf-8")
    shell = [line for b in page_blocks if b.language == "" for line in b.lines()]
    for line in [line for line in shell if line.startswith(("arena check-bot", "arena match"))]:
        run = run_line(line, tmp_path)
        assert run.returncode == 0, (line, run.stdout[-2000:], run.stderr[-2000:])
    # make sdk-wheel and the venv it goes into: tests/sdk/test_slim_install.py builds and installs it
    assert any(line.startswith("make sdk-wheel") for line in shell)


def test_the_example_in_the_bots_docstring_runs() -> None:
    doc = inspect.getdoc(importlib.import_module("sdk.bot")) or ""
    after = doc.split("::\n", 1)[1].splitlines()
    indented = [line for line in after[: next(k for k, line in enumerate(after) if line[:1].isalpha())]]
    example = textwrap.dedent("\n".join(indented))
    namespace: dict[str, object] = {"__name__": "example"}
    exec(compile(example, "sdk/bot.py", "exec"), namespace)
    lowest = namespace["Lowest"]
    assert isinstance(lowest, type) and issubclass(lowest, Bot)
    view = _a_play_view()
    assert view.decision is not None
    chosen = lowest().play(view, view.decision.cards)
    trump = view.trump if view.trump is not None else sdk.Trump.HIGH
    assert chosen == min(view.decision.cards, key=lambda c: sdk.card_power(c, trump))


def _a_play_view() -> SeatView:
    import random

    from example_bots.rules_bot import RulesBot

    game = sdk.Game(sdk.rules_for("neuralplay"))
    game.deal(sdk.shuffled_deck(game.rules, random.Random(3)))
    bot = RulesBot(seed=1)
    while (decision := game.decision()) is not None and decision.kind is not sdk.DecisionKind.PLAY:
        game.apply(bot.decide(sdk.seat_view(game, decision.seat)))
    assert decision is not None
    return sdk.seat_view(game, decision.seat)
