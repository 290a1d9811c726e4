"""``arena tournament``: a headless round-robin between bots.

- ``schedule``: who meets whom, in which seats, on which deal (pure);
- ``settings``: the settings, from a TOML file and the command line;
- ``results``: the results file, one fsync'd line per finished game;
- ``standings``: wins, points per hand and Elo from the finished games;
- ``runner``: parallel tables on one referee, the tournament folder, resume.
"""
