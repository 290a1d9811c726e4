"""The report page: ``page.html`` with Chart.js and the report's data put in, one self-contained file.

The page's script draws everything from the data (``referee.report.data``); the same page is written to the
folder by ``arena report`` and served by the live view, which adds a ``live`` entry to the data (where its
events come from, the tables in play) and sends the page what changes as games end.
"""

from __future__ import annotations

import json
from importlib import resources
from typing import Any

from referee import webassets
from referee.runfolder import REPLAYS

_CHART_MARK = "/*CHART-JS*/"
_DATA_MARK = "/*REPORT-DATA*/null"


def script_json(data: Any) -> str:
    """JSON to put inside a ``<script>`` element: nothing in it can end the element or start markup."""
    text = json.dumps(data, ensure_ascii=False, separators=(",", ":"), allow_nan=False)
    return text.replace("<", "\\u003c").replace(">", "\\u003e").replace("&", "\\u0026")


def report_page(document: dict[str, Any], *, replays: str | None = REPLAYS + "/") -> str:
    """The whole page for ``document`` (``Report.document()``, perhaps with ``live``); ``replays``: where the
    replay pages are, relative to the page (None: no links)."""
    data = {**document, "meta": {**document["meta"], "replays": replays}}
    return filled_page("referee.report", "page.html", _DATA_MARK, data)


def filled_page(package: str, name: str, data_mark: str, data: Any) -> str:
    """The page ``name`` of ``package`` with Chart.js in place of its line ``/*CHART-JS*/`` and ``data`` (JSON) in
    place of ``data_mark``; each mark must be there exactly once."""
    page = resources.files(package).joinpath(name).read_text(encoding="utf-8")
    if page.count(data_mark) != 1 or page.count(_CHART_MARK) != 1:
        raise RuntimeError(f"{name} must hold the data and Chart.js marks exactly once")
    head, tail = page.split(_CHART_MARK)
    return head + webassets.script_tag() + tail.replace(data_mark, script_json(data))
