"""One exit status per kind of mistake, the same in every command (issue 31, item 13), as docs/cli.md's table
says: 2 when what was typed or named cannot be used (nothing runs), 1 when what ran failed (a check, a bot).

Each command is run with each kind of mistake it can meet, through the ``arena`` command's own entry point
(``referee.cli.main``, which turns typer's usage errors into one line) in this process, and the status and
the one line it prints are checked. Printing such a line must not turn ``:100:`` into an emoji (rich's
emoji codes are off on every console of the arena).
"""

from __future__ import annotations

import ast
import re
import sys
from pathlib import Path

import pytest

from referee.cli import main
from referee.cli.app import Status, fail
from tests.support.arena import FIRST, RANDOM, invoke, script_bot
from tests.support.logs import only_log, records, write_records

DOCS = Path(__file__).resolve().parents[1] / "docs" / "cli.md"
RULES_BOT = "rules=python -m example_bots.rules_bot"
MISSING_FILE = "mine=python no-such-bot-file.py"
TWO = ("--bot", RANDOM, "--bot", FIRST)

# (kind of mistake, the commands that meet it, as arguments after `arena`); {tmp} is the test's folder
BAD_INPUT: list[tuple[str, list[list[str]]]] = [
    (
        "an option that does not exist",
        [[cmd, "--no-such-option"] for cmd in ("match", "tournament", "sprt", "check-bot", "play", "serve")]
        + [["replay", "x.jsonl", "--no-such-option"], ["analyze", "x.jsonl", "--no-such-option"]]
        + [["report", "{tmp}", "--no-such-option"], ["presets", "--no-such-option"]],
    ),
    (
        "a value an option cannot take",
        [
            ["match", "--games", "0"],
            ["tournament", *TWO, "--games", "x"],
            ["sprt", *TWO, "--elo0", "x"],
            ["check-bot", RULES_BOT, "--move-time", "0"],
            ["serve", "--port", "-1"],
            ["analyze", "x", "--samples", "1"],
        ],
    ),
    (
        "a preset that does not exist",
        [
            ["match", "--preset", "Pagatt", "--log-dir", "{tmp}"],
            ["tournament", *TWO, "--preset", "Pagatt", "--out", "{tmp}/t"],
            ["sprt", *TWO, "--preset", "Pagatt", "--out", "{tmp}/s"],
            ["check-bot", RULES_BOT, "--preset", "Pagatt", "--log-dir", "{tmp}"],
            ["play", "--preset", "Pagatt", "--log-dir", "{tmp}"],
            ["serve", "--preset", "Pagatt", "--log-dir", "{tmp}"],
            ["presets", "Pagatt"],
        ],
    ),
    (
        "a rule option that does not exist",
        [
            ["match", "--rule", "minbid=3", "--log-dir", "{tmp}"],
            ["tournament", *TWO, "--rule", "minbid=3", "--out", "{tmp}/t"],
            ["sprt", *TWO, "--rule", "minbid=3", "--out", "{tmp}/s"],
            ["check-bot", RULES_BOT, "--rule", "minbid=3", "--log-dir", "{tmp}"],
            ["play", "--rule", "minbid=3", "--log-dir", "{tmp}"],
            ["serve", "--rule", "minbid=3", "--log-dir", "{tmp}"],
            ["presets", "pagat", "--rule", "minbid=3"],
        ],
    ),
    (
        "a bot that is not NAME=COMMAND",
        [
            ["match", "--bot", "nonsense", "--log-dir", "{tmp}"],
            ["tournament", "--bot", "nonsense", "--bot", RANDOM, "--out", "{tmp}/t"],
            ["sprt", "--bot", "nonsense", "--bot", RANDOM, "--out", "{tmp}/s"],
            ["check-bot", "nonsense", "--log-dir", "{tmp}"],
            ["play", "--bot", "nonsense", "--log-dir", "{tmp}"],
        ],
    ),
    (
        "a bot whose file is not there",
        [
            ["match", "--bot", MISSING_FILE, "--bot", RANDOM, "--log-dir", "{tmp}"],
            ["tournament", "--bot", MISSING_FILE, "--bot", RANDOM, "--out", "{tmp}/t"],
            ["sprt", "--bot", MISSING_FILE, "--bot", RANDOM, "--out", "{tmp}/s"],
            ["check-bot", MISSING_FILE, "--log-dir", "{tmp}"],
            ["play", "--bot", MISSING_FILE, "--log-dir", "{tmp}"],
            ["replay", "{log}", "--ask", "python no-such-bot-file.py", "--at", "#1"],
        ],
    ),
    (
        "a file that is not a game log",
        [
            ["replay", "{tmp}/standings.json"],
            ["analyze", "{tmp}/standings.json"],
            ["replay", "{tmp}/x.json", "--verify"],
        ],
    ),
    (
        "a path that is not there",
        [["replay", "{tmp}/nowhere.jsonl"], ["analyze", "{tmp}/nowhere.jsonl"], ["report", "{tmp}/nowhere"]],
    ),
    (
        "a folder that holds no run",
        [["report", "{tmp}/empty"], ["tournament", "--resume", "--out", "{tmp}/empty"], ["analyze", "{tmp}/empty"]],
    ),
    (
        "a name the log does not have",
        [
            ["analyze", "{log}", "--bot", "Random"],
            ["replay", "{log}", "--at", "99.1.0"],
            ["replay", "{log}", "-g", "9"],
        ],
    ),
]

