"""Files the arena's HTML pages embed whole, so that every page works offline and loads nothing.

- Chart.js 4.6.1 (``chart.umd.min.js``, MIT License, ``chart.js.LICENSE.md``),
  the one charting library of every page the arena writes: the tournament
  report, the live view, the analysis in the replay. Chosen over the others
  tried: it draws every chart those pages need (bars, floating bars for
  intervals, lines, scatter, histograms) in 210 KB, one file with no
  dependencies, kept by an active project; Apache ECharts does the same in
  715 KB (its common build) to 1.1 MB, Plotly in 3.5 MB; uPlot has no bars.

Copied unchanged from the npm package ``chart.js@4.6.1`` (``dist/chart.umd.min.js``);
``tests/test_webassets.py`` holds its SHA-256, so a change is deliberate.
"""

from __future__ import annotations

from functools import cache
from importlib.resources import files

CHART_JS_VERSION = "4.6.1"


@cache
def chart_js() -> str:
    """Chart.js, to put inside a page's ``<script>`` (it defines the global ``Chart``)."""
    return files(__package__).joinpath("chart.umd.min.js").read_text(encoding="utf-8")


def script_tag() -> str:
    """Chart.js as an inline ``<script>`` element."""
    return f"<script>/* Chart.js {CHART_JS_VERSION}, MIT License */\n{chart_js()}\n</script>"
