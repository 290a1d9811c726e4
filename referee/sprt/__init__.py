"""``arena sprt``: a sequential test between two bots on duplicate pairs.

The run is in runner.py; the statistics are in referee.stats.
"""
