"""The person's client on every preset: a real referee and server, the client in-process with scripted typing.

The pty tests (test_play_pty.py) play whole games through the terminal on two
presets; here the same client (``HumanBot``, drawing to a string) plays one
hand of every preset against first-choice bots, and every screen is checked
against the log exactly as there.
"""

from __future__ import annotations

import asyncio
import io
import random
import re
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest
from rich.console import Console

from referee.deadline import TimeControl
from referee.engine.cards import parse_card
from referee.engine.events import ClaimEvent
from referee.engine.game import CLAIM
from referee.engine.presets import PRESETS, rules_for
from referee.engine.view import Refused, SeatView, hand_end_view, seat_view
from referee.match import Match, MatchConfig, MatchResult, SeatBot
from referee.play.human import HumanBot
from referee.play.person import person_seat, seats_around
from referee.play.screen import TableScreen
from sdk.bot import Bot
from sdk.runner import play_session
from tests.support.play import Session, asked_of, check_one, parse_screen
from tests.support.positions import position, to_decide


class Typist:
    """Types a random legal answer at each prompt, and keeps what was on screen before it."""

    def __init__(self, out: io.StringIO, seed: int) -> None:
        self.out = out
        self.rng = random.Random(seed)
        self.read_to = 0
        self.session = Session()
        self.limits: list[int] = []

    def __call__(self, prompt: str) -> str:
        text = self.out.getvalue()
        shown, self.read_to = text[self.read_to :], len(text)
        if prompt.startswith("Press Enter"):
            self.session.between.append(shown)
            return ""
        screen = parse_screen(shown)
        many = re.fullmatch(r"Choose (\d+) of 1-(\d+): ", prompt)
        if many:
            count, n = int(many.group(1)), int(many.group(2))
            screen.answer = " ".join(str(k) for k in self.rng.sample(range(1, n + 1), count))
        else:
            one = re.fullmatch(r"Choose 1-(\d+): ", prompt)
            assert one, prompt
            screen.answer = str(self.rng.randint(1, int(one.group(1))))
        self.session.screens.append(screen)
        return screen.answer


class Person(HumanBot):
    """The client, noting the time limit it is told at each decision."""

    def __init__(self, console: Console, typist: Typist) -> None:
        super().__init__(console, read=typist)
        self.typist = typist

    def decide(self, view: SeatView) -> object:
        self.typist.limits.append(self.time_limit_ms)
        return super().decide(view)


def play_one_hand(preset: str, seat: int, log_dir: Path, games: int = 1) -> tuple[Typist, MatchResult, str]:
    rules = rules_for(preset, ["game_over=hands", "game_hands=1"])
    config = MatchConfig(
        preset=preset,
        rules=rules,
        seats=seats_around(rules, seat, person_seat(), [SeatBot("first")]),
        games=games,
        seed=11,
        clock=TimeControl(move_time_ms=5000),
        log_dir=log_dir,
    )
    out = io.StringIO()
    typist = Typist(out, seed=seat)
    person = Person(Console(file=out, width=200, highlight=False), typist)

    async def go() -> MatchResult:
        async with Match(config) as match:
            clients = [
                play_session(person if s == seat else Bot(), match.server.address, player.token)
                for s, player in enumerate(match.players)
            ]
            tasks = [asyncio.create_task(c) for c in clients]
            result = await match.play()
        await asyncio.gather(*tasks)
        return result

    with ThreadPoolExecutor(1) as pool:  # a loop of its own (the browser tests may hold one in this thread)
        result = pool.submit(asyncio.run, go()).result()
    return typist, result, out.getvalue()


@pytest.mark.parametrize("preset", sorted(PRESETS))
def test_every_preset_screen_by_screen(tmp_path: Path, preset: str) -> None:
    seat = rules_for(preset, []).players - 1
    games = 2 if preset == "neuralplay" else 1  # one session, game after game
    typist, result, shown = play_one_hand(preset, seat, tmp_path, games)
    assert len(result.games) == games and not any(g.violations for g in result.games)
    asked = list(asked_of(result.log_path, seat))
    assert len(asked) == len(typist.session.screens) > 0
    for screen, a in zip(typist.session.screens, asked, strict=True):
        check_one(screen, a)
    assert set(typist.limits) == {0}  # the person's seat is told: no time limit
    assert "Hand 1 is over" in shown and shown.count("Game over (hands)") == games
    assert f"Game {games} · Hand 1 · you are seat {seat}" in shown


def test_the_hand_summary_shows_the_claims_made() -> None:
    """A refused claim (heard by every seat) and an accepted one, in the summary of the hand they were made in."""
    game = position("neuralplay", {0: "JS JS JC JC AS AS KS KS"}, dealer=3, actions=["4 S", "pass", "pass", "pass"])
    refused: list[Refused] = []
    game.apply(parse_card("JS"))
    claim = game.answer(CLAIM)[0]  # seat 1, a defender: its team cannot take every trick
    assert isinstance(claim, ClaimEvent) and not claim.accepted
    refused.append((len(game.events), claim))
    while game.trick_number == 1:
        decision = to_decide(game)
        game.apply(decision.cards[0])
    assert game.answer(CLAIM)[0] == ClaimEvent(1, 2, 0, 0, 7, accepted=True)  # seat 0 leads again
    view = hand_end_view(game.rules, 2, seat_view(game, 2, refused).events)
    screen = TableScreen(game.rules, 2, ["d", "e", "you", "f"], fancy=False)
    console = Console(file=io.StringIO(), width=200, highlight=False)
    console.print(screen.hand_summary(view))
    lines = [line.rstrip() for line in console.file.getvalue().splitlines()]  # type: ignore[attr-defined]
    assert "Trick 1   1 e claims the remaining 8 tricks for team 1: refused, play goes on" in lines
    assert "Trick 2   0 d claims the remaining 7 tricks for team 0: accepted, the hand ends" in lines
