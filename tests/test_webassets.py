"""The vendored charting library (referee/webassets): the file shipped is the one released, and the package
hands it out whole."""

from __future__ import annotations

import hashlib
from pathlib import Path

from referee import webassets

# sha256 of dist/chart.umd.min.js in the npm package chart.js@4.6.1
CHART_JS_SHA256 = "87364cc2b2a76a6684929e7d6b80b18a897794db38400caff1fcf1791c6925d2"


def test_the_vendored_chart_js_is_the_released_file() -> None:
    path = Path(webassets.__file__).parent / "chart.umd.min.js"
    assert hashlib.sha256(path.read_bytes()).hexdigest() == CHART_JS_SHA256
    assert webassets.chart_js() == path.read_text(encoding="utf-8")
    assert f"Chart.js v{webassets.CHART_JS_VERSION}" in webassets.chart_js()[:200]


def test_the_script_tag_is_one_inline_element() -> None:
    tag = webassets.script_tag()
    assert tag.startswith("<script>") and tag.endswith("</script>")
    assert tag.count("</script") == 1  # nothing in the library closes the element early
