"""Cell ends: in a grid cut into cells by lines, the first, middle and last cells are marked.

Separator lines (`parts.separator_lines`, here of any colour: the lines may be commoner than the
background of the cells) cut the grid into rows and columns of cells. The cell
in the first row and column, the one in the middle row and column, and the one in the last row
and column are painted whole with three labels (`TRUE`, then the next two), which a fitted colour
map names: the diagonal of the layout read at its two ends and its centre. The step does not
apply unless the cells form an odd number of rows and an odd number of columns, at least three
of each, so the middle is one cell.
"""

from __future__ import annotations

from .family import Family, Prim, on_colours
from .grid import SENTINEL, TRUE, Array
from .parts import runs, separator_lines

__all__ = ["FAMILIES", "cellends"]


def cellends(a: Array) -> Array | None:
    """``a`` with its first, middle and last cells labelled (see the module), or ``None``."""
    rows, cols = separator_lines(a, SENTINEL)  # no colour is ruled out as the lines'
    if rows is None or cols is None:
        return None
    row_runs, col_runs = runs(rows), runs(cols)
    if min(len(row_runs), len(col_runs)) < 3 or len(row_runs) % 2 == 0 or len(col_runs) % 2 == 0:
        return None
    out = a.copy()
    picks = ((0, 0), (len(row_runs) // 2, len(col_runs) // 2), (len(row_runs) - 1, len(col_runs) - 1))
    for label, (r, c) in enumerate(picks, start=TRUE):
        (top, bottom), (left, right) = row_runs[r], col_runs[c]
        out[top:bottom, left:right] = label
    return out


def _cellends() -> Prim:
    return on_colours(lambda a, bg: cellends(a))


FAMILIES: tuple[Family, ...] = (
    Family(
        "cellends",
        (),
        3,
        _cellends,
        "label the first, middle and last cells of a grid of cells",
        "same",
    ),
)
"""The family of this module: ``cellends``."""
