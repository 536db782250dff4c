"""Half bars: the half of each bar nearer the side it stands on (`dsl.halfbars`)."""

from __future__ import annotations

from dsl_rig import cells

from continual_arc_baselines.dsl.grid import Context
from continual_arc_baselines.dsl.ops import WIDE

_STEP = WIDE.by_text["halfbar"]


def test_halfbar_reads_each_bars_side() -> None:
    # A red bar reaching in from the left (3 cells: 1 labelled), a green one standing on the
    # bottom (3 cells: 1 labelled); the grey block is no bar.
    grid = cells(
        [
            [0, 0, 0, 0, 0],
            [2, 2, 2, 0, 0],
            [0, 0, 0, 0, 3],
            [0, 5, 5, 0, 3],
            [0, 5, 5, 0, 3],
        ]
    )
    made = _STEP(grid, Context(grid))
    assert made is not None
    assert made.tolist() == [
        [0, 0, 0, 0, 0],
        [11, 2, 2, 0, 0],
        [0, 0, 0, 0, 3],
        [0, 5, 5, 0, 3],
        [0, 5, 5, 0, 11],
    ]


def test_halfbar_labels_half_of_a_long_bar_hanging_from_the_top() -> None:
    grid = cells([[0, 4, 0], [0, 4, 0], [0, 4, 0], [0, 4, 0], [0, 0, 0]])
    made = _STEP(grid, Context(grid))
    assert made is not None
    assert made[:, 1].tolist() == [11, 11, 4, 4, 0]


def test_halfbar_needs_a_bar_on_one_side() -> None:
    # A row across the whole grid touches two sides; a floating bar touches none.
    grid = cells([[0, 0, 0, 0], [6, 6, 6, 6], [0, 0, 0, 0], [0, 7, 7, 0], [0, 0, 0, 0]])
    assert _STEP(grid, Context(grid)) is None
