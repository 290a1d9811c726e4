"""The club's versions on the ladder: what the club asks of the ladder, and what a member is shown of it.

A version sent to the club enters the ladder at once, with the number it keeps (``building``: not paired,
not validated), so that a member's ``mybot@3`` is the ladder's ``mybot.v3``; once built it runs its build
and waits for its validation game, or, when its build failed, it is in error with the build's reason.

What a member sees of a version (``Entry``) is one state that goes on from its build into the ladder:
waiting to build, building, build failed, validating, playing, error (its validation failed), superseded,
retired, suspended; with the reason, the rating and rank while it plays, and the output its bot printed in
its recent games (``bots/`` of the ladder's folder). Every function here runs in the club's database
thread, with the ladder's connection.
"""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from referee.club import submissions as subs
from referee.kits import KITS, Language
from referee.ladder import policy
from referee.ladder.board import board
from referee.ladder.database import (
    ACTIVE,
    BUILDING,
    ERROR,
    PENDING,
    RATED,
    Code,
    LadderDatabase,
    LadderError,
    Version,
)
from referee.ladder.ratings import ranks, set_result
from referee.runfolder import log_name

OUTPUT_FILES = 5  # of a version's bot output files, the newest shown
OUTPUT_BYTES = 8192  # of each, the end
# what the public board blanks in each version's row
PRIVATE: dict[str, Any] = {"reason": "", "output": None, "command": []}
SHOWN = {BUILDING: "building", PENDING: "validating", ACTIVE: "playing"}


def reserve(ladder: LadderDatabase, bot: str, code: Code) -> int:
    """The number the ladder gives a new version of ``bot``, entered now as ``building``."""
    return policy.add_building(ladder, bot, code).version


def version_of(ladder: LadderDatabase, bot: str, number: int) -> Version:
    found = [v for v in ladder.versions_of(bot) if v.version == number]
    if not found:
        raise LadderError(f"the ladder has no version {number} of {bot}")
    return found[0]


def built(ladder: LadderDatabase, submission: subs.Submission, folder: Path) -> Version:
    """A version's build is done: it runs its kit's command from its build (``folder``), and waits for its
    validation game."""
    kit = KITS[Language(submission.language)]
    words = kit.command.split()
    if "/" in words[0]:  # a program the build made
        argv = [str(folder / words[0]), *words[1:]]
    else:  # an interpreter and the bot's script
        argv = [words[0], *(str(folder / w) for w in words[1:])]
    code = Code(submission.hash, str(folder), submission.size, submission.language, kit.tcp)
    return policy.built(ladder, version_of(ladder, submission.bot, submission.version).id, argv, code)


def build_failed(ladder: LadderDatabase, submission: subs.Submission, reason: str) -> None:
    policy.build_failed(ladder, version_of(ladder, submission.bot, submission.version).id, f"build failed: {reason}")


def rebuild(ladder: LadderDatabase, submission: subs.Submission) -> None:
    policy.rebuild(ladder, version_of(ladder, submission.bot, submission.version).id)


def revalidate(ladder: LadderDatabase, submission: subs.Submission) -> Version:
    return policy.retry(ladder, submission.bot, submission.version)


def lost_builds(ladder: LadderDatabase, recorded: set[tuple[str, int]]) -> list[str]:
    """Versions the ladder holds as ``building`` that the club never recorded (the server stopped between the
    two writes): in error, so that they never wait for ever; the labels."""
    lost = []
    for v in ladder.versions():
        if v.status == BUILDING and (v.bot, v.version) not in recorded:
            with ladder.write():
                ladder.set_status(v.id, ERROR, "the server stopped before this upload was recorded: send it again")
            lost.append(v.label)
    return lost


@dataclass(frozen=True)
class Entry:
    """A version as its member sees it: its submission, and where it stands on the ladder."""

    submission: subs.Submission
    state: str
    reason: str
    rating: dict[str, float] | None  # mu, sigma, ordinal, while it has played
    rank: int | None
    done: bool  # its build and validation are over (it plays, or it will not)

    def record(self) -> dict[str, Any]:
        return {**self.submission.record(), "state": self.state, "reason": self.reason, "rating": self.rating,
                "rank": self.rank}  # fmt: skip


