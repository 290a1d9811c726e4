"""A standing ladder: bots live in the arena, new versions are placed fast, a page shows the ratings.

- ``store``: the database (SQLite, WAL) in the ladder's folder: bots, versions, sets, games, ratings;
- ``ratings``: openskill's model, one update per duplicate set, and the recomputation ``check`` compares;
- ``matchmaking``: the next set's versions, a pure function of the ladder's state and seed;
- ``setup``: making a ladder, adding and retiring versions;
- ``run``: playing on tables (the tournament's driver and backends), recording each game as it ends;
- ``board``: what the standings and the page show; ``page``: the page, and its server;
- ``recover``: a database rebuilt from the games' logs.

docs/ladder.md is the user's guide.
"""
