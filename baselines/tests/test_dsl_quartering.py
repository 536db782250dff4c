"""Corners: four corner pieces put together, and a framed picture's quarters painted by corner marks."""

from __future__ import annotations

from dsl_rig import step_on


def test_four_corner_pieces_close_into_a_box() -> None:
    # Top-left 1 (2 x 3), top-right 2 (2 x 2), bottom-left 3 (2 x 3), bottom-right 4 (2 x 2).
    grid = [
        [0, 0, 0, 0, 0, 0, 0, 0, 0],
        [0, 1, 1, 1, 0, 0, 2, 2, 0],
        [0, 1, 0, 0, 0, 0, 0, 2, 0],
        [0, 0, 0, 0, 0, 0, 0, 0, 0],
        [0, 0, 0, 4, 0, 3, 0, 0, 0],
        [0, 0, 4, 4, 0, 3, 3, 3, 0],
        [0, 0, 0, 0, 0, 0, 0, 0, 0],
        [0, 0, 0, 0, 0, 0, 0, 0, 0],
        [0, 0, 0, 0, 0, 0, 0, 0, 0],
        [0, 0, 0, 0, 0, 0, 0, 0, 0],
    ]
    assert step_on("assemble{}", grid) == [
        [1, 1, 1, 2, 2],
        [1, 0, 0, 0, 2],
        [3, 0, 0, 0, 4],
        [3, 3, 3, 4, 4],
    ]


def test_pieces_that_do_not_close_are_not_assembled() -> None:
    # Two top-left pieces: no piece for the top-right corner.
    grid = [
        [1, 1, 0, 2, 2, 0],
        [1, 0, 0, 2, 0, 0],
        [0, 0, 0, 0, 0, 0],
        [0, 3, 0, 0, 0, 4],
        [0, 3, 3, 0, 4, 4],
    ]
    assert step_on("assemble{}", grid) is None


def test_quarters_take_their_corner_colours() -> None:
    # Corners 2, 3, 4, 6 outside a frame of 1; the picture's 8s take their quarter's corner colour.
    picture = [[8, 0, 0, 8], [0, 8, 0, 0], [0, 0, 8, 8], [8, 0, 0, 0]]
    grid = [
        [2, 0, 0, 0, 0, 0, 0, 3],
        [0, 1, 1, 1, 1, 1, 1, 0],
        *([0, 1, *row, 1, 0] for row in picture),
        [0, 1, 1, 1, 1, 1, 1, 0],
        [4, 0, 0, 0, 0, 0, 0, 6],
    ]
    assert step_on("quarters{}", grid) == [[2, 0, 0, 3], [0, 2, 0, 0], [0, 0, 6, 6], [4, 0, 0, 0]]
    # A gap in the frame: no frame, no quarters.
    grid[1][3] = 0
    assert step_on("quarters{}", grid) is None
