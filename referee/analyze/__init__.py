"""``arena analyze``: what each decision of a logged game cost, judged from the deciding seat's view alone.

- ``evaluate``: one decision's choices valued over worlds the seat could not
  tell apart, the loss of the choice taken, and the luck of a dealt hand;
- ``grades``: inaccuracy, mistake and blunder, by the low end of the loss's interval;
- ``plan``: a log replayed into the views of the chosen seats, hand by hand;
- ``spread``: the hands analysed here, on worker processes or on Ray;
- ``summary``: the records, and what they add up to per game and per bot;
- ``driver``: the logs found, the seats chosen, the whole run;
- ``html``: what the replay page shows of it;
- ``calibration``: the analysis checked against the true deals (for ``bench/``).

Docs: docs/analyze.md.
"""
