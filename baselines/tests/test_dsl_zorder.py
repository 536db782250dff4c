"""Layer order: the colours of overlapping lines and outlines, bottom layer first."""

from __future__ import annotations

from dsl_rig import cells

from continual_arc_baselines.dsl.grid import Context
from continual_arc_baselines.dsl.ops import CORE, WIDE
from continual_arc_baselines.dsl.zorder import LAYOUTS, layer_order


def test_a_crossing_shows_the_top_line() -> None:
    # A red column drawn over a grey row: grey is the bottom layer.
    grid = cells(
        [
            [0, 0, 2, 0, 0],
            [0, 0, 2, 0, 0],
            [5, 5, 2, 5, 5],
            [0, 0, 2, 0, 0],
            [0, 0, 2, 0, 0],
        ]
    )
    assert layer_order(grid, 0) == [5, 2]
    row = WIDE.by_text["zorder(row)"](grid, Context(grid))
    column = WIDE.by_text["zorder(col)"](grid, Context(grid))
    assert row is not None and row.tolist() == [[5, 2]]
    assert column is not None and column.tolist() == [[5], [2]]


def test_outlines_nest_as_rings() -> None:
    # A yellow square outline laid over a green one: it hides two of green's border cells.
    grid = cells(
        [
            [3, 3, 3, 3, 0, 0],
            [3, 0, 0, 3, 0, 0],
            [3, 0, 4, 4, 4, 4],
            [3, 3, 4, 3, 0, 4],
            [0, 0, 4, 0, 0, 4],
            [0, 0, 4, 4, 4, 4],
        ]
    )
    assert layer_order(grid, 0) == [3, 4]
    made = WIDE.by_text["zorder(rings)"](grid, Context(grid))
    assert made is not None and made.tolist() == [[3, 3, 3], [3, 4, 3], [3, 3, 3]]


def test_lines_that_never_meet_have_no_order() -> None:
    grid = cells([[1, 1, 1, 1], [0, 0, 0, 0], [2, 2, 2, 2]])
    assert layer_order(grid, 0) is None
    assert WIDE.by_text["zorder(row)"](grid, Context(grid)) is None


def test_the_steps_are_added_to_wide() -> None:
    for how in LAYOUTS:
        assert f"zorder({how})" in WIDE.by_text and f"zorder({how})" not in CORE.by_text
