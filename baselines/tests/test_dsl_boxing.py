"""Boxing: inside the box of each shape of a frame colour, the other cells turn one colour."""

from __future__ import annotations

import numpy as np
from dsl_rig import Cells, check_fitted, fit_input

from continual_arc_baselines.dsl.boxing import fit_boxpaint
from continual_arc_baselines.dsl.grid import Context
from continual_arc_baselines.dsl.ops import lookup

# Yellow corner shapes on black: the black cells inside each shape's box turn orange.
_DEMOS: list[tuple[Cells, Cells]] = [
    (
        [
            [4, 4, 0, 0, 0, 0],
            [4, 0, 0, 0, 0, 0],
            [0, 0, 0, 0, 0, 0],
            [0, 0, 0, 4, 4, 4],
            [0, 0, 0, 0, 0, 4],
        ],
        [
            [4, 4, 0, 0, 0, 0],
            [4, 7, 0, 0, 0, 0],
            [0, 0, 0, 0, 0, 0],
            [0, 0, 0, 4, 4, 4],
            [0, 0, 0, 7, 7, 4],
        ],
    ),
    (
        [
            [0, 0, 0, 0, 0],
            [0, 4, 0, 0, 0],
            [0, 4, 4, 0, 0],
            [0, 0, 0, 0, 0],
            [0, 0, 0, 0, 0],
        ],
        [
            [0, 0, 0, 0, 0],
            [0, 4, 7, 0, 0],
            [0, 4, 4, 0, 0],
            [0, 0, 0, 0, 0],
            [0, 0, 0, 0, 0],
        ],
    ),
]


def test_the_background_inside_each_frame_box_is_painted() -> None:
    test: Cells = [
        [0, 0, 0, 0, 0],
        [0, 4, 4, 4, 0],
        [0, 4, 0, 0, 0],
        [0, 4, 0, 0, 0],
        [0, 0, 0, 0, 0],
    ]
    answer: Cells = [
        [0, 0, 0, 0, 0],
        [0, 4, 4, 4, 0],
        [0, 4, 7, 7, 0],
        [0, 4, 7, 7, 0],
        [0, 0, 0, 0, 0],
    ]
    given = fit_input(_DEMOS, test)
    found = fit_boxpaint(given)
    assert found
    assert found[0].text == "boxpaint(8,bg){4>7}"
    check_fitted(found[0], given, answer)


def test_the_whole_colour_boxes_the_other_colours() -> None:
    # Every grey cell together spans one box; the blue cells in it turn green, those outside stay.
    op = lookup("boxpaint(c,fg){5>3}")
    assert op is not None
    grid = np.array(
        [[0, 5, 1, 0, 0, 0], [0, 1, 1, 5, 1, 0], [0, 0, 0, 0, 0, 0], [1, 0, 0, 0, 0, 0]], dtype=np.uint8
    )
    made = op(grid, Context(grid))
    assert made is not None
    assert made.tolist() == [[0, 5, 3, 0, 0, 0], [0, 3, 3, 5, 1, 0], [0, 0, 0, 0, 0, 0], [1, 0, 0, 0, 0, 0]]


def test_nothing_is_fitted_when_changes_leave_the_boxes() -> None:
    pairs: list[tuple[Cells, Cells]] = [
        ([[4, 4, 0, 0], [4, 0, 0, 0], [0, 0, 0, 0]], [[4, 4, 0, 0], [4, 7, 0, 7], [0, 0, 0, 0]]),
        ([[0, 0, 0, 0], [0, 4, 4, 0], [0, 4, 0, 0]], [[7, 0, 0, 0], [0, 4, 4, 0], [0, 4, 7, 0]]),
    ]
    assert fit_boxpaint(fit_input(pairs, [[4, 4, 0], [0, 4, 0], [0, 0, 0]])) == []
    assert lookup("boxpaint(5,bg){4>7}") is None
