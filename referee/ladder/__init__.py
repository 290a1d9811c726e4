"""A standing ladder: bots live in the arena, new versions are placed fast, a page shows the ratings.

- ``settings``: its settings, the games' and its policy, declared once;
- ``database``: the database (SQLite, WAL) in the ladder's folder, its schema and queries: bots, versions,
  sets, games, ratings; ``backup``: ladder.json beside it, rewritten at every change of a version;
- ``policy``: what the ladder decides: new versions, retiring, what a finished game decides (validation,
  supersession, suspension), committed with the game;
- ``ratings``: openskill's model, one update per duplicate set, and the recomputation ``check`` compares;
  ``rate``: the rating step, a complete set's update;
- ``matchmaking``: the next set's versions, a pure function of the ladder's state and seed;
- ``setup``: making a ladder, adding and retiring versions;
- ``playing``: playing on tables (the games' driver and backends, ``referee.games``), recording each game as
  it ends;
- ``board``: what the standings and the page show; ``page``: the page, and its server;
- ``recover``: a database rebuilt from the games' logs.

docs/ladder.md is the user's guide.
"""
