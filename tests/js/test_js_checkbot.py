"""The JavaScript bot passes every check of ``arena check-bot``, on every preset."""

from __future__ import annotations

import json

from tests.support.arena import arena_in_repo
from tests.support.js import JS, require_js_bot


def test_js_bot_passes_check_bot_on_every_preset(tmp_path):
    require_js_bot()
    run = arena_in_repo("check-bot", JS, "--json", "--log-dir", str(tmp_path))
    report = json.loads(run.stdout)
    assert [c for c in report["checks"] if not c["passed"]] == []
    assert run.returncode == 0, run.stderr
    assert report["hello"]["bot_name"] == "js"
    assert report["kinds"] == ["bid", "trump", "give", "discard", "play"]
    assert len(report["presets"]) == 12
