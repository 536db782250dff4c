"""Segment spans: every straight bar carried across the whole grid along its axis."""

from __future__ import annotations

from dsl_rig import Cells, assert_added_to_wide, step_on


def test_segspan_is_added_to_wide() -> None:
    assert_added_to_wide("segspan(vh)", "segspan(hv)")


# A vertical red stub in column 1, a horizontal green stub in row 3, a lone blue dot.
_GRID: Cells = [
    [0, 0, 0, 0, 0],
    [0, 2, 0, 0, 1],
    [0, 2, 0, 0, 0],
    [0, 0, 0, 3, 3],
    [0, 0, 0, 0, 0],
]


def test_bars_span_the_grid_and_the_order_decides_crossings() -> None:
    # Rows drawn last win the crossing (vh); the dot stays a dot.
    assert step_on("segspan(vh)", _GRID) == [
        [0, 2, 0, 0, 0],
        [0, 2, 0, 0, 1],
        [0, 2, 0, 0, 0],
        [3, 3, 3, 3, 3],
        [0, 2, 0, 0, 0],
    ]
    # Columns drawn last win it (hv).
    spanned = step_on("segspan(hv)", _GRID)
    assert spanned is not None and spanned[3] == [3, 2, 3, 3, 3]


def test_no_bar_does_not_apply() -> None:
    # Dots and a 2 x 2 block: nothing one cell thick and two long.
    grid: Cells = [[1, 0, 0, 0], [0, 0, 4, 4], [0, 0, 4, 4], [0, 6, 0, 0]]
    assert step_on("segspan(vh)", grid) is None
