"""``arena replay --ask`` says where the asked bot's output went and shows its last lines (issue 31, item 8): why
it chose what it did, when the bot says so on stderr.
"""

from __future__ import annotations

import sys
from pathlib import Path

from referee.cli.app import Status
from tests.support.arena import invoke

CHATTY = Path(__file__).parent / "bots" / "chatty_bot.py"


def test_the_bots_output_is_named_and_its_last_lines_shown(real_logs: dict[str, Path]) -> None:
    log = real_logs["hammerwalt"]
    code, out, err = invoke(
        "replay", log, "--ask", f"chatty={sys.executable} {CHATTY}", "--at", "#1", "--prime", "none"
    )
    assert code == 0, err
    lines = out.splitlines()
    at = next(k for k, line in enumerate(lines) if line.startswith("  output: "))
    path = Path(lines[at].removeprefix("  output: ").split(", its last ")[0])
    assert path.parent == log.parent and path.name.startswith(f"{log.stem}.ask.seat")  # beside the log
    said = [line.strip() for line in path.read_text().splitlines() if line.startswith("chatty: ")]
    assert said and lines[at + 1 :] == [f"    {line}" for line in said]  # its last lines, as it wrote them
    assert lines[at - 1].startswith("  asked:  ") and lines[at - 1].split()[1] in said[-1]


def test_a_bot_that_fails_to_answer_still_says_where_its_output_is(real_logs: dict[str, Path]) -> None:
    gone = f"{sys.executable} -c 'import sys; print(\"gone: no weights\", file=sys.stderr); sys.exit(3)'"
    code, _, err = invoke("replay", real_logs["hammerwalt"], "--ask", gone, "--at", "#1")
    assert code == Status.FAILED
    assert "exited with code 3 before connecting (its output: " in err
    path = Path(err.split("(its output: ")[1].split(")")[0])
    assert "gone: no weights" in path.read_text()
