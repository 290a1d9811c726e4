"""``arena sprt``: a sequential test between two bots on duplicate pairs (runner.py; the statistics are in referee.stats)."""
