"""``arena play``: a person at the table, in the terminal, against bots.

- ``table``: runs the match (the referee, the bots, the log) and starts the
  person's client on the terminal;
- ``human``: the client, an SDK bot that asks the person at every decision;
- ``screen``: what the client draws, from the seat's view alone.
"""
