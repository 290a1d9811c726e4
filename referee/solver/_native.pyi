"""Types of the compiled module (module.cpp); referee.solver is its interface."""

from collections.abc import Sequence
from typing import Any

class Solver:
    copies: int
    trump: int | None
    def __init__(
        self, suits: Sequence[int], keys: Sequence[Sequence[int]], copies: int, table_bits: int = ...
    ) -> None: ...
    def solve(
        self,
        mode: int,
        worlds: Sequence[Sequence[Sequence[int]]],
        seats: int,
        active: Sequence[int],
        to_act: int,
        trick: Sequence[int],
        side: Sequence[int],
        node_limit: int,
    ) -> tuple[list[Any], int]: ...
