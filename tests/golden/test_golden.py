"""The engine still plays the golden games of every preset exactly (see tests/support/golden.py)."""

from __future__ import annotations

import pytest

from referee.engine.presets import PRESETS
from tests.support.golden import REGENERATE, golden_path, playthrough


@pytest.mark.parametrize("preset", list(PRESETS))
def test_golden_playthrough(preset: str) -> None:
    path = golden_path(preset)
    assert path.exists(), f"no golden file {path}: run `{REGENERATE}`"
    want = path.read_text().splitlines()
    got = playthrough(preset)
    for number, (expected, actual) in enumerate(zip(want, got, strict=False), start=1):
        assert actual == expected, (
            f"{path.name} line {number} differs:\n  golden: {expected}\n  now:    {actual}\n"
            f"If the rules changed on purpose, regenerate with `{REGENERATE}` and review the diff."
        )
    assert len(got) == len(want), f"{path.name}: {len(want)} golden lines, {len(got)} now (`{REGENERATE}`)"
