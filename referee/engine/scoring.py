"""What a played hand scores: one function, used by the game and by fast playouts alike."""

from __future__ import annotations

from collections.abc import Sequence

from referee.engine.bids import Bid, tricks_needed
from referee.engine.rules import Rules


def hand_points(rules: Rules, bid: Bid, declarer: int, taken: Sequence[int]) -> tuple[bool, tuple[int, ...]]:
    """(made, points per team) of a hand played under ``bid`` by ``declarer``, ``taken`` tricks per team.

    Defenders score a trick each when the rules say so. A made trick bid scores
    the tricks taken (or the level, without overtricks) plus the bonus; a set one
    loses the level (or the fixed penalty). A special bid wins or loses its value.
    """
    team = rules.team_of(declarer)
    made = taken[team] >= tricks_needed(bid, rules)
    points = [t if rules.defenders_score else 0 for t in taken]
    if bid.kind == "level":
        if made:
            points[team] = (taken[team] if rules.overtricks else bid.level) + rules.made_bonus
        else:
            points[team] = -(bid.level if rules.set_penalty is None else rules.set_penalty)
    else:
        value = rules.special_value(bid.kind)
        points[team] = value if made else -value
    return made, tuple(points)
