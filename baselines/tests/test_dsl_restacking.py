"""Restacking: the partly hidden solid shape drawn whole, over the shape that hid it."""

from __future__ import annotations

import numpy as np
from dsl_rig import digits

from continual_arc_baselines.dsl import search
from continual_arc_baselines.dsl.grid import Context
from continual_arc_baselines.dsl.ops import CORE, WIDE, lookup

Cells = list[list[int]]


def _run(cells: Cells) -> Cells | None:
    op = lookup("restack")
    assert op is not None
    a = np.array(cells, dtype=np.uint8)
    out = op(a, Context(a))
    return None if out is None else out.tolist()


def test_restack_is_added_to_wide() -> None:
    assert "restack" in WIDE.by_text
    assert "restack" not in CORE.by_text


def test_the_bar_underneath_crosses_over() -> None:
    # The vertical 2-bar lies on top of the horizontal 3-bar; the 3-bar comes up.
    crossing: Cells = [
        [0, 2, 0, 0],
        [3, 2, 3, 3],
        [0, 2, 0, 0],
        [0, 2, 0, 0],
    ]
    assert _run(crossing) == [
        [0, 2, 0, 0],
        [3, 3, 3, 3],
        [0, 2, 0, 0],
        [0, 2, 0, 0],
    ]


def test_a_rectangle_overlapped_at_its_corner_is_filled_in() -> None:
    # The 4-rectangle (rows 0-2, cols 2-4) lies under the 1-rectangle's corner.
    grid: Cells = [
        [0, 0, 4, 4, 4, 0, 0],
        [1, 1, 1, 4, 4, 0, 0],
        [1, 1, 1, 4, 4, 0, 0],
        [1, 1, 1, 0, 0, 0, 0],
        [0, 0, 0, 0, 0, 0, 0],
        [0, 0, 0, 0, 0, 0, 0],
    ]
    assert _run(grid) == [
        [0, 0, 4, 4, 4, 0, 0],
        [1, 1, 4, 4, 4, 0, 0],
        [1, 1, 4, 4, 4, 0, 0],
        [1, 1, 1, 0, 0, 0, 0],
        [0, 0, 0, 0, 0, 0, 0],
        [0, 0, 0, 0, 0, 0, 0],
    ]


def test_a_diagonal_under_a_blob_comes_through() -> None:
    # The 5-diagonal runs from (0,0) to (4,4); the 6-triangle (not solid: its box holds
    # background) hides (2,2) and (3,3) and is never redrawn itself.
    grid: Cells = [
        [5, 0, 0, 0, 0],
        [0, 5, 0, 0, 0],
        [0, 6, 6, 0, 0],
        [0, 6, 6, 6, 0],
        [0, 0, 0, 0, 5],
    ]
    assert _run(grid) == [
        [5, 0, 0, 0, 0],
        [0, 5, 0, 0, 0],
        [0, 6, 5, 0, 0],
        [0, 6, 6, 5, 0],
        [0, 0, 0, 0, 5],
    ]


def test_nothing_hidden_or_an_outline_does_not_apply() -> None:
    # Two bars side by side hide nothing.
    assert _run([[0, 0, 0], [2, 0, 3], [2, 0, 3]]) is None
    # A hollow frame around a dot: the frame's box holds background, so it claims nothing.
    frame: Cells = [
        [1, 1, 1, 1, 0, 0],
        [1, 0, 2, 1, 0, 0],
        [1, 0, 0, 1, 0, 0],
        [1, 1, 1, 1, 0, 0],
        [0, 0, 0, 0, 0, 0],
        [0, 0, 0, 0, 0, 0],
    ]
    assert _run(frame) is None


def test_two_shapes_claiming_one_cell_do_not_apply() -> None:
    # A 7-bar and an 8-bar both pass under the 9-square at (1,1): which is lower is not shown.
    grid: Cells = [
        [0, 8, 0],
        [7, 9, 7],
        [0, 8, 0],
    ]
    assert _run(grid) is None


def test_the_search_finds_restack_on_crossings() -> None:
    train = [
        (
            digits("0100", "2222", "0100", "0100"),
            digits("0100", "2122", "0100", "0100"),
        ),
        (
            digits("00300", "00300", "44344", "00300"),
            digits("00300", "00300", "44444", "00300"),
        ),
    ]
    test_in = digits("050", "666", "050", "050")
    result = search(train, test_in, catalogue=WIDE)
    assert result.candidates
    first = result.candidates[0]
    assert first.prediction == digits("050", "656", "050", "050")
