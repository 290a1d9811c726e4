"""The tournament report: one self-contained HTML page with charts, from a tournament or SPRT folder.

- ``gamestats``: what the report needs of one game's log (think times by decision kind, points per hand,
  where each violation is), read with ``referee.replay.logfile``;
- ``data``: the report's data from the folder's files (settings, results, logs, SPRT and analysis files),
  built game by game, so the live view (``referee.live``) keeps it up to date as games end;
- ``page``: the page itself (``report.html``: the data, Chart.js from ``referee.webassets``, the script that
  draws it), written whole or served live;
- ``replays``: a replay page per game (``referee.replay.html``) for the report's links.

``write_report(folder)`` does it all; ``arena report`` and the end of every ``arena tournament`` and
``arena sprt`` call it. Docs: docs/report.md.
"""
