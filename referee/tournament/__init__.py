"""``arena tournament``: a headless tournament between bots (round-robin, gauntlet, Swiss, knockout).

- ``schedule``: who meets whom, in which seats, on which deal (pure), and the ``Format`` interface;
- ``formats``: the formats played in rounds, Swiss and knockout (pure); ``pairing``: the Swiss pairing;
- ``settings``: the settings, each declared once (``Given``), from a TOML file and the command line;
- ``results``: the results file, one fsync'd line per finished game;
- ``standings``: wins, points per hand and Elo from the finished games;
- ``runner``: parallel tables, the games kept in the run folder (``referee.runfolder``), resume;
- ``backends``: where the tables run (this process, worker processes, Ray).

A tournament is opened (folder, settings, resume check, backend) by ``referee.run``.
"""
