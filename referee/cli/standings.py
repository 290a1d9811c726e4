"""The standings table of ``arena tournament``, laid out to fit the width it is printed at.

Rich shrinks a table wider than the console by cutting its cells ("monteca…")
and wrapping its headers; in an 80-column terminal that cut the bot names (on
a pipe the console is as wide as the table: ``ArenaConsole``). Instead the table
takes the first of a few layouts, from the widest, that fits: the full one;
then without the outer border and with wins, draws and losses in one column
(``W-D-L``); then with a space only before each cell; then with none. No
cell is cut while one of them fits, and a header never wraps.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from rich.console import Console
from rich.measure import Measurement
from rich.table import Table

from referee.games.standings import RANKING, Standing
from referee.names import shown_name


@dataclass(frozen=True)
class Layout:
    edge: bool  # the outer border
    merged: bool  # W, D and L in one column
    padding: tuple[int, int, int, int]  # spaces around each cell: top, right, bottom, left


_UNBOUNDED = 10_000
LAYOUTS = (
    Layout(edge=True, merged=False, padding=(0, 1, 0, 1)),
    Layout(edge=False, merged=True, padding=(0, 1, 0, 1)),
    Layout(edge=False, merged=True, padding=(0, 0, 0, 1)),
    Layout(edge=False, merged=True, padding=(0, 0, 0, 0)),
)


# the headers of a format's own figures (``Standing.extra``)
EXTRA_HEADERS = {"swiss_score": "score", "buchholz": "Buchholz", "sonneborn_berger": "S-B", "round_reached": "round"}


def standings_table(title: str, rows: Sequence[Standing], console: Console, caption: str = RANKING) -> Table:
    """The standings, in the widest layout that fits ``console``'s width (the narrowest when none does)."""
    unbounded = console.options.update_width(_UNBOUNDED)  # a table measured within a width is cut to it
    table = _table(title, rows, LAYOUTS[0], caption)
    for layout in LAYOUTS:
        table = _table(title, rows, layout, caption)
        if Measurement.get(console, unbounded, table).maximum <= console.width:
            break
    return table


def _table(title: str, rows: Sequence[Standing], layout: Layout, caption: str) -> Table:
    table = Table(
        title=title,
        caption=caption,
        show_edge=layout.edge,
        padding=layout.padding,
    )
    results = ("W-D-L",) if layout.merged else ("W", "D", "L")
    extra = [EXTRA_HEADERS.get(name, name) for name, _ in rows[0].extra] if rows else []
    for col in ("#", "bot", *extra, "games", *results, "pts/hand", "Elo", "±95%", "faults", "ms mean/max"):
        table.add_column(col, justify="left" if col == "bot" else "right", no_wrap=True)
    for rank, r in enumerate(rows, start=1):
        wdl = (f"{r.wins}-{r.draws}-{r.losses}",) if layout.merged else (str(r.wins), str(r.draws), str(r.losses))
        table.add_row(
            str(rank),
            shown_name(r.bot),
            *(f"{value:g}" for _, value in r.extra),
            str(r.games),
            *wdl,
            f"{r.points_per_hand:.2f}",
            f"{round(r.elo):+d}",
            f"{r.elo_error:.0f}",
            str(r.violations),
            f"{r.think.mean_ms:.0f}/{r.think.max_ms}",
        )
    return table