def entries(ladder: LadderDatabase, submissions: list[subs.Submission]) -> list[Entry]:
    """Each submission as its member sees it (see the module's docstring)."""
    versions = {(v.bot, v.version): v for v in ladder.versions()}
    playing = sorted((v for v in versions.values() if v.status == ACTIVE), key=lambda v: -v.rating.ordinal)
    rank = {v.id: k for k, v in enumerate(playing, start=1)}
    out = []
    for s in submissions:
        v = versions.get((s.bot, s.version))
        if s.state in (subs.RECEIVED, subs.BUILDING) or v is None:
            state = "waiting to build" if s.state == subs.RECEIVED else "building"
            out.append(Entry(s, state, "", None, None, False))
            continue
        if s.state == subs.FAILED:
            out.append(Entry(s, "build failed", s.reason, None, None, True))
            continue
        rated = v.rating.sigma < 25 / 3 - 1e-9
        rating = {"mu": v.rating.mu, "sigma": v.rating.sigma, "ordinal": v.rating.ordinal} if rated else None
        state = SHOWN.get(v.status, v.status)
        reason = f"{s.reason}; its validation game is next" if v.status == PENDING and s.reason else v.reason
        out.append(Entry(s, state, reason, rating, rank.get(v.id), v.status not in (BUILDING, PENDING)))
    return out


def outputs(ladder: LadderDatabase, label: str) -> list[dict[str, str]]:
    """What a version's bot printed: the end of its newest output files (its validation game's copies too)."""
    newest = ladder.folder.outputs(label, copies=True)[-OUTPUT_FILES:]
    out = []
    for path in reversed(newest):
        with path.open("rb") as f:
            f.seek(max(0, f.seek(0, 2) - OUTPUT_BYTES))
            out.append({"file": path.name, "text": f.read().decode("utf-8", errors="replace")})
    return out


def finished(ladder: LadderDatabase, game_id: str) -> bool:
    """Whether the game is recorded: finished (a game in play has no public replay yet)."""
    return bool(ladder.sql.execute("SELECT 1 FROM games WHERE log = ?", (log_name(game_id),)).fetchall())


def public_board(ladder: LadderDatabase) -> dict[str, Any]:
    """The ladder's board as everyone may see it: no version's reason (its errors are its member's), output
    file or command (each blanked, so that the page draws the rows as a local ladder's)."""
    data = board(ladder)
    data["standings"] = [{**row, **PRIVATE} for row in data["standings"]]
    return data


def bots_of(ladder: LadderDatabase, names: set[str]) -> dict[str, dict[str, Any]]:
    """For each of these bots: each version's rating after every rated set it played (``ratings``), and its
    versions' results against every other version, by duplicate set (``head_to_head``)."""
    versions = {v.id: v for v in ladder.versions()}
    mine = {vid for vid, v in versions.items() if v.bot in names}
    history: dict[int, list[list[Any]]] = defaultdict(list)
    for update, _set, vid, rating, _at in ladder.history():
        if vid in mine:
            history[vid].append([update, rating.mu, rating.sigma, rating.ordinal])
    wdl: dict[tuple[int, int], list[int]] = defaultdict(lambda: [0, 0, 0])
    for ladder_set in ladder.sets(state=RATED):
        vids = ladder_set.versions
        if not mine.intersection(vids):
            continue
        points, forfeits = set_result(vids, ladder.set_games(ladder_set.id))
        order = dict(zip(vids, ranks(vids, points, forfeits), strict=True))
        for a in mine.intersection(vids):
            for b in vids:
                if versions[b].bot != versions[a].bot:
                    wdl[(a, b)][0 if order[a] < order[b] else 1 if order[a] == order[b] else 2] += 1
    out: dict[str, dict[str, Any]] = {name: {"ratings": [], "head_to_head": []} for name in names}
    for vid in sorted(mine):
        v = versions[vid]
        out[v.bot]["ratings"].append({"label": v.label, "history": history.get(vid, [])})
    for (a, b), (won, drawn, lost) in sorted(wdl.items()):
        out[versions[a].bot]["head_to_head"].append(
            {"version": versions[a].label, "opponent": versions[b].label, "sets": won + drawn + lost,
             "wins": won, "draws": drawn, "losses": lost}
        )  # fmt: skip
    return out
