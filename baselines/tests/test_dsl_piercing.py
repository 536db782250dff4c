"""Piercing: lone border markers shoot lines across the grid, as gaps through their own colour."""

from __future__ import annotations

from dsl_rig import Cells, assert_added_to_wide, digits, step_on


def test_pierce_is_added_to_wide() -> None:
    assert_added_to_wide("pierce")


def test_a_line_is_drawn_over_others_and_gapped_through_its_own_colour() -> None:
    # A red marker atop column 1 and a green one atop column 3; a red block and a green block below.
    grid: Cells = [
        [0, 2, 0, 3, 0],
        [0, 0, 0, 0, 0],
        [0, 2, 2, 3, 3],
        [0, 2, 2, 3, 3],
        [0, 0, 0, 0, 0],
    ]
    assert step_on("pierce", grid) == [
        [0, 2, 0, 3, 0],
        [0, 2, 0, 3, 0],
        [0, 0, 2, 0, 3],
        [0, 0, 2, 0, 3],
        [0, 2, 0, 3, 0],
    ]


def test_a_region_touching_the_border_is_no_marker() -> None:
    # The blue cell on the top row is the end of a blue bar running down: nothing to shoot.
    grid: Cells = [[0, 1, 0, 0], [0, 1, 0, 0], [0, 1, 0, 0], [0, 0, 0, 0]]
    assert step_on("pierce", grid) is None


def _rows(*rows: str) -> list[list[int]]:
    return [list(row) for row in digits(*rows)]


def test_the_steps_are_in_wide() -> None:
    assert_added_to_wide("pierce(rim)")


def test_a_marker_against_its_own_region_shoots_through_it() -> None:
    grid = _rows("00200", "00220", "00000", "03330", "00000")
    # Column 2: the marker stays, its own colour turns background, everything else turns 2.
    assert step_on("pierce(rim)", grid) == _rows("00200", "00020", "00200", "03230", "00200")
    # The strict reading takes the cell for a region's edge: no marker, no answer.
    assert step_on("pierce", grid) is None


def test_a_run_along_the_border_is_no_rim_marker() -> None:
    assert step_on("pierce(rim)", _rows("02200", "00000", "00000", "00000")) is None
