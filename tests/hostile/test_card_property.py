"""A property over many games: no seat is ever sent a card it could not know.

A recording bot (``tests/referee/bots/recording_bot.py``: the random example
bot writing down every message it receives) sits in every seat of every
preset, each seat its own process, through the real referee. Every card text
in every message a seat received is held against the engine's replay of the
log at that point (``check_wire``): the seat's own cards, the cards of
exchanges it took part in, the cards played. Matches are played until each
preset has at least 10,000 such card observations.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from referee.engine.presets import PRESETS
from tests.support.referee import RECORDING, check_wire, run_match

OBSERVATIONS = 10_000


@pytest.mark.slow
@pytest.mark.parametrize("preset", list(PRESETS))
def test_no_seat_receives_a_card_it_could_not_know(
    preset: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:

    seen = games = 0
    seed = 100
    while seen < OBSERVATIONS:
        record_dir = tmp_path / f"wire{seed}"
        record_dir.mkdir()
        monkeypatch.setenv("RECORD_DIR", str(record_dir))
        result = run_match(tmp_path / f"m{seed}", preset, teams=[RECORDING], games=4, seed=seed, rules=["hand_limit=8"])
        stats = check_wire(result.log_path, record_dir)  # raises at the first card a seat could not know
        seen += stats["card observations"]
        games += stats["games"]
        seed += 1
    assert games >= 4
