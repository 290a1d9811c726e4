"""Frozen versions: a bot's files as an immutable tree, stored by the canonical hash of its content.

- ``tree``: a tree's entries, every path checked, the limits counted as the files come, the canonical hash;
- ``archive``: a bot's folder packed as a tar.gz (on the author's machine) and unpacked, checked, on the server;
- ``store``: the store of frozen trees, each written whole or not at all.

A low room: it imports nothing of the arena but ``referee.errors``, so the ladder and the club can both use it.
"""
