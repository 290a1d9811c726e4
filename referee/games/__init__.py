"""Games between bots: the floor every command that plays games stands on (match, play and check-bot play
one match; a tournament, an SPRT and a ladder play many).

- ``settings``: the games' settings, declared once (``GameChoices``) and resolved in one place
  (``resolve_games``); a run's settings are these and its own;
- ``scheduled``: a scheduled game (which bots, which seating, which deal) and the games of one group;
- ``tables``: one referee and its tables, playing scheduled games and keeping their bots between games;
- ``backends``: where the tables run (this process, worker processes, a Ray cluster); ``placement``
  chooses one, and what the bots run in;
- ``driver``: the one loop that hands games to tables as they free up;
- ``results``: a finished game's record and a run's results file; ``standings``: what finished games add up
  to (wins, points per hand, Elo);
- ``series``: a series of games played into a run's folder, resumable (a tournament's, an SPRT's).
"""
