"""The live view: ``arena tournament --live`` and ``arena sprt --live`` serve the report, updated as games
end, and each table's game in play, on 127.0.0.1.

- ``feed``: a table's game in play as replay steps, from the records the table sends;
- ``server``: the HTTP server (aiohttp, in the referee's asyncio loop) and its Server-Sent Events.

Docs: docs/report.md.
"""
