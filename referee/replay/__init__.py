"""Replaying game logs: read a log, re-run it through the engine, show it.

- ``logfile``: a log split into its match and games, every record with its line;
- ``steps``: one game re-played through the engine, record by record, each
  recorded event checked against the engine's (the first difference raises
  ``Mismatch`` naming the line);
- ``verify``: that check over a whole log, with a one-line summary;
- ``text``: the game in the terminal, hand by hand, from every seat or one;
- ``html``: a self-contained page that steps through the game on a card table;
- ``ask``: serve one seat's decision request again to a bot and read its answer.

Docs: docs/logs.md.
"""
