"""Opening a run: what a command does between reading its options and playing the games.

A run (a tournament, an SPRT, a ladder) is opened by one call that
takes what the user named (``referee.tournament.settings.TournamentChoices``, an SPRT's, a ladder's) and:
chooses the run folder (``referee.runfolder``), resolves the settings from
the defaults or, with ``resume``, from the folder's saved settings (which a
resumed run must match: ``check_same``), checks that the bots can run,
picks the sandbox and the backend the tables run on (``referee.games.placement``), and
saves the settings of a new run. It returns the run, ready to play:

- ``tournament.open_tournament``: a ``referee.tournament.playing.Tournament``;
- ``sprt.open_sprt``: a ``referee.sprt.playing.SprtRun``, with the SPRT's own
  rules on top (its test in sprt.json, whose max_pairs may grow on resume);
- ``ladder.open_ladder``: a ``referee.ladder.playing.LadderRun``, the ladder's
  settings read from its database.

This package sits above the tournament, the SPRT and the ladder (it opens them); the
folder it opens is a lower room's (``referee.runfolder``), which the report
and the analysis use too. The command line (``referee.cli``) only parses
options and prints.
"""
