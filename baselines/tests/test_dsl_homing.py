"""Homing: every object slides to the border wall of its own colour."""

from __future__ import annotations

from dsl_rig import Cells, assert_added_to_wide, step_on


def test_home_is_added_to_wide() -> None:
    assert_added_to_wide("home(drop)", "home(keep)")


# A red wall on the left, a green wall on the right; a red dot, a green bar and a stray blue dot.
_GRID: Cells = [
    [0, 0, 0, 0, 0, 0, 0],
    [2, 0, 0, 3, 0, 0, 3],
    [2, 0, 0, 3, 0, 0, 3],
    [2, 0, 0, 0, 2, 0, 3],
    [2, 0, 1, 0, 0, 0, 3],
    [0, 0, 0, 0, 0, 0, 0],
]


def test_objects_go_to_the_wall_of_their_colour() -> None:
    # The red dot slides left against the red wall, the green bar right against the green one;
    # the blue dot has no wall: dropped, or kept where it is.
    assert step_on("home(drop)", _GRID) == [
        [0, 0, 0, 0, 0, 0, 0],
        [2, 0, 0, 0, 0, 3, 3],
        [2, 0, 0, 0, 0, 3, 3],
        [2, 2, 0, 0, 0, 0, 3],
        [2, 0, 0, 0, 0, 0, 3],
        [0, 0, 0, 0, 0, 0, 0],
    ]
    kept = step_on("home(keep)", _GRID)
    assert kept is not None and kept[4] == [2, 0, 1, 0, 0, 0, 3]


def test_objects_stack_against_those_at_rest() -> None:
    # Two yellow dots in one column under a yellow ceiling: the nearer rests first, the other on it.
    grid: Cells = [
        [4, 4, 4, 4],
        [0, 0, 0, 0],
        [0, 4, 0, 0],
        [0, 0, 0, 0],
        [0, 4, 0, 0],
    ]
    assert step_on("home(drop)", grid) == [
        [4, 4, 4, 4],
        [0, 4, 0, 0],
        [0, 4, 0, 0],
        [0, 0, 0, 0],
        [0, 0, 0, 0],
    ]


def test_no_wall_or_two_walls_of_one_colour_do_not_apply() -> None:
    no_wall: Cells = [[0, 0, 0, 0], [0, 2, 0, 0], [0, 0, 0, 0]]
    assert step_on("home(drop)", no_wall) is None
    twice: Cells = [[0, 5, 5, 0], [0, 0, 0, 0], [0, 0, 5, 0], [0, 0, 0, 0], [0, 5, 5, 0]]
    assert step_on("home(drop)", twice) is None
