"""``arena tournament``: a headless tournament between bots (round-robin, gauntlet, Swiss, knockout).

- ``schedule``: who meets whom, in which seats, on which deal (pure), and the ``Format`` interface;
- ``formats``: the formats played in rounds, Swiss and knockout (pure); ``pairing``: the Swiss pairing;
- ``settings``: the settings, each declared once (``TournamentChoices``): the games' and the format's;
- ``playing``: the tournament, a series of games (``referee.games.series``) whose schedule is its format;
- ``gauntlet``: a gauntlet's candidate against each other bot.

The games themselves (tables, backends, the results file, the standings) are ``referee.games``'. A
tournament is opened (folder, settings, resume check, backend) by ``referee.opening``.
"""