# what ran failed: a verification, a bot (a check that fails is check-bot's report: see below)
FAILED: list[tuple[str, list[list[str]]]] = [
    ("a log the engine disagrees with, under --verify", [["replay", "{tampered}", "--verify"]]),
    ("a bot that cannot start", [["match", "--bot", "{exits}", "--bot", RANDOM, "--log-dir", "{tmp}"]]),
    ("a bot that gives no legal answer", [["replay", "{log}", "--ask", "{exits}", "--at", "#1"]]),
]


def arena_main(capsys: pytest.CaptureFixture[str], *args: str | Path) -> tuple[int, str, str]:
    """``arena ARGS`` through the command's entry point, in this process: (exit status, stdout, stderr)."""
    with pytest.raises(SystemExit) as stopped:
        main([str(a) for a in args])
    captured = capsys.readouterr()
    code = stopped.value.code
    assert isinstance(code, int), code
    return code, captured.out, captured.err


def cases(table: list[tuple[str, list[list[str]]]], status: Status) -> list[object]:
    return [
        pytest.param(args, status, id=f"{status.name}: {kind}: {' '.join(args[:1])}")
        for kind, commands in table
        for args in commands
    ]


@pytest.fixture(scope="module")
def files(tmp_path_factory: pytest.TempPathFactory) -> dict[str, str]:
    """What the cases name: a real log (and a tampered copy), a JSON file that is no log, an empty folder."""
    folder = tmp_path_factory.mktemp("exit-status")
    code, _, err = invoke("match", "--bot", RANDOM, "-r", "hand_limit=4", "--seed", "5", "--log-dir", folder / "m")
    assert code == 0, err
    log = only_log(folder / "m")
    tampered = folder / "tampered.jsonl"
    recs = records(log)
    trick = next(r for r in recs if r["event"] == "trick")
    trick["winner"] = (trick["winner"] + 1) % 4
    write_records(tampered, recs)
    (folder / "standings.json").write_text('{\n  "standings": []\n}\n')
    (folder / "x.json").write_text("{}\n")
    (folder / "empty").mkdir()
    hostile = Path(__file__).parent / "checkbot" / "bots" / "protocol_breaker_bot.py"
    return {
        "tmp": str(folder),
        "log": str(log),
        "tampered": str(tampered),
        "hostile": f"hostile={sys.executable} {hostile} illegal",
        "exits": script_bot("exits", Path(__file__).parent / "hostile" / "bots" / "sbx_nostart.py"),
    }


@pytest.mark.parametrize(("args", "status"), cases(BAD_INPUT, Status.BAD_INPUT) + cases(FAILED, Status.FAILED))
def test_each_kind_of_mistake_has_its_exit_status(
    args: list[str], status: Status, files: dict[str, str], capsys: pytest.CaptureFixture[str]
) -> None:
    code, out, err = arena_main(capsys, *(arg.format(**files) for arg in args))
    assert code == status, (args, out, err)
    lines = err.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("error: "), (args, err)
    assert "Traceback" not in out + err


def test_a_check_that_fails_is_status_1_and_its_report(
    files: dict[str, str], capsys: pytest.CaptureFixture[str]
) -> None:
    code, out, err = arena_main(capsys, "check-bot", files["hostile"], "-p", "pagat", "--log-dir", files["tmp"])
    assert code == Status.FAILED, err
    assert err == "" and " checks failed " in out.strip().splitlines()[-1]


def test_the_table_in_the_docs_has_a_row_per_status() -> None:
    rows = re.findall(r"^\| *`?(\d+)`? *\|", DOCS.read_text(encoding="utf-8"), re.MULTILINE)
    assert sorted(map(int, rows)) == sorted(s.value for s in Status)


def test_a_message_is_printed_as_written_not_as_emoji(capsys: pytest.CaptureFixture[str]) -> None:
    fail("games.jsonl:100: a :smile: of a line", Status.FAILED)  # the console writes to sys.stderr: captured
    assert capsys.readouterr().err == "error: games.jsonl:100: a :smile: of a line\n"


def test_verify_names_line_100_as_written(
    files: dict[str, str], tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """The bug found: ``file.jsonl:100: ...`` showed as ``file.jsonl💯 ...``."""
    lines = Path(files["log"]).read_text(encoding="utf-8").splitlines(keepends=True)
    assert len(lines) > 100
    lines[99] = '{"event": "teleport"}\n'
    log = tmp_path / "broken.jsonl"
    log.write_text("".join(lines), encoding="utf-8")
    code, _, err = arena_main(capsys, "replay", log, "--verify")
    assert code == Status.FAILED
    assert err == f"error: {log}:100: unknown event 'teleport'\n"


def test_every_console_of_the_arena_leaves_emoji_codes_alone() -> None:
    """rich reads ``:name:`` as an emoji unless told not to: every ``Console`` the arena makes (its own
    ``ArenaConsole`` too) is told."""
    made = []
    for path in sorted((Path(__file__).resolve().parents[1] / "referee").rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            called = getattr(node.func, "id", getattr(node.func, "attr", "")) if isinstance(node, ast.Call) else ""
            if isinstance(node, ast.Call) and called.endswith("Console"):
                emoji = next((k.value for k in node.keywords if k.arg == "emoji"), None)
                made.append((f"{path.name}:{node.lineno}", isinstance(emoji, ast.Constant) and emoji.value is False))
    assert len(made) >= 3 and all(ok for _, ok in made), made
