"""Replay on logs the referee itself wrote (``arena match`` with bot processes)."""

from __future__ import annotations

from pathlib import Path

import pytest

from referee.engine.presets import PRESETS
from tests.support.arena import invoke
from tests.support.logs import records, revealed

REAL = [
    "neuralplay",
    "hammerwalt",
    "bloomington",
    "double-deck-3p",
    "pagat-default",
    "single-deck-forfeit",
    "neuralplay-claims",
]


@pytest.mark.parametrize("name", REAL)
def test_real_logs_verify_and_render(real_logs: dict[str, Path], name: str) -> None:
    log = real_logs[name]
    code, out, err = invoke("replay", log, "--verify")
    assert (code, err) == (0, ""), err
    assert out.startswith(f"{log}: ok, ") and "agree with the engine" in out and "cut off" not in out
    code, out, err = invoke("replay", log)
    assert code == 0, err
    ends = [r for r in records(log) if r["event"] == "game_end"]
    assert out.count("Game over (") == len(ends)


def test_the_real_logs_hold_what_the_tests_rely_on(real_logs: dict[str, Path]) -> None:
    def contracts(name: str) -> list[dict]:
        return [r for r in records(real_logs[name]) if r["event"] == "contract"]

    assert any(c["bid"].startswith(("call2", "call1")) for c in contracts("neuralplay"))
    assert any(c["bid"] == "alone" for c in contracts("hammerwalt"))
    best = [c for c in contracts("bloomington") if c["bid"].startswith("best")]
    assert best and all(len(c["active"]) == 4 for c in best)
    assert records(real_logs["bloomington"])[0]["rules"]["players"] == 6
    assert PRESETS["double-deck-3p"].teams == 3
    faults = [r for r in records(real_logs["pagat-default"]) if r["event"] == "violation"]
    assert any(v["kind"] == "timeout" and v["penalty"] == "default-action" for v in faults)
    claims = [r for r in records(real_logs["neuralplay-claims"]) if r["event"] == "claim"]
    assert {r["accepted"] for r in claims} == {True, False}
    forfeit = records(real_logs["single-deck-forfeit"])
    assert any(r["event"] == "violation" and r["penalty"] == "forfeit" for r in forfeit)
    assert any(r["event"] == "game_end" and r["reason"] == "forfeit" for r in forfeit)


def test_a_real_log_tampered_with_is_caught(real_logs: dict[str, Path], tmp_path: Path) -> None:
    lines = real_logs["bloomington"].read_text().splitlines(keepends=True)
    k = next(i for i, line in enumerate(lines) if '"event":"hand_end"' in line)
    copy = tmp_path / "tampered.jsonl"
    copy.write_text("".join(lines[:k]) + lines[k].replace('"scores":[', '"scores":[1000,', 1) + "".join(lines[k + 1 :]))
    code, _, err = invoke("replay", copy, "--verify")
    assert code == 1 and err.startswith(f"error: {copy}:{k + 1}: end of hand 1: expected scores ")


def test_a_real_six_player_log_in_the_browser(real_logs: dict[str, Path], tmp_path: Path, browser) -> None:
    log = real_logs["bloomington"]
    out = tmp_path / "bloomington.html"
    code, _, err = invoke("replay", log, "--html", out, "--seat", "3")
    assert code == 0, err
    page = browser.new_page()
    problems: list[str] = []
    page.on("pageerror", lambda exc: problems.append(str(exc)))
    page.goto(out.as_uri())
    assert page.locator("#seats .seat").count() == 6
    deal = next(r for r in revealed(log) if r["event"] == "deal")
    faces = page.eval_on_selector_all("#seats .card[data-card]", "els => els.map(e => e.dataset.card)")
    assert sorted(faces) == sorted(deal["hands"][3])
    assert page.locator("#seats .card.back").count() == 5 * 8
    for _ in range(40):
        page.keyboard.press("ArrowRight")
    assert problems == []
    page.close()
