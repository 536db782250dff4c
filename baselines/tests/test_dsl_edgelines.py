"""Edge lines: a colour's facing border cells joined by full lines, the clutter cleared or kept."""

from __future__ import annotations

import numpy as np

from continual_arc_baselines.dsl.grid import Context
from continual_arc_baselines.dsl.ops import CORE, WIDE, lookup

Cells = list[list[int]]


def _run(text: str, cells: Cells) -> Cells | None:
    op = lookup(text)
    assert op is not None
    a = np.array(cells, dtype=np.uint8)
    out = op(a, Context(a))
    return None if out is None else out.tolist()


# 3 faces itself across row 2 and across column 3; 5 sits on the border but faces nothing,
# 4 lies inside. Only 3 is a marker colour.
_GRID: Cells = [
    [0, 0, 0, 3, 0, 5],
    [0, 4, 0, 0, 0, 0],
    [3, 0, 0, 0, 4, 3],
    [0, 0, 5, 0, 0, 0],
    [0, 0, 0, 3, 0, 0],
]


def test_edgelines_is_added_to_wide() -> None:
    for text in ("edgelines(clear)", "edgelines(keep)"):
        assert text in WIDE.by_text
        assert text not in CORE.by_text


def test_facing_cells_are_joined_on_a_cleared_grid() -> None:
    assert _run("edgelines(clear)", _GRID) == [
        [0, 0, 0, 3, 0, 0],
        [0, 0, 0, 3, 0, 0],
        [3, 3, 3, 3, 3, 3],
        [0, 0, 0, 3, 0, 0],
        [0, 0, 0, 3, 0, 0],
    ]


def test_facing_cells_are_joined_over_the_grid() -> None:
    assert _run("edgelines(keep)", _GRID) == [
        [0, 0, 0, 3, 0, 5],
        [0, 4, 0, 3, 0, 0],
        [3, 3, 3, 3, 3, 3],
        [0, 0, 5, 3, 0, 0],
        [0, 0, 0, 3, 0, 0],
    ]


def test_a_marker_colour_seen_inside_or_unpaired_is_none() -> None:
    # 3 also lies inside the grid: it is not a marker colour, and no other colour is.
    inside: Cells = [row[:] for row in _GRID]
    inside[1][1] = 3
    assert _run("edgelines(clear)", inside) is None
    # 3's left cell on row 2 lost its partner on the right.
    unpaired: Cells = [row[:] for row in _GRID]
    unpaired[2][5] = 0
    assert _run("edgelines(clear)", unpaired) is None


def test_two_colours_crossing_do_not_apply() -> None:
    grid: Cells = [
        [0, 0, 6, 0, 0],
        [0, 0, 0, 0, 0],
        [7, 0, 0, 0, 7],
        [0, 0, 0, 0, 0],
        [0, 0, 6, 0, 0],
    ]
    assert _run("edgelines(clear)", grid) is None
